#include "store/sqlite_analysis_store.h"

namespace tengen::store {
namespace {

constexpr std::int64_t kSeenEvery = 60'000;  // ms between writes of a worker's last_seen

constexpr const char* kJobColumns =
    "game_id, requested_by, requested_at, state, worker_id, claimed_until, attempts, moves_done,"
    " moves_total, engine, result, error, finished_at";

AnalysisJobRow job_at(const Statement& q) {
  return AnalysisJobRow{q.column_int(0),
                        q.column_optional_int(1),
                        q.column_int(2),
                        q.column_text(3),
                        q.column_optional_int(4),
                        q.column_int(5),
                        static_cast<int>(q.column_int(6)),
                        static_cast<int>(q.column_int(7)),
                        static_cast<int>(q.column_int(8)),
                        q.column_text(9),
                        q.column_text(10),
                        q.column_text(11),
                        q.column_optional_int(12)};
}

}  // namespace

std::optional<std::int64_t> SqliteAnalysisStore::add_worker(const std::string& name,
                                                            const std::string& key_hash,
                                                            std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "INSERT INTO analysis_workers(name, key_hash, created_at) VALUES (?, ?, ?)"
              " ON CONFLICT DO NOTHING");
  q.bind(1, name).bind(2, key_hash).bind(3, now_ms).run();
  if (q.changes() == 0) return std::nullopt;
  return q.last_insert_rowid();
}

void SqliteAnalysisStore::set_worker_key(const std::string& name, const std::string& key_hash,
                                         std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "INSERT INTO analysis_workers(name, key_hash, created_at) VALUES (?, ?, ?)"
              " ON CONFLICT(name) DO UPDATE SET key_hash = excluded.key_hash, revoked_at = NULL");
  q.bind(1, name).bind(2, key_hash).bind(3, now_ms).run();
}

bool SqliteAnalysisStore::revoke_worker(const std::string& name, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "UPDATE analysis_workers SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL");
  q.bind(1, now_ms).bind(2, name).run();
  return q.changes() > 0;
}

std::optional<AnalysisWorker> SqliteAnalysisStore::worker_by_key(const std::string& key_hash,
                                                                 std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "SELECT id, name, created_at, revoked_at, last_seen_at FROM analysis_workers"
              " WHERE key_hash = ? AND revoked_at IS NULL");
  q.bind(1, key_hash);
  if (!q.step()) return std::nullopt;
  AnalysisWorker w{q.column_int(0), q.column_text(1), q.column_int(2), q.column_optional_int(3),
                   q.column_optional_int(4)};
  q.reset();
  // Written at most once a minute: a worker asks every few seconds.
  if (!w.last_seen_at_ms || now_ms - *w.last_seen_at_ms >= kSeenEvery) {
    Statement seen(db_, "UPDATE analysis_workers SET last_seen_at = ? WHERE id = ?");
    seen.bind(1, now_ms).bind(2, w.id).run();
    w.last_seen_at_ms = now_ms;
  }
  return w;
}

std::vector<AnalysisWorker> SqliteAnalysisStore::workers() {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "SELECT id, name, created_at, revoked_at, last_seen_at FROM analysis_workers"
              " ORDER BY id");
  std::vector<AnalysisWorker> out;
  while (q.step())
    out.push_back({q.column_int(0), q.column_text(1), q.column_int(2), q.column_optional_int(3),
                   q.column_optional_int(4)});
  return out;
}

std::optional<AnalysisJobRow> SqliteAnalysisStore::job_locked(std::int64_t game_id) {
  Statement q(db_, std::string("SELECT ") + kJobColumns + " FROM analysis_jobs WHERE game_id = ?");
  q.bind(1, game_id);
  if (!q.step()) return std::nullopt;
  return job_at(q);
}

std::optional<AnalysisJobRow> SqliteAnalysisStore::job(std::int64_t game_id) {
  std::lock_guard lock(mutex_);
  return job_locked(game_id);
}

bool SqliteAnalysisStore::enqueue(std::int64_t game_id, std::optional<std::int64_t> requested_by,
                                  int moves_total, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "INSERT INTO analysis_jobs(game_id, requested_by, requested_at, moves_total)"
              " VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET requested_by = "
              "excluded.requested_by,"
              " requested_at = excluded.requested_at, state = 'queued', worker_id = NULL,"
              " claimed_until = 0, attempts = 0, moves_done = 0, error = '', finished_at = NULL"
              " WHERE analysis_jobs.state = 'failed'");
  q.bind(1, game_id).bind(2, requested_by).bind(3, now_ms).bind(4, std::int64_t{moves_total}).run();
  return q.changes() > 0;
}

int SqliteAnalysisStore::enqueue_ended(std::int64_t since_ms, int min_moves, int most,
                                       std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "INSERT INTO analysis_jobs(game_id, requested_by, requested_at, moves_total)"
              " SELECT id, NULL, ?, move_count + 1 FROM games g WHERE ended_at >= ?"
              " AND sgf IS NOT NULL AND move_count >= ? AND NOT EXISTS (SELECT 1 FROM"
              " analysis_jobs j WHERE j.game_id = g.id) ORDER BY ended_at, id LIMIT ?"
              " ON CONFLICT DO NOTHING");
  q.bind(1, now_ms).bind(2, since_ms).bind(3, std::int64_t{min_moves}).bind(4, std::int64_t{most});
  q.run();
  return q.changes();
}

int SqliteAnalysisStore::requested_since(std::int64_t user_id, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "SELECT count(*) FROM analysis_jobs WHERE requested_by = ? AND requested_at >= ?");
  q.bind(1, user_id).bind(2, since_ms);
  q.step();
  return static_cast<int>(q.column_int(0));
}

int SqliteAnalysisStore::unfinished(std::optional<std::int64_t> user_id) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "SELECT count(*) FROM analysis_jobs WHERE state IN ('queued', 'running')"
              " AND (? IS NULL OR requested_by = ?)");
  q.bind(1, user_id).bind(2, user_id);
  q.step();
  return static_cast<int>(q.column_int(0));
}

int SqliteAnalysisStore::ahead_of(std::int64_t game_id) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "SELECT count(*) FROM analysis_jobs a, analysis_jobs me WHERE me.game_id = ?"
              " AND a.state IN ('queued', 'running') AND (a.requested_at < me.requested_at OR"
              " (a.requested_at = me.requested_at AND a.game_id < me.game_id))");
  q.bind(1, game_id);
  q.step();
  return static_cast<int>(q.column_int(0));
}

std::optional<AnalysisJobRow> SqliteAnalysisStore::claim(std::int64_t worker_id,
                                                         std::int64_t now_ms, std::int64_t until_ms,
                                                         int max_attempts) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  Statement give_up(db_,
                    "UPDATE analysis_jobs SET state = 'failed', finished_at = ?,"
                    " error = 'no worker finished it' WHERE state = 'running'"
                    " AND claimed_until < ? AND attempts >= ?");
  give_up.bind(1, now_ms).bind(2, now_ms).bind(3, std::int64_t{max_attempts}).run();
  Statement next(db_,
                 "SELECT game_id FROM analysis_jobs WHERE state = 'queued' OR (state = 'running'"
                 " AND claimed_until < ?) ORDER BY requested_at, game_id LIMIT 1");
  next.bind(1, now_ms);
  if (!next.step()) {
    t.commit();
    return std::nullopt;
  }
  const auto game = next.column_int(0);
  next.reset();
  Statement take(db_,
                 "UPDATE analysis_jobs SET state = 'running', worker_id = ?, claimed_until = ?,"
                 " attempts = attempts + 1, moves_done = 0 WHERE game_id = ?");
  take.bind(1, worker_id).bind(2, until_ms).bind(3, game).run();
  auto row = job_locked(game);
  t.commit();
  return row;
}

bool SqliteAnalysisStore::progress(std::int64_t game_id, std::int64_t worker_id, int moves_done,
                                   std::int64_t until_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "UPDATE analysis_jobs SET moves_done = ?, claimed_until = ? WHERE game_id = ?"
              " AND worker_id = ? AND state = 'running'");
  q.bind(1, std::int64_t{moves_done}).bind(2, until_ms).bind(3, game_id).bind(4, worker_id).run();
  return q.changes() > 0;
}

bool SqliteAnalysisStore::finish(std::int64_t game_id, std::int64_t worker_id,
                                 const std::string& engine, const std::string& result,
                                 std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(
      db_,
      "UPDATE analysis_jobs SET state = 'done', engine = ?, result = ?, finished_at = ?,"
      " moves_done = moves_total WHERE game_id = ? AND worker_id = ? AND state = 'running'");
  q.bind(1, engine).bind(2, result).bind(3, now_ms).bind(4, game_id).bind(5, worker_id).run();
  return q.changes() > 0;
}

bool SqliteAnalysisStore::fail(std::int64_t game_id, std::int64_t worker_id,
                               const std::string& error, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "UPDATE analysis_jobs SET state = 'failed', error = ?, finished_at = ?"
              " WHERE game_id = ? AND worker_id = ? AND state = 'running'");
  q.bind(1, error).bind(2, now_ms).bind(3, game_id).bind(4, worker_id).run();
  return q.changes() > 0;
}

}  // namespace tengen::store
