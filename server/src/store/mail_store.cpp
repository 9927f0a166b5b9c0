#include "store/mail_store.h"

#include "store/send_queue.h"

namespace tengen::store {
namespace {

using sql::value;

constexpr const char* kSettingsColumns =
    "user_id, address, verified_at, your_move, game_over, digest, unsubscribe_key, digest_due";

MailSettings settings_at(const sql::Rows& r, std::size_t i) {
  return MailSettings{r.integer(i, 0), r.text(i, 1),    r.optional_integer(i, 2),
                      r.boolean(i, 3), r.boolean(i, 4), r.boolean(i, 5),
                      r.text(i, 6),    r.integer(i, 7)};
}

}  // namespace

std::optional<MailSettings> MailStore::settings(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  const auto r =
      db_->run(std::string("SELECT ") + kSettingsColumns + " FROM mail_settings WHERE user_id = ?",
               {user_id});
  if (r.empty()) return std::nullopt;
  return settings_at(r, 0);
}

void MailStore::put_settings(const MailSettings& s) {
  std::lock_guard lock(mutex_);
  db_->run(std::string("INSERT INTO mail_settings(") + kSettingsColumns +
               ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
               " address = excluded.address, verified_at = excluded.verified_at,"
               " your_move = excluded.your_move, game_over = excluded.game_over,"
               " digest = excluded.digest, unsubscribe_key = excluded.unsubscribe_key,"
               " digest_due = excluded.digest_due",
           {s.user_id, s.address, value(s.verified_at_ms), value(s.your_move), value(s.game_over),
            value(s.digest), s.unsubscribe_key, s.digest_due_ms});
}

void MailStore::delete_settings(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  db_->transaction([&] {
    db_->run("DELETE FROM mail_settings WHERE user_id = ?", {user_id});
    db_->run("DELETE FROM mail_tokens WHERE user_id = ? AND purpose = 'verify'", {user_id});
  });
}

std::vector<std::int64_t> MailStore::users_with_address(const std::string& address, int limit) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT user_id FROM mail_settings WHERE lower(address) = lower(?)"
      " AND verified_at IS NOT NULL ORDER BY user_id LIMIT ?",
      {address, std::int64_t{limit}});
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(r.integer(i, 0));
  return out;
}

void MailStore::add_token(const TokenHash& hash, const MailToken& t) {
  std::lock_guard lock(mutex_);
  db_->run(
      "INSERT INTO mail_tokens(token_hash, user_id, purpose, address, created_at, expires_at)"
      " VALUES (?, ?, ?, ?, ?, ?)",
      {value(hash), t.user_id, t.purpose, t.address, t.created_at_ms, t.expires_at_ms});
}

std::optional<MailToken> MailStore::token(const TokenHash& hash, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT user_id, purpose, address, created_at, expires_at FROM mail_tokens"
      " WHERE token_hash = ? AND expires_at > ?",
      {value(hash), now_ms});
  if (r.empty()) return std::nullopt;
  return MailToken{r.integer(0, 0), r.text(0, 1), r.text(0, 2), r.integer(0, 3), r.integer(0, 4)};
}

bool MailStore::take_token(const TokenHash& hash) {
  std::lock_guard lock(mutex_);
  return db_->run("DELETE FROM mail_tokens WHERE token_hash = ?", {value(hash)}).changed > 0;
}

int MailStore::tokens_since(std::int64_t user_id, const std::string& purpose,
                            std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(db_->run("SELECT count(*) FROM mail_tokens WHERE user_id = ?"
                                   " AND purpose = ? AND created_at >= ?",
                                   {user_id, purpose, since_ms})
                              .integer(0, 0));
}

std::int64_t MailStore::enqueue(const OutgoingMail& m, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_
      ->run(
          "INSERT INTO mail_queue(user_id, kind, recipient, subject, body, unsubscribe,"
          " created_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
          {value(m.user_id), m.kind, m.recipient, m.subject, m.body, m.unsubscribe, now_ms, now_ms})
      .integer(0, 0);
}

int MailStore::queued_since(std::int64_t user_id, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("SELECT count(*) FROM mail_queue WHERE user_id = ? AND created_at >= ?",
               {user_id, since_ms})
          .integer(0, 0));
}

std::optional<QueuedMail> MailStore::claim(std::int64_t now_ms, std::int64_t hold_until_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      std::string("UPDATE mail_queue SET claimed_until = ? WHERE id = (SELECT id FROM mail_queue"
                  " WHERE sent_at IS NULL AND failed_at IS NULL AND due_at <= ?"
                  " AND claimed_until <= ? ORDER BY due_at, id LIMIT 1") +
          db_->skip_locked() +
          ") RETURNING id, user_id, kind, recipient, subject, body, unsubscribe, attempts",
      {hold_until_ms, now_ms, now_ms});
  if (r.empty()) return std::nullopt;
  return QueuedMail{r.integer(0, 0),
                    {r.optional_integer(0, 1), r.text(0, 2), r.text(0, 3), r.text(0, 4),
                     r.text(0, 5), r.text(0, 6)},
                    static_cast<int>(r.integer(0, 7))};
}

void MailStore::mark_sent(std::int64_t id, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  send_queue::mark_sent(*db_, "mail_queue", id, now_ms);
}

void MailStore::mark_failed(std::int64_t id, const std::string& error,
                            std::optional<std::int64_t> retry_at_ms, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  send_queue::mark_failed(*db_, "mail_queue", id, error, retry_at_ms, now_ms);
}

MailCounts MailStore::counts() {
  std::lock_guard lock(mutex_);
  const auto [pending, sent, failed] = send_queue::counts(*db_, "mail_queue");
  return {pending, sent, failed};
}

void MailStore::prune(std::int64_t before_ms) {
  std::lock_guard lock(mutex_);
  db_->transaction([&] {
    db_->run("DELETE FROM mail_queue WHERE coalesce(sent_at, failed_at) < ?", {before_ms});
    db_->run("DELETE FROM mail_tokens WHERE expires_at < ?", {before_ms});
    db_->run("DELETE FROM mail_game_notices WHERE last_at < ?", {before_ms});
  });
}

bool MailStore::note_your_move(std::int64_t user_id, std::int64_t game_id, std::int64_t since_ms,
                               std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "INSERT INTO mail_game_notices(user_id, game_id, last_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id, game_id) DO UPDATE SET last_at = excluded.last_at"
                " WHERE mail_game_notices.last_at < ?",
                {user_id, game_id, now_ms, since_ms})
             .changed > 0;
}

std::vector<MailSettings> MailStore::digests_due(std::int64_t now_ms, int limit) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(std::string("SELECT ") + kSettingsColumns +
                              " FROM mail_settings WHERE digest = ? AND verified_at IS NOT NULL"
                              " AND digest_due <= ? ORDER BY digest_due LIMIT ?",
                          {value(true), now_ms, std::int64_t{limit}});
  std::vector<MailSettings> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(settings_at(r, i));
  return out;
}

bool MailStore::take_digest(std::int64_t user_id, std::int64_t due_ms, std::int64_t next_ms) {
  std::lock_guard lock(mutex_);
  return db_->run("UPDATE mail_settings SET digest_due = ? WHERE user_id = ? AND digest_due = ?",
                  {next_ms, user_id, due_ms})
             .changed > 0;
}

}  // namespace tengen::store
