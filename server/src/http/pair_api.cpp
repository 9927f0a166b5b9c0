// Pair Go and rengo over HTTP (docs/events.md, "Pair Go"): the list and a new game, its page,
// joining a team and leaving it, and its host's start and cancellation.
#include "events/pair_games.h"
#include "http/api.h"
#include "http/api_util.h"
#include "http/refusal_replies.h"
#include "protocol/group_api.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using api::done;
using api::error;
using api::refused;

}  // namespace

std::optional<ApiResponse> Api::pair_games(const ApiRequest& r, std::string_view path) {
  constexpr std::string_view kPairs = "/api/v1/pairgo";
  if (path != kPairs && !path.starts_with("/api/v1/pairgo/")) return std::nullopt;
  if (!archive_.pairs) return error(503, "pairs_disabled", "this server has no pair Go games");
  auto& pairs = *archive_.pairs;
  const auto viewer = r.token.empty() ? std::nullopt : accounts_.authenticate(r.token);
  const auto login = error(401, "not_authenticated", "log in first");
  if (r.method != "GET" && !api::is_json(r)) return api::not_json();

  if (path == kPairs) {
    if (r.method == "GET") return ApiResponse{200, wire::encode_pairs(pairs.list()), {}};
    if (r.method != "POST") return error(405, "method_not_allowed", "use GET or POST");
    if (!viewer) return login;
    const auto form = wire::decode_pair_form(r.body);
    if (const auto* why = std::get_if<std::string>(&form)) return error(400, "bad_request", *why);
    const auto made = pairs.create(*viewer, std::get<wire::PairForm>(form));
    if (const auto* no = std::get_if<ActionRefusal>(&made)) return refused(*no);
    return ApiResponse{201, wire::encode_id(std::get<std::int64_t>(made)), {}};
  }

  // /api/v1/pairgo/{id}[/what]
  auto rest = path.substr(kPairs.size() + 1);
  const auto slash = rest.find('/');
  const auto id = api::parse_int(rest.substr(0, slash));
  if (!id || *id < 1) return error(400, "bad_request", "a pair Go game's id is a positive integer");
  const auto what = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
  if (what.empty()) {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    const auto page = pairs.page(*id);
    if (const auto* no = std::get_if<ActionRefusal>(&page)) return refused(*no);
    return ApiResponse{200, wire::encode_pair_page(std::get<wire::PairPage>(page)), {}};
  }
  if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
  if (!viewer) return login;
  const auto& me = *viewer;
  if (what == "join") {
    const auto team = wire::decode_pair_join(r.body);
    if (const auto* why = std::get_if<std::string>(&team)) return error(400, "bad_request", *why);
    return done(pairs.join(*id, me, std::get<Color>(team)));
  }
  if (what == "leave") return done(pairs.leave(*id, me));
  if (what == "cancel") return done(pairs.cancel(*id, me));
  if (what == "start") {
    const auto started = pairs.start(*id, me);
    if (const auto* no = std::get_if<ActionRefusal>(&started)) return refused(*no);
    return ApiResponse{
        200, "{\"game\":" + std::to_string(std::get<std::int64_t>(started)) + "}", {}};
  }
  return error(404, "not_found", "no such endpoint: see docs/events.md");
}

}  // namespace tengen
