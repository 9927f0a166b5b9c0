#pragma once

#include "store/account_store.h"

namespace tengen::store {
namespace pg {
class Connection;
class Result;
}  // namespace pg

// A user read from kUserColumns at `row`, starting at column `first`.
UserRecord user_at(const pg::Result& r, int row, int first = 0);

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
  bool set_time_zone(std::int64_t user_id, const std::string& zone) override;
  std::optional<VacationBalance> vacation_balance(std::int64_t user_id) override;
  bool begin_vacation(std::int64_t user_id, const std::optional<VacationBalance>& expected,
                      const VacationSpan& taken, std::int64_t forget_until) override;
  bool end_vacation(std::int64_t user_id, const VacationSpan& taken, std::int64_t at) override;
  std::vector<VacationSpan> vacations_of(std::int64_t user_id, std::int64_t after_ms) override;
  SessionRecord create_session(std::int64_t user_id, const TokenHash& token_hash,
                               const std::string& user_agent, std::int64_t now_ms) override;
  std::optional<std::pair<UserRecord, SessionRecord>> session_by_token(
      const TokenHash& token_hash, std::int64_t now_ms) override;
  std::vector<SessionRecord> sessions_of(std::int64_t user_id) override;
  bool delete_session(std::int64_t user_id, std::int64_t session_id) override;
  std::optional<std::int64_t> delete_session_by_token(const TokenHash& token_hash) override;
  std::vector<std::int64_t> delete_sessions_of(std::int64_t user_id) override;
  std::optional<bool> take_attempt(const TokenHash& key, int burst,
                                   std::chrono::milliseconds refill) override;

 private:
  pg::Connection& db_;
  int attempts_since_prune_ = 0;
};

}  // namespace tengen::store
