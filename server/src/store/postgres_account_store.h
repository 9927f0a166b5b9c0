#pragma once

#include "store/account_store.h"

namespace tengen::store {
namespace pg {
class Connection;
}

// AccountStore on a migrated PostgreSQL database (migrations/postgres/), over one connection;
// like the SQLite one, its caller (Accounts) serialises the calls.
class PostgresAccountStore final : public AccountStore {
 public:
  explicit PostgresAccountStore(pg::Connection& db) : db_(db) {}

  std::optional<UserRecord> create_user(const std::string& username,
                                        const std::string& password_hash, bool is_bot,
                                        std::int64_t now_ms) override;
  std::optional<UserRecord> user_by_name(const std::string& username) override;
  std::optional<UserRecord> user_by_id(std::int64_t id) override;
  bool set_password_hash(std::int64_t user_id, const std::string& password_hash) override;
  SessionRecord create_session(std::int64_t user_id, const TokenHash& token_hash,
                               const std::string& user_agent, std::int64_t now_ms) override;
  std::optional<std::pair<UserRecord, SessionRecord>> session_by_token(
      const TokenHash& token_hash, std::int64_t now_ms) override;
  std::vector<SessionRecord> sessions_of(std::int64_t user_id) override;
  bool delete_session(std::int64_t user_id, std::int64_t session_id) override;
  std::optional<std::int64_t> delete_session_by_token(const TokenHash& token_hash) override;

 private:
  pg::Connection& db_;
};

}  // namespace tengen::store
