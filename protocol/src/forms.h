#pragma once

// What the HTTP API's forms share when they read a body (group_api.cpp, simul_api.cpp): a failure
// in words, text lengths in characters, control characters, trimming, a JSON object. Internal to
// the protocol library.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace tengen::protocol::http::forms {

template <class T>
std::variant<T, std::string> fail(std::string why) {
  return std::variant<T, std::string>(std::in_place_index<1>, std::move(why));
}

// Characters, not bytes (UTF-8), for the bounds players read.
inline std::size_t characters(std::string_view text) {
  std::size_t n = 0;
  for (const unsigned char c : text)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

inline bool control_in(std::string_view text, bool newlines_allowed) {
  for (const unsigned char c : text)
    if ((c < 0x20 && !(newlines_allowed && c == '\n')) || c == 0x7F) return true;
  return false;
}

inline std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

inline std::optional<nlohmann::json> object_of(std::string_view body) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

}  // namespace tengen::protocol::http::forms
