#include "store/sqlite_push_store.h"

namespace tengen::store {
namespace {

constexpr const char* kColumns =
    "id, user_id, endpoint, p256dh, auth, your_move, game_start, round_start, opponent_back,"
    " created_at";

PushSubscription subscription_at(const Statement& q, int first = 0) {
  return PushSubscription{q.column_int(first),
                          q.column_int(first + 1),
                          q.column_text(first + 2),
                          q.column_text(first + 3),
                          q.column_text(first + 4),
                          {q.column_int(first + 5) != 0, q.column_int(first + 6) != 0,
                           q.column_int(first + 7) != 0, q.column_int(first + 8) != 0},
                          q.column_int(first + 9)};
}

}  // namespace

std::string SqlitePushStore::server_key(const std::string& name, const std::string& made,
                                        std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement put(db_,
                "INSERT INTO server_keys(name, value, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT(name) DO NOTHING");
  put.bind(1, name).bind(2, made).bind(3, now_ms).run();
  Statement q(db_, "SELECT value FROM server_keys WHERE name = ?");
  q.bind(1, name);
  q.step();
  return q.column_text(0);
}

std::int64_t SqlitePushStore::subscribe(const PushSubscription& s, int most) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  Statement q(db_,
              "INSERT INTO push_subscriptions(user_id, endpoint, p256dh, auth, your_move,"
              " game_start, round_start, opponent_back, created_at)"
              " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
              " ON CONFLICT(endpoint) DO UPDATE SET user_id = excluded.user_id,"
              " p256dh = excluded.p256dh, auth = excluded.auth, your_move = excluded.your_move,"
              " game_start = excluded.game_start, round_start = excluded.round_start,"
              " opponent_back = excluded.opponent_back,"
              " created_at = excluded.created_at RETURNING id");
  q.bind(1, s.user_id)
      .bind(2, s.endpoint)
      .bind(3, s.p256dh)
      .bind(4, s.auth)
      .bind(5, std::int64_t{s.choices.your_move})
      .bind(6, std::int64_t{s.choices.game_start})
      .bind(7, std::int64_t{s.choices.round_start})
      .bind(8, std::int64_t{s.choices.opponent_back})
      .bind(9, s.created_at_ms);
  q.step();
  const auto id = q.column_int(0);
  q.reset();
  Statement trim(
      db_,
      "DELETE FROM push_subscriptions WHERE user_id = ? AND id NOT IN (SELECT id FROM"
      " push_subscriptions WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)");
  trim.bind(1, s.user_id).bind(2, s.user_id).bind(3, std::int64_t{most}).run();
  t.commit();
  return id;
}

bool SqlitePushStore::unsubscribe(std::int64_t user_id, const std::string& endpoint) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint = ?");
  q.bind(1, user_id).bind(2, endpoint).run();
  return q.changes() > 0;
}

std::optional<PushSubscription> SqlitePushStore::subscription(std::int64_t user_id,
                                                              const std::string& endpoint) {
  std::lock_guard lock(mutex_);
  Statement q(db_, std::string("SELECT ") + kColumns +
                       " FROM push_subscriptions WHERE user_id = ? AND endpoint = ?");
  q.bind(1, user_id).bind(2, endpoint);
  if (!q.step()) return std::nullopt;
  return subscription_at(q);
}

std::vector<PushSubscription> SqlitePushStore::subscriptions_of(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  Statement q(db_, std::string("SELECT ") + kColumns +
                       " FROM push_subscriptions WHERE user_id = ? ORDER BY created_at, id");
  q.bind(1, user_id);
  std::vector<PushSubscription> out;
  while (q.step()) out.push_back(subscription_at(q));
  return out;
}

void SqlitePushStore::drop(std::int64_t subscription_id) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  Statement queue(db_, "DELETE FROM push_queue WHERE subscription_id = ?");
  queue.bind(1, subscription_id).run();
  Statement q(db_, "DELETE FROM push_subscriptions WHERE id = ?");
  q.bind(1, subscription_id).run();
  t.commit();
}

std::int64_t SqlitePushStore::enqueue(const OutgoingPush& p, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "INSERT INTO push_queue(subscription_id, kind, payload, topic, urgency, ttl_s,"
              " created_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  q.bind(1, p.subscription_id)
      .bind(2, p.kind)
      .bind(3, p.payload)
      .bind(4, p.topic)
      .bind(5, p.urgency)
      .bind(6, std::int64_t{p.ttl_s})
      .bind(7, now_ms)
      .bind(8, now_ms)
      .run();
  return q.last_insert_rowid();
}

int SqlitePushStore::queued_since(std::int64_t user_id, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "SELECT count(*) FROM push_queue q JOIN push_subscriptions s"
              " ON s.id = q.subscription_id WHERE s.user_id = ? AND q.created_at >= ?");
  q.bind(1, user_id).bind(2, since_ms);
  q.step();
  return static_cast<int>(q.column_int(0));
}

std::optional<QueuedPush> SqlitePushStore::claim(std::int64_t now_ms, std::int64_t hold_until_ms) {
  std::lock_guard lock(mutex_);
  {
    // A look first, which takes no lock: the pusher looks often, and the file's one writer (the
    // games' journal) should not wait for a claim of nothing.
    Statement due(db_,
                  "SELECT 1 FROM push_queue WHERE sent_at IS NULL AND failed_at IS NULL"
                  " AND due_at <= ? AND claimed_until <= ? LIMIT 1");
    due.bind(1, now_ms).bind(2, now_ms);
    if (!due.step()) return std::nullopt;
  }
  Transaction t(db_);
  Statement q(db_,
              "UPDATE push_queue SET claimed_until = ? WHERE id = (SELECT id FROM push_queue"
              " WHERE sent_at IS NULL AND failed_at IS NULL AND due_at <= ? AND claimed_until <= ?"
              " ORDER BY due_at, id LIMIT 1)"
              " RETURNING id, subscription_id, kind, payload, topic, urgency, ttl_s, attempts");
  q.bind(1, hold_until_ms).bind(2, now_ms).bind(3, now_ms);
  if (!q.step()) return std::nullopt;
  QueuedPush out{q.column_int(0),
                 {q.column_int(1), q.column_text(2), q.column_text(3), q.column_text(4),
                  q.column_text(5), static_cast<int>(q.column_int(6))},
                 {},
                 static_cast<int>(q.column_int(7))};
  q.reset();
  Statement s(db_, std::string("SELECT ") + kColumns + " FROM push_subscriptions WHERE id = ?");
  s.bind(1, out.push.subscription_id);
  if (!s.step()) return std::nullopt;  // dropped meanwhile: its queue went with it
  out.subscription = subscription_at(s);
  s.reset();
  t.commit();
  return out;
}

void SqlitePushStore::mark_sent(std::int64_t id, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "UPDATE push_queue SET sent_at = ?, attempts = attempts + 1, claimed_until = 0,"
              " last_error = '' WHERE id = ?");
  q.bind(1, now_ms).bind(2, id).run();
}

void SqlitePushStore::mark_failed(std::int64_t id, const std::string& error,
                                  std::optional<std::int64_t> retry_at_ms, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "UPDATE push_queue SET attempts = attempts + 1, claimed_until = 0, last_error = ?,"
              " due_at = coalesce(?, due_at), failed_at = ? WHERE id = ?");
  q.bind(1, error)
      .bind(2, retry_at_ms)
      .bind(3, retry_at_ms ? std::nullopt : std::optional<std::int64_t>(now_ms))
      .bind(4, id)
      .run();
}

PushCounts SqlitePushStore::counts() {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "SELECT coalesce(sum(sent_at IS NULL AND failed_at IS NULL), 0),"
              " coalesce(sum(sent_at IS NOT NULL), 0), coalesce(sum(failed_at IS NOT NULL), 0)"
              " FROM push_queue");
  q.step();
  return {q.column_int(0), q.column_int(1), q.column_int(2)};
}

void SqlitePushStore::prune(std::int64_t before_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "DELETE FROM push_queue WHERE coalesce(sent_at, failed_at) < ?");
  q.bind(1, before_ms).run();
}

}  // namespace tengen::store
