#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "store/sql.h"

namespace tengen::store {

// An analysis worker's key (docs/analysis.md): its name, and only the SHA-256 of its key.
struct AnalysisWorker {
  std::int64_t id = 0;
  std::string name;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> revoked_at_ms;
  std::optional<std::int64_t> last_seen_at_ms;
};

// One game's analysis: asked for once, kept once.
struct AnalysisJobRow {
  std::int64_t game_id = 0;
  std::optional<std::int64_t> requested_by;
  std::int64_t requested_at_ms = 0;
  std::string state;  // queued, running, done, failed
  std::optional<std::int64_t> worker_id;
  std::int64_t claimed_until_ms = 0;
  int attempts = 0;
  int moves_done = 0;
  int moves_total = 0;
  std::string engine;
  std::string result;  // JSON as the server wrote it (protocol::http::encode_analysis_result)
  std::string error;
  std::optional<std::int64_t> finished_at_ms;
};

// A job as the Admin page lists it: with the name of who asked for it and of the worker that holds
// it or last held it.
struct AnalysisJobListed {
  AnalysisJobRow job;
  std::optional<std::string> requested_by_name, worker_name;
};

// Analysis's tables (migrations 0011_analysis.sql), written once for SQLite and PostgreSQL over a
// sql::Connection of its own (under a mutex: safe from any thread). The queue is shared by every
// node of a cluster: a job is claimed by one worker at a time.
class AnalysisStore {
 public:
  explicit AnalysisStore(std::unique_ptr<sql::Connection> db) : db_(std::move(db)) {}

  // A new worker key; nullopt if the name is taken.
  std::optional<std::int64_t> add_worker(const std::string& name, const std::string& key_hash,
                                         std::int64_t now_ms);
  // The worker `name` has this key from now on (made if new, its revocation lifted): the house
  // worker's fresh key at each start.
  void set_worker_key(const std::string& name, const std::string& key_hash, std::int64_t now_ms);
  // The worker's key stops working; false if there is no such worker (or it was revoked).
  bool revoke_worker(const std::string& name, std::int64_t now_ms);
  // The worker whose key hashes to `key_hash`, not revoked; its last_seen is set to now (written
  // at most once a minute).
  std::optional<AnalysisWorker> worker_by_key(const std::string& key_hash, std::int64_t now_ms);
  std::vector<AnalysisWorker> workers();

  std::optional<AnalysisJobRow> job(std::int64_t game_id);
  // Queues the game's analysis; false if it was asked for already, unless it failed: then it
  // waits again, afresh (asked for by this user now, no attempts yet).
  bool enqueue(std::int64_t game_id, std::optional<std::int64_t> requested_by, int moves_total,
               std::int64_t now_ms);
  // Queues, asked for by nobody, the games that ended since then with at least `min_moves` moves
  // and no analysis yet, the earliest first, at most `most`: how many.
  int enqueue_ended(std::int64_t since_ms, int min_moves, int most, std::int64_t now_ms);
  // Jobs the user asked for since then (the daily allowance).
  int requested_since(std::int64_t user_id, std::int64_t since_ms);
  // The queue as the Admin page shows it: the jobs waiting or running, oldest first, then the
  // latest that ended; at most `most` of each.
  std::vector<AnalysisJobListed> listed_jobs(int most);
  // Jobs waiting or running: the user's, or everyone's (nullopt).
  int unfinished(std::optional<std::int64_t> user_id);
  // Jobs waiting or running asked for before this one (its place in the queue).
  int ahead_of(std::int64_t game_id);
  // The oldest job waiting, or running with its claim run out (its worker went silent), now the
  // worker's until `until_ms`; a job claimed `max_attempts` times already fails instead ("no
  // worker finished it"). nullopt if none.
  std::optional<AnalysisJobRow> claim(std::int64_t worker_id, std::int64_t now_ms,
                                      std::int64_t until_ms, int max_attempts);
  // The worker's progress on a job it holds, its claim extended; false if it no longer holds it.
  bool progress(std::int64_t game_id, std::int64_t worker_id, int moves_done,
                std::int64_t until_ms);
  // The job done with its result; false if the worker no longer holds it.
  bool finish(std::int64_t game_id, std::int64_t worker_id, const std::string& engine,
              const std::string& result, std::int64_t now_ms);
  // The job failed for good (the worker's reason); false if the worker no longer holds it.
  bool fail(std::int64_t game_id, std::int64_t worker_id, const std::string& error,
            std::int64_t now_ms);

 private:
  std::mutex mutex_;
  std::unique_ptr<sql::Connection> db_;
};

}  // namespace tengen::store
