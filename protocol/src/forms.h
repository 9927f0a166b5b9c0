#pragma once

// What the HTTP API's forms share when they read a body (group_api.cpp, simul_api.cpp): a failure
// in words, text lengths in characters, control characters, trimming, a JSON object. Internal to
// the protocol library.
#include <cstddef>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "protocol/codec.h"

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

// An event's name (field 'name' of `j`, trimmed): 1 to `most` characters without control
// characters. The error in words, or nullopt with `out` set.
inline std::optional<std::string> read_name(const nlohmann::json& j, std::size_t most,
                                            std::string_view what, std::string& out) {
  if (!j.contains("name") || !j["name"].is_string()) return "missing field 'name'";
  out = trimmed(j["name"].get<std::string>());
  const auto n = characters(out);
  if (n < 1 || n > most || control_in(out, false))
    return std::string(what) + "'s name has 1 to " + std::to_string(most) +
           " characters, no control characters";
  return std::nullopt;
}

// An event's game settings (field 'settings' of `j`), as a challenge's but without the fields
// `not_for` names, each refused by name: "field 'settings.rated' is not for `what`: `why`". The
// error in words, or nullopt with `out` set (not yet validated: the event sets its colours).
inline std::optional<std::string> read_event_settings(const nlohmann::json& j,
                                                      std::initializer_list<const char*> not_for,
                                                      std::string_view what, std::string_view why,
                                                      GameSettings& out) {
  if (!j.contains("settings") || !j["settings"].is_object())
    return "missing field 'settings': the games' settings";
  const auto& given = j["settings"];
  for (const char* no : not_for)
    if (given.contains(no))
      return "field 'settings." + std::string(no) + "' is not for " + std::string(what) + ": " +
             std::string(why);
  auto decoded = decode_settings(given.dump());
  if (const auto* bad = std::get_if<std::string>(&decoded)) return *bad;
  out = std::get<GameSettings>(decoded);
  return std::nullopt;
}

// A user in an answer: {"id", "name"}.
inline nlohmann::json user_json(const UserRef& u) {
  return nlohmann::json{{"id", u.id}, {"name", u.name}};
}

inline std::optional<nlohmann::json> object_of(std::string_view body) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

}  // namespace tengen::protocol::http::forms
