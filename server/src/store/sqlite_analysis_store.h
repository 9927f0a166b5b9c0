#pragma once

#include <mutex>

#include "store/analysis_store.h"
#include "store/sqlite.h"

namespace tengen::store {

// AnalysisStore on a migrated SQLite file, over a connection of its own under a mutex.
class SqliteAnalysisStore final : public AnalysisStore {
 public:
  explicit SqliteAnalysisStore(const std::string& path) : db_(path) {}

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
  std::optional<AnalysisJobRow> job_locked(std::int64_t game_id);
  std::mutex mutex_;
  Database db_;
};

}  // namespace tengen::store
