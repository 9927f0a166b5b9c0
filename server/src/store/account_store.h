#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "store/sql.h"

namespace tengen::store {

using TokenHash = std::array<unsigned char, 32>;  // SHA-256 of a session token

struct UserRecord {
  std::int64_t id = 0;
  std::string username;
  std::string password_hash;  // Argon2id, libsodium's string format
  bool is_bot = false;
  std::int64_t created_at_ms = 0;
  // Moderation (docs/moderation.md): an administrator; banned for good, or suspended until a
  // time; and the reason given, which the user is shown.
  bool is_admin = false;
  bool banned = false;
  std::optional<std::int64_t> suspended_until_ms{};
  std::string moderation_reason{};
  // Where the player's weekends fall in correspondence games (docs/correspondence.md).
  std::string time_zone = "UTC";

  // Whether the account may not log in or act at `now_ms`.
  bool restricted_at(std::int64_t now_ms) const {
    return banned || (suspended_until_ms && *suspended_until_ms > now_ms);
  }
};

// The users table's columns a UserRecord is read from, in order (both stores' SQL; prefix each
// with a table alias by hand where a query joins).
inline constexpr const char* kUserColumns =
    "id, username, password_hash, is_bot, created_at, is_admin, banned, suspended_until,"
    " moderation_reason, time_zone";

// A player's vacation days (docs/correspondence.md): what is left as of an instant.
struct VacationBalance {
  std::int64_t left_ms = 0;
  std::int64_t as_of_ms = 0;  // Unix ms
  friend bool operator==(const VacationBalance&, const VacationBalance&) = default;
};
// One vacation: from its start to its planned end, or to when it was ended early (Unix ms).
struct VacationSpan {
  std::int64_t from_ms = 0;
  std::int64_t to_ms = 0;
  friend bool operator==(const VacationSpan&, const VacationSpan&) = default;
};

struct SessionRecord {
  std::int64_t id = 0;
  std::int64_t user_id = 0;
  std::string user_agent;
  std::int64_t created_at_ms = 0;
  std::int64_t last_seen_at_ms = 0;
};

// A user read from kUserColumns in row `row` of `rows`, starting at column `first`.
UserRecord user_at(const sql::Rows& rows, std::size_t row, std::size_t first = 0);

// Users and their sessions, written once for SQLite and PostgreSQL over a sql::Connection of its
// own (under a mutex: safe from any thread). Session tokens never reach the store, only their
// hashes.
class AccountStore {
 public:
  explicit AccountStore(std::unique_ptr<sql::Connection> db) : db_(std::move(db)) {}

  // nullopt if the name is taken (names compare without case).
  std::optional<UserRecord> create_user(const std::string& username,
                                        const std::string& password_hash, bool is_bot,
                                        std::int64_t now_ms);
  std::optional<UserRecord> user_by_name(const std::string& username);
  std::optional<UserRecord> user_by_id(std::int64_t id);
  // False if there is no such user. Sessions are left as they are.
  bool set_password_hash(std::int64_t user_id, const std::string& password_hash);
  // False when there is no such user. The zone is checked by the caller (known_time_zone).
  bool set_time_zone(std::int64_t user_id, const std::string& zone);

  // Vacations. The stored balance (nullopt: none stored yet, so the account's first).
  std::optional<VacationBalance> vacation_balance(std::int64_t user_id);
  // Records the vacation `taken` and leaves nothing as of its end, and deletes the user's
  // vacations that ended by `forget_until`, in one transaction, unless the stored balance is no
  // longer `expected` (another request came first): then false, nothing changed.
  bool begin_vacation(std::int64_t user_id, const std::optional<VacationBalance>& expected,
                      const VacationSpan& taken, std::int64_t forget_until);
  // Ends the vacation `taken` at `at` (before its planned end): what was not used is left as of
  // `at`. False, nothing changed, unless it is still recorded as `taken`.
  bool end_vacation(std::int64_t user_id, const VacationSpan& taken, std::int64_t at);
  // The user's vacations that end after `after_ms`, oldest first.
  std::vector<VacationSpan> vacations_of(std::int64_t user_id, std::int64_t after_ms);

  SessionRecord create_session(std::int64_t user_id, const TokenHash& token_hash,
                               const std::string& user_agent, std::int64_t now_ms);
  // The session and its user, touching last_seen_at if it is a minute old or more.
  std::optional<std::pair<UserRecord, SessionRecord>> session_by_token(const TokenHash& token_hash,
                                                                       std::int64_t now_ms);
  std::vector<SessionRecord> sessions_of(std::int64_t user_id);
  // False if the session does not exist or is not the user's.
  bool delete_session(std::int64_t user_id, std::int64_t session_id);
  // The id of the session deleted, or nullopt if no session has this token.
  std::optional<std::int64_t> delete_session_by_token(const TokenHash& token_hash);
  // Every session of the user (a suspension, a password reset): the ids deleted.
  std::vector<std::int64_t> delete_sessions_of(std::int64_t user_id);

  // Attempts (logins, registrations) counted by every server on the database (docs/limits.md):
  // takes a token from `key`'s bucket — `burst` at once, then one more every `refill`, by the
  // database's clock — and says whether there was one. nullopt: this store keeps no buckets (a
  // SQLite file has one server, which counts in its memory).
  std::optional<bool> take_attempt(const TokenHash& key, int burst,
                                   std::chrono::milliseconds refill);

 private:
  std::mutex mutex_;
  std::unique_ptr<sql::Connection> db_;
  int attempts_since_prune_ = 0;
};

}  // namespace tengen::store
