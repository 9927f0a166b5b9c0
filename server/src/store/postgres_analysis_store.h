#pragma once

#include <memory>
#include <mutex>

#include "store/analysis_store.h"

namespace tengen::store {
namespace pg {
class Connection;
}

// AnalysisStore on a migrated PostgreSQL database, over a connection of its own under a mutex.
// Several nodes share its queue: a job is claimed with FOR UPDATE SKIP LOCKED.
class PostgresAnalysisStore final : public AnalysisStore {
 public:
  explicit PostgresAnalysisStore(const std::string& conninfo);
  ~PostgresAnalysisStore() override;

  std::optional<std::int64_t> add_worker(const std::string& name, const std::string& key_hash,
                                         std::int64_t now_ms) override;
  void set_worker_key(const std::string& name, const std::string& key_hash,
                      std::int64_t now_ms) override;
  bool revoke_worker(const std::string& name, std::int64_t now_ms) override;
  std::optional<AnalysisWorker> worker_by_key(const std::string& key_hash,
                                              std::int64_t now_ms) override;
  std::vector<AnalysisWorker> workers() override;
  std::optional<AnalysisJobRow> job(std::int64_t game_id) override;
  bool enqueue(std::int64_t game_id, std::optional<std::int64_t> requested_by, int moves_total,
               std::int64_t now_ms) override;
  int enqueue_ended(std::int64_t since_ms, int min_moves, int most, std::int64_t now_ms) override;
  int requested_since(std::int64_t user_id, std::int64_t since_ms) override;
  int unfinished(std::optional<std::int64_t> user_id) override;
  int ahead_of(std::int64_t game_id) override;
  std::optional<AnalysisJobRow> claim(std::int64_t worker_id, std::int64_t now_ms,
                                      std::int64_t until_ms, int max_attempts) override;
  bool progress(std::int64_t game_id, std::int64_t worker_id, int moves_done,
                std::int64_t until_ms) override;
  bool finish(std::int64_t game_id, std::int64_t worker_id, const std::string& engine,
              const std::string& result, std::int64_t now_ms) override;
  bool fail(std::int64_t game_id, std::int64_t worker_id, const std::string& error,
            std::int64_t now_ms) override;

 private:
  std::mutex mutex_;
  std::unique_ptr<pg::Connection> db_;
};

}  // namespace tengen::store
