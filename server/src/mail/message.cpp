#include "mail/message.h"

#include <sodium.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace tengen::mail {

std::optional<std::string> address_problem(std::string_view a) {
  if (a.empty()) return "the address is empty";
  if (a.size() > 254) return "an address has at most 254 characters";
  for (const char c : a) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7f || c == '<' || c == '>' || c == '(' || c == ')' || c == ',' ||
        c == ';' || c == ':' || c == '"' || c == '\\' || c == '[' || c == ']')
      return "an address has no spaces, brackets, quotes or punctuation such as , ; :";
  }
  const auto at = a.find('@');
  if (at == std::string_view::npos || a.find('@', at + 1) != std::string_view::npos)
    return "an address has exactly one @";
  const auto local = a.substr(0, at);
  const auto domain = a.substr(at + 1);
  if (local.empty() || local.size() > 64) return "the part before @ must have 1 to 64 characters";
  const auto dot = domain.find('.');
  if (domain.empty() || dot == std::string_view::npos || dot == 0 || domain.back() == '.' ||
      domain.find("..") != std::string_view::npos)
    return "the part after @ must be a domain name such as example.org";
  return std::nullopt;
}

std::string bare_address(std::string_view from) {
  const auto open = from.rfind('<');
  const auto close = from.rfind('>');
  if (open != std::string_view::npos && close != std::string_view::npos && close > open)
    return std::string(from.substr(open + 1, close - open - 1));
  return std::string(from);
}

std::string quoted_printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  std::size_t line_start = 0;  // in out
  const auto soft_break_if = [&](std::size_t adding) {
    if (out.size() - line_start + adding > 75) {
      out += "=\r\n";
      line_start = out.size();
    }
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\r\n";
      line_start = out.size();
      continue;
    }
    if (c == '\r') continue;
    const bool at_line_end = i + 1 == text.size() || text[i + 1] == '\n';
    // Printable ASCII stands as it is, except '=', and a space or tab that ends a line.
    const bool plain =
        (c >= 33 && c <= 126 && c != '=') || ((c == ' ' || c == '\t') && !at_line_end);
    if (plain) {
      soft_break_if(1);
      out += static_cast<char>(c);
    } else {
      soft_break_if(3);
      out += '=';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string header_text(std::string_view text) {
  bool plain = true;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7e) plain = false;
  }
  if (plain) return std::string(text);
  // UTF-8 split into encoded words of at most 45 bytes each (60 base64 characters), never inside
  // a character.
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t n = std::min<std::size_t>(45, text.size() - i);
    while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) --n;
    std::string b64(sodium_base64_encoded_len(n, sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(b64.data(), b64.size(),
                      reinterpret_cast<const unsigned char*>(text.data() + i), n,
                      sodium_base64_VARIANT_ORIGINAL);
    b64.resize(b64.size() - 1);  // the terminating NUL
    if (!out.empty()) out += "\r\n ";
    out += "=?UTF-8?B?" + b64 + "?=";
    i += n;
  }
  return out;
}

std::string rfc5322_date(std::int64_t unix_ms) {
  const std::time_t t = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  static constexpr std::array<const char*, 7> kDays = {"Sun", "Mon", "Tue", "Wed",
                                                       "Thu", "Fri", "Sat"};
  static constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%s, %02d %s %04d %02d:%02d:%02d +0000", kDays[tm.tm_wday],
                tm.tm_mday, kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
  return buffer;
}

std::string compose(const Message& m) {
  std::string out;
  const auto header = [&out](std::string_view name, std::string_view value) {
    out.append(name).append(": ").append(value).append("\r\n");
  };
  header("From", m.from);
  header("To", m.to);
  header("Subject", header_text(m.subject));
  header("Date", rfc5322_date(m.date_ms));
  header("Message-ID", "<" + m.message_id + ">");
  header("MIME-Version", "1.0");
  header("Content-Type", "text/plain; charset=utf-8");
  header("Content-Transfer-Encoding", "quoted-printable");
  header("Auto-Submitted", "auto-generated");  // RFC 3834: no auto-replies to it
  if (!m.unsubscribe_url.empty()) {
    header("List-Unsubscribe", "<" + m.unsubscribe_url + ">");
    header("List-Unsubscribe-Post", "List-Unsubscribe=One-Click");  // RFC 8058
  }
  out += "\r\n";
  out += quoted_printable(m.body);
  if (!out.ends_with("\r\n")) out += "\r\n";
  return out;
}

}  // namespace tengen::mail
