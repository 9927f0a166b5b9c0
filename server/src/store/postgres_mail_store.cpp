#include "store/postgres_mail_store.h"

#include "store/postgres.h"

namespace tengen::store {
namespace {

constexpr const char* kSettingsColumns =
    "user_id, address, verified_at, your_move, game_over, digest, unsubscribe_key, digest_due";

MailSettings settings_at(const pg::Result& r, int row) {
  return MailSettings{r.int64(row, 0),   r.text(row, 1),    r.optional_int64(row, 2),
                      r.boolean(row, 3), r.boolean(row, 4), r.boolean(row, 5),
                      r.text(row, 6),    r.int64(row, 7)};
}

pg::Param hash(const TokenHash& h) {
  return pg::Param::bytes(h);
}

}  // namespace

PostgresMailStore::PostgresMailStore(const std::string& conninfo)
    : db_(std::make_unique<pg::Connection>(conninfo)) {}

PostgresMailStore::~PostgresMailStore() = default;

std::optional<MailSettings> PostgresMailStore::settings(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      std::string("SELECT ") + kSettingsColumns + " FROM mail_settings WHERE user_id = $1",
      {user_id});
  if (r.rows() == 0) return std::nullopt;
  return settings_at(r, 0);
}

void PostgresMailStore::put_settings(const MailSettings& s) {
  std::lock_guard lock(mutex_);
  db_->query(std::string("INSERT INTO mail_settings(") + kSettingsColumns +
                 ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (user_id) DO UPDATE SET"
                 " address = excluded.address, verified_at = excluded.verified_at,"
                 " your_move = excluded.your_move, game_over = excluded.game_over,"
                 " digest = excluded.digest, unsubscribe_key = excluded.unsubscribe_key,"
                 " digest_due = excluded.digest_due",
             {s.user_id, s.address, s.verified_at_ms, s.your_move, s.game_over, s.digest,
              s.unsubscribe_key, s.digest_due_ms});
}

void PostgresMailStore::delete_settings(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  db_->transaction(
      {{"DELETE FROM mail_settings WHERE user_id = $1", {user_id}},
       {"DELETE FROM mail_tokens WHERE user_id = $1 AND purpose = 'verify'", {user_id}}});
}

std::vector<std::int64_t> PostgresMailStore::users_with_address(const std::string& address,
                                                                int limit) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      "SELECT user_id FROM mail_settings WHERE lower(address) = lower($1)"
      " AND verified_at IS NOT NULL ORDER BY user_id LIMIT $2",
      {address, limit});
  std::vector<std::int64_t> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(r.int64(i, 0));
  return out;
}

void PostgresMailStore::add_token(const TokenHash& h, const MailToken& t) {
  std::lock_guard lock(mutex_);
  db_->query(
      "INSERT INTO mail_tokens(token_hash, user_id, purpose, address, created_at, expires_at)"
      " VALUES ($1, $2, $3, $4, $5, $6)",
      {hash(h), t.user_id, t.purpose, t.address, t.created_at_ms, t.expires_at_ms});
}

std::optional<MailToken> PostgresMailStore::token(const TokenHash& h, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      "SELECT user_id, purpose, address, created_at, expires_at FROM mail_tokens"
      " WHERE token_hash = $1 AND expires_at > $2",
      {hash(h), now_ms});
  if (r.rows() == 0) return std::nullopt;
  return MailToken{r.int64(0, 0), r.text(0, 1), r.text(0, 2), r.int64(0, 3), r.int64(0, 4)};
}

bool PostgresMailStore::take_token(const TokenHash& h) {
  std::lock_guard lock(mutex_);
  return db_->query("DELETE FROM mail_tokens WHERE token_hash = $1", {hash(h)}).affected() > 0;
}

int PostgresMailStore::tokens_since(std::int64_t user_id, const std::string& purpose,
                                    std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(db_->query("SELECT count(*) FROM mail_tokens WHERE user_id = $1"
                                     " AND purpose = $2 AND created_at >= $3",
                                     {user_id, purpose, since_ms})
                              .int64(0, 0));
}

std::int64_t PostgresMailStore::enqueue(const OutgoingMail& m, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_
      ->query(
          "INSERT INTO mail_queue(user_id, kind, recipient, subject, body, unsubscribe,"
          " created_at, due_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id",
          {m.user_id, m.kind, m.recipient, m.subject, m.body, m.unsubscribe, now_ms})
      .int64(0, 0);
}

int PostgresMailStore::queued_since(std::int64_t user_id, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->query("SELECT count(*) FROM mail_queue WHERE user_id = $1 AND created_at >= $2",
                 {user_id, since_ms})
          .int64(0, 0));
}

std::optional<QueuedMail> PostgresMailStore::claim(std::int64_t now_ms,
                                                   std::int64_t hold_until_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      "UPDATE mail_queue SET claimed_until = $1 WHERE id = (SELECT id FROM mail_queue"
      " WHERE sent_at IS NULL AND failed_at IS NULL AND due_at <= $2 AND claimed_until <= $2"
      " ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)"
      " RETURNING id, user_id, kind, recipient, subject, body, unsubscribe, attempts",
      {hold_until_ms, now_ms});
  if (r.rows() == 0) return std::nullopt;
  return QueuedMail{r.int64(0, 0),
                    {r.optional_int64(0, 1), r.text(0, 2), r.text(0, 3), r.text(0, 4), r.text(0, 5),
                     r.text(0, 6)},
                    static_cast<int>(r.int64(0, 7))};
}

void PostgresMailStore::mark_sent(std::int64_t id, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->query(
      "UPDATE mail_queue SET sent_at = $1, attempts = attempts + 1, claimed_until = 0,"
      " last_error = '' WHERE id = $2",
      {now_ms, id});
}

void PostgresMailStore::mark_failed(std::int64_t id, const std::string& error,
                                    std::optional<std::int64_t> retry_at_ms, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->query(
      "UPDATE mail_queue SET attempts = attempts + 1, claimed_until = 0, last_error = $1,"
      " due_at = coalesce($2, due_at), failed_at = $3 WHERE id = $4",
      {error, retry_at_ms, retry_at_ms ? std::nullopt : std::optional<std::int64_t>(now_ms), id});
}

MailCounts PostgresMailStore::counts() {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      "SELECT count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL),"
      " count(*) FILTER (WHERE sent_at IS NOT NULL), count(*) FILTER (WHERE failed_at IS NOT NULL)"
      " FROM mail_queue");
  return {r.int64(0, 0), r.int64(0, 1), r.int64(0, 2)};
}

void PostgresMailStore::prune(std::int64_t before_ms) {
  std::lock_guard lock(mutex_);
  db_->transaction({{"DELETE FROM mail_queue WHERE coalesce(sent_at, failed_at) < $1", {before_ms}},
                    {"DELETE FROM mail_tokens WHERE expires_at < $1", {before_ms}},
                    {"DELETE FROM mail_game_notices WHERE last_at < $1", {before_ms}}});
}

bool PostgresMailStore::note_your_move(std::int64_t user_id, std::int64_t game_id,
                                       std::int64_t since_ms, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->query(
                "INSERT INTO mail_game_notices(user_id, game_id, last_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (user_id, game_id) DO UPDATE SET last_at = excluded.last_at"
                " WHERE mail_game_notices.last_at < $4",
                {user_id, game_id, now_ms, since_ms})
             .affected() > 0;
}

std::vector<MailSettings> PostgresMailStore::digests_due(std::int64_t now_ms, int limit) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(std::string("SELECT ") + kSettingsColumns +
                                " FROM mail_settings WHERE digest AND verified_at IS NOT NULL"
                                " AND digest_due <= $1 ORDER BY digest_due LIMIT $2",
                            {now_ms, limit});
  std::vector<MailSettings> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(settings_at(r, i));
  return out;
}

bool PostgresMailStore::take_digest(std::int64_t user_id, std::int64_t due_ms,
                                    std::int64_t next_ms) {
  std::lock_guard lock(mutex_);
  return db_->query(
                "UPDATE mail_settings SET digest_due = $1 WHERE user_id = $2 AND digest_due = $3",
                {next_ms, user_id, due_ms})
             .affected() > 0;
}

}  // namespace tengen::store
