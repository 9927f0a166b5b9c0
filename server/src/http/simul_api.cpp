// Simuls over HTTP (docs/events.md, "Simuls"): the list and a new one, a simul's page, joining and
// leaving it, and its host's start and cancellation.
#include "events/simuls.h"
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

std::optional<ApiResponse> Api::simuls(const ApiRequest& r, std::string_view path) {
  constexpr std::string_view kSimuls = "/api/v1/simuls";
  if (path != kSimuls && !path.starts_with("/api/v1/simuls/")) return std::nullopt;
  if (!archive_.simuls) return error(503, "simuls_disabled", "this server has no simuls");
  auto& simuls = *archive_.simuls;
  const auto viewer = r.token.empty() ? std::nullopt : accounts_.authenticate(r.token);
  const auto login = error(401, "not_authenticated", "log in first");
  if (r.method != "GET" && !api::is_json(r)) return api::not_json();

  if (path == kSimuls) {
    if (r.method == "GET") return ApiResponse{200, wire::encode_simuls(simuls.list()), {}};
    if (r.method != "POST") return error(405, "method_not_allowed", "use GET or POST");
    if (!viewer) return login;
    const auto form = wire::decode_simul_form(r.body);
    if (const auto* why = std::get_if<std::string>(&form)) return error(400, "bad_request", *why);
    const auto made = simuls.create(*viewer, std::get<wire::SimulForm>(form));
    if (const auto* no = std::get_if<Simuls::Refusal>(&made)) return refused(*no);
    return ApiResponse{201, wire::encode_id(std::get<std::int64_t>(made)), {}};
  }

  // /api/v1/simuls/{id}[/what]
  auto rest = path.substr(kSimuls.size() + 1);
  const auto slash = rest.find('/');
  const auto id = api::parse_int(rest.substr(0, slash));
  if (!id || *id < 1) return error(400, "bad_request", "a simul's id is a positive integer");
  const auto what = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
  if (what.empty()) {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    const auto page = simuls.page(*id);
    if (const auto* no = std::get_if<Simuls::Refusal>(&page)) return refused(*no);
    return ApiResponse{200, wire::encode_simul_page(std::get<wire::SimulPage>(page)), {}};
  }
  if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
  if (!viewer) return login;
  const auto& me = *viewer;
  if (what == "join") return done(simuls.join(*id, me));
  if (what == "leave") return done(simuls.leave(*id, me));
  if (what == "cancel") return done(simuls.cancel(*id, me));
  if (what == "start") {
    const auto started = simuls.start(*id, me);
    if (const auto* no = std::get_if<Simuls::Refusal>(&started)) return refused(*no);
    return ApiResponse{200, "{\"games\":" + std::to_string(std::get<int>(started)) + "}", {}};
  }
  return error(404, "not_found", "no such endpoint: see docs/events.md");
}

}  // namespace tengen
