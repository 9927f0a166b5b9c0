#include "analysis/analysis.h"

#include <sodium.h>

#include <cctype>

#include "accounts/tokens.h"
#include "analysis/validate.h"
#include "protocol/codec.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
constexpr std::int64_t kDayMs = 24 * 3600 * 1000;

std::string key_hash(const std::string& key) {
  const auto h = hash_token(key);
  std::string hex(h.size() * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), h.data(), h.size());
  hex.pop_back();
  return hex;
}

bool good_name(const std::string& name) {
  if (name.empty() || name.size() > 40) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
      return false;
  return true;
}

Analysis::Refusal refusal(int status, std::string code, std::string message) {
  return {status, std::move(code), std::move(message)};
}

}  // namespace

std::optional<std::string> Analysis::make_key(store::AnalysisStore& store, const std::string& name,
                                              std::int64_t now_ms) {
  if (!good_name(name)) return std::nullopt;
  auto key = "tw_" + random_token(32);
  if (!store.add_worker(name, key_hash(key), now_ms)) return std::nullopt;
  return key;
}

std::string Analysis::renew_key(const std::string& name) {
  auto key = "tw_" + random_token(32);
  store_.set_worker_key(name, key_hash(key), clock_.unix_ms());
  return key;
}

std::optional<store::AnalysisWorker> Analysis::worker(const std::string& key) {
  if (key.empty()) return std::nullopt;
  return store_.worker_by_key(key_hash(key), clock_.unix_ms());
}

wire::AnalysisView Analysis::view_of(const store::AnalysisJobRow& row) {
  wire::AnalysisView v;
  v.game = row.game_id;
  v.state = row.state;
  v.done = row.moves_done;
  v.total = row.moves_total;
  v.engine = row.engine;
  v.error = row.error;
  if (row.state == "queued" || row.state == "running") v.ahead = store_.ahead_of(row.game_id);
  if (row.state == "done") {
    auto decoded = wire::decode_analysis_result(row.result);
    if (auto* r = std::get_if<wire::AnalysisResult>(&decoded)) v.result = std::move(*r);
  }
  return v;
}

Analysis::Answer Analysis::request(std::int64_t game, std::int64_t user, bool is_player) {
  const auto summary = games_.game(game);
  if (!summary) return refusal(404, "not_found", "no game " + std::to_string(game));
  if (!summary->ended_at_ms)
    return refusal(409, "game_in_play",
                   "a game is analysed once it is over: no engine help while it is played");
  if (const auto row = store_.job(game)) return view_of(*row);
  const auto now = clock_.unix_ms();
  const int per_day = is_player ? limits_.own_per_day : limits_.others_per_day;
  if (store_.requested_since(user, now - kDayMs) >= per_day)
    return refusal(
        429, "analysis_allowance",
        "you have asked for " + std::to_string(per_day) + " analyses today; ask again tomorrow");
  if (store_.unfinished(user) >= limits_.waiting_per_account)
    return refusal(429, "analysis_waiting",
                   "you have " + std::to_string(limits_.waiting_per_account) +
                       " analyses waiting already; ask again when one is done");
  if (store_.unfinished(std::nullopt) >= limits_.queue)
    return refusal(503, "analysis_queue_full",
                   "the analysis queue is full; try again in a few minutes");
  const auto sgf = games_.finished_sgf(game);
  if (!sgf) return refusal(404, "not_found", "no game " + std::to_string(game));
  const int positions = analysis::positions_of(read_sgf(*sgf));
  store_.enqueue(game, user, positions, now);
  auto row = store_.job(game);
  if (!row) return refusal(404, "not_found", "no game " + std::to_string(game));
  return view_of(*row);
}

Analysis::Answer Analysis::view(std::int64_t game) {
  const auto row = store_.job(game);
  if (!row) {  // nobody has asked for it yet
    wire::AnalysisView none;
    none.game = game;
    none.state = "none";
    return none;
  }
  return view_of(*row);
}

Analysis::Queued Analysis::queue_ended(std::int64_t since_ms) {
  const int room = limits_.queue - store_.unfinished(std::nullopt);
  if (room <= 0) return {0, true};
  const int games = store_.enqueue_ended(since_ms, kEveryGameMinMoves, room, clock_.unix_ms());
  return {games, games == room};
}

std::optional<wire::AnalysisJob> Analysis::acquire(const store::AnalysisWorker& worker) {
  const auto now = clock_.unix_ms();
  while (auto row = store_.claim(worker.id, now, now + limits_.claim_ms, limits_.attempts)) {
    const auto sgf = games_.finished_sgf(row->game_id);
    if (sgf) return wire::AnalysisJob{row->game_id, *sgf, row->moves_total};
    store_.fail(row->game_id, worker.id, "the game's record is gone", now);
  }
  return std::nullopt;
}

std::optional<Analysis::Refusal> Analysis::progress(const store::AnalysisWorker& worker,
                                                    std::int64_t game, int done) {
  if (!store_.progress(game, worker.id, done, clock_.unix_ms() + limits_.claim_ms))
    return refusal(409, "not_yours", "this worker no longer holds game " + std::to_string(game));
  return std::nullopt;
}

std::optional<Analysis::Refusal> Analysis::submit(const store::AnalysisWorker& worker,
                                                  std::int64_t game, std::string_view body) {
  const auto row = store_.job(game);
  if (!row || row->state != "running" || row->worker_id != worker.id)
    return refusal(409, "not_yours", "this worker no longer holds game " + std::to_string(game));
  auto decoded = wire::decode_analysis_result(body);
  std::optional<std::string> problem;
  if (auto* why = std::get_if<std::string>(&decoded)) {
    problem = *why;
  } else {
    const auto sgf = games_.finished_sgf(game);
    if (!sgf) return refusal(404, "not_found", "no game " + std::to_string(game));
    problem = analysis::check_result(read_sgf(*sgf), std::get<wire::AnalysisResult>(decoded));
  }
  const auto now = clock_.unix_ms();
  if (problem) {
    // A worker that sends what does not fit the game is broken or hostile: the job ends with the
    // reason, for an administrator to see; a player may not ask for it again in vain.
    store_.fail(game, worker.id, "the worker's result was refused: " + *problem, now);
    return refusal(400, "bad_result", *problem);
  }
  const auto& result = std::get<wire::AnalysisResult>(decoded);
  // Kept as the server writes it (numbers rounded, moves upper case), never the worker's text.
  if (!store_.finish(game, worker.id, result.engine, wire::encode_analysis_result(result), now))
    return refusal(409, "not_yours", "this worker no longer holds game " + std::to_string(game));
  return std::nullopt;
}

std::optional<Analysis::Refusal> Analysis::give_back(const store::AnalysisWorker& worker,
                                                     std::int64_t game) {
  // Its claim ends now: the next worker to ask takes it (counted as an attempt).
  if (!store_.progress(game, worker.id, 0, 0))
    return refusal(409, "not_yours", "this worker no longer holds game " + std::to_string(game));
  return std::nullopt;
}

std::string Analysis::with_analysis(std::int64_t game, std::string sgf) {
  const auto row = store_.job(game);
  if (!row || row->state != "done") return sgf;
  auto decoded = wire::decode_analysis_result(row->result);
  if (auto* r = std::get_if<wire::AnalysisResult>(&decoded)) {
    try {
      return analysis::annotated_sgf(sgf, *r);
    } catch (const std::exception&) {
      return sgf;
    }
  }
  return sgf;
}

}  // namespace tengen
