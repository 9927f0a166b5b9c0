#include "store/push_store.h"

#include "store/send_queue.h"

namespace tengen::store {
namespace {

using sql::value;

constexpr const char* kColumns =
    "id, user_id, endpoint, p256dh, auth, your_move, game_start, round_start, opponent_back,"
    " created_at";

PushSubscription subscription_at(const sql::Rows& r, std::size_t i) {
  return PushSubscription{
      r.integer(i, 0), r.integer(i, 1),
      r.text(i, 2),    r.text(i, 3),
      r.text(i, 4),    {r.boolean(i, 5), r.boolean(i, 6), r.boolean(i, 7), r.boolean(i, 8)},
      r.integer(i, 9)};
}

}  // namespace

std::string PushStore::server_key(const std::string& name, const std::string& made,
                                  std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->run(
      "INSERT INTO server_keys(name, value, created_at) VALUES (?, ?, ?)"
      " ON CONFLICT (name) DO NOTHING",
      {name, made, now_ms});
  return db_->run("SELECT value FROM server_keys WHERE name = ?", {name}).text(0, 0);
}

std::int64_t PushStore::subscribe(const PushSubscription& s, int most) {
  std::lock_guard lock(mutex_);
  std::int64_t id = 0;
  db_->transaction([&] {
    id = db_->run(
                "INSERT INTO push_subscriptions(user_id, endpoint, p256dh, auth, your_move,"
                " game_start, round_start, opponent_back, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id,"
                " p256dh = excluded.p256dh, auth = excluded.auth, your_move = excluded.your_move,"
                " game_start = excluded.game_start, round_start = excluded.round_start,"
                " opponent_back = excluded.opponent_back,"
                " created_at = excluded.created_at RETURNING id",
                {s.user_id, s.endpoint, s.p256dh, s.auth, value(s.choices.your_move),
                 value(s.choices.game_start), value(s.choices.round_start),
                 value(s.choices.opponent_back), s.created_at_ms})
             .integer(0, 0);
    db_->run(
        "DELETE FROM push_subscriptions WHERE user_id = ? AND id NOT IN (SELECT id FROM"
        " push_subscriptions WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)",
        {s.user_id, s.user_id, std::int64_t{most}});
  });
  return id;
}

bool PushStore::unsubscribe(std::int64_t user_id, const std::string& endpoint) {
  std::lock_guard lock(mutex_);
  return db_->run("DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint = ?",
                  {user_id, endpoint})
             .changed > 0;
}

std::optional<PushSubscription> PushStore::subscription(std::int64_t user_id,
                                                        const std::string& endpoint) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(std::string("SELECT ") + kColumns +
                              " FROM push_subscriptions WHERE user_id = ? AND endpoint = ?",
                          {user_id, endpoint});
  if (r.empty()) return std::nullopt;
  return subscription_at(r, 0);
}

std::vector<PushSubscription> PushStore::subscriptions_of(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(std::string("SELECT ") + kColumns +
                              " FROM push_subscriptions WHERE user_id = ? ORDER BY created_at, id",
                          {user_id});
  std::vector<PushSubscription> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(subscription_at(r, i));
  return out;
}

void PushStore::drop(std::int64_t subscription_id) {
  std::lock_guard lock(mutex_);
  db_->transaction([&] {
    db_->run("DELETE FROM push_queue WHERE subscription_id = ?", {subscription_id});
    db_->run("DELETE FROM push_subscriptions WHERE id = ?", {subscription_id});
  });
}

std::int64_t PushStore::enqueue(const OutgoingPush& p, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_
      ->run(
          "INSERT INTO push_queue(subscription_id, kind, payload, topic, urgency, ttl_s,"
          " created_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
          {p.subscription_id, p.kind, p.payload, p.topic, p.urgency, std::int64_t{p.ttl_s}, now_ms,
           now_ms})
      .integer(0, 0);
}

int PushStore::queued_since(std::int64_t user_id, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("SELECT count(*) FROM push_queue q JOIN push_subscriptions s"
               " ON s.id = q.subscription_id WHERE s.user_id = ? AND q.created_at >= ?",
               {user_id, since_ms})
          .integer(0, 0));
}

std::optional<QueuedPush> PushStore::claim(std::int64_t now_ms, std::int64_t hold_until_ms) {
  std::lock_guard lock(mutex_);
  // A look first, which takes no lock: the pusher looks often, and on SQLite the file's one
  // writer (the games' journal) should not wait for a claim of nothing.
  if (db_->run("SELECT 1 FROM push_queue WHERE sent_at IS NULL AND failed_at IS NULL"
               " AND due_at <= ? AND claimed_until <= ? LIMIT 1",
               {now_ms, now_ms})
          .empty())
    return std::nullopt;
  std::optional<QueuedPush> out;
  db_->transaction([&] {
    const auto r = db_->run(
        std::string("UPDATE push_queue SET claimed_until = ? WHERE id = (SELECT id FROM"
                    " push_queue WHERE sent_at IS NULL AND failed_at IS NULL AND due_at <= ?"
                    " AND claimed_until <= ? ORDER BY due_at, id LIMIT 1") +
            db_->skip_locked() +
            ") RETURNING id, subscription_id, kind, payload, topic, urgency, ttl_s, attempts",
        {hold_until_ms, now_ms, now_ms});
    if (r.empty()) return;
    const auto s =
        db_->run(std::string("SELECT ") + kColumns + " FROM push_subscriptions WHERE id = ?",
                 {r.integer(0, 1)});
    if (s.empty()) return;  // dropped meanwhile: its queue went with it
    out = QueuedPush{r.integer(0, 0),
                     {r.integer(0, 1), r.text(0, 2), r.text(0, 3), r.text(0, 4), r.text(0, 5),
                      static_cast<int>(r.integer(0, 6))},
                     subscription_at(s, 0),
                     static_cast<int>(r.integer(0, 7))};
  });
  return out;
}

void PushStore::mark_sent(std::int64_t id, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  send_queue::mark_sent(*db_, "push_queue", id, now_ms);
}

void PushStore::mark_failed(std::int64_t id, const std::string& error,
                            std::optional<std::int64_t> retry_at_ms, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  send_queue::mark_failed(*db_, "push_queue", id, error, retry_at_ms, now_ms);
}

PushCounts PushStore::counts() {
  std::lock_guard lock(mutex_);
  const auto [pending, sent, failed] = send_queue::counts(*db_, "push_queue");
  return {pending, sent, failed};
}

void PushStore::prune(std::int64_t before_ms) {
  std::lock_guard lock(mutex_);
  db_->run("DELETE FROM push_queue WHERE coalesce(sent_at, failed_at) < ?", {before_ms});
}

}  // namespace tengen::store
