#include "protocol/http_api.h"

#include <nlohmann/json.hpp>

namespace tengen::protocol::http {
namespace {

using json = nlohmann::json;

json user_json(const UserRef& u) { return {{"id", u.id}, {"name", u.name}}; }

}  // namespace

std::variant<Credentials, std::string> decode_credentials(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::string("the body must be a JSON object");
  for (const char* field : {"username", "password"}) {
    if (!j.contains(field)) return "missing field '" + std::string(field) + "'";
    if (!j[field].is_string()) return "field '" + std::string(field) + "' must be a string";
  }
  for (const auto& [key, value] : j.items()) {
    if (key != "username" && key != "password") return "unknown field '" + key + "'";
  }
  return Credentials{j["username"].get<std::string>(), j["password"].get<std::string>()};
}

std::string encode_logged_in(const UserRef& user, const std::string& token) {
  return json{{"user", user_json(user)}, {"token", token}}.dump();
}

std::string encode_me(const UserRef& user) { return json{{"user", user_json(user)}}.dump(); }

std::string encode_sessions(const std::vector<SessionInfo>& sessions) {
  json list = json::array();
  for (const auto& s : sessions) {
    list.push_back({{"id", s.id},
                    {"user_agent", s.user_agent},
                    {"created_at_ms", s.created_at_ms},
                    {"last_seen_at_ms", s.last_seen_at_ms},
                    {"current", s.current}});
  }
  return json{{"sessions", list}}.dump();
}

std::string encode_error(std::string_view code, std::string_view message) {
  return json{{"error", {{"code", code}, {"message", message}}}}.dump();
}

}  // namespace tengen::protocol::http
