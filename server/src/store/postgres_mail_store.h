#pragma once

#include <memory>
#include <mutex>

#include "store/mail_store.h"

namespace tengen::store {
namespace pg {
class Connection;
}

// MailStore on a migrated PostgreSQL database, over a connection of its own under a mutex.
// Several nodes share its queue: a mail is claimed with FOR UPDATE SKIP LOCKED, so each is sent
// by one node.
class PostgresMailStore final : public MailStore {
 public:
  explicit PostgresMailStore(const std::string& conninfo);
  ~PostgresMailStore() override;

  std::optional<MailSettings> settings(std::int64_t user_id) override;
  void put_settings(const MailSettings& settings) override;
  void delete_settings(std::int64_t user_id) override;
  std::vector<std::int64_t> users_with_address(const std::string& address, int limit) override;
  void add_token(const TokenHash& hash, const MailToken& token) override;
  std::optional<MailToken> token(const TokenHash& hash, std::int64_t now_ms) override;
  bool take_token(const TokenHash& hash) override;
  int tokens_since(std::int64_t user_id, const std::string& purpose,
                   std::int64_t since_ms) override;
  std::int64_t enqueue(const OutgoingMail& mail, std::int64_t now_ms) override;
  int queued_since(std::int64_t user_id, std::int64_t since_ms) override;
  std::optional<QueuedMail> claim(std::int64_t now_ms, std::int64_t hold_until_ms) override;
  void mark_sent(std::int64_t id, std::int64_t now_ms) override;
  void mark_failed(std::int64_t id, const std::string& error,
                   std::optional<std::int64_t> retry_at_ms, std::int64_t now_ms) override;
  MailCounts counts() override;
  void prune(std::int64_t before_ms) override;
  bool note_your_move(std::int64_t user_id, std::int64_t game_id, std::int64_t since_ms,
                      std::int64_t now_ms) override;
  std::vector<MailSettings> digests_due(std::int64_t now_ms, int limit) override;
  bool take_digest(std::int64_t user_id, std::int64_t due_ms, std::int64_t next_ms) override;

 private:
  std::mutex mutex_;
  std::unique_ptr<pg::Connection> db_;
};

}  // namespace tengen::store
