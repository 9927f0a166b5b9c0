#include "gtp_reply.h"

#include <algorithm>
#include <cctype>

namespace tengen::bridge {

namespace {

std::string_view trim(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string shorten(std::string_view s) {
  std::string out(trim(s.substr(0, 60)));
  std::replace(out.begin(), out.end(), '\n', ' ');
  return s.size() > 60 ? out + "..." : out;
}

}  // namespace

void GtpReplyReader::feed(std::string_view bytes) {
  for (char c : bytes) {
    if (c != '\r') buffer_ += c;  // CR LF line ends from some engines
  }
}

std::optional<GtpReply> GtpReplyReader::next() {
  // Blank lines between responses are not part of either.
  const auto start = buffer_.find_first_not_of('\n');
  if (start == std::string::npos) {
    buffer_.clear();
    return std::nullopt;
  }
  if (buffer_[start] != '=' && buffer_[start] != '?') {
    throw GtpGarbage("not a GTP response: '" + shorten(std::string_view(buffer_).substr(start)) +
                     "'");
  }
  const auto end = buffer_.find("\n\n", start);
  if (end == std::string::npos) {
    if (buffer_.size() > kMaxReplyBytes) throw GtpGarbage("a response of more than 1 MiB");
    return std::nullopt;
  }
  std::string_view reply = std::string_view(buffer_).substr(start, end - start);
  GtpReply out;
  out.ok = reply.front() == '=';
  reply.remove_prefix(1);
  while (!reply.empty() && std::isdigit(static_cast<unsigned char>(reply.front())))
    reply.remove_prefix(1);
  out.text = std::string(trim(reply));
  buffer_.erase(0, end + 2);
  return out;
}

std::vector<std::string> split_vertices(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  for (char c : std::string(text) + ' ') {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

}  // namespace tengen::bridge
