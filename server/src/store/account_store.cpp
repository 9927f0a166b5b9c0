#include "store/account_store.h"

namespace tengen::store {

using sql::value;

UserRecord user_at(const sql::Rows& r, std::size_t row, std::size_t first) {
  UserRecord u{r.integer(row, first), r.text(row, first + 1), r.text(row, first + 2),
               r.boolean(row, first + 3), r.integer(row, first + 4)};
  u.is_admin = r.boolean(row, first + 5);
  u.banned = r.boolean(row, first + 6);
  u.suspended_until_ms = r.optional_integer(row, first + 7);
  u.moderation_reason = r.text(row, first + 8);
  u.time_zone = r.text(row, first + 9);
  return u;
}

namespace {

constexpr std::int64_t kSeenEvery = 60'000;  // ms between writes of a session's last_seen_at

std::optional<UserRecord> first_user(const sql::Rows& r) {
  if (r.empty()) return std::nullopt;
  return user_at(r, 0);
}

SessionRecord session_at(const sql::Rows& r, std::size_t row) {
  return SessionRecord{r.integer(row, 0), r.integer(row, 1), r.text(row, 2), r.integer(row, 3),
                       r.integer(row, 4)};
}

}  // namespace

std::optional<UserRecord> AccountStore::create_user(const std::string& username,
                                                    const std::string& password_hash, bool is_bot,
                                                    std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  try {
    const auto r = db_->run(
        "INSERT INTO users(username, password_hash, is_bot, created_at) VALUES (?, ?, ?, ?)"
        " RETURNING id",
        {username, password_hash, value(is_bot), now_ms});
    return UserRecord{r.integer(0, 0), username, password_hash, is_bot, now_ms};
  } catch (const sql::ConstraintViolation&) {
    return std::nullopt;  // the name is taken
  }
}

std::optional<bool> AccountStore::take_attempt(const TokenHash& key, int burst,
                                               std::chrono::milliseconds refill) {
  // A SQLite file has one server, which counts in its memory (http/attempts).
  if (db_->dialect() != sql::Dialect::Postgres) return std::nullopt;
  std::lock_guard lock(mutex_);
  // A bucket full again is the same as none: rows older than that go, now and then.
  constexpr int kPruneEvery = 1000;
  if (++attempts_since_prune_ >= kPruneEvery) {
    attempts_since_prune_ = 0;
    db_->run(
        "DELETE FROM attempt_buckets WHERE at < clock_timestamp() - ? * interval '1 millisecond'",
        {static_cast<std::int64_t>(burst) * refill.count()});
  }
  // The tokens earned since `at`, one every `refill`, up to `burst`; one taken if there is one.
  // PostgreSQL's own: its clock, shared by every node.
  const std::int64_t most = burst;
  const std::int64_t every = refill.count();
  const auto r = db_->run(
      "INSERT INTO attempt_buckets AS b (key, tokens, at)"
      " VALUES (?, CAST(? AS float8) - 1, clock_timestamp())"
      " ON CONFLICT (key) DO UPDATE SET"
      "  tokens = LEAST(CAST(? AS float8), b.tokens"
      "   + EXTRACT(EPOCH FROM clock_timestamp() - b.at)::float8 * 1000 / CAST(? AS float8)) - 1,"
      "  at = clock_timestamp()"
      " WHERE LEAST(CAST(? AS float8), b.tokens"
      "  + EXTRACT(EPOCH FROM clock_timestamp() - b.at)::float8 * 1000 / CAST(? AS float8)) >= 1"
      " RETURNING tokens",
      {value(key), most, most, every, most, every});
  return r.size() == 1;
}

std::optional<UserRecord> AccountStore::user_by_name(const std::string& username) {
  std::lock_guard lock(mutex_);
  return first_user(db_->run(std::string("SELECT ") + kUserColumns + " FROM users WHERE " +
                                 db_->equals_without_case("username"),
                             {username}));
}

std::optional<UserRecord> AccountStore::user_by_id(std::int64_t id) {
  std::lock_guard lock(mutex_);
  return first_user(
      db_->run(std::string("SELECT ") + kUserColumns + " FROM users WHERE id = ?", {id}));
}

bool AccountStore::set_password_hash(std::int64_t user_id, const std::string& password_hash) {
  std::lock_guard lock(mutex_);
  return db_->run("UPDATE users SET password_hash = ? WHERE id = ?", {password_hash, user_id})
             .changed > 0;
}

bool AccountStore::set_time_zone(std::int64_t user_id, const std::string& zone) {
  std::lock_guard lock(mutex_);
  return db_->run("UPDATE users SET time_zone = ? WHERE id = ?", {zone, user_id}).changed > 0;
}

std::optional<VacationBalance> AccountStore::vacation_balance(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  const auto r =
      db_->run("SELECT left_ms, as_of_ms FROM vacation_balances WHERE user_id = ?", {user_id});
  if (r.empty()) return std::nullopt;
  return VacationBalance{r.integer(0, 0), r.integer(0, 1)};
}

bool AccountStore::begin_vacation(std::int64_t user_id,
                                  const std::optional<VacationBalance>& expected,
                                  const VacationSpan& taken, std::int64_t forget_until) {
  std::lock_guard lock(mutex_);
  bool begun = false;
  db_->transaction([&] {
    // The balance changes only if it is still the one read (or still absent): a compare and set
    // on the row, so that two nodes' requests cannot both spend it.
    const auto balance =
        expected ? db_->run(
                       "UPDATE vacation_balances SET left_ms = 0, as_of_ms = ?"
                       " WHERE user_id = ? AND left_ms = ? AND as_of_ms = ?",
                       {taken.to_ms, user_id, expected->left_ms, expected->as_of_ms})
                 : db_->run(
                       "INSERT INTO vacation_balances(user_id, left_ms, as_of_ms) VALUES (?, 0, ?)"
                       " ON CONFLICT (user_id) DO NOTHING",
                       {user_id, taken.to_ms});
    if (balance.changed == 0) return;  // another request came first: nothing written
    db_->run("DELETE FROM vacations WHERE user_id = ? AND to_ms <= ?", {user_id, forget_until});
    // One begun where an ended one had begun (both at the same millisecond) replaces it.
    db_->run(
        "INSERT INTO vacations(user_id, from_ms, to_ms) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id, from_ms) DO UPDATE SET to_ms = excluded.to_ms",
        {user_id, taken.from_ms, taken.to_ms});
    begun = true;
  });
  return begun;
}

bool AccountStore::end_vacation(std::int64_t user_id, const VacationSpan& taken, std::int64_t at) {
  std::lock_guard lock(mutex_);
  bool ended = false;
  db_->transaction([&] {
    if (db_->run("UPDATE vacations SET to_ms = ? WHERE user_id = ? AND from_ms = ? AND to_ms = ?",
                 {at, user_id, taken.from_ms, taken.to_ms})
            .changed == 0)
      return;
    db_->run("UPDATE vacation_balances SET left_ms = ?, as_of_ms = ? WHERE user_id = ?",
             {taken.to_ms - at, at, user_id});
    ended = true;
  });
  return ended;
}

std::vector<VacationSpan> AccountStore::vacations_of(std::int64_t user_id, std::int64_t after_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT from_ms, to_ms FROM vacations WHERE user_id = ? AND to_ms > ? ORDER BY from_ms",
      {user_id, after_ms});
  std::vector<VacationSpan> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back({r.integer(i, 0), r.integer(i, 1)});
  return out;
}

SessionRecord AccountStore::create_session(std::int64_t user_id, const TokenHash& token_hash,
                                           const std::string& user_agent, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "INSERT INTO sessions(user_id, token_hash, user_agent, created_at, last_seen_at)"
      " VALUES (?, ?, ?, ?, ?) RETURNING id",
      {user_id, value(token_hash), user_agent, now_ms, now_ms});
  return SessionRecord{r.integer(0, 0), user_id, user_agent, now_ms, now_ms};
}

std::optional<std::pair<UserRecord, SessionRecord>> AccountStore::session_by_token(
    const TokenHash& token_hash, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT s.id, s.user_id, s.user_agent, s.created_at, s.last_seen_at,"
      " u.id, u.username, u.password_hash, u.is_bot, u.created_at, u.is_admin,"
      " u.banned, u.suspended_until, u.moderation_reason, u.time_zone"
      " FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?",
      {value(token_hash)});
  if (r.empty()) return std::nullopt;
  SessionRecord s = session_at(r, 0);
  // At most once a minute: every HTTP request with a cookie and every WebSocket finds its session
  // here, and each touch would be a durable write (an fsync on SQLite). "Last seen" is shown to
  // the minute.
  if (now_ms - s.last_seen_at_ms >= kSeenEvery) {
    db_->run("UPDATE sessions SET last_seen_at = ? WHERE id = ?", {now_ms, s.id});
    s.last_seen_at_ms = now_ms;
  }
  return std::pair{user_at(r, 0, 5), std::move(s)};
}

std::vector<SessionRecord> AccountStore::sessions_of(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT id, user_id, user_agent, created_at, last_seen_at FROM sessions WHERE user_id = ?"
      " ORDER BY id",
      {user_id});
  std::vector<SessionRecord> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(session_at(r, i));
  return out;
}

bool AccountStore::delete_session(std::int64_t user_id, std::int64_t session_id) {
  std::lock_guard lock(mutex_);
  return db_->run("DELETE FROM sessions WHERE id = ? AND user_id = ?", {session_id, user_id})
             .changed > 0;
}

std::optional<std::int64_t> AccountStore::delete_session_by_token(const TokenHash& token_hash) {
  std::lock_guard lock(mutex_);
  const auto r =
      db_->run("DELETE FROM sessions WHERE token_hash = ? RETURNING id", {value(token_hash)});
  if (r.empty()) return std::nullopt;
  return r.integer(0, 0);
}

std::vector<std::int64_t> AccountStore::delete_sessions_of(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run("DELETE FROM sessions WHERE user_id = ? RETURNING id", {user_id});
  std::vector<std::int64_t> ids;
  for (std::size_t i = 0; i < r.size(); ++i) ids.push_back(r.integer(i, 0));
  return ids;
}

}  // namespace tengen::store
