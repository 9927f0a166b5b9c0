#include "store/position_analysis_store.h"

namespace tengen::store {
namespace {

using sql::Value;

constexpr const char* kColumns =
    "id, review_id, node, requested_by, requested_at, sgf, from_move, state, worker_id, "
    "claimed_until, attempts, engine, result, error, finished_at";

PositionJobRow row_at(const sql::Rows& r, std::size_t i) {
  PositionJobRow j;
  j.id = r.integer(i, 0);
  j.review_id = r.integer(i, 1);
  j.node = r.integer(i, 2);
  j.requested_by = r.optional_integer(i, 3);
  j.requested_at_ms = r.integer(i, 4);
  j.sgf = r.text(i, 5);
  j.from_move = static_cast<int>(r.integer(i, 6));
  j.state = r.text(i, 7);
  j.worker_id = r.optional_integer(i, 8);
  j.claimed_until_ms = r.integer(i, 9);
  j.attempts = static_cast<int>(r.integer(i, 10));
  j.engine = r.text(i, 11);
  j.result = r.text(i, 12);
  j.error = r.text(i, 13);
  j.finished_at_ms = r.optional_integer(i, 14);
  return j;
}

std::optional<PositionJobRow> first(const sql::Rows& r) {
  if (r.empty()) return std::nullopt;
  return row_at(r, 0);
}

constexpr const char* kUnfinished = "state IN ('queued', 'running')";

}  // namespace

std::optional<PositionJobRow> PositionAnalysisStore::job(std::int64_t id) {
  std::lock_guard lock(mutex_);
  return first(
      db_->run(std::string("SELECT ") + kColumns + " FROM position_analyses WHERE id = ?", {id}));
}

std::optional<PositionJobRow> PositionAnalysisStore::at(std::int64_t review, std::int64_t node) {
  std::lock_guard lock(mutex_);
  return first(db_->run(std::string("SELECT ") + kColumns +
                            " FROM position_analyses WHERE review_id = ? AND node = ?"
                            " ORDER BY id DESC LIMIT 1",
                        {review, node}));
}

std::int64_t PositionAnalysisStore::enqueue(std::int64_t review, std::int64_t node,
                                            std::optional<std::int64_t> requested_by,
                                            const std::string& sgf, int from_move,
                                            std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_
      ->run(
          "INSERT INTO position_analyses(review_id, node, requested_by, requested_at, sgf, "
          "from_move) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
          {review, node, requested_by ? Value{*requested_by} : Value{}, now_ms, sgf,
           std::int64_t{from_move}})
      .integer(0, 0);
}

int PositionAnalysisStore::requested_since(std::int64_t user, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(db_->run("SELECT count(*) FROM position_analyses"
                                   " WHERE requested_by = ? AND requested_at >= ?",
                                   {user, since_ms})
                              .integer(0, 0));
}

int PositionAnalysisStore::unfinished(std::optional<std::int64_t> user) {
  std::lock_guard lock(mutex_);
  if (!user)
    return static_cast<int>(
        db_->run(std::string("SELECT count(*) FROM position_analyses WHERE ") + kUnfinished)
            .integer(0, 0));
  return static_cast<int>(db_->run(std::string("SELECT count(*) FROM position_analyses WHERE ") +
                                       kUnfinished + " AND requested_by = ?",
                                   {*user})
                              .integer(0, 0));
}

int PositionAnalysisStore::ahead_of(std::int64_t id) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(db_->run(std::string("SELECT count(*) FROM position_analyses WHERE ") +
                                       kUnfinished + " AND id < ?",
                                   {id})
                              .integer(0, 0));
}

std::optional<PositionJobRow> PositionAnalysisStore::claim(std::int64_t worker, std::int64_t now_ms,
                                                           std::int64_t until_ms,
                                                           int max_attempts) {
  std::lock_guard lock(mutex_);
  // Written once for both databases: the oldest candidate is taken by a compare-and-set on its
  // claim (state, claim and attempts as read); a node that lost the race to another tries the
  // next. Waiting positions are few (one position each, a few seconds of a worker's time).
  for (int tries = 0; tries < 8; ++tries) {
    const auto candidate = first(db_->run(std::string("SELECT ") + kColumns +
                                              " FROM position_analyses WHERE (state = 'queued'"
                                              " OR (state = 'running' AND claimed_until < ?))"
                                              " ORDER BY requested_at, id LIMIT 1",
                                          {now_ms}));
    if (!candidate) return std::nullopt;
    if (candidate->attempts >= max_attempts) {
      db_->run(
          "UPDATE position_analyses SET state = 'failed', error = 'no worker finished it',"
          " finished_at = ? WHERE id = ? AND state = ? AND claimed_until = ? AND attempts = ?",
          {now_ms, candidate->id, candidate->state, candidate->claimed_until_ms,
           std::int64_t{candidate->attempts}});
      continue;
    }
    const auto taken = db_->run(
        "UPDATE position_analyses SET state = 'running', worker_id = ?, claimed_until = ?,"
        " attempts = attempts + 1 WHERE id = ? AND state = ? AND claimed_until = ?"
        " AND attempts = ?",
        {worker, until_ms, candidate->id, candidate->state, candidate->claimed_until_ms,
         std::int64_t{candidate->attempts}});
    if (taken.changed == 0) continue;  // another node's worker took it first
    auto row = *candidate;
    row.state = "running";
    row.worker_id = worker;
    row.claimed_until_ms = until_ms;
    row.attempts += 1;
    return row;
  }
  return std::nullopt;
}

bool PositionAnalysisStore::extend(std::int64_t id, std::int64_t worker, std::int64_t until_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "UPDATE position_analyses SET claimed_until = ?"
                " WHERE id = ? AND worker_id = ? AND state = 'running'",
                {until_ms, id, worker})
             .changed > 0;
}

bool PositionAnalysisStore::finish(std::int64_t id, std::int64_t worker, const std::string& engine,
                                   const std::string& result, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "UPDATE position_analyses SET state = 'done', engine = ?, result = ?,"
                " finished_at = ? WHERE id = ? AND worker_id = ? AND state = 'running'",
                {engine, result, now_ms, id, worker})
             .changed > 0;
}

bool PositionAnalysisStore::fail(std::int64_t id, std::int64_t worker, const std::string& error,
                                 std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "UPDATE position_analyses SET state = 'failed', error = ?, finished_at = ?"
                " WHERE id = ? AND worker_id = ? AND state = 'running'",
                {error, now_ms, id, worker})
             .changed > 0;
}

}  // namespace tengen::store
