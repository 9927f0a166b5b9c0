#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "store/sql.h"

namespace tengen::store {

// A review board's position, analysed on request (docs/analysis.md, "In a review board").
struct PositionJobRow {
  std::int64_t id = 0;
  std::int64_t review_id = 0;
  std::int64_t node = 0;
  std::optional<std::int64_t> requested_by;
  std::int64_t requested_at_ms = 0;
  std::string sgf;    // the line from the board's start to the position
  int from_move = 0;  // the position analysed: the line's last (its number of moves)
  std::string state;  // queued, running, done, failed
  std::optional<std::int64_t> worker_id;
  std::int64_t claimed_until_ms = 0;
  int attempts = 0;
  std::string engine;
  std::string result;  // JSON as the server wrote it (one position)
  std::string error;
  std::optional<std::int64_t> finished_at_ms;
};

// The position_analyses table (migrations 0014_position_analysis.sql), written once for SQLite and
// PostgreSQL over sql::Connection. Safe from any thread. A queue beside the games' (AnalysisStore)
// that the same workers empty: a job is claimed by one worker at a time, on any node.
class PositionAnalysisStore {
 public:
  explicit PositionAnalysisStore(std::unique_ptr<sql::Connection> db) : db_(std::move(db)) {}

  std::optional<PositionJobRow> job(std::int64_t id);
  // The latest job for this node of this board (nullopt if none).
  std::optional<PositionJobRow> at(std::int64_t review, std::int64_t node);
  // Queues it: its id.
  std::int64_t enqueue(std::int64_t review, std::int64_t node,
                       std::optional<std::int64_t> requested_by, const std::string& sgf,
                       int from_move, std::int64_t now_ms);
  // Jobs the user asked for since then (the daily allowance).
  int requested_since(std::int64_t user, std::int64_t since_ms);
  // Jobs waiting or running: the user's, or everyone's (nullopt).
  int unfinished(std::optional<std::int64_t> user);
  // Jobs waiting or running asked for before this one.
  int ahead_of(std::int64_t id);
  // The oldest job waiting, or running with its claim run out, now the worker's until `until_ms`;
  // one claimed `max_attempts` times already fails instead. nullopt if none.
  std::optional<PositionJobRow> claim(std::int64_t worker, std::int64_t now_ms,
                                      std::int64_t until_ms, int max_attempts);
  // The worker's claim extended to `until_ms` (0: given back); false if it no longer holds it.
  bool extend(std::int64_t id, std::int64_t worker, std::int64_t until_ms);
  bool finish(std::int64_t id, std::int64_t worker, const std::string& engine,
              const std::string& result, std::int64_t now_ms);
  bool fail(std::int64_t id, std::int64_t worker, const std::string& error, std::int64_t now_ms);

 private:
  std::mutex mutex_;
  std::unique_ptr<sql::Connection> db_;
};

}  // namespace tengen::store
