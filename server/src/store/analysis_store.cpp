#include "store/analysis_store.h"

namespace tengen::store {
namespace {

using sql::value;

constexpr std::int64_t kSeenEvery = 60'000;  // ms between writes of a worker's last_seen

constexpr const char* kJobColumns =
    "game_id, requested_by, requested_at, state, worker_id, claimed_until, attempts, moves_done,"
    " moves_total, engine, result, error, finished_at";

constexpr const char* kWorkerColumns = "id, name, created_at, revoked_at, last_seen_at";

AnalysisJobRow job_at(const sql::Rows& r, std::size_t i) {
  return AnalysisJobRow{r.integer(i, 0),
                        r.optional_integer(i, 1),
                        r.integer(i, 2),
                        r.text(i, 3),
                        r.optional_integer(i, 4),
                        r.integer(i, 5),
                        static_cast<int>(r.integer(i, 6)),
                        static_cast<int>(r.integer(i, 7)),
                        static_cast<int>(r.integer(i, 8)),
                        r.text(i, 9),
                        r.text(i, 10),
                        r.text(i, 11),
                        r.optional_integer(i, 12)};
}

AnalysisWorker worker_at(const sql::Rows& r, std::size_t i) {
  return {r.integer(i, 0), r.text(i, 1), r.integer(i, 2), r.optional_integer(i, 3),
          r.optional_integer(i, 4)};
}

int count(const sql::Rows& r) {
  return static_cast<int>(r.integer(0, 0));
}

}  // namespace

std::optional<std::int64_t> AnalysisStore::add_worker(const std::string& name,
                                                      const std::string& key_hash,
                                                      std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "INSERT INTO analysis_workers(name, key_hash, created_at) VALUES (?, ?, ?)"
      " ON CONFLICT DO NOTHING RETURNING id",
      {name, key_hash, now_ms});
  if (r.empty()) return std::nullopt;
  return r.integer(0, 0);
}

void AnalysisStore::set_worker_key(const std::string& name, const std::string& key_hash,
                                   std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->run(
      "INSERT INTO analysis_workers(name, key_hash, created_at) VALUES (?, ?, ?)"
      " ON CONFLICT (name) DO UPDATE SET key_hash = excluded.key_hash, revoked_at = NULL",
      {name, key_hash, now_ms});
}

bool AnalysisStore::revoke_worker(const std::string& name, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "UPDATE analysis_workers SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                {now_ms, name})
             .changed > 0;
}

std::optional<AnalysisWorker> AnalysisStore::worker_by_key(const std::string& key_hash,
                                                           std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(std::string("SELECT ") + kWorkerColumns +
                              " FROM analysis_workers WHERE key_hash = ? AND revoked_at IS NULL",
                          {key_hash});
  if (r.empty()) return std::nullopt;
  auto w = worker_at(r, 0);
  // Written at most once a minute: a worker asks every few seconds.
  if (!w.last_seen_at_ms || now_ms - *w.last_seen_at_ms >= kSeenEvery) {
    db_->run("UPDATE analysis_workers SET last_seen_at = ? WHERE id = ?", {now_ms, w.id});
    w.last_seen_at_ms = now_ms;
  }
  return w;
}

std::vector<AnalysisWorker> AnalysisStore::workers() {
  std::lock_guard lock(mutex_);
  const auto r =
      db_->run(std::string("SELECT ") + kWorkerColumns + " FROM analysis_workers ORDER BY id");
  std::vector<AnalysisWorker> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(worker_at(r, i));
  return out;
}

std::optional<AnalysisJobRow> AnalysisStore::job(std::int64_t game_id) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      std::string("SELECT ") + kJobColumns + " FROM analysis_jobs WHERE game_id = ?", {game_id});
  if (r.empty()) return std::nullopt;
  return job_at(r, 0);
}

std::vector<AnalysisJobListed> AnalysisStore::listed_jobs(int most) {
  std::lock_guard lock(mutex_);
  // The result itself (up to megabytes of JSON) is not read: the list shows the job, not it.
  const std::string select =
      "SELECT j.game_id, j.requested_by, j.requested_at, j.state, j.worker_id, j.claimed_until,"
      " j.attempts, j.moves_done, j.moves_total, j.engine, '', j.error, j.finished_at,"
      " u.username, w.name FROM analysis_jobs j LEFT JOIN users u ON u.id = j.requested_by"
      " LEFT JOIN analysis_workers w ON w.id = j.worker_id ";
  std::vector<AnalysisJobListed> out;
  for (const char* which : {"WHERE j.state IN ('queued', 'running')"
                            " ORDER BY j.requested_at, j.game_id LIMIT ?",
                            "WHERE j.state IN ('done', 'failed')"
                            " ORDER BY j.finished_at DESC, j.game_id DESC LIMIT ?"}) {
    const auto r = db_->run(select + which, {most});
    for (std::size_t i = 0; i < r.size(); ++i) {
      out.push_back({job_at(r, i), r.optional_text(i, 13), r.optional_text(i, 14)});
    }
  }
  return out;
}

bool AnalysisStore::enqueue(std::int64_t game_id, std::optional<std::int64_t> requested_by,
                            int moves_total, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "INSERT INTO analysis_jobs(game_id, requested_by, requested_at, moves_total)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
                " requested_by = excluded.requested_by, requested_at = excluded.requested_at,"
                " state = 'queued', worker_id = NULL, claimed_until = 0, attempts = 0,"
                " moves_done = 0, error = '', finished_at = NULL"
                " WHERE analysis_jobs.state = 'failed'",
                {game_id, value(requested_by), now_ms, std::int64_t{moves_total}})
             .changed > 0;
}

int AnalysisStore::enqueue_ended(std::int64_t since_ms, int min_moves, int most,
                                 std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("INSERT INTO analysis_jobs(game_id, requested_by, requested_at, moves_total)"
               " SELECT id, NULL, ?, move_count + 1 FROM games g WHERE ended_at >= ?"
               " AND sgf IS NOT NULL AND move_count >= ? AND NOT EXISTS (SELECT 1 FROM"
               " analysis_jobs j WHERE j.game_id = g.id) ORDER BY ended_at, id LIMIT ?"
               " ON CONFLICT DO NOTHING",
               {now_ms, since_ms, std::int64_t{min_moves}, std::int64_t{most}})
          .changed);
}

int AnalysisStore::requested_since(std::int64_t user_id, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  return count(
      db_->run("SELECT count(*) FROM analysis_jobs WHERE requested_by = ? AND requested_at >= ?",
               {user_id, since_ms}));
}

int AnalysisStore::unfinished(std::optional<std::int64_t> user_id) {
  std::lock_guard lock(mutex_);
  return count(
      db_->run("SELECT count(*) FROM analysis_jobs WHERE state IN ('queued', 'running')"
               " AND (CAST(? AS BIGINT) IS NULL OR requested_by = ?)",
               {value(user_id), value(user_id)}));
}

int AnalysisStore::ahead_of(std::int64_t game_id) {
  std::lock_guard lock(mutex_);
  return count(
      db_->run("SELECT count(*) FROM analysis_jobs a, analysis_jobs me WHERE me.game_id = ?"
               " AND a.state IN ('queued', 'running') AND (a.requested_at < me.requested_at OR"
               " (a.requested_at = me.requested_at AND a.game_id < me.game_id))",
               {game_id}));
}

std::optional<AnalysisJobRow> AnalysisStore::claim(std::int64_t worker_id, std::int64_t now_ms,
                                                   std::int64_t until_ms, int max_attempts) {
  std::lock_guard lock(mutex_);
  std::optional<AnalysisJobRow> out;
  db_->transaction([&] {
    db_->run(
        "UPDATE analysis_jobs SET state = 'failed', finished_at = ?,"
        " error = 'no worker finished it' WHERE state = 'running' AND claimed_until < ?"
        " AND attempts >= ?",
        {now_ms, now_ms, std::int64_t{max_attempts}});
    const auto r = db_->run(
        std::string("UPDATE analysis_jobs SET state = 'running', worker_id = ?,"
                    " claimed_until = ?, attempts = attempts + 1, moves_done = 0"
                    " WHERE game_id = (SELECT game_id FROM analysis_jobs WHERE state = 'queued'"
                    " OR (state = 'running' AND claimed_until < ?) ORDER BY requested_at,"
                    " game_id LIMIT 1") +
            db_->skip_locked() + ") RETURNING " + kJobColumns,
        {worker_id, until_ms, now_ms});
    if (!r.empty()) out = job_at(r, 0);
  });
  return out;
}

bool AnalysisStore::progress(std::int64_t game_id, std::int64_t worker_id, int moves_done,
                             std::int64_t until_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "UPDATE analysis_jobs SET moves_done = ?, claimed_until = ? WHERE game_id = ?"
                " AND worker_id = ? AND state = 'running'",
                {std::int64_t{moves_done}, until_ms, game_id, worker_id})
             .changed > 0;
}

bool AnalysisStore::finish(std::int64_t game_id, std::int64_t worker_id, const std::string& engine,
                           const std::string& result, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "UPDATE analysis_jobs SET state = 'done', engine = ?, result = ?,"
                " finished_at = ?, moves_done = moves_total WHERE game_id = ?"
                " AND worker_id = ? AND state = 'running'",
                {engine, result, now_ms, game_id, worker_id})
             .changed > 0;
}

bool AnalysisStore::fail(std::int64_t game_id, std::int64_t worker_id, const std::string& error,
                         std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "UPDATE analysis_jobs SET state = 'failed', error = ?, finished_at = ?"
                " WHERE game_id = ? AND worker_id = ? AND state = 'running'",
                {error, now_ms, game_id, worker_id})
             .changed > 0;
}

}  // namespace tengen::store
