#include "protocol/push_api.h"

#include <nlohmann/json.hpp>

namespace tengen::protocol::http {
namespace {

using json = nlohmann::json;

constexpr std::size_t kMaxEndpoint = 1024;
constexpr std::size_t kMaxKey = 128;  // base64url of a 65-byte point is 87 characters

bool text(const json& v, std::size_t max) {
  return v.is_string() && !v.get_ref<const std::string&>().empty() &&
         v.get_ref<const std::string&>().size() <= max;
}

}  // namespace

std::string encode_push_key(bool enabled, std::string_view key) {
  return json{{"enabled", enabled}, {"key", key}}.dump();
}

std::variant<PushSubscribe, std::string> decode_push_subscribe(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::string("the body must be a JSON object");
  PushSubscribe s;
  bool keys = false;
  for (const auto& [key, value] : j.items()) {
    if (key == "endpoint") {
      if (!text(value, kMaxEndpoint))
        return std::string("field 'endpoint' must be a URL of at most 1024 characters");
      s.endpoint = value.get<std::string>();
    } else if (key == "expirationTime") {
      if (!value.is_null() && !value.is_number())
        return std::string("field 'expirationTime' must be a number or null");
    } else if (key == "keys") {
      if (!value.is_object() || value.size() != 2 || !value.contains("p256dh") ||
          !value.contains("auth") || !text(value["p256dh"], kMaxKey) ||
          !text(value["auth"], kMaxKey))
        return std::string("field 'keys' must be {\"p256dh\": \"...\", \"auth\": \"...\"}");
      s.p256dh = value["p256dh"].get<std::string>();
      s.auth = value["auth"].get<std::string>();
      keys = true;
    } else if (key == "your_move" || key == "game_start" || key == "round_start" ||
               key == "opponent_back") {
      if (!value.is_boolean()) return "field '" + key + "' must be true or false";
      (key == "your_move"     ? s.your_move
       : key == "game_start"  ? s.game_start
       : key == "round_start" ? s.round_start
                              : s.opponent_back) = value.get<bool>();
    } else {
      return "unknown field '" + key + "'";
    }
  }
  if (s.endpoint.empty()) return std::string("missing field 'endpoint'");
  if (!keys) return std::string("missing field 'keys'");
  return s;
}

std::variant<std::string, std::string> decode_push_endpoint(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  const auto fail = [](std::string why) {
    return std::variant<std::string, std::string>(std::in_place_index<1>, std::move(why));
  };
  if (j.is_discarded() || !j.is_object()) return fail("the body must be a JSON object");
  for (const auto& [key, value] : j.items())
    if (key != "endpoint") return fail("unknown field '" + key + "'");
  if (!j.contains("endpoint") || !text(j["endpoint"], kMaxEndpoint))
    return fail("field 'endpoint' must be a URL of at most 1024 characters");
  return std::variant<std::string, std::string>(std::in_place_index<0>,
                                                j["endpoint"].get<std::string>());
}

std::string encode_push_device(const PushDeviceView& v) {
  return json{{"subscribed", v.subscribed},
              {"your_move", v.your_move},
              {"game_start", v.game_start},
              {"round_start", v.round_start},
              {"opponent_back", v.opponent_back}}
      .dump();
}

}  // namespace tengen::protocol::http
