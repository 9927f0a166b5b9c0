#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/account_store.h"

namespace tengen::store {

// A player's e-mail (docs/mail.md): the address, whether its link was opened, what they want to
// be sent, and the key of their one-click unsubscribe links.
struct MailSettings {
  std::int64_t user_id = 0;
  std::string address;
  std::optional<std::int64_t> verified_at_ms{};
  bool your_move = true;
  bool game_over = true;
  bool digest = false;
  std::string unsubscribe_key;
  std::int64_t digest_due_ms = 0;  // the next daily digest not before
  friend bool operator==(const MailSettings&, const MailSettings&) = default;
};

// What a link sent by mail stands for (its token is kept only as SHA-256).
struct MailToken {
  std::int64_t user_id = 0;
  std::string purpose;  // "verify", "reset"
  std::string address;
  std::int64_t created_at_ms = 0;
  std::int64_t expires_at_ms = 0;
};

// A mail to send, as queued.
struct OutgoingMail {
  std::optional<std::int64_t> user_id{};
  std::string kind;  // verify, reset, your_move, game_over, digest
  std::string recipient;
  std::string subject;
  std::string body;
  std::string unsubscribe{};  // the one-click URL, or empty
};
struct QueuedMail {
  std::int64_t id = 0;
  OutgoingMail mail;
  int attempts = 0;  // before this one
};

// The queue's counts, for the metrics and the tests.
struct MailCounts {
  std::int64_t pending = 0;
  std::int64_t sent = 0;
  std::int64_t failed = 0;
};

// Mail's tables (migrations 0009_mail.sql): on SQLite (SqliteMailStore) or PostgreSQL
// (PostgresMailStore), each over a connection of its own, safe from any thread.
class MailStore {
 public:
  virtual ~MailStore() = default;

  virtual std::optional<MailSettings> settings(std::int64_t user_id) = 0;
  // Writes them whole (a new row, or over the old one).
  virtual void put_settings(const MailSettings& settings) = 0;
  // Forgets the address and its tokens.
  virtual void delete_settings(std::int64_t user_id) = 0;
  // The users whose verified address this is (without regard to case), at most `limit`.
  virtual std::vector<std::int64_t> users_with_address(const std::string& address, int limit) = 0;

  virtual void add_token(const TokenHash& hash, const MailToken& token) = 0;
  // The token if it exists and has not expired at `now_ms`.
  virtual std::optional<MailToken> token(const TokenHash& hash, std::int64_t now_ms) = 0;
  // Deletes it: false if it was gone already (taken by someone else first).
  virtual bool take_token(const TokenHash& hash) = 0;
  // How many tokens for `purpose` the user was given since `since_ms`.
  virtual int tokens_since(std::int64_t user_id, const std::string& purpose,
                           std::int64_t since_ms) = 0;

  virtual std::int64_t enqueue(const OutgoingMail& mail, std::int64_t now_ms) = 0;
  // Mails to the user queued since `since_ms`, sent or not.
  virtual int queued_since(std::int64_t user_id, std::int64_t since_ms) = 0;
  // The oldest mail due at `now_ms` that nobody holds, held until `hold_until_ms`.
  virtual std::optional<QueuedMail> claim(std::int64_t now_ms, std::int64_t hold_until_ms) = 0;
  virtual void mark_sent(std::int64_t id, std::int64_t now_ms) = 0;
  // A failed attempt: tried again from `retry_at_ms`, or given up on (nullopt).
  virtual void mark_failed(std::int64_t id, const std::string& error,
                           std::optional<std::int64_t> retry_at_ms, std::int64_t now_ms) = 0;
  virtual MailCounts counts() = 0;
  // Deletes the sent and abandoned mails, and the expired tokens, from before `before_ms`.
  virtual void prune(std::int64_t before_ms) = 0;

  // Notes that the user is told "your move" in the game now, unless they were told since
  // `since_ms`: false then, nothing changed.
  virtual bool note_your_move(std::int64_t user_id, std::int64_t game_id, std::int64_t since_ms,
                              std::int64_t now_ms) = 0;
  // Users with a verified address who asked for the digest and whose next one is due, at most
  // `limit`; then, for each, takes it (false: another node did) and sets the next one.
  virtual std::vector<MailSettings> digests_due(std::int64_t now_ms, int limit) = 0;
  virtual bool take_digest(std::int64_t user_id, std::int64_t due_ms, std::int64_t next_ms) = 0;
};

}  // namespace tengen::store
