// Analysis after the game over HTTP (docs/analysis.md): players ask for a finished game's analysis
// and read it; workers, with their keys, take jobs and hand in results.
#include "analysis/analysis.h"
#include "analysis/validate.h"
#include "http/api.h"
#include "http/api_util.h"
#include "protocol/codec.h"
#include "store/moderation_store.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using api::error;

// How many jobs of each kind the Admin page lists: waiting or running, and ended.
constexpr int kJobsListed = 100;

// A refusal as the response: its status, code and words; a full queue or a busy service (429,
// 503) says when to try again.
ApiResponse refusal(const Analysis::Refusal& no) {
  auto response = error(no.status, no.code, no.message);
  if (no.status == 429 || no.status == 503) response.retry_after_s = 60;
  return response;
}

ApiResponse answer(const Analysis::Answer& a, int ok_status) {
  if (const auto* no = std::get_if<Analysis::Refusal>(&a)) return refusal(*no);
  return ApiResponse{ok_status, wire::encode_analysis_view(std::get<wire::AnalysisView>(a)), {}};
}

std::optional<ApiResponse> refused(const std::optional<Analysis::Refusal>& no) {
  if (!no) return std::nullopt;
  return refusal(*no);
}

// A worker's calls on a job it holds: {id}/progress, {id}/result, {id}/give-back.
template <typename Calls>
ApiResponse worker_call(const ApiRequest& r, std::string_view rest, const Calls& calls) {
  const auto slash = rest.find('/');
  const auto id = api::parse_int(rest.substr(0, slash));
  if (slash == std::string_view::npos || !id || *id < 1)
    return error(404, "not_found", "no such endpoint: see docs/analysis.md");
  const auto what = rest.substr(slash + 1);
  std::optional<Analysis::Refusal> no;
  if (what == "progress") {
    const auto done = wire::decode_analysis_progress(r.body);
    if (const auto* why = std::get_if<std::string>(&done)) return error(400, "bad_request", *why);
    no = calls.progress(*id, std::get<int>(done));
  } else if (what == "result") {
    no = calls.result(*id, r.body);
  } else if (what == "give-back") {
    no = calls.give_back(*id);
  } else {
    return error(404, "not_found", "no such endpoint: see docs/analysis.md");
  }
  if (auto answer = refused(no)) return *answer;
  return ApiResponse{204, "", {}};
}

}  // namespace

// GET and POST /api/v1/games/{id}/analysis (players), POST /api/v1/analysis/acquire,
// /api/v1/analysis/{game}/progress|result|give-back and
// /api/v1/analysis/positions/{id}/progress|result|give-back (workers); nullopt for other paths.
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
    const auto settings = protocol::decode_stored_settings(game->settings);
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
    // {"positions": true}: the worker takes review boards' positions too (one written before
    // they existed sends {} and is given games only).
    const auto job = analysis.acquire(*worker, wire::acquires_positions(r.body));
    if (!job) return ApiResponse{204, "", {}};
    return ApiResponse{200, wire::encode_analysis_job(*job), {}};
  }
  std::string_view rest = path.substr(kWorker.size());
  if (rest.starts_with("positions/")) {
    struct {
      Analysis& a;
      const store::AnalysisWorker& w;
      auto progress(std::int64_t id, int) const { return a.position_progress(w, id); }
      auto result(std::int64_t id, std::string_view body) const {
        return a.submit_position(w, id, body);
      }
      auto give_back(std::int64_t id) const { return a.give_back_position(w, id); }
    } calls{analysis, *worker};
    return worker_call(r, rest.substr(std::string_view("positions/").size()), calls);
  }
  struct {
    Analysis& a;
    const store::AnalysisWorker& w;
    auto progress(std::int64_t id, int done) const { return a.progress(w, id, done); }
    auto result(std::int64_t id, std::string_view body) const { return a.submit(w, id, body); }
    auto give_back(std::int64_t id) const { return a.give_back(w, id); }
  } calls{analysis, *worker};
  return worker_call(r, rest, calls);
}

ApiResponse Api::review_analysis(const ApiRequest& r, std::int64_t review, std::string_view rest) {
  if (!archive_.analysis) return error(503, "analysis_disabled", "this server analyses no games");
  auto& analysis = *archive_.analysis;
  const auto viewer = r.token.empty() ? std::nullopt : accounts_.authenticate(r.token);
  const wire::Viewer who = viewer ? wire::Viewer{viewer->id, viewer->is_admin} : wire::Viewer{};
  const auto record = review_record(review, who);
  if (!record) return error(404, "not_found", "no review " + std::to_string(review));
  if (rest.starts_with("/")) {  // GET .../analysis/{job}
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    const auto job = api::parse_int(rest.substr(1));
    if (!job || *job < 1) return error(400, "bad_request", "the job id must be a positive integer");
    const auto view = analysis.position(review, *job);
    if (!view)
      return error(404, "not_found", "no such analysis of review " + std::to_string(review));
    return ApiResponse{200, wire::encode_position_view(*view), {}};
  }
  if (!rest.empty()) return error(404, "not_found", "no such endpoint: see docs/analysis.md");
  if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
  if (!api::is_json(r)) return api::not_json();
  if (!viewer) return error(401, "not_authenticated", "log in first");
  const auto asked = wire::decode_position_request(r.body);
  if (const auto* why = std::get_if<std::string>(&asked)) return error(400, "bad_request", *why);
  const auto& request = std::get<wire::PositionRequest>(asked);
  std::variant<GameRecord, std::string> line = std::string();
  try {
    line = analysis::line_of(read_sgf_tree(*record), request.line);
  } catch (const std::exception& e) {
    return error(409, "bad_position",
                 std::string("the board's record cannot be read: ") + e.what());
  }
  if (const auto* why = std::get_if<std::string>(&line)) return error(409, "bad_position", *why);
  const auto answer =
      analysis.request_position(review, request.node, std::get<GameRecord>(line), viewer->id);
  if (const auto* no = std::get_if<Analysis::Refusal>(&answer)) return refusal(*no);
  const auto& view = std::get<wire::PositionAnalysisView>(answer);
  return ApiResponse{view.state == "done" ? 200 : 202, wire::encode_position_view(view), {}};
}

// The Admin page's workers (docs/analysis.md): GET the list, POST {"name"} a new key (shown once),
// DELETE /analysis-workers/{name} its revocation, each logged in the audit log; and GET
// /analysis-jobs, the queue.
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
  if (rest == "analysis-jobs") {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    std::vector<wire::JobView> list;
    for (const auto& [job, requester, worker] : analysis.listed_jobs(kJobsListed)) {
      list.push_back({job.game_id, job.state, requester, job.requested_at_ms, worker, job.attempts,
                      job.moves_done, job.moves_total, job.engine, job.error, job.finished_at_ms});
    }
    return ApiResponse{200, wire::encode_jobs(list), {}};
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
