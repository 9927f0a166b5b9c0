// Moderation over HTTP (docs/moderation.md): a player's report, and what administrators do under
// /api/v1/admin/. Every administrator's change is written with its audit line (store/
// moderation_store.h); a suspension, a ban and a password reset end the user's sessions at once,
// closing their WebSockets on every node (Accounts::end_sessions).
#include "protocol/moderation_api.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "groups/groups.h"
#include "http/api.h"
#include "http/api_util.h"
#include "protocol/codec.h"
#include "rooms/room_records.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using api::error;

constexpr std::int64_t kHourMs = 3600 * 1000;
constexpr int kUserSearchLimit = 50;
constexpr int kInviteListLimit = 200;

wire::AccountView account_view(const store::UserRecord& u, std::int64_t now_ms) {
  wire::AccountView v{{u.id, u.username}, u.is_bot, u.is_admin,     u.banned,
                      std::nullopt,       {},       u.created_at_ms};
  if (u.suspended_until_ms && *u.suspended_until_ms > now_ms)
    v.suspended_until_ms = u.suspended_until_ms;
  if (v.banned || v.suspended_until_ms) v.reason = u.moderation_reason;
  return v;
}

std::optional<protocol::UserRef> named(std::optional<std::int64_t> id, const std::string& name) {
  if (!id) return std::nullopt;
  return protocol::UserRef{*id, name};
}

wire::ReportView report_view(const store::Report& r) {
  return {r.id,
          r.at_ms,
          {r.reporter_id, r.reporter_name},
          {r.target_id, r.target_name},
          r.category,
          r.text,
          r.game_id,
          r.chat_seq,
          r.chat_text,
          r.status,
          named(r.handled_by, r.handler_name),
          r.handled_at_ms,
          r.note,
          r.group_id};
}

wire::InviteView invite_view(const store::Invite& i) {
  return {i.id, i.code, i.note, i.max_uses, i.uses, i.created_at_ms, i.expires_at_ms, i.revoked};
}

// An invite code: 12 letters and digits that cannot be mistaken for one another, in three groups
// ("k7mq-4fhx-t2aw"), 60 bits.
std::string invite_code() {
  const std::string raw = Accounts::random_code(12);
  return raw.substr(0, 4) + "-" + raw.substr(4, 4) + "-" + raw.substr(8, 4);
}

}  // namespace

std::optional<ApiResponse> Api::moderation(const ApiRequest& r, std::string_view path) {
  constexpr std::string_view kAdmin = "/api/v1/admin/";
  constexpr std::string_view kBlocks = "/api/v1/blocks";
  const bool reports = path == "/api/v1/reports";
  const bool blocking = path == kBlocks || path.starts_with(std::string(kBlocks) + "/");
  if (!reports && !blocking && !path.starts_with(kAdmin)) return std::nullopt;
  if (!moderation_) return error(503, "unavailable", "moderation is not served here");
  const auto user = accounts_.authenticate(r.token);
  if (!user) return error(401, "not_authenticated", "log in first");
  if (reports) {
    if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
    return report(r, *user);
  }
  if (blocking) return blocks(r, path.substr(kBlocks.size()), *user);
  if (!user->is_admin)
    return error(403, "not_admin", "only the server's administrators may do this");
  if (r.method == "POST" && !api::is_json(r)) return api::not_json();
  const std::string_view rest = path.substr(kAdmin.size());
  if (rest == "users" || rest.starts_with("users/")) return admin_users(r, rest, *user);
  if (rest == "reports" || rest.starts_with("reports/")) return admin_reports(r, rest, *user);
  if (rest == "invites" || rest.starts_with("invites/")) return admin_invites(r, rest, *user);
  if (rest.starts_with("games/")) return admin_game(r, rest, *user);
  if (rest == "analysis-workers" || rest.starts_with("analysis-workers/") ||
      rest == "analysis-jobs")
    return admin_workers(r, rest, *user);
  if (rest == "audit") {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    auto page = api::page_of(r.target);
    if (auto* bad = std::get_if<ApiResponse>(&page)) return *bad;
    const auto& p = std::get<store::Page>(page);
    // ?user=NAME: what was done to one user (their row's history on the Users page).
    std::optional<std::int64_t> about;
    if (const auto param = api::query_param(r.target, "user")) {
      const std::string name(*param);
      const auto target = accounts_.find_user(name);
      if (!target) return error(404, "not_found", "no user named '" + name + "'");
      about = target->id;
    }
    const auto rows = moderation_->audit_log(p, about);
    std::vector<wire::AuditLine> lines;
    for (const auto& a : rows) {
      lines.push_back({a.id, a.at_ms, named(a.actor_id, a.actor_name), a.action,
                       named(a.target_user_id, a.target_name), a.target_game_id, a.reason,
                       a.detail});
    }
    return ApiResponse{200, wire::encode_audit(lines, api::next_before(rows, p)), {}};
  }
  return error(404, "not_found", "no such API endpoint: " + std::string(path));
}

ApiResponse Api::report(const ApiRequest& r, const store::UserRecord& reporter) {
  if (!api::is_json(r)) return api::not_json();
  auto decoded = wire::decode_report_filing(r.body);
  if (auto* problem = std::get_if<std::string>(&decoded))
    return error(400, "bad_request", *problem);
  const auto& filing = std::get<wire::ReportFiling>(decoded);
  const auto target = accounts_.find_user(filing.user);
  if (!target) return error(404, "not_found", "no user named '" + filing.user + "'");
  if (target->id == reporter.id) return error(400, "bad_request", "you cannot report yourself");
  if (moderation_->open_reports_by(reporter.id) >= wire::kMaxOpenReportsPerPlayer) {
    auto refusal = error(429, "too_many_reports",
                         "you have " + std::to_string(wire::kMaxOpenReportsPerPlayer) +
                             " reports waiting for the administrators: wait until they are "
                             "handled");
    refusal.retry_after_s = 3600;
    return refusal;
  }
  store::Report report;
  report.at_ms = archive_.clock->unix_ms();
  report.reporter_id = reporter.id;
  report.target_id = target->id;
  report.category = filing.category;
  report.text = filing.text;
  if (filing.game) {
    const auto not_found = error(404, "not_found", "no game " + std::to_string(*filing.game));
    const auto game = archive_.store->game(*filing.game);
    if (!game) return not_found;
    // A private game exists for its players only (as GET /api/v1/games/{id} answers).
    const auto settings = protocol::decode_stored_settings(game->settings);
    const auto* game_settings = std::get_if<protocol::GameSettings>(&settings);
    if ((!game_settings || game_settings->is_private) && reporter.id != game->black_id &&
        reporter.id != game->white_id)
      return not_found;
    report.game_id = filing.game;
    if (filing.chat_seq) {
      // The line as it was said, kept with the report: it may be deleted later.
      const auto stored = archive_.store->stored_game(*filing.game);
      std::optional<records::Chatted> line;
      for (const auto& event : stored ? stored->events : std::vector<store::GameEvent>{}) {
        if (event.seq != *filing.chat_seq || event.kind != "chat") continue;
        if (const auto record = records::read(event))
          if (const auto* chatted = std::get_if<records::Chatted>(&*record)) line = *chatted;
      }
      if (!line) {
        return error(404, "not_found",
                     "game " + std::to_string(*filing.game) + " has no chat line " +
                         std::to_string(*filing.chat_seq));
      }
      if (line->from.id != target->id) {
        return error(
            400, "bad_request",
            "chat line " + std::to_string(*filing.chat_seq) + " is not " + target->username + "'s");
      }
      report.chat_seq = filing.chat_seq;
      report.chat_text = line->text;
    }
  }
  if (filing.group) {
    if (!archive_.groups) return error(503, "groups_disabled", "this server has no groups");
    report.group_id = filing.group;
    if (filing.group_line) {
      // The line as it was said, kept with the report (as a game's).
      const auto line =
          archive_.groups->line_for_report(*filing.group, *filing.group_line, reporter);
      if (const auto* no = std::get_if<Groups::Refusal>(&line))
        return error(no->status, no->code, no->message);
      const auto& said = std::get<protocol::GroupLine>(line);
      if (said.from.id != target->id)
        return error(400, "bad_request",
                     "chat line " + std::to_string(*filing.group_line) + " is not " +
                         target->username + "'s");
      report.chat_text = said.text;
    }
  }
  const auto id = moderation_->add_report(report);
  return ApiResponse{201, wire::encode_report_filed(id), {}};
}

// GET /api/v1/blocks, POST /api/v1/blocks {"user"}, DELETE /api/v1/blocks/{name}: the hub follows
// each change at once (HubReads::reload_player), on whichever node holds it.
ApiResponse Api::blocks(const ApiRequest& r, std::string_view rest, const store::UserRecord& me) {
  const auto list = [&] {
    std::vector<protocol::UserRef> users;
    for (const auto& u : moderation_->blocked_by(me.id)) users.push_back({u.id, u.username});
    return ApiResponse{200, wire::encode_blocks(users), {}};
  };
  if (rest.empty() && r.method == "GET") return list();
  std::string name;
  if (rest.empty() && r.method == "POST") {
    if (!api::is_json(r)) return api::not_json();
    auto decoded = wire::decode_block(r.body);
    if (auto* problem = std::get_if<std::string>(&decoded))
      return error(400, "bad_request", *problem);
    name = std::get<protocol::UserRef>(decoded).name;
  } else if (rest.starts_with("/") && r.method == "DELETE") {
    name = std::string(rest.substr(1));
  } else {
    return error(405, "method_not_allowed",
                 "GET or POST /api/v1/blocks, DELETE /api/v1/blocks/{name}");
  }
  const auto other = accounts_.find_user(name);
  if (!other) return error(404, "not_found", "no user named '" + name + "'");
  if (other->id == me.id) return error(400, "bad_request", "you cannot block yourself");
  if (r.method == "POST") {
    if (static_cast<int>(moderation_->blocked_by(me.id).size()) >= wire::kMaxBlocks)
      return error(409, "too_many_blocks",
                   "you block " + std::to_string(wire::kMaxBlocks) + " players, the most one may");
    moderation_->add_block(me.id, other->id, archive_.clock->unix_ms());
  } else if (!moderation_->remove_block(me.id, other->id)) {
    return error(404, "not_found", "you do not block " + other->username);
  }
  if (archive_.hub.reload_player) archive_.hub.reload_player(me.id);
  return list();
}

ApiResponse Api::admin_users(const ApiRequest& r, std::string_view rest,
                             const store::UserRecord& admin) {
  const auto now = archive_.clock->unix_ms();
  if (rest == "users") {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    const std::string prefix(api::query_param(r.target, "q").value_or(""));
    if (prefix.size() > 64) return error(400, "bad_request", "'q' is at most 64 characters");
    std::vector<wire::AccountView> list;
    for (const auto& u : moderation_->search_users(prefix, kUserSearchLimit))
      list.push_back(account_view(u, now));
    return ApiResponse{200, wire::encode_accounts(list), {}};
  }
  const std::string name(rest.substr(std::string_view("users/").size()));
  const auto target = accounts_.find_user(name);
  if (!target) return error(404, "not_found", "no user named '" + name + "'");
  if (r.method == "GET")
    return ApiResponse{200, wire::encode_account(account_view(*target, now)), {}};
  if (r.method != "POST") return error(405, "method_not_allowed", "use GET or POST");
  auto decoded = wire::decode_account_change(r.body);
  if (auto* problem = std::get_if<std::string>(&decoded))
    return error(400, "bad_request", *problem);
  const auto& change = std::get<wire::AccountChange>(decoded);
  using Action = wire::AccountAction;
  const bool restricts = change.action == Action::Suspend || change.action == Action::Ban;
  if (restricts && target->is_admin) {
    return error(409, "target_is_admin",
                 target->username +
                     " is an administrator: remove the role first (tengen-server "
                     "--remove-admin " +
                     target->username + ")");
  }
  store::AuditEntry audit;
  audit.at_ms = now;
  audit.actor_id = admin.id;
  audit.target_user_id = target->id;
  audit.reason = change.reason;
  std::optional<std::string> password;
  switch (change.action) {
    case Action::Suspend: {
      const auto until = now + change.hours * kHourMs;
      audit.action = "suspend";
      audit.detail = std::to_string(change.hours) + " hours";
      moderation_->set_restriction(target->id, {false, until, change.reason}, audit);
      // Their open pages are told why and until when (not "log in again").
      accounts_.end_sessions(target->id, "suspended until " + std::to_string(until));
      if (archive_.hub.account_restricted) archive_.hub.account_restricted(target->id);
      break;
    }
    case Action::Ban:
      audit.action = "ban";
      moderation_->set_restriction(target->id, {true, std::nullopt, change.reason}, audit);
      accounts_.end_sessions(target->id, "banned");
      if (archive_.hub.account_restricted) archive_.hub.account_restricted(target->id);
      break;
    case Action::Reinstate:
      if (!target->restricted_at(now)) {
        return error(409, "not_restricted", target->username + " is neither suspended nor banned");
      }
      audit.action = "reinstate";
      moderation_->set_restriction(target->id, {}, audit);
      break;
    case Action::ResetPassword:
      audit.action = "reset_password";
      password = accounts_.reset_password(target->id, audit);
      if (!password) return error(404, "not_found", "no user named '" + name + "'");
      break;
    case Action::MarkBot:
    case Action::UnmarkBot: {
      const bool bot = change.action == Action::MarkBot;
      if (target->is_bot == bot) {
        return error(409, "unchanged",
                     target->username + (bot ? " is already a bot" : " is not a bot"));
      }
      audit.action = bot ? "mark_bot" : "unmark_bot";
      moderation_->set_bot(target->id, bot, audit);
      // A class's protected students may play bots (docs/classes.md): the hub learns who is one.
      if (archive_.hub.reload_player) archive_.hub.reload_player(target->id);
      break;
    }
  }
  const auto updated = accounts_.find_user(target->id).value_or(*target);
  return ApiResponse{200, wire::encode_account(account_view(updated, now), password), {}};
}

// POST /api/v1/admin/games/{id}: delete a chat line, annul, adjudicate. Done by the hub, which
// holds the game's room (over the bus from a front node), then logged.
ApiResponse Api::admin_game(const ApiRequest& r, std::string_view rest,
                            const store::UserRecord& admin) {
  const auto id = api::parse_int(rest.substr(std::string_view("games/").size()));
  if (!id || *id < 1) return error(400, "bad_request", "the game id must be a positive integer");
  if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
  auto decoded = wire::decode_game_action(r.body);
  if (auto* problem = std::get_if<std::string>(&decoded))
    return error(400, "bad_request", *problem);
  const auto& action = std::get<wire::GameAction>(decoded);
  if (!archive_.hub.game_action) return error(503, "unavailable", "games are not served here");
  auto [status, body] = archive_.hub.game_action(*id, r.body);
  if (status != 200) return ApiResponse{status, std::move(body), {}};
  const auto answer = nlohmann::json::parse(body, nullptr, false);
  store::AuditEntry audit;
  audit.at_ms = archive_.clock->unix_ms();
  audit.actor_id = admin.id;
  audit.target_game_id = *id;
  audit.reason = action.reason;
  using Kind = wire::GameAction::Kind;
  switch (action.kind) {
    case Kind::DeleteChat:
      audit.action = "delete_chat";
      if (answer.is_object() && answer.contains("author"))
        audit.target_user_id = answer["author"].value("id", std::int64_t{0});
      audit.detail = "line " + std::to_string(action.line);
      break;
    case Kind::Annul:
      audit.action = "annul";
      if (answer.is_object() && answer.value("ratings_rebuilt", 0) > 0)
        audit.detail = std::to_string(answer.value("ratings_rebuilt", 0)) + " ratings rebuilt";
      break;
    case Kind::Adjudicate:
      audit.action = "adjudicate";
      audit.detail = action.result;
      break;
  }
  moderation_->log(audit);
  return ApiResponse{200, std::move(body), {}};
}

ApiResponse Api::admin_reports(const ApiRequest& r, std::string_view rest,
                               const store::UserRecord& admin) {
  if (rest == "reports") {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    const std::string status(api::query_param(r.target, "status").value_or("open"));
    if (status != "open" && status != "resolved" && status != "dismissed" && status != "all")
      return error(400, "bad_request", "'status' must be open, resolved, dismissed or all");
    auto page = api::page_of(r.target);
    if (auto* bad = std::get_if<ApiResponse>(&page)) return *bad;
    const auto& p = std::get<store::Page>(page);
    const auto rows = moderation_->reports(status == "all" ? "" : status, p);
    std::vector<wire::ReportView> list;
    for (const auto& row : rows) list.push_back(report_view(row));
    return ApiResponse{200, wire::encode_reports(list, api::next_before(rows, p)), {}};
  }
  const auto id = api::parse_int(rest.substr(std::string_view("reports/").size()));
  if (!id || *id < 1) return error(400, "bad_request", "the report id must be a positive integer");
  const auto found = moderation_->report(*id);
  if (!found) return error(404, "not_found", "no report " + std::to_string(*id));
  if (r.method == "GET")
    return ApiResponse{200, wire::encode_reports({report_view(*found)}, std::nullopt), {}};
  if (r.method != "POST") return error(405, "method_not_allowed", "use GET or POST");
  auto decoded = wire::decode_report_decision(r.body);
  if (auto* problem = std::get_if<std::string>(&decoded))
    return error(400, "bad_request", *problem);
  const auto& decision = std::get<wire::ReportDecision>(decoded);
  store::AuditEntry audit;
  audit.at_ms = archive_.clock->unix_ms();
  audit.actor_id = admin.id;
  audit.action = decision.resolve ? "resolve_report" : "dismiss_report";
  audit.target_user_id = found->target_id;
  audit.target_game_id = found->game_id;
  audit.reason = decision.note;
  audit.detail = "report " + std::to_string(*id);
  if (!moderation_->close_report(*id, decision.resolve ? "resolved" : "dismissed", decision.note,
                                 audit)) {
    return error(409, "already_handled",
                 "report " + std::to_string(*id) + " was already " + found->status);
  }
  const auto closed = moderation_->report(*id).value_or(*found);
  return ApiResponse{200, wire::encode_reports({report_view(closed)}, std::nullopt), {}};
}

ApiResponse Api::admin_invites(const ApiRequest& r, std::string_view rest,
                               const store::UserRecord& admin) {
  const auto now = archive_.clock->unix_ms();
  if (rest == "invites") {
    if (r.method == "GET") {
      std::vector<wire::InviteView> list;
      for (const auto& i : moderation_->invites(kInviteListLimit)) list.push_back(invite_view(i));
      return ApiResponse{200, wire::encode_invites(list), {}};
    }
    if (r.method != "POST") return error(405, "method_not_allowed", "use GET or POST");
    auto decoded = wire::decode_invite_request(r.body);
    if (auto* problem = std::get_if<std::string>(&decoded))
      return error(400, "bad_request", *problem);
    const auto& request = std::get<wire::InviteRequest>(decoded);
    store::Invite invite;
    invite.code = invite_code();
    invite.created_by = admin.id;
    invite.created_at_ms = now;
    invite.note = request.note;
    invite.max_uses = request.max_uses;
    if (request.days) invite.expires_at_ms = now + *request.days * 24 * kHourMs;
    store::AuditEntry audit{.at_ms = now,
                            .actor_id = admin.id,
                            .action = "create_invite",
                            .reason = request.note,
                            .detail = std::to_string(request.max_uses) + " uses"};
    invite = moderation_->create_invite(invite, audit);
    return ApiResponse{201, wire::encode_invite(invite_view(invite)), {}};
  }
  const auto id = api::parse_int(rest.substr(std::string_view("invites/").size()));
  if (!id || *id < 1) return error(400, "bad_request", "the invite id must be a positive integer");
  if (r.method != "DELETE") return error(405, "method_not_allowed", "use DELETE to withdraw it");
  store::AuditEntry audit{.at_ms = now,
                          .actor_id = admin.id,
                          .action = "revoke_invite",
                          .detail = "invite " + std::to_string(*id)};
  if (!moderation_->revoke_invite(*id, audit))
    return error(404, "not_found", "no invite " + std::to_string(*id) + " still in use");
  return ApiResponse{204, "", {}};
}

}  // namespace tengen
