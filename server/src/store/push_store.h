#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "store/sql.h"

namespace tengen::store {

// What a player wants to be told on one device (docs/web-client.md, "Push").
struct PushChoices {
  bool your_move = true;      // a correspondence game waits for their move
  bool game_start = true;     // a game of theirs started (a challenge accepted, a quick match)
  bool round_start = true;    // a tournament's round started with a game of theirs
  bool opponent_back = true;  // their opponent in a live game came back after leaving it
  friend bool operator==(const PushChoices&, const PushChoices&) = default;
};

// A device's push subscription, as its browser gave it (keys in base64url).
struct PushSubscription {
  std::int64_t id = 0;
  std::int64_t user_id = 0;
  std::string endpoint;
  std::string p256dh;
  std::string auth;
  PushChoices choices;
  std::int64_t created_at_ms = 0;
  friend bool operator==(const PushSubscription&, const PushSubscription&) = default;
};

// A message to one device, as queued (the payload in the clear: encrypted when sent).
struct OutgoingPush {
  std::int64_t subscription_id = 0;
  std::string kind;     // your_move, game_start, round_start, test
  std::string payload;  // JSON, at most push::kMaxPlaintext bytes
  std::string topic{};  // a newer message of the same topic replaces it on the push service
  std::string urgency = "normal";
  int ttl_s = 24 * 3600;  // how long the push service keeps it for a device that is away
};
struct QueuedPush {
  std::int64_t id = 0;
  OutgoingPush push;
  PushSubscription subscription;
  int attempts = 0;  // before this one
};

struct PushCounts {
  std::int64_t pending = 0;
  std::int64_t sent = 0;
  std::int64_t failed = 0;
};

// Push's tables (migrations 0010_push.sql), written once for SQLite and PostgreSQL over a
// sql::Connection of its own (under a mutex: safe from any thread). Several nodes share its
// queue: a message is claimed by one of them.
class PushStore {
 public:
  explicit PushStore(std::unique_ptr<sql::Connection> db) : db_(std::move(db)) {}

  // The server's key called `name`: the one kept, or `made` kept now if there is none (the first
  // of several nodes to write one wins; every node then reads that one).
  std::string server_key(const std::string& name, const std::string& made, std::int64_t now_ms);

  // Keeps a subscription (its endpoint names it: a device subscribing again, or for another
  // player, replaces what was kept); a player's oldest beyond `most` are dropped. Its id.
  std::int64_t subscribe(const PushSubscription& s, int most);
  // Forgets a player's subscription; false if they had none at that endpoint.
  bool unsubscribe(std::int64_t user_id, const std::string& endpoint);
  std::optional<PushSubscription> subscription(std::int64_t user_id, const std::string& endpoint);
  std::vector<PushSubscription> subscriptions_of(std::int64_t user_id);
  // The push service said the subscription is gone (404, 410): forgotten, with its queue.
  void drop(std::int64_t subscription_id);

  std::int64_t enqueue(const OutgoingPush& push, std::int64_t now_ms);
  // Messages queued for a player's devices since then (a bound per player and day).
  int queued_since(std::int64_t user_id, std::int64_t since_ms);
  // The oldest message due, held by this caller until `hold_until_ms`.
  std::optional<QueuedPush> claim(std::int64_t now_ms, std::int64_t hold_until_ms);
  void mark_sent(std::int64_t id, std::int64_t now_ms);
  // Tried again at `retry_at_ms`, or given up on when there is none.
  void mark_failed(std::int64_t id, const std::string& error,
                   std::optional<std::int64_t> retry_at_ms, std::int64_t now_ms);
  PushCounts counts();
  void prune(std::int64_t before_ms);

 private:
  std::mutex mutex_;
  std::unique_ptr<sql::Connection> db_;
};

}  // namespace tengen::store
