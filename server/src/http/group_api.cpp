// Groups (clubs) over HTTP (docs/groups.md): the list, a group's page, joining and leaving, its
// members' roles, the invitation link, closing and deleting, and the chat.
#include "groups/groups.h"
#include "http/api.h"
#include "http/api_util.h"
#include "http/refusal_replies.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using api::error;

ApiResponse refused(const Groups::Refusal& no) {
  return api::refused(no, 2);
}

ApiResponse done(const Groups::Maybe& no) {
  return api::done(no, 2);
}

}  // namespace

// Everything under /api/v1/groups and GET /api/v1/me/groups; nullopt for other paths.
std::optional<ApiResponse> Api::groups(const ApiRequest& r, std::string_view path) {
  constexpr std::string_view kGroups = "/api/v1/groups";
  const bool mine = path == "/api/v1/me/groups";
  if (!mine && path != kGroups && !path.starts_with("/api/v1/groups/")) return std::nullopt;
  if (!archive_.groups) return error(503, "groups_disabled", "this server has no groups");
  auto& groups = *archive_.groups;
  const auto viewer = r.token.empty() ? std::nullopt : accounts_.authenticate(r.token);
  const auto login = error(401, "not_authenticated", "log in first");
  if (r.method != "GET" && r.method != "DELETE" && !api::is_json(r)) return api::not_json();

  if (mine) {
    if (!viewer) return login;
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    return ApiResponse{200, wire::encode_groups(groups.of_user(viewer->id), std::nullopt), {}};
  }
  if (path == kGroups) {
    if (r.method == "GET") {
      auto page = api::page_of(r.target);
      if (auto* bad = std::get_if<ApiResponse>(&page)) return *bad;
      const auto& p = std::get<store::Page>(page);
      const auto list = groups.list(p);
      std::optional<std::int64_t> next;
      if (static_cast<int>(list.size()) == p.limit && !list.empty()) next = list.back().id;
      return ApiResponse{200, wire::encode_groups(list, next), {}};
    }
    if (r.method != "POST") return error(405, "method_not_allowed", "use GET or POST");
    if (!viewer) return login;
    const auto form = wire::decode_group_form(r.body, true);
    if (const auto* why = std::get_if<std::string>(&form)) return error(400, "bad_request", *why);
    const auto made = groups.create(*viewer, std::get<wire::GroupForm>(form));
    if (const auto* no = std::get_if<Groups::Refusal>(&made)) return refused(*no);
    return ApiResponse{201, wire::encode_groups({std::get<wire::GroupSummary>(made)}, {}), {}};
  }

  // /api/v1/groups/{id}[/what[/{n}]]
  std::string_view rest = path.substr(kGroups.size() + 1);
  const auto slash = rest.find('/');
  const auto id = api::parse_int(rest.substr(0, slash));
  if (!id || *id < 1) return error(400, "bad_request", "a group's id is a positive integer");
  const std::string_view what = slash == std::string_view::npos ? "" : rest.substr(slash + 1);
  std::string_view part = what, tail;
  if (const auto s = what.find('/'); s != std::string_view::npos) {
    part = what.substr(0, s);
    tail = what.substr(s + 1);
  }
  if (what.empty() && r.method == "GET") {
    auto page = groups.page(*id, viewer);
    if (const auto* no = std::get_if<Groups::Refusal>(&page)) return refused(*no);
    auto& shown = std::get<wire::GroupPage>(page);
    for (auto& m : shown.members)
      m.rank = player(store::UserRecord{m.user.id, m.user.name, "", m.bot}).rank;
    return ApiResponse{200, wire::encode_group_page(shown), {}};
  }
  if (!viewer) return login;
  const auto& me = *viewer;
  const auto logged = [&](const Groups::Maybe& no, const std::string& action) {
    // A server administrator's doings in a group are in the audit log (docs/moderation.md).
    if (!no && me.is_admin && moderation_)
      moderation_->log({.at_ms = archive_.clock->unix_ms(),
                        .actor_id = me.id,
                        .action = action,
                        .detail = "group " + std::to_string(*id)});
    return done(no);
  };
  if (what.empty()) {
    if (r.method != "DELETE") return error(405, "method_not_allowed", "use GET or DELETE");
    return logged(groups.remove(*id, me), "delete_group");
  }
  if (part == "settings" && tail.empty()) {
    if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
    const auto form = wire::decode_group_form(r.body, false);
    if (const auto* why = std::get_if<std::string>(&form)) return error(400, "bad_request", *why);
    return done(groups.update(*id, me, std::get<wire::GroupForm>(form)));
  }
  if (part == "join" && tail.empty()) {
    if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
    const auto invite = wire::decode_group_join(r.body);
    if (const auto* why = std::get_if<std::string>(&invite)) return error(400, "bad_request", *why);
    const auto role = groups.join(*id, me, std::get<0>(invite));
    if (const auto* no = std::get_if<Groups::Refusal>(&role)) return refused(*no);
    return ApiResponse{200, wire::encode_group_role(std::get<std::string>(role)), {}};
  }
  if (part == "leave" && tail.empty()) {
    if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
    return done(groups.leave(*id, me));
  }
  if (part == "close" && tail.empty()) {
    if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
    return logged(groups.close(*id, me), "close_group");
  }
  if (part == "invite" && tail.empty()) {
    if (r.method == "DELETE") return done(groups.drop_invite(*id, me));
    if (r.method != "POST") return error(405, "method_not_allowed", "use POST or DELETE");
    const auto secret = groups.make_invite(*id, me);
    if (const auto* no = std::get_if<Groups::Refusal>(&secret)) return refused(*no);
    return ApiResponse{201, wire::encode_group_invite(std::get<std::string>(secret)), {}};
  }
  if (part == "members" && !tail.empty()) {
    const auto user = api::parse_int(tail);
    if (!user || *user < 1) return error(400, "bad_request", "a member's id is a positive integer");
    if (r.method == "DELETE") return logged(groups.remove_member(*id, me, *user), "remove_member");
    if (r.method != "POST") return error(405, "method_not_allowed", "use POST or DELETE");
    const auto role = wire::decode_group_role(r.body);
    if (const auto* why = std::get_if<1>(&role)) return error(400, "bad_request", *why);
    return logged(groups.set_role(*id, me, *user, std::get<0>(role)), "set_group_role");
  }
  if (part == "chat" && tail.empty()) {
    if (r.method == "GET") {
      std::optional<std::int64_t> before;
      if (const auto b = api::query_param(r.target, "before")) {
        before = api::parse_int(*b);
        if (!before) return error(400, "bad_request", "'before' must be a line's id");
      }
      const auto lines = groups.chat(*id, me, before);
      if (const auto* no = std::get_if<Groups::Refusal>(&lines)) return refused(*no);
      return ApiResponse{
          200, wire::encode_group_chat(std::get<std::vector<protocol::GroupLine>>(lines)), {}};
    }
    if (r.method != "POST") return error(405, "method_not_allowed", "use GET or POST");
    const auto text = wire::decode_group_line(r.body);
    if (const auto* why = std::get_if<1>(&text)) return error(400, "bad_request", *why);
    const auto said = groups.say(*id, me, std::get<0>(text));
    if (const auto* no = std::get_if<Groups::Refusal>(&said)) return refused(*no);
    return ApiResponse{201, wire::encode_group_line(std::get<protocol::GroupLine>(said)), {}};
  }
  if (part == "chat" && !tail.empty()) {
    const auto line = api::parse_int(tail);
    if (!line || *line < 1) return error(400, "bad_request", "a line's id is a positive integer");
    if (r.method != "DELETE") return error(405, "method_not_allowed", "use DELETE");
    return logged(groups.delete_line(*id, *line, me), "delete_group_line");
  }
  return error(404, "not_found", "no such endpoint: see docs/groups.md");
}

}  // namespace tengen
