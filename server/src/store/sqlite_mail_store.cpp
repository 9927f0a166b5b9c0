#include "store/sqlite_mail_store.h"

namespace tengen::store {
namespace {

constexpr const char* kSettingsColumns =
    "user_id, address, verified_at, your_move, game_over, digest, unsubscribe_key, digest_due";

MailSettings settings_at(const Statement& q) {
  return MailSettings{q.column_int(0),      q.column_text(1),     q.column_optional_int(2),
                      q.column_int(3) != 0, q.column_int(4) != 0, q.column_int(5) != 0,
                      q.column_text(6),     q.column_int(7)};
}

}  // namespace

std::optional<MailSettings> SqliteMailStore::settings(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              std::string("SELECT ") + kSettingsColumns + " FROM mail_settings WHERE user_id = ?");
  q.bind(1, user_id);
  if (!q.step()) return std::nullopt;
  return settings_at(q);
}

void SqliteMailStore::put_settings(const MailSettings& s) {
  std::lock_guard lock(mutex_);
  Statement q(db_, std::string("INSERT OR REPLACE INTO mail_settings(") + kSettingsColumns +
                       ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  q.bind(1, s.user_id)
      .bind(2, s.address)
      .bind(3, s.verified_at_ms)
      .bind(4, std::int64_t{s.your_move})
      .bind(5, std::int64_t{s.game_over})
      .bind(6, std::int64_t{s.digest})
      .bind(7, s.unsubscribe_key)
      .bind(8, s.digest_due_ms)
      .run();
}

void SqliteMailStore::delete_settings(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  Statement settings(db_, "DELETE FROM mail_settings WHERE user_id = ?");
  settings.bind(1, user_id).run();
  Statement tokens(db_, "DELETE FROM mail_tokens WHERE user_id = ? AND purpose = 'verify'");
  tokens.bind(1, user_id).run();
  t.commit();
}

std::vector<std::int64_t> SqliteMailStore::users_with_address(const std::string& address,
                                                              int limit) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "SELECT user_id FROM mail_settings WHERE lower(address) = lower(?)"
              " AND verified_at IS NOT NULL ORDER BY user_id LIMIT ?");
  q.bind(1, address).bind(2, std::int64_t{limit});
  std::vector<std::int64_t> out;
  while (q.step()) out.push_back(q.column_int(0));
  return out;
}

void SqliteMailStore::add_token(const TokenHash& hash, const MailToken& t) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "INSERT INTO mail_tokens(token_hash, user_id, purpose, address, created_at,"
              " expires_at) VALUES (?, ?, ?, ?, ?, ?)");
  q.bind(1, hash)
      .bind(2, t.user_id)
      .bind(3, t.purpose)
      .bind(4, t.address)
      .bind(5, t.created_at_ms)
      .bind(6, t.expires_at_ms)
      .run();
}

std::optional<MailToken> SqliteMailStore::token(const TokenHash& hash, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "SELECT user_id, purpose, address, created_at, expires_at FROM mail_tokens"
              " WHERE token_hash = ? AND expires_at > ?");
  q.bind(1, hash).bind(2, now_ms);
  if (!q.step()) return std::nullopt;
  return MailToken{q.column_int(0), q.column_text(1), q.column_text(2), q.column_int(3),
                   q.column_int(4)};
}

bool SqliteMailStore::take_token(const TokenHash& hash) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "DELETE FROM mail_tokens WHERE token_hash = ?");
  q.bind(1, hash).run();
  return q.changes() > 0;
}

int SqliteMailStore::tokens_since(std::int64_t user_id, const std::string& purpose,
                                  std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "SELECT count(*) FROM mail_tokens WHERE user_id = ? AND purpose = ?"
              " AND created_at >= ?");
  q.bind(1, user_id).bind(2, purpose).bind(3, since_ms);
  q.step();
  return static_cast<int>(q.column_int(0));
}

std::int64_t SqliteMailStore::enqueue(const OutgoingMail& m, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "INSERT INTO mail_queue(user_id, kind, recipient, subject, body, unsubscribe,"
              " created_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  q.bind(1, m.user_id)
      .bind(2, m.kind)
      .bind(3, m.recipient)
      .bind(4, m.subject)
      .bind(5, m.body)
      .bind(6, m.unsubscribe)
      .bind(7, now_ms)
      .bind(8, now_ms)
      .run();
  return q.last_insert_rowid();
}

int SqliteMailStore::queued_since(std::int64_t user_id, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "SELECT count(*) FROM mail_queue WHERE user_id = ? AND created_at >= ?");
  q.bind(1, user_id).bind(2, since_ms);
  q.step();
  return static_cast<int>(q.column_int(0));
}

std::optional<QueuedMail> SqliteMailStore::claim(std::int64_t now_ms, std::int64_t hold_until_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "UPDATE mail_queue SET claimed_until = ? WHERE id = (SELECT id FROM mail_queue"
              " WHERE sent_at IS NULL AND failed_at IS NULL AND due_at <= ? AND claimed_until <= ?"
              " ORDER BY due_at, id LIMIT 1)"
              " RETURNING id, user_id, kind, recipient, subject, body, unsubscribe, attempts");
  q.bind(1, hold_until_ms).bind(2, now_ms).bind(3, now_ms);
  if (!q.step()) return std::nullopt;
  QueuedMail out{q.column_int(0),
                 {q.column_optional_int(1), q.column_text(2), q.column_text(3), q.column_text(4),
                  q.column_text(5), q.column_text(6)},
                 static_cast<int>(q.column_int(7))};
  q.reset();
  return out;
}

void SqliteMailStore::mark_sent(std::int64_t id, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "UPDATE mail_queue SET sent_at = ?, attempts = attempts + 1, claimed_until = 0,"
              " last_error = '' WHERE id = ?");
  q.bind(1, now_ms).bind(2, id).run();
}

void SqliteMailStore::mark_failed(std::int64_t id, const std::string& error,
                                  std::optional<std::int64_t> retry_at_ms, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "UPDATE mail_queue SET attempts = attempts + 1, claimed_until = 0, last_error = ?,"
              " due_at = coalesce(?, due_at), failed_at = ? WHERE id = ?");
  q.bind(1, error)
      .bind(2, retry_at_ms)
      .bind(3, retry_at_ms ? std::nullopt : std::optional<std::int64_t>(now_ms))
      .bind(4, id)
      .run();
}

MailCounts SqliteMailStore::counts() {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "SELECT coalesce(sum(sent_at IS NULL AND failed_at IS NULL), 0),"
              " coalesce(sum(sent_at IS NOT NULL), 0), coalesce(sum(failed_at IS NOT NULL), 0)"
              " FROM mail_queue");
  q.step();
  return {q.column_int(0), q.column_int(1), q.column_int(2)};
}

void SqliteMailStore::prune(std::int64_t before_ms) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  Statement mails(db_, "DELETE FROM mail_queue WHERE coalesce(sent_at, failed_at) < ?");
  mails.bind(1, before_ms).run();
  Statement tokens(db_, "DELETE FROM mail_tokens WHERE expires_at < ?");
  tokens.bind(1, before_ms).run();
  Statement notices(db_, "DELETE FROM mail_game_notices WHERE last_at < ?");
  notices.bind(1, before_ms).run();
  t.commit();
}

bool SqliteMailStore::note_your_move(std::int64_t user_id, std::int64_t game_id,
                                     std::int64_t since_ms, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "INSERT INTO mail_game_notices(user_id, game_id, last_at) VALUES (?, ?, ?)"
              " ON CONFLICT(user_id, game_id) DO UPDATE SET last_at = excluded.last_at"
              " WHERE mail_game_notices.last_at < ?");
  q.bind(1, user_id).bind(2, game_id).bind(3, now_ms).bind(4, since_ms).run();
  return q.changes() > 0;
}

std::vector<MailSettings> SqliteMailStore::digests_due(std::int64_t now_ms, int limit) {
  std::lock_guard lock(mutex_);
  Statement q(db_, std::string("SELECT ") + kSettingsColumns +
                       " FROM mail_settings WHERE digest = 1 AND verified_at IS NOT NULL"
                       " AND digest_due <= ? ORDER BY digest_due LIMIT ?");
  q.bind(1, now_ms).bind(2, std::int64_t{limit});
  std::vector<MailSettings> out;
  while (q.step()) out.push_back(settings_at(q));
  return out;
}

bool SqliteMailStore::take_digest(std::int64_t user_id, std::int64_t due_ms, std::int64_t next_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "UPDATE mail_settings SET digest_due = ? WHERE user_id = ? AND digest_due = ?");
  q.bind(1, next_ms).bind(2, user_id).bind(3, due_ms).run();
  return q.changes() > 0;
}

}  // namespace tengen::store
