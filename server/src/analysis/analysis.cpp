#include "analysis/analysis.h"

#include <sodium.h>

#include <cctype>

#include "accounts/tokens.h"
#include "analysis/validate.h"
#include "protocol/codec.h"
#include "protocol/settings.h"

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

Analysis::Queue Analysis::queue() {
  Queue q;
  try {
    q.unfinished = store_.unfinished(std::nullopt) + positions_.unfinished(std::nullopt);
    const auto now = clock_.unix_ms();
    for (const auto& w : store_.workers())
      if (!w.revoked_at_ms && w.last_seen_at_ms && *w.last_seen_at_ms >= now - 5 * 60 * 1000)
        ++q.workers_seen;
  } catch (const std::exception&) {
    return {};  // the database away: /metrics answers without these
  }
  return q;
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
  // Done, waiting or running: as it is. Failed (its worker's engine broke, or a result was
  // refused): asked again, it waits again, within the same allowances.
  if (const auto row = store_.job(game); row && row->state != "failed") return view_of(*row);
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

wire::PositionAnalysisView Analysis::position_view(const store::PositionJobRow& row) {
  wire::PositionAnalysisView v;
  v.id = row.id;
  v.review = row.review_id;
  v.node = row.node;
  v.state = row.state;
  v.engine = row.engine;
  v.error = row.error;
  if (row.state == "queued" || row.state == "running") v.ahead = positions_.ahead_of(row.id);
  if (row.state == "done") {
    auto decoded = wire::decode_analysis_result(row.result);
    if (auto* r = std::get_if<wire::AnalysisResult>(&decoded); r && !r->positions.empty())
      v.position = r->positions.front();
  }
  return v;
}

Analysis::PositionAnswer Analysis::request_position(std::int64_t review, std::int64_t node,
                                                    const GameRecord& line, std::int64_t user) {
  // Fair play: a board may hold the position of a game its reader is playing.
  for (const auto& g : games_.games_of(user, store::Page{.before = std::nullopt, .limit = 20})) {
    if (g.ended_at_ms) continue;
    const auto settings = protocol::decode_stored_settings(g.settings);
    const auto* s = std::get_if<protocol::GameSettings>(&settings);
    if (!s || s->time.system != protocol::TimeControl::System::Correspondence)
      return refusal(409, "playing_now",
                     "you are playing game " + std::to_string(g.id) +
                         ": the engine is for after your games; ask again once it is over");
  }
  const auto sgf = write_sgf(line);
  if (const auto row = positions_.at(review, node);
      row && row->sgf == sgf && row->state != "failed")
    return position_view(*row);
  const auto now = clock_.unix_ms();
  if (positions_.requested_since(user, now - kDayMs) >= limits_.positions_per_day)
    return refusal(429, "analysis_allowance",
                   "you have asked for " + std::to_string(limits_.positions_per_day) +
                       " positions today; ask again tomorrow");
  if (positions_.unfinished(user) + store_.unfinished(user) >= limits_.waiting_per_account)
    return refusal(429, "analysis_waiting",
                   "you have " + std::to_string(limits_.waiting_per_account) +
                       " analyses waiting already; ask again when one is done");
  if (positions_.unfinished(std::nullopt) + store_.unfinished(std::nullopt) >= limits_.queue)
    return refusal(503, "analysis_queue_full",
                   "the analysis queue is full; try again in a few minutes");
  int moves = 0;
  for (const auto& m : line.moves) moves += m.is_move() ? 1 : 0;
  const auto id = positions_.enqueue(review, node, user, sgf, moves, now);
  const auto row = positions_.job(id);
  if (!row) return refusal(404, "not_found", "the job is gone");
  return position_view(*row);
}

Analysis::PositionAnswer Analysis::request_relay_position(std::int64_t review, std::int64_t node,
                                                          const GameRecord& line,
                                                          std::int64_t director) {
  const auto sgf = write_sgf(line);
  if (const auto row = positions_.at(review, node);
      row && row->sgf == sgf && row->state != "failed")
    return position_view(*row);
  if (positions_.unfinished(director) >= kRelayWaiting)
    return refusal(429, "analysis_waiting",
                   "your relays have " + std::to_string(kRelayWaiting) +
                       " positions waiting for the engine already");
  if (positions_.unfinished(std::nullopt) + store_.unfinished(std::nullopt) >= limits_.queue)
    return refusal(503, "analysis_queue_full",
                   "the analysis queue is full; try again in a few minutes");
  int moves = 0;
  for (const auto& m : line.moves) moves += m.is_move() ? 1 : 0;
  const auto id = positions_.enqueue(review, node, director, sgf, moves, clock_.unix_ms());
  const auto row = positions_.job(id);
  if (!row) return refusal(404, "not_found", "the job is gone");
  return position_view(*row);
}

std::optional<wire::PositionAnalysisView> Analysis::position_at(std::int64_t review,
                                                                std::int64_t node) {
  const auto row = positions_.at(review, node);
  if (!row) return std::nullopt;
  return position_view(*row);
}

std::optional<wire::PositionAnalysisView> Analysis::position(std::int64_t review, std::int64_t id) {
  const auto row = positions_.job(id);
  if (!row || row->review_id != review) return std::nullopt;
  return position_view(*row);
}

std::optional<wire::AnalysisJob> Analysis::acquire(const store::AnalysisWorker& worker,
                                                   bool positions) {
  const auto now = clock_.unix_ms();
  // A position is one engine search, for someone waiting on a review board: it goes first.
  if (positions) {
    if (auto row = positions_.claim(worker.id, now, now + limits_.claim_ms, limits_.attempts)) {
      wire::AnalysisJob job;
      job.position = row->id;
      job.sgf = row->sgf;
      job.positions = 1;
      job.from = row->from_move;
      return job;
    }
  }
  while (auto row = store_.claim(worker.id, now, now + limits_.claim_ms, limits_.attempts)) {
    const auto sgf = games_.finished_sgf(row->game_id);
    if (sgf) {
      wire::AnalysisJob job;
      job.game = row->game_id;
      job.sgf = *sgf;
      job.positions = row->moves_total;
      return job;
    }
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

std::optional<Analysis::Refusal> Analysis::position_progress(const store::AnalysisWorker& worker,
                                                             std::int64_t position) {
  if (!positions_.extend(position, worker.id, clock_.unix_ms() + limits_.claim_ms))
    return refusal(409, "not_yours",
                   "this worker no longer holds position " + std::to_string(position));
  return std::nullopt;
}

std::optional<Analysis::Refusal> Analysis::submit_position(const store::AnalysisWorker& worker,
                                                           std::int64_t position,
                                                           std::string_view body) {
  const auto row = positions_.job(position);
  if (!row || row->state != "running" || row->worker_id != worker.id)
    return refusal(409, "not_yours",
                   "this worker no longer holds position " + std::to_string(position));
  auto decoded = wire::decode_analysis_result(body);
  std::optional<std::string> problem;
  if (auto* why = std::get_if<std::string>(&decoded))
    problem = *why;
  else
    problem = analysis::check_result(read_sgf(row->sgf), std::get<wire::AnalysisResult>(decoded),
                                     row->from_move);
  const auto now = clock_.unix_ms();
  if (problem) {
    positions_.fail(position, worker.id, "the worker's result was refused: " + *problem, now);
    return refusal(400, "bad_result", *problem);
  }
  const auto& result = std::get<wire::AnalysisResult>(decoded);
  if (!positions_.finish(position, worker.id, result.engine, wire::encode_analysis_result(result),
                         now))
    return refusal(409, "not_yours",
                   "this worker no longer holds position " + std::to_string(position));
  return std::nullopt;
}

std::optional<Analysis::Refusal> Analysis::give_back_position(const store::AnalysisWorker& worker,
                                                              std::int64_t position) {
  if (!positions_.extend(position, worker.id, 0))
    return refusal(409, "not_yours",
                   "this worker no longer holds position " + std::to_string(position));
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
