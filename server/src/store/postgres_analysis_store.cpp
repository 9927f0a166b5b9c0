#include "store/postgres_analysis_store.h"

#include "store/postgres.h"

namespace tengen::store {
namespace {

constexpr std::int64_t kSeenEvery = 60'000;  // ms between writes of a worker's last_seen

constexpr const char* kJobColumns =
    "game_id, requested_by, requested_at, state, worker_id, claimed_until, attempts, moves_done,"
    " moves_total, engine, result, error, finished_at";

AnalysisJobRow job_at(const pg::Result& r, int row) {
  return AnalysisJobRow{r.int64(row, 0),
                        r.optional_int64(row, 1),
                        r.int64(row, 2),
                        r.text(row, 3),
                        r.optional_int64(row, 4),
                        r.int64(row, 5),
                        static_cast<int>(r.int64(row, 6)),
                        static_cast<int>(r.int64(row, 7)),
                        static_cast<int>(r.int64(row, 8)),
                        r.text(row, 9),
                        r.text(row, 10),
                        r.text(row, 11),
                        r.optional_int64(row, 12)};
}

AnalysisWorker worker_at(const pg::Result& r, int row) {
  return {r.int64(row, 0), r.text(row, 1), r.int64(row, 2), r.optional_int64(row, 3),
          r.optional_int64(row, 4)};
}

int count(const pg::Result& r) {
  return static_cast<int>(r.int64(0, 0));
}

}  // namespace

PostgresAnalysisStore::PostgresAnalysisStore(const std::string& conninfo)
    : db_(std::make_unique<pg::Connection>(conninfo)) {}

PostgresAnalysisStore::~PostgresAnalysisStore() = default;

std::optional<std::int64_t> PostgresAnalysisStore::add_worker(const std::string& name,
                                                              const std::string& key_hash,
                                                              std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      "INSERT INTO analysis_workers(name, key_hash, created_at) VALUES ($1, $2, $3)"
      " ON CONFLICT DO NOTHING RETURNING id",
      {name, key_hash, now_ms});
  if (r.rows() == 0) return std::nullopt;
  return r.int64(0, 0);
}

void PostgresAnalysisStore::set_worker_key(const std::string& name, const std::string& key_hash,
                                           std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->query(
      "INSERT INTO analysis_workers(name, key_hash, created_at) VALUES ($1, $2, $3)"
      " ON CONFLICT (name) DO UPDATE SET key_hash = excluded.key_hash, revoked_at = NULL",
      {name, key_hash, now_ms});
}

bool PostgresAnalysisStore::revoke_worker(const std::string& name, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->query(
                "UPDATE analysis_workers SET revoked_at = $1 WHERE name = $2 AND revoked_at IS"
                " NULL",
                {now_ms, name})
             .affected() > 0;
}

std::optional<AnalysisWorker> PostgresAnalysisStore::worker_by_key(const std::string& key_hash,
                                                                   std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      "SELECT id, name, created_at, revoked_at, last_seen_at FROM analysis_workers"
      " WHERE key_hash = $1 AND revoked_at IS NULL",
      {key_hash});
  if (r.rows() == 0) return std::nullopt;
  auto w = worker_at(r, 0);
  // Written at most once a minute: a worker asks every few seconds.
  if (!w.last_seen_at_ms || now_ms - *w.last_seen_at_ms >= kSeenEvery) {
    db_->query("UPDATE analysis_workers SET last_seen_at = $1 WHERE id = $2", {now_ms, w.id});
    w.last_seen_at_ms = now_ms;
  }
  return w;
}

std::vector<AnalysisWorker> PostgresAnalysisStore::workers() {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      "SELECT id, name, created_at, revoked_at, last_seen_at FROM analysis_workers ORDER BY id");
  std::vector<AnalysisWorker> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(worker_at(r, i));
  return out;
}

std::optional<AnalysisJobRow> PostgresAnalysisStore::job(std::int64_t game_id) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      std::string("SELECT ") + kJobColumns + " FROM analysis_jobs WHERE game_id = $1", {game_id});
  if (r.rows() == 0) return std::nullopt;
  return job_at(r, 0);
}

bool PostgresAnalysisStore::enqueue(std::int64_t game_id, std::optional<std::int64_t> requested_by,
                                    int moves_total, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->query(
                "INSERT INTO analysis_jobs(game_id, requested_by, requested_at, moves_total)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (game_id) DO UPDATE SET requested_by = "
                "excluded.requested_by,"
                " requested_at = excluded.requested_at, state = 'queued', worker_id = NULL,"
                " claimed_until = 0, attempts = 0, moves_done = 0, error = '', finished_at = NULL"
                " WHERE analysis_jobs.state = 'failed'",
                {game_id, requested_by, now_ms, moves_total})
             .affected() > 0;
}

int PostgresAnalysisStore::enqueue_ended(std::int64_t since_ms, int min_moves, int most,
                                         std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->query("INSERT INTO analysis_jobs(game_id, requested_by, requested_at, moves_total)"
                 " SELECT id, NULL, $1, move_count + 1 FROM games g WHERE ended_at >= $2"
                 " AND sgf IS NOT NULL AND move_count >= $3 AND NOT EXISTS (SELECT 1 FROM"
                 " analysis_jobs j WHERE j.game_id = g.id) ORDER BY ended_at, id LIMIT $4"
                 " ON CONFLICT DO NOTHING",
                 {now_ms, since_ms, min_moves, most})
          .affected());
}

int PostgresAnalysisStore::requested_since(std::int64_t user_id, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  return count(db_->query(
      "SELECT count(*) FROM analysis_jobs WHERE requested_by = $1 AND requested_at >= $2",
      {user_id, since_ms}));
}

int PostgresAnalysisStore::unfinished(std::optional<std::int64_t> user_id) {
  std::lock_guard lock(mutex_);
  return count(
      db_->query("SELECT count(*) FROM analysis_jobs WHERE state IN ('queued', 'running')"
                 " AND ($1::bigint IS NULL OR requested_by = $1)",
                 {user_id}));
}

int PostgresAnalysisStore::ahead_of(std::int64_t game_id) {
  std::lock_guard lock(mutex_);
  return count(
      db_->query("SELECT count(*) FROM analysis_jobs a, analysis_jobs me WHERE me.game_id = $1"
                 " AND a.state IN ('queued', 'running') AND (a.requested_at, a.game_id) <"
                 " (me.requested_at, me.game_id)",
                 {game_id}));
}

std::optional<AnalysisJobRow> PostgresAnalysisStore::claim(std::int64_t worker_id,
                                                           std::int64_t now_ms,
                                                           std::int64_t until_ms,
                                                           int max_attempts) {
  std::lock_guard lock(mutex_);
  db_->query(
      "UPDATE analysis_jobs SET state = 'failed', finished_at = $1,"
      " error = 'no worker finished it' WHERE state = 'running' AND claimed_until < $1"
      " AND attempts >= $2",
      {now_ms, max_attempts});
  const auto r = db_->query(
      std::string("UPDATE analysis_jobs SET state = 'running', worker_id = $1,"
                  " claimed_until = $2, attempts = attempts + 1, moves_done = 0"
                  " WHERE game_id = (SELECT game_id FROM analysis_jobs WHERE state = 'queued'"
                  " OR (state = 'running' AND claimed_until < $3) ORDER BY requested_at,"
                  " game_id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING ") +
          kJobColumns,
      {worker_id, until_ms, now_ms});
  if (r.rows() == 0) return std::nullopt;
  return job_at(r, 0);
}

bool PostgresAnalysisStore::progress(std::int64_t game_id, std::int64_t worker_id, int moves_done,
                                     std::int64_t until_ms) {
  std::lock_guard lock(mutex_);
  return db_->query(
                "UPDATE analysis_jobs SET moves_done = $1, claimed_until = $2 WHERE game_id = $3"
                " AND worker_id = $4 AND state = 'running'",
                {moves_done, until_ms, game_id, worker_id})
             .affected() > 0;
}

bool PostgresAnalysisStore::finish(std::int64_t game_id, std::int64_t worker_id,
                                   const std::string& engine, const std::string& result,
                                   std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->query(
                "UPDATE analysis_jobs SET state = 'done', engine = $1, result = $2,"
                " finished_at = $3, moves_done = moves_total WHERE game_id = $4"
                " AND worker_id = $5 AND state = 'running'",
                {engine, result, now_ms, game_id, worker_id})
             .affected() > 0;
}

bool PostgresAnalysisStore::fail(std::int64_t game_id, std::int64_t worker_id,
                                 const std::string& error, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->query(
                "UPDATE analysis_jobs SET state = 'failed', error = $1, finished_at = $2"
                " WHERE game_id = $3 AND worker_id = $4 AND state = 'running'",
                {error, now_ms, game_id, worker_id})
             .affected() > 0;
}

}  // namespace tengen::store
