#pragma once

#include <memory>
#include <mutex>

#include "store/push_store.h"

namespace tengen::store {
namespace pg {
class Connection;
}

// PushStore on a migrated PostgreSQL database, over a connection of its own under a mutex.
// Several nodes share its queue: a message is claimed with FOR UPDATE SKIP LOCKED.
class PostgresPushStore final : public PushStore {
 public:
  explicit PostgresPushStore(const std::string& conninfo);
  ~PostgresPushStore() override;

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
  std::unique_ptr<pg::Connection> db_;
};

}  // namespace tengen::store
