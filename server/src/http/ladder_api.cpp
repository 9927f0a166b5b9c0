// A group's ladders over HTTP (docs/groups.md, "Ladders"): the list and a new one under the group,
// a ladder's page, joining, leaving and going away, challenges up the ladder and their answers.
#include "groups/ladders.h"
#include "http/api.h"
#include "http/api_util.h"
#include "http/refusal_replies.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using api::error;

using api::done;
using api::refused;

}  // namespace

std::optional<ApiResponse> Api::ladders(const ApiRequest& r, std::string_view path) {
  constexpr std::string_view kGroups = "/api/v1/groups/";
  constexpr std::string_view kLadders = "/api/v1/ladders/";
  const bool of_group = path.starts_with(kGroups) && path.ends_with("/ladders");
  if (!of_group && !path.starts_with(kLadders)) return std::nullopt;
  if (!archive_.ladders) return error(503, "groups_disabled", "this server has no groups");
  auto& ladders = *archive_.ladders;
  const auto viewer = r.token.empty() ? std::nullopt : accounts_.authenticate(r.token);
  const auto login = error(401, "not_authenticated", "log in first");
  if (r.method != "GET" && r.method != "DELETE" && !api::is_json(r)) return api::not_json();

  if (of_group) {
    const auto group = api::parse_int(path.substr(
        kGroups.size(), path.size() - kGroups.size() - std::string_view("/ladders").size()));
    if (!group || *group < 1)
      return error(400, "bad_request", "a group's id is a positive integer");
    if (r.method == "GET") {
      const auto list = ladders.of_group(*group);
      if (const auto* no = std::get_if<Ladders::Refusal>(&list)) return refused(*no);
      return ApiResponse{200, wire::encode_ladders(std::get<0>(list)), {}};
    }
    if (r.method != "POST") return error(405, "method_not_allowed", "use GET or POST");
    if (!viewer) return login;
    const auto form = wire::decode_ladder_form(r.body);
    if (const auto* why = std::get_if<std::string>(&form)) return error(400, "bad_request", *why);
    const auto made = ladders.create(*group, *viewer, std::get<wire::LadderForm>(form));
    if (const auto* no = std::get_if<Ladders::Refusal>(&made)) return refused(*no);
    return ApiResponse{201, wire::encode_id(std::get<std::int64_t>(made)), {}};
  }

  // /api/v1/ladders/{id}[/what[/{n}[/what]]]
  std::vector<std::string_view> parts;
  for (std::string_view rest = path.substr(kLadders.size()); !rest.empty();) {
    const auto slash = rest.find('/');
    parts.push_back(rest.substr(0, slash));
    rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
  }
  const auto id = parts.empty() ? std::nullopt : api::parse_int(parts[0]);
  if (!id || *id < 1) return error(400, "bad_request", "a ladder's id is a positive integer");
  if (parts.size() == 1 && r.method == "GET") {
    const auto page = ladders.page(*id, viewer);
    if (const auto* no = std::get_if<Ladders::Refusal>(&page)) return refused(*no);
    return ApiResponse{200, wire::encode_ladder_page(std::get<wire::LadderPage>(page)), {}};
  }
  if (!viewer) return login;
  if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
  const auto& me = *viewer;
  if (parts.size() == 2 && parts[1] == "join") return done(ladders.join(*id, me));
  if (parts.size() == 2 && parts[1] == "leave") return done(ladders.leave(*id, me));
  if (parts.size() == 2 && parts[1] == "close") return done(ladders.close(*id, me));
  if (parts.size() == 2 && parts[1] == "away") {
    const auto away = wire::decode_ladder_away(r.body);
    if (const auto* why = std::get_if<std::string>(&away)) return error(400, "bad_request", *why);
    return done(ladders.away(*id, me, std::get<bool>(away)));
  }
  if (parts.size() == 2 && parts[1] == "challenges") {
    const auto defender = wire::decode_ladder_challenge(r.body);
    if (const auto* why = std::get_if<std::string>(&defender))
      return error(400, "bad_request", *why);
    const auto made = ladders.challenge(*id, me, std::get<std::int64_t>(defender));
    if (const auto* no = std::get_if<Ladders::Refusal>(&made)) return refused(*no);
    return ApiResponse{201, wire::encode_id(std::get<std::int64_t>(made)), {}};
  }
  if (parts.size() == 4 && parts[1] == "challenges") {
    const auto challenge = api::parse_int(parts[2]);
    if (!challenge || *challenge < 1)
      return error(400, "bad_request", "a challenge's id is a positive integer");
    if (parts[3] == "cancel") return done(ladders.cancel(*id, *challenge, me));
    if (parts[3] == "accept") {
      const auto game = ladders.accept(*id, *challenge, me);
      if (const auto* no = std::get_if<Ladders::Refusal>(&game)) return refused(*no);
      return ApiResponse{200, wire::encode_id(std::get<std::int64_t>(game)), {}};
    }
  }
  return error(404, "not_found", "no such endpoint: see docs/groups.md");
}

}  // namespace tengen
