#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "store/account_store.h"
#include "store/sql.h"

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

// Mail's tables (migrations 0009_mail.sql), written once for SQLite and PostgreSQL over a
// sql::Connection of its own (under a mutex: safe from any thread). Several nodes share its
// queue on PostgreSQL: a mail is claimed with FOR UPDATE SKIP LOCKED, so each is sent by one node.
class MailStore {
 public:
  explicit MailStore(std::unique_ptr<sql::Connection> db) : db_(std::move(db)) {}

  std::optional<MailSettings> settings(std::int64_t user_id);
  // Writes them whole (a new row, or over the old one).
  void put_settings(const MailSettings& settings);
  // Forgets the address and its tokens.
  void delete_settings(std::int64_t user_id);
  // The users whose verified address this is (without regard to case), at most `limit`.
  std::vector<std::int64_t> users_with_address(const std::string& address, int limit);

  void add_token(const TokenHash& hash, const MailToken& token);
  // The token if it exists and has not expired at `now_ms`.
  std::optional<MailToken> token(const TokenHash& hash, std::int64_t now_ms);
  // Deletes it: false if it was gone already (taken by someone else first).
  bool take_token(const TokenHash& hash);
  // How many tokens for `purpose` the user was given since `since_ms`.
  int tokens_since(std::int64_t user_id, const std::string& purpose, std::int64_t since_ms);

  std::int64_t enqueue(const OutgoingMail& mail, std::int64_t now_ms);
  // Mails to the user queued since `since_ms`, sent or not.
  int queued_since(std::int64_t user_id, std::int64_t since_ms);
  // The oldest mail due at `now_ms` that nobody holds, held until `hold_until_ms`.
  std::optional<QueuedMail> claim(std::int64_t now_ms, std::int64_t hold_until_ms);
  void mark_sent(std::int64_t id, std::int64_t now_ms);
  // A failed attempt: tried again from `retry_at_ms`, or given up on (nullopt).
  void mark_failed(std::int64_t id, const std::string& error,
                   std::optional<std::int64_t> retry_at_ms, std::int64_t now_ms);
  MailCounts counts();
  // Deletes the sent and abandoned mails, and the expired tokens, from before `before_ms`.
  void prune(std::int64_t before_ms);

  // Notes that the user is told "your move" in the game now, unless they were told since
  // `since_ms`: false then, nothing changed.
  bool note_your_move(std::int64_t user_id, std::int64_t game_id, std::int64_t since_ms,
                      std::int64_t now_ms);
  // Users with a verified address who asked for the digest and whose next one is due, at most
  // `limit`; then, for each, takes it (false: another node did) and sets the next one.
  std::vector<MailSettings> digests_due(std::int64_t now_ms, int limit);
  bool take_digest(std::int64_t user_id, std::int64_t due_ms, std::int64_t next_ms);

 private:
  std::mutex mutex_;
  std::unique_ptr<sql::Connection> db_;
};

}  // namespace tengen::store
