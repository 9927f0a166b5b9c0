#include "protocol/mail_api.h"

#include <nlohmann/json.hpp>

namespace tengen::protocol::http {
namespace {

using json = nlohmann::json;

constexpr std::size_t kMaxToken = 64;     // tokens are 43 characters
constexpr std::size_t kMaxAddress = 254;  // RFC 5321's longest path

std::optional<json> object(std::string_view body) {
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

// The one string field `name` of a body that must have only it.
std::variant<std::string, std::string> only_string(std::string_view body, const std::string& name,
                                                   std::size_t max, bool allow_empty = false) {
  const auto j = object(body);
  if (!j)
    return std::variant<std::string, std::string>(std::in_place_index<1>,
                                                  "the body must be a JSON object");
  for (const auto& [key, value] : j->items()) {
    if (key != name) {
      return std::variant<std::string, std::string>(std::in_place_index<1>,
                                                    "unknown field '" + key + "'");
    }
  }
  const auto it = j->find(name);
  if (it == j->end() || !it->is_string() || it->get_ref<const std::string&>().size() > max ||
      (!allow_empty && it->get_ref<const std::string&>().empty())) {
    return std::variant<std::string, std::string>(
        std::in_place_index<1>,
        "field '" + name + "' must be a string of 1 to " + std::to_string(max) + " characters");
  }
  return std::variant<std::string, std::string>(std::in_place_index<0>, it->get<std::string>());
}

}  // namespace

std::string encode_mail(const MailView& v) {
  return json{{"mail",
               {{"enabled", v.enabled},
                {"address", v.address ? json(*v.address) : json(nullptr)},
                {"verified", v.verified},
                {"your_move", v.your_move},
                {"game_over", v.game_over},
                {"digest", v.digest},
                {"your_move_minutes", v.your_move_minutes}}}}
      .dump();
}

std::variant<MailUpdate, std::string> decode_mail_update(std::string_view body) {
  const auto j = object(body);
  if (!j) return std::string("the body must be a JSON object");
  MailUpdate u;
  for (const auto& [key, value] : j->items()) {
    if (key == "address") {
      // Its length, as what else makes an address, is the mailer's to judge (bad_address); the
      // request's body limit bounds it here.
      if (!value.is_string()) {
        return std::string(
            "field 'address' must be an e-mail address of at most 254 characters, or \"\" to "
            "remove it");
      }
      u.address = value.get<std::string>();
    } else if (key == "your_move" || key == "game_over" || key == "digest") {
      if (!value.is_boolean()) return "field '" + key + "' must be true or false";
      (key == "your_move"   ? u.your_move
       : key == "game_over" ? u.game_over
                            : u.digest) = value.get<bool>();
    } else {
      return "unknown field '" + key + "'";
    }
  }
  return u;
}

std::variant<std::string, std::string> decode_mail_token(std::string_view body) {
  return only_string(body, "token", kMaxToken);
}

std::variant<std::string, std::string> decode_reset_request(std::string_view body) {
  return only_string(body, "user", kMaxAddress);
}

std::variant<ResetConfirm, std::string> decode_reset_confirm(std::string_view body) {
  const auto j = object(body);
  if (!j) return std::string("the body must be a JSON object");
  ResetConfirm c;
  bool token = false, password = false;
  for (const auto& [key, value] : j->items()) {
    if (key == "token") {
      if (!value.is_string() || value.get_ref<const std::string&>().size() > kMaxToken)
        return std::string("field 'token' must be the link's token");
      c.token = value.get<std::string>();
      token = true;
    } else if (key == "password") {
      if (!value.is_string() || value.get_ref<const std::string&>().size() > 1024)
        return std::string("field 'password' must be a string");
      c.password = value.get<std::string>();
      password = true;
    } else {
      return "unknown field '" + key + "'";
    }
  }
  if (!token || !password) return std::string("give both 'token' and 'password'");
  return c;
}

std::string encode_reset_done(std::string_view username) {
  return json{{"user", {{"name", username}}}}.dump();
}

}  // namespace tengen::protocol::http
