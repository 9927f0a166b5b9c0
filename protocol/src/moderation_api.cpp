#include "protocol/moderation_api.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

namespace tengen::protocol::http {
namespace {

using json = nlohmann::json;

json user_json(const UserRef& u) {
  return {{"id", u.id}, {"name", u.name}};
}

json optional_user(const std::optional<UserRef>& u) {
  return u ? user_json(*u) : json(nullptr);
}

template <class T>
json optional(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

json account_json(const AccountView& a) {
  return {{"id", a.user.id},    {"name", a.user.name},
          {"bot", a.bot},       {"admin", a.admin},
          {"banned", a.banned}, {"suspended_until_ms", optional(a.suspended_until_ms)},
          {"reason", a.reason}, {"created_at_ms", a.created_at_ms}};
}

// The body as an object whose fields are all among `known`, or the problem.
std::variant<json, std::string> object_of(std::string_view body,
                                          std::initializer_list<std::string_view> known) {
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::string("the body must be a JSON object");
  for (const auto& [key, value] : j.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end())
      return "unknown field '" + key + "'";
  }
  return j;
}

// Reads a string field of at most `limit` bytes into `out` (empty when absent): the problem, if
// there is one.
std::optional<std::string> read_text(const json& j, const char* field, std::size_t limit,
                                     std::string& out) {
  out.clear();
  if (!j.contains(field)) return std::nullopt;
  if (!j[field].is_string()) return "field '" + std::string(field) + "' must be a string";
  out = j[field].get<std::string>();
  if (out.size() > limit) {
    return "field '" + std::string(field) + "' is too long: at most " + std::to_string(limit) +
           " bytes";
  }
  return std::nullopt;
}

// An integer field from `low` to `high`, or the problem.
std::variant<std::int64_t, std::string> int_field(const json& j, const char* field,
                                                  std::int64_t low, std::int64_t high) {
  const json& v = j[field];
  if (!v.is_number_integer() || v.get<std::int64_t>() < low || v.get<std::int64_t>() > high) {
    return "field '" + std::string(field) + "' must be an integer from " + std::to_string(low) +
           " to " + std::to_string(high);
  }
  return v.get<std::int64_t>();
}

}  // namespace

std::string encode_accounts(const std::vector<AccountView>& users) {
  json list = json::array();
  for (const auto& u : users) list.push_back(account_json(u));
  return json{{"users", list}}.dump();
}

std::string encode_account(const AccountView& user, const std::optional<std::string>& password) {
  json j{{"user", account_json(user)}};
  if (password) j["password"] = *password;
  return j.dump();
}

std::variant<AccountChange, std::string> decode_account_change(std::string_view body) {
  auto parsed = object_of(body, {"action", "reason", "hours"});
  if (auto* problem = std::get_if<std::string>(&parsed)) return *problem;
  const json& j = std::get<json>(parsed);
  static constexpr std::pair<std::string_view, AccountAction> kActions[] = {
      {"suspend", AccountAction::Suspend},     {"ban", AccountAction::Ban},
      {"reinstate", AccountAction::Reinstate}, {"reset_password", AccountAction::ResetPassword},
      {"mark_bot", AccountAction::MarkBot},    {"unmark_bot", AccountAction::UnmarkBot}};
  AccountChange change;
  bool known = false;
  if (j.contains("action") && j["action"].is_string()) {
    for (const auto& [name, action] : kActions) {
      if (j["action"] == name) {
        change.action = action;
        known = true;
      }
    }
  }
  if (!known) {
    return std::string(
        "field 'action' must be one of suspend, ban, reinstate, reset_password, mark_bot, "
        "unmark_bot");
  }
  if (auto problem = read_text(j, "reason", kMaxModerationReasonBytes, change.reason))
    return *problem;
  const bool restricts =
      change.action == AccountAction::Suspend || change.action == AccountAction::Ban;
  if (restricts && change.reason.find_first_not_of(" \t\n") == std::string::npos)
    return std::string("give a reason: the user is shown it");
  if (change.action == AccountAction::Suspend) {
    if (!j.contains("hours"))
      return std::string("missing field 'hours': how long the suspension lasts");
    auto hours = int_field(j, "hours", 1, kMaxSuspensionHours);
    if (auto* problem = std::get_if<std::string>(&hours)) return *problem;
    change.hours = static_cast<int>(std::get<std::int64_t>(hours));
  } else if (j.contains("hours")) {
    return std::string("field 'hours' is for a suspension only");
  }
  return change;
}

std::variant<GameAction, std::string> decode_game_action(std::string_view body) {
  auto parsed = object_of(body, {"action", "line", "result", "reason"});
  if (auto* problem = std::get_if<std::string>(&parsed)) return *problem;
  const json& j = std::get<json>(parsed);
  GameAction a;
  if (j.contains("action") && j["action"] == "delete_chat") {
    a.kind = GameAction::Kind::DeleteChat;
  } else if (j.contains("action") && j["action"] == "annul") {
    a.kind = GameAction::Kind::Annul;
  } else if (j.contains("action") && j["action"] == "adjudicate") {
    a.kind = GameAction::Kind::Adjudicate;
  } else {
    return std::string("field 'action' must be delete_chat, annul or adjudicate");
  }
  if (a.kind == GameAction::Kind::DeleteChat) {
    if (!j.contains("line")) return std::string("missing field 'line': the chat line's seq");
    auto line = int_field(j, "line", 1, std::numeric_limits<std::int64_t>::max());
    if (auto* problem = std::get_if<std::string>(&line)) return *problem;
    a.line = std::get<std::int64_t>(line);
  } else if (j.contains("line")) {
    return std::string("field 'line' is for delete_chat only");
  }
  if (a.kind == GameAction::Kind::Adjudicate) {
    static constexpr std::string_view kResults[] = {"B+R", "W+R", "B+T", "W+T",
                                                    "B+F", "W+F", "0",   "Void"};
    if (!j.contains("result") || !j["result"].is_string() ||
        std::find(std::begin(kResults), std::end(kResults), j["result"].get<std::string>()) ==
            std::end(kResults)) {
      return std::string(
          "field 'result' must be one of B+R, W+R, B+T, W+T, B+F, W+F, 0 (jigo) or Void");
    }
    a.result = j["result"].get<std::string>();
  } else if (j.contains("result")) {
    return std::string("field 'result' is for adjudicate only");
  }
  if (auto problem = read_text(j, "reason", kMaxModerationReasonBytes, a.reason)) return *problem;
  return a;
}

std::string encode_audit(const std::vector<AuditLine>& lines, std::optional<std::int64_t> next) {
  json list = json::array();
  for (const auto& a : lines) {
    list.push_back({{"id", a.id},
                    {"at_ms", a.at_ms},
                    {"actor", optional_user(a.actor)},
                    {"action", a.action},
                    {"user", optional_user(a.user)},
                    {"game", optional(a.game)},
                    {"reason", a.reason},
                    {"detail", a.detail}});
  }
  return json{{"entries", list}, {"next_before", optional(next)}}.dump();
}

std::variant<ReportFiling, std::string> decode_report_filing(std::string_view body) {
  auto parsed =
      object_of(body, {"user", "category", "text", "game", "chat_seq", "group", "group_line"});
  if (auto* problem = std::get_if<std::string>(&parsed)) return *problem;
  const json& j = std::get<json>(parsed);
  ReportFiling r;
  if (!j.contains("user") || !j["user"].is_string() ||
      j["user"].get_ref<const std::string&>().empty())
    return std::string("field 'user' must name the player reported");
  r.user = j["user"].get<std::string>();
  if (r.user.size() > 64) return std::string("field 'user' is too long");
  const auto categories = std::begin(kReportCategories), end = std::end(kReportCategories);
  if (!j.contains("category") || !j["category"].is_string() ||
      std::find(categories, end, j["category"].get<std::string>()) == end) {
    return std::string(
        "field 'category' must be one of harassment, cheating, stalling, sandbagging, spam, "
        "offensive_name, other");
  }
  r.category = j["category"].get<std::string>();
  if (auto problem = read_text(j, "text", kMaxReportTextBytes, r.text)) return *problem;
  if (r.category == "other" && r.text.find_first_not_of(" \t\n") == std::string::npos)
    return std::string("say what happened: field 'text' is needed with the category 'other'");
  if (j.contains("game")) {
    auto game = int_field(j, "game", 1, std::numeric_limits<std::int64_t>::max());
    if (auto* problem = std::get_if<std::string>(&game)) return *problem;
    r.game = std::get<std::int64_t>(game);
  }
  if (j.contains("chat_seq")) {
    if (!r.game)
      return std::string("field 'chat_seq' names a chat line of a game: give 'game' too");
    auto seq = int_field(j, "chat_seq", 0, std::numeric_limits<std::int64_t>::max());
    if (auto* problem = std::get_if<std::string>(&seq)) return *problem;
    r.chat_seq = std::get<std::int64_t>(seq);
  }
  if (j.contains("group")) {
    auto group = int_field(j, "group", 1, std::numeric_limits<std::int64_t>::max());
    if (auto* problem = std::get_if<std::string>(&group)) return *problem;
    r.group = std::get<std::int64_t>(group);
  }
  if (j.contains("group_line")) {
    if (!r.group)
      return std::string("field 'group_line' names a line of a group's chat: give 'group' too");
    auto line = int_field(j, "group_line", 1, std::numeric_limits<std::int64_t>::max());
    if (auto* problem = std::get_if<std::string>(&line)) return *problem;
    r.group_line = std::get<std::int64_t>(line);
  }
  if (r.game && r.group) return std::string("a report is of a game's chat or a group's, not both");
  return r;
}

std::string encode_reports(const std::vector<ReportView>& reports,
                           std::optional<std::int64_t> next) {
  json list = json::array();
  for (const auto& r : reports) {
    list.push_back({{"id", r.id},
                    {"at_ms", r.at_ms},
                    {"reporter", user_json(r.reporter)},
                    {"user", user_json(r.user)},
                    {"category", r.category},
                    {"text", r.text},
                    {"game", optional(r.game)},
                    {"chat_seq", optional(r.chat_seq)},
                    {"chat_text", optional(r.chat_text)},
                    {"status", r.status},
                    {"handled_by", optional_user(r.handled_by)},
                    {"handled_at_ms", optional(r.handled_at_ms)},
                    {"note", r.note},
                    {"group", optional(r.group)}});
  }
  return json{{"reports", list}, {"next_before", optional(next)}}.dump();
}

std::string encode_report_filed(std::int64_t id) {
  return json{{"report", {{"id", id}}}}.dump();
}

std::variant<ReportDecision, std::string> decode_report_decision(std::string_view body) {
  auto parsed = object_of(body, {"action", "note"});
  if (auto* problem = std::get_if<std::string>(&parsed)) return *problem;
  const json& j = std::get<json>(parsed);
  if (!j.contains("action") || !(j["action"] == "resolve" || j["action"] == "dismiss"))
    return std::string("field 'action' must be resolve or dismiss");
  ReportDecision d{j["action"] == "resolve", {}};
  if (auto problem = read_text(j, "note", kMaxModerationNoteBytes, d.note)) return *problem;
  return d;
}

std::variant<InviteRequest, std::string> decode_invite_request(std::string_view body) {
  auto parsed = object_of(body, {"note", "max_uses", "days"});
  if (auto* problem = std::get_if<std::string>(&parsed)) return *problem;
  const json& j = std::get<json>(parsed);
  InviteRequest r;
  if (auto problem = read_text(j, "note", kMaxInviteNoteBytes, r.note)) return *problem;
  if (j.contains("max_uses")) {
    auto uses = int_field(j, "max_uses", 1, kMaxInviteUses);
    if (auto* problem = std::get_if<std::string>(&uses)) return *problem;
    r.max_uses = static_cast<int>(std::get<std::int64_t>(uses));
  }
  if (j.contains("days") && !j["days"].is_null()) {
    auto days = int_field(j, "days", 1, kMaxInviteDays);
    if (auto* problem = std::get_if<std::string>(&days)) return *problem;
    r.days = static_cast<int>(std::get<std::int64_t>(days));
  }
  return r;
}

namespace {
json invite_json(const InviteView& i) {
  return {{"id", i.id},
          {"code", i.code},
          {"note", i.note},
          {"max_uses", i.max_uses},
          {"uses", i.uses},
          {"created_at_ms", i.created_at_ms},
          {"expires_at_ms", optional(i.expires_at_ms)},
          {"revoked", i.revoked}};
}
}  // namespace

std::string encode_invites(const std::vector<InviteView>& invites) {
  json list = json::array();
  for (const auto& i : invites) list.push_back(invite_json(i));
  return json{{"invites", list}}.dump();
}

std::string encode_invite(const InviteView& invite) {
  return json{{"invite", invite_json(invite)}}.dump();
}

std::string encode_blocks(const std::vector<UserRef>& users) {
  json list = json::array();
  for (const auto& u : users) list.push_back(user_json(u));
  return json{{"users", list}}.dump();
}

std::variant<UserRef, std::string> decode_block(std::string_view body) {
  auto parsed = object_of(body, {"user"});
  if (auto* problem = std::get_if<std::string>(&parsed)) return *problem;
  const json& j = std::get<json>(parsed);
  if (!j.contains("user") || !j["user"].is_string() ||
      j["user"].get_ref<const std::string&>().empty() ||
      j["user"].get_ref<const std::string&>().size() > 64)
    return std::string("field 'user' must name the player to block");
  return UserRef{0, j["user"].get<std::string>()};
}

std::string encode_restricted(std::string_view code, std::string_view message,
                              std::string_view reason, std::optional<std::int64_t> until_ms) {
  return json{{"error",
               {{"code", code},
                {"message", message},
                {"reason", reason},
                {"until_ms", optional(until_ms)}}}}
      .dump();
}

}  // namespace tengen::protocol::http
