#pragma once

#include <mutex>

#include "store/push_store.h"
#include "store/sqlite.h"

namespace tengen::store {

// PushStore on a migrated SQLite file, over a connection of its own under a mutex.
class SqlitePushStore final : public PushStore {
 public:
  explicit SqlitePushStore(const std::string& path) : db_(path) {}

  std::string server_key(const std::string& name, const std::string& made,
                         std::int64_t now_ms) override;
  std::int64_t subscribe(const PushSubscription& s, int most) override;
  bool unsubscribe(std::int64_t user_id, const std::string& endpoint) override;
  std::optional<PushSubscription> subscription(std::int64_t user_id,
                                               const std::string& endpoint) override;
  std::vector<PushSubscription> subscriptions_of(std::int64_t user_id) override;
  void drop(std::int64_t subscription_id) override;
  std::int64_t enqueue(const OutgoingPush& push, std::int64_t now_ms) override;
  int queued_since(std::int64_t user_id, std::int64_t since_ms) override;
  std::optional<QueuedPush> claim(std::int64_t now_ms, std::int64_t hold_until_ms) override;
  void mark_sent(std::int64_t id, std::int64_t now_ms) override;
  void mark_failed(std::int64_t id, const std::string& error,
                   std::optional<std::int64_t> retry_at_ms, std::int64_t now_ms) override;
  PushCounts counts() override;
  void prune(std::int64_t before_ms) override;

 private:
  std::mutex mutex_;
  Database db_;
};

}  // namespace tengen::store
