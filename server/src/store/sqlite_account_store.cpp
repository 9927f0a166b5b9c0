#include "store/sqlite_account_store.h"

#include <sqlite3.h>

namespace tengen::store {

UserRecord user_at(const Statement& q, int first) {
  UserRecord u{q.column_int(first), q.column_text(first + 1), q.column_text(first + 2),
               q.column_int(first + 3) != 0, q.column_int(first + 4)};
  u.is_admin = q.column_int(first + 5) != 0;
  u.banned = q.column_int(first + 6) != 0;
  u.suspended_until_ms = q.column_optional_int(first + 7);
  u.moderation_reason = q.column_text(first + 8);
  u.time_zone = q.column_text(first + 9);
  return u;
}

SqliteAccountStore::SqliteAccountStore(Database& db)
    : insert_user_(
          db, "INSERT INTO users(username, password_hash, is_bot, created_at) VALUES (?, ?, ?, ?)"),
      user_by_name_(db, std::string("SELECT ") + kUserColumns + " FROM users WHERE username = ?"),
      user_by_id_(db, std::string("SELECT ") + kUserColumns + " FROM users WHERE id = ?"),
      set_password_hash_(db, "UPDATE users SET password_hash = ? WHERE id = ?"),
      set_time_zone_(db, "UPDATE users SET time_zone = ? WHERE id = ?"),
      db_(db),
      insert_session_(
          db,
          "INSERT INTO sessions(user_id, token_hash, user_agent, created_at, last_seen_at)"
          " VALUES (?, ?, ?, ?, ?)"),
      session_by_token_(db,
                        "SELECT s.id, s.user_id, s.user_agent, s.created_at, s.last_seen_at,"
                        " u.id, u.username, u.password_hash, u.is_bot, u.created_at, u.is_admin,"
                        " u.banned, u.suspended_until, u.moderation_reason, u.time_zone"
                        " FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?"),
      touch_session_(db, "UPDATE sessions SET last_seen_at = ? WHERE id = ?"),
      sessions_of_(db,
                   "SELECT id, user_id, user_agent, created_at, last_seen_at FROM sessions"
                   " WHERE user_id = ? ORDER BY id"),
      delete_session_(db, "DELETE FROM sessions WHERE id = ? AND user_id = ?"),
      delete_session_by_token_(db, "DELETE FROM sessions WHERE token_hash = ? RETURNING id"),
      delete_sessions_of_(db, "DELETE FROM sessions WHERE user_id = ? RETURNING id") {}

std::optional<UserRecord> SqliteAccountStore::read_user(Statement& query) {
  std::optional<UserRecord> user;
  if (query.step()) user = user_at(query, 0);
  query.reset();
  return user;
}

std::optional<UserRecord> SqliteAccountStore::create_user(const std::string& username,
                                                          const std::string& password_hash,
                                                          bool is_bot, std::int64_t now_ms) {
  try {
    insert_user_.bind(1, username)
        .bind(2, password_hash)
        .bind(3, is_bot ? 1 : 0)
        .bind(4, now_ms)
        .run();
  } catch (const SqliteError& e) {
    insert_user_.reset();
    if (e.code() == SQLITE_CONSTRAINT) return std::nullopt;  // the name is taken
    throw;
  }
  return UserRecord{insert_user_.last_insert_rowid(), username, password_hash, is_bot, now_ms};
}

std::optional<UserRecord> SqliteAccountStore::user_by_name(const std::string& username) {
  user_by_name_.bind(1, username);
  return read_user(user_by_name_);
}

std::optional<UserRecord> SqliteAccountStore::user_by_id(std::int64_t id) {
  user_by_id_.bind(1, id);
  return read_user(user_by_id_);
}

bool SqliteAccountStore::set_time_zone(std::int64_t user_id, const std::string& zone) {
  set_time_zone_.bind(1, zone).bind(2, user_id).run();
  return set_time_zone_.changes() > 0;
}

std::optional<VacationBalance> SqliteAccountStore::vacation_balance(std::int64_t user_id) {
  Statement q(db_, "SELECT left_ms, as_of_ms FROM vacation_balances WHERE user_id = ?");
  q.bind(1, user_id);
  if (!q.step()) return std::nullopt;
  return VacationBalance{q.column_int(0), q.column_int(1)};
}

bool SqliteAccountStore::begin_vacation(std::int64_t user_id,
                                        const std::optional<VacationBalance>& expected,
                                        const VacationSpan& taken, std::int64_t forget_until) {
  Transaction t(db_);
  if (vacation_balance(user_id) != expected) return false;
  Statement prune(db_, "DELETE FROM vacations WHERE user_id = ? AND to_ms <= ?");
  prune.bind(1, user_id).bind(2, forget_until).run();
  Statement balance(
      db_,
      "INSERT INTO vacation_balances(user_id, left_ms, as_of_ms) VALUES (?, 0, ?)"
      " ON CONFLICT(user_id) DO UPDATE SET left_ms = 0, as_of_ms = excluded.as_of_ms");
  balance.bind(1, user_id).bind(2, taken.to_ms).run();
  // One begun where an ended one had begun (both at the same millisecond) replaces it.
  Statement insert(db_,
                   "INSERT INTO vacations(user_id, from_ms, to_ms) VALUES (?, ?, ?)"
                   " ON CONFLICT(user_id, from_ms) DO UPDATE SET to_ms = excluded.to_ms");
  insert.bind(1, user_id).bind(2, taken.from_ms).bind(3, taken.to_ms).run();
  t.commit();
  return true;
}

bool SqliteAccountStore::end_vacation(std::int64_t user_id, const VacationSpan& taken,
                                      std::int64_t at) {
  Transaction t(db_);
  Statement shorten(
      db_, "UPDATE vacations SET to_ms = ? WHERE user_id = ? AND from_ms = ? AND to_ms = ?");
  shorten.bind(1, at).bind(2, user_id).bind(3, taken.from_ms).bind(4, taken.to_ms).run();
  if (shorten.changes() == 0) return false;
  Statement balance(db_,
                    "UPDATE vacation_balances SET left_ms = ?, as_of_ms = ? WHERE user_id = ?");
  balance.bind(1, taken.to_ms - at).bind(2, at).bind(3, user_id).run();
  t.commit();
  return true;
}

std::vector<VacationSpan> SqliteAccountStore::vacations_of(std::int64_t user_id,
                                                           std::int64_t after_ms) {
  Statement q(db_,
              "SELECT from_ms, to_ms FROM vacations WHERE user_id = ? AND to_ms > ?"
              " ORDER BY from_ms");
  q.bind(1, user_id).bind(2, after_ms);
  std::vector<VacationSpan> out;
  while (q.step()) out.push_back({q.column_int(0), q.column_int(1)});
  return out;
}

bool SqliteAccountStore::set_password_hash(std::int64_t user_id, const std::string& password_hash) {
  set_password_hash_.bind(1, password_hash).bind(2, user_id).run();
  return set_password_hash_.changes() > 0;
}

SessionRecord SqliteAccountStore::create_session(std::int64_t user_id, const TokenHash& token_hash,
                                                 const std::string& user_agent,
                                                 std::int64_t now_ms) {
  insert_session_.bind(1, user_id)
      .bind(2, token_hash)
      .bind(3, user_agent)
      .bind(4, now_ms)
      .bind(5, now_ms)
      .run();
  return SessionRecord{insert_session_.last_insert_rowid(), user_id, user_agent, now_ms, now_ms};
}

std::optional<std::pair<UserRecord, SessionRecord>> SqliteAccountStore::session_by_token(
    const TokenHash& token_hash, std::int64_t now_ms) {
  session_by_token_.bind(1, token_hash);
  std::optional<std::pair<UserRecord, SessionRecord>> found;
  if (session_by_token_.step()) {
    SessionRecord s{session_by_token_.column_int(0), session_by_token_.column_int(1),
                    session_by_token_.column_text(2), session_by_token_.column_int(3), now_ms};
    found.emplace(user_at(session_by_token_, 5), std::move(s));
  }
  session_by_token_.reset();
  if (found) touch_session_.bind(1, now_ms).bind(2, found->second.id).run();
  return found;
}

std::vector<SessionRecord> SqliteAccountStore::sessions_of(std::int64_t user_id) {
  sessions_of_.bind(1, user_id);
  std::vector<SessionRecord> out;
  while (sessions_of_.step()) {
    out.push_back(SessionRecord{sessions_of_.column_int(0), sessions_of_.column_int(1),
                                sessions_of_.column_text(2), sessions_of_.column_int(3),
                                sessions_of_.column_int(4)});
  }
  sessions_of_.reset();
  return out;
}

bool SqliteAccountStore::delete_session(std::int64_t user_id, std::int64_t session_id) {
  delete_session_.bind(1, session_id).bind(2, user_id).run();
  return delete_session_.changes() > 0;
}

std::optional<std::int64_t> SqliteAccountStore::delete_session_by_token(
    const TokenHash& token_hash) {
  delete_session_by_token_.bind(1, token_hash);
  std::optional<std::int64_t> id;
  if (delete_session_by_token_.step()) id = delete_session_by_token_.column_int(0);
  delete_session_by_token_.reset();
  return id;
}

std::vector<std::int64_t> SqliteAccountStore::delete_sessions_of(std::int64_t user_id) {
  delete_sessions_of_.bind(1, user_id);
  std::vector<std::int64_t> ids;
  while (delete_sessions_of_.step()) ids.push_back(delete_sessions_of_.column_int(0));
  delete_sessions_of_.reset();
  return ids;
}

}  // namespace tengen::store
