#include "store/postgres_account_store.h"

#include "store/postgres.h"

namespace tengen::store {

UserRecord user_at(const pg::Result& r, int row, int first) {
  UserRecord u{r.int64(row, first), r.text(row, first + 1), r.text(row, first + 2),
               r.boolean(row, first + 3), r.int64(row, first + 4)};
  u.is_admin = r.boolean(row, first + 5);
  u.banned = r.boolean(row, first + 6);
  u.suspended_until_ms = r.optional_int64(row, first + 7);
  u.moderation_reason = r.text(row, first + 8);
  u.time_zone = r.text(row, first + 9);
  return u;
}

namespace {

std::optional<UserRecord> first_user(const pg::Result& r) {
  if (r.rows() == 0) return std::nullopt;
  return user_at(r, 0);
}

SessionRecord session_at(const pg::Result& r, int row) {
  return SessionRecord{r.int64(row, 0), r.int64(row, 1), r.text(row, 2), r.int64(row, 3),
                       r.int64(row, 4)};
}

pg::Param hash(const TokenHash& h) {
  return pg::Param::bytes(h);
}

}  // namespace

std::optional<UserRecord> PostgresAccountStore::create_user(const std::string& username,
                                                            const std::string& password_hash,
                                                            bool is_bot, std::int64_t now_ms) {
  try {
    const auto r = db_.query(
        "INSERT INTO users(username, password_hash, is_bot, created_at) VALUES ($1, $2, $3, $4)"
        " RETURNING id",
        {username, password_hash, is_bot, now_ms});
    return UserRecord{r.int64(0, 0), username, password_hash, is_bot, now_ms};
  } catch (const pg::Error& e) {
    if (e.unique_violation()) return std::nullopt;  // the name is taken
    throw;
  }
}

std::optional<bool> PostgresAccountStore::take_attempt(const TokenHash& key, int burst,
                                                       std::chrono::milliseconds refill) {
  // A bucket full again is the same as none: rows older than that go, now and then.
  constexpr int kPruneEvery = 1000;
  if (++attempts_since_prune_ >= kPruneEvery) {
    attempts_since_prune_ = 0;
    db_.query(
        "DELETE FROM attempt_buckets WHERE at < clock_timestamp() - $1 * interval '1 millisecond'",
        {static_cast<std::int64_t>(burst) * refill.count()});
  }
  // The tokens earned since `at`, one every `refill`, up to `burst`; one taken if there is one.
  const auto r = db_.query(
      "INSERT INTO attempt_buckets AS b (key, tokens, at)"
      " VALUES ($1, $2::float8 - 1, clock_timestamp())"
      " ON CONFLICT (key) DO UPDATE SET"
      "  tokens = LEAST($2::float8, b.tokens + EXTRACT(EPOCH FROM clock_timestamp() - b.at)::float8"
      "           * 1000 / $3::float8) - 1,"
      "  at = clock_timestamp()"
      " WHERE LEAST($2::float8, b.tokens + EXTRACT(EPOCH FROM clock_timestamp() - b.at)::float8"
      "       * 1000 / $3::float8) >= 1"
      " RETURNING tokens",
      {hash(key), static_cast<double>(burst), static_cast<double>(refill.count())});
  return r.rows() == 1;
}

std::optional<UserRecord> PostgresAccountStore::user_by_name(const std::string& username) {
  return first_user(db_.query(
      std::string("SELECT ") + kUserColumns + " FROM users WHERE lower(username) = lower($1)",
      {username}));
}

std::optional<UserRecord> PostgresAccountStore::user_by_id(std::int64_t id) {
  return first_user(
      db_.query(std::string("SELECT ") + kUserColumns + " FROM users WHERE id = $1", {id}));
}

bool PostgresAccountStore::set_password_hash(std::int64_t user_id,
                                             const std::string& password_hash) {
  return db_.query("UPDATE users SET password_hash = $1 WHERE id = $2", {password_hash, user_id})
             .affected() > 0;
}

bool PostgresAccountStore::set_time_zone(std::int64_t user_id, const std::string& zone) {
  return db_.query("UPDATE users SET time_zone = $1 WHERE id = $2", {zone, user_id}).affected() > 0;
}

std::optional<VacationBalance> PostgresAccountStore::vacation_balance(std::int64_t user_id) {
  const auto r =
      db_.query("SELECT left_ms, as_of_ms FROM vacation_balances WHERE user_id = $1", {user_id});
  if (r.rows() == 0) return std::nullopt;
  return VacationBalance{r.int64(0, 0), r.int64(0, 1)};
}

bool PostgresAccountStore::begin_vacation(std::int64_t user_id,
                                          const std::optional<VacationBalance>& expected,
                                          const VacationSpan& taken, std::int64_t forget_until) {
  // One statement: the balance changes only if it is still the one read (or still absent), and
  // the vacation is recorded, and old ones forgotten, only if it did.
  const std::string balance =
      expected ? "UPDATE vacation_balances SET left_ms = 0, as_of_ms = $3::bigint"
                 " WHERE user_id = $1 AND left_ms = $5 AND as_of_ms = $6 RETURNING user_id"
               : "INSERT INTO vacation_balances(user_id, left_ms, as_of_ms)"
                 " VALUES ($1, 0, $3::bigint) ON CONFLICT (user_id) DO NOTHING RETURNING user_id";
  const auto r = db_.query(
      "WITH b AS (" + balance +
          "), gone AS (DELETE FROM vacations WHERE user_id = $1 AND to_ms <= $4::bigint"
          " AND EXISTS (SELECT 1 FROM b))"
          " INSERT INTO vacations(user_id, from_ms, to_ms) SELECT user_id, $2::bigint,"
          " $3::bigint FROM b ON CONFLICT (user_id, from_ms) DO UPDATE SET to_ms = excluded.to_ms"
          " RETURNING user_id",
      expected ? std::vector<pg::Param>{user_id, taken.from_ms, taken.to_ms, forget_until,
                                        expected->left_ms, expected->as_of_ms}
               : std::vector<pg::Param>{user_id, taken.from_ms, taken.to_ms, forget_until});
  return r.rows() > 0;
}

bool PostgresAccountStore::end_vacation(std::int64_t user_id, const VacationSpan& taken,
                                        std::int64_t at) {
  const auto r = db_.query(
      "WITH v AS (UPDATE vacations SET to_ms = $4::bigint WHERE user_id = $1 AND from_ms = $2"
      " AND to_ms = $3 RETURNING user_id)"
      " UPDATE vacation_balances b SET left_ms = $3::bigint - $4::bigint, as_of_ms = $4::bigint"
      " FROM v WHERE b.user_id = v.user_id RETURNING b.user_id",
      {user_id, taken.from_ms, taken.to_ms, at});
  return r.rows() > 0;
}

std::vector<VacationSpan> PostgresAccountStore::vacations_of(std::int64_t user_id,
                                                             std::int64_t after_ms) {
  const auto r = db_.query(
      "SELECT from_ms, to_ms FROM vacations WHERE user_id = $1 AND to_ms > $2 ORDER BY from_ms",
      {user_id, after_ms});
  std::vector<VacationSpan> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back({r.int64(i, 0), r.int64(i, 1)});
  return out;
}

SessionRecord PostgresAccountStore::create_session(std::int64_t user_id,
                                                   const TokenHash& token_hash,
                                                   const std::string& user_agent,
                                                   std::int64_t now_ms) {
  const auto r = db_.query(
      "INSERT INTO sessions(user_id, token_hash, user_agent, created_at, last_seen_at)"
      " VALUES ($1, $2, $3, $4, $4) RETURNING id",
      {user_id, hash(token_hash), user_agent, now_ms});
  return SessionRecord{r.int64(0, 0), user_id, user_agent, now_ms, now_ms};
}

std::optional<std::pair<UserRecord, SessionRecord>> PostgresAccountStore::session_by_token(
    const TokenHash& token_hash, std::int64_t now_ms) {
  // Touched and read in one statement.
  const auto r = db_.query(
      "WITH touched AS (UPDATE sessions SET last_seen_at = $2 WHERE token_hash = $1"
      " RETURNING id, user_id, user_agent, created_at)"
      " SELECT t.id, t.user_id, t.user_agent, t.created_at, u.id, u.username, u.password_hash,"
      " u.is_bot, u.created_at, u.is_admin, u.banned, u.suspended_until, u.moderation_reason,"
      " u.time_zone"
      " FROM touched t JOIN users u ON u.id = t.user_id",
      {hash(token_hash), now_ms});
  if (r.rows() == 0) return std::nullopt;
  SessionRecord s{r.int64(0, 0), r.int64(0, 1), r.text(0, 2), r.int64(0, 3), now_ms};
  return std::pair{user_at(r, 0, 4), std::move(s)};
}

std::vector<SessionRecord> PostgresAccountStore::sessions_of(std::int64_t user_id) {
  const auto r = db_.query(
      "SELECT id, user_id, user_agent, created_at, last_seen_at FROM sessions WHERE user_id = $1"
      " ORDER BY id",
      {user_id});
  std::vector<SessionRecord> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(session_at(r, i));
  return out;
}

bool PostgresAccountStore::delete_session(std::int64_t user_id, std::int64_t session_id) {
  return db_.query("DELETE FROM sessions WHERE id = $1 AND user_id = $2", {session_id, user_id})
             .affected() > 0;
}

std::optional<std::int64_t> PostgresAccountStore::delete_session_by_token(
    const TokenHash& token_hash) {
  const auto r =
      db_.query("DELETE FROM sessions WHERE token_hash = $1 RETURNING id", {hash(token_hash)});
  if (r.rows() == 0) return std::nullopt;
  return r.int64(0, 0);
}

std::vector<std::int64_t> PostgresAccountStore::delete_sessions_of(std::int64_t user_id) {
  const auto r = db_.query("DELETE FROM sessions WHERE user_id = $1 RETURNING id", {user_id});
  std::vector<std::int64_t> ids;
  for (int i = 0; i < r.rows(); ++i) ids.push_back(r.int64(i, 0));
  return ids;
}

}  // namespace tengen::store
