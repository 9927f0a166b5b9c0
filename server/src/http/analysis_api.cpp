// Analysis after the game over HTTP (docs/analysis.md): players ask for a finished game's analysis
// and read it; workers, with their keys, take jobs and hand in results.
#include "analysis/analysis.h"
#include "http/api.h"
#include "http/api_util.h"
#include "protocol/codec.h"
#include "store/moderation_store.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using api::error;

ApiResponse answer(const Analysis::Answer& a, int ok_status) {
  if (const auto* no = std::get_if<Analysis::Refusal>(&a)) {
    auto response = error(no->status, no->code, no->message);
    if (no->status == 429 || no->status == 503) response.retry_after_s = 60;
    return response;
  }
  return ApiResponse{ok_status, wire::encode_analysis_view(std::get<wire::AnalysisView>(a)), {}};
}

std::optional<ApiResponse> refused(const std::optional<Analysis::Refusal>& no) {
  if (!no) return std::nullopt;
  return error(no->status, no->code, no->message);
}

}  // namespace

// GET and POST /api/v1/games/{id}/analysis (players), POST /api/v1/analysis/acquire and
// /api/v1/analysis/{game}/progress|result|give-back (workers); nullopt for other paths.
std::optional<ApiResponse> Api::analysis(const ApiRequest& r, std::string_view path) {
  constexpr std::string_view kGames = "/api/v1/games/";
  constexpr std::string_view kSuffix = "/analysis";
  constexpr std::string_view kWorker = "/api/v1/analysis/";
  const bool for_players = path.starts_with(kGames) && path.ends_with(kSuffix) &&
                           path.size() > kGames.size() + kSuffix.size();
  if (!for_players && !path.starts_with(kWorker)) return std::nullopt;
  if (!archive_.analysis) return error(503, "analysis_disabled", "this server analyses no games");
  auto& analysis = *archive_.analysis;

  if (for_players) {
    const auto id =
        api::parse_int(path.substr(kGames.size(), path.size() - kGames.size() - kSuffix.size()));
    if (!id || *id < 1) return error(400, "bad_request", "the game id must be a positive integer");
    const auto not_found = error(404, "not_found", "no game " + std::to_string(*id));
    const auto game = archive_.store->game(*id);
    if (!game) return not_found;
    const auto viewer = r.token.empty() ? std::nullopt : accounts_.authenticate(r.token);
    const bool player = viewer && (viewer->id == game->black_id || viewer->id == game->white_id);
    // A private game is its players' alone (to others it does not exist, as GET /games/{id}).
    const auto settings = protocol::decode_settings(game->settings);
    const bool is_private = !std::holds_alternative<protocol::GameSettings>(settings) ||
                            std::get<protocol::GameSettings>(settings).is_private;
    if (is_private && !player) return not_found;
    if (r.method == "GET") {
      if (!game->ended_at_ms)
        return error(409, "game_in_play",
                     "a game is analysed once it is over: no engine help while it is played");
      return answer(analysis.view(*id), 200);
    }
    if (r.method != "POST") return error(405, "method_not_allowed", "use GET or POST");
    if (!api::is_json(r)) return api::not_json();
    if (!viewer) return error(401, "not_authenticated", "log in first");
    const auto asked = analysis.request(*id, viewer->id, player);
    const bool queued = std::holds_alternative<wire::AnalysisView>(asked) &&
                        std::get<wire::AnalysisView>(asked).state != "done";
    return answer(asked, queued ? 202 : 200);
  }

  if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
  const auto worker = analysis.worker(r.token);
  if (!worker)
    return error(401, "bad_worker_key",
                 "this is for analysis workers: send a worker key an administrator issued "
                 "(Authorization: Bearer tw_...); it may have been revoked");
  if (path == "/api/v1/analysis/acquire") {
    const auto job = analysis.acquire(*worker);
    if (!job) return ApiResponse{204, "", {}};
    return ApiResponse{200, wire::encode_analysis_job(*job), {}};
  }
  std::string_view rest = path.substr(kWorker.size());
  const auto slash = rest.find('/');
  const auto game = api::parse_int(rest.substr(0, slash));
  if (slash == std::string_view::npos || !game || *game < 1)
    return error(404, "not_found", "no such endpoint: see docs/analysis.md");
  const auto what = rest.substr(slash + 1);
  if (what == "progress") {
    const auto done = wire::decode_analysis_progress(r.body);
    if (const auto* why = std::get_if<std::string>(&done)) return error(400, "bad_request", *why);
    if (auto no = refused(analysis.progress(*worker, *game, std::get<int>(done)))) return no;
    return ApiResponse{204, "", {}};
  }
  if (what == "result") {
    if (auto no = refused(analysis.submit(*worker, *game, r.body))) return no;
    return ApiResponse{204, "", {}};
  }
  if (what == "give-back") {
    if (auto no = refused(analysis.give_back(*worker, *game))) return no;
    return ApiResponse{204, "", {}};
  }
  return error(404, "not_found", "no such endpoint: see docs/analysis.md");
}

// The Admin page's workers (docs/analysis.md): GET the list, POST {"name"} a new key (shown once),
// DELETE /analysis-workers/{name} its revocation; each logged in the audit log.
ApiResponse Api::admin_workers(const ApiRequest& r, std::string_view rest,
                               const store::UserRecord& admin) {
  if (!archive_.analysis) return error(503, "analysis_disabled", "this server analyses no games");
  auto& analysis = *archive_.analysis;
  const auto now = archive_.clock->unix_ms();
  if (rest == "analysis-workers") {
    if (r.method == "GET") {
      std::vector<wire::WorkerView> list;
      for (const auto& w : analysis.workers())
        list.push_back({w.name, w.created_at_ms, w.last_seen_at_ms, w.revoked_at_ms});
      return ApiResponse{200, wire::encode_workers(list), {}};
    }
    if (r.method != "POST") return error(405, "method_not_allowed", "use GET or POST");
    const auto decoded = wire::decode_worker_name(r.body);
    if (const auto* why = std::get_if<1>(&decoded)) return error(400, "bad_request", *why);
    const auto& name = std::get<0>(decoded);
    const auto key = analysis.make_key(name);
    if (!key)
      return error(409, "bad_worker_name",
                   "a worker is named '" + name +
                       "' already, or the name is not 1 to 40 letters, digits, '-', '_' or '.'");
    moderation_->log({.at_ms = now,
                      .actor_id = admin.id,
                      .action = "make_worker_key",
                      .detail = "worker " + name});
    return ApiResponse{201, wire::encode_worker_key(name, *key), {}};
  }
  const std::string name(rest.substr(std::string_view("analysis-workers/").size()));
  if (r.method != "DELETE") return error(405, "method_not_allowed", "use DELETE to revoke its key");
  if (!analysis.revoke(name))
    return error(404, "not_found", "no worker '" + name + "' with a key that works");
  moderation_->log({.at_ms = now,
                    .actor_id = admin.id,
                    .action = "revoke_worker_key",
                    .detail = "worker " + name});
  return ApiResponse{204, "", {}};
}

}  // namespace tengen
