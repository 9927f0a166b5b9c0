#include "store/postgres_push_store.h"

#include "store/postgres.h"

namespace tengen::store {
namespace {

constexpr const char* kColumns =
    "id, user_id, endpoint, p256dh, auth, your_move, game_start, round_start, opponent_back,"
    " created_at";

PushSubscription subscription_at(const pg::Result& r, int row) {
  return PushSubscription{
      r.int64(row, 0), r.int64(row, 1),
      r.text(row, 2),  r.text(row, 3),
      r.text(row, 4),  {r.boolean(row, 5), r.boolean(row, 6), r.boolean(row, 7), r.boolean(row, 8)},
      r.int64(row, 9)};
}

}  // namespace

PostgresPushStore::PostgresPushStore(const std::string& conninfo)
    : db_(std::make_unique<pg::Connection>(conninfo)) {}

PostgresPushStore::~PostgresPushStore() = default;

std::string PostgresPushStore::server_key(const std::string& name, const std::string& made,
                                          std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->query(
      "INSERT INTO server_keys(name, value, created_at) VALUES ($1, $2, $3)"
      " ON CONFLICT (name) DO NOTHING",
      {name, made, now_ms});
  return db_->query("SELECT value FROM server_keys WHERE name = $1", {name}).text(0, 0);
}

std::int64_t PostgresPushStore::subscribe(const PushSubscription& s, int most) {
  std::lock_guard lock(mutex_);
  const auto id =
      db_->query(
             "INSERT INTO push_subscriptions(user_id, endpoint, p256dh, auth, your_move,"
             " game_start, round_start, opponent_back, created_at)"
             " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
             " ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id,"
             " p256dh = excluded.p256dh, auth = excluded.auth, your_move = excluded.your_move,"
             " game_start = excluded.game_start, round_start = excluded.round_start,"
             " opponent_back = excluded.opponent_back,"
             " created_at = excluded.created_at RETURNING id",
             {s.user_id, s.endpoint, s.p256dh, s.auth, s.choices.your_move, s.choices.game_start,
              s.choices.round_start, s.choices.opponent_back, s.created_at_ms})
          .int64(0, 0);
  db_->query(
      "DELETE FROM push_subscriptions WHERE user_id = $1 AND id NOT IN (SELECT id FROM"
      " push_subscriptions WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)",
      {s.user_id, most});
  return id;
}

bool PostgresPushStore::unsubscribe(std::int64_t user_id, const std::string& endpoint) {
  std::lock_guard lock(mutex_);
  return db_->query("DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2",
                    {user_id, endpoint})
             .affected() > 0;
}

std::optional<PushSubscription> PostgresPushStore::subscription(std::int64_t user_id,
                                                                const std::string& endpoint) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(std::string("SELECT ") + kColumns +
                                " FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2",
                            {user_id, endpoint});
  if (r.rows() == 0) return std::nullopt;
  return subscription_at(r, 0);
}

std::vector<PushSubscription> PostgresPushStore::subscriptions_of(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  const auto r =
      db_->query(std::string("SELECT ") + kColumns +
                     " FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at, id",
                 {user_id});
  std::vector<PushSubscription> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(subscription_at(r, i));
  return out;
}

void PostgresPushStore::drop(std::int64_t subscription_id) {
  std::lock_guard lock(mutex_);
  db_->query("DELETE FROM push_subscriptions WHERE id = $1", {subscription_id});
}

std::int64_t PostgresPushStore::enqueue(const OutgoingPush& p, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_
      ->query(
          "INSERT INTO push_queue(subscription_id, kind, payload, topic, urgency, ttl_s,"
          " created_at, due_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id",
          {p.subscription_id, p.kind, p.payload, p.topic, p.urgency, p.ttl_s, now_ms})
      .int64(0, 0);
}

int PostgresPushStore::queued_since(std::int64_t user_id, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->query("SELECT count(*) FROM push_queue q JOIN push_subscriptions s"
                 " ON s.id = q.subscription_id WHERE s.user_id = $1 AND q.created_at >= $2",
                 {user_id, since_ms})
          .int64(0, 0));
}

std::optional<QueuedPush> PostgresPushStore::claim(std::int64_t now_ms,
                                                   std::int64_t hold_until_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      "WITH claimed AS (UPDATE push_queue SET claimed_until = $1 WHERE id = (SELECT id FROM"
      " push_queue WHERE sent_at IS NULL AND failed_at IS NULL AND due_at <= $2 AND"
      " claimed_until <= $2 ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)"
      " RETURNING id, subscription_id, kind, payload, topic, urgency, ttl_s, attempts)"
      " SELECT c.id, c.subscription_id, c.kind, c.payload, c.topic, c.urgency, c.ttl_s,"
      " c.attempts, s.id, s.user_id, s.endpoint, s.p256dh, s.auth, s.your_move, s.game_start,"
      " s.round_start, s.opponent_back, s.created_at FROM claimed c JOIN push_subscriptions s"
      " ON s.id = c.subscription_id",
      {hold_until_ms, now_ms});
  if (r.rows() == 0) return std::nullopt;
  return QueuedPush{
      r.int64(0, 0),
      {r.int64(0, 1), r.text(0, 2), r.text(0, 3), r.text(0, 4), r.text(0, 5),
       static_cast<int>(r.int64(0, 6))},
      PushSubscription{r.int64(0, 8),
                       r.int64(0, 9),
                       r.text(0, 10),
                       r.text(0, 11),
                       r.text(0, 12),
                       {r.boolean(0, 13), r.boolean(0, 14), r.boolean(0, 15), r.boolean(0, 16)},
                       r.int64(0, 17)},
      static_cast<int>(r.int64(0, 7))};
}

void PostgresPushStore::mark_sent(std::int64_t id, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->query(
      "UPDATE push_queue SET sent_at = $1, attempts = attempts + 1, claimed_until = 0,"
      " last_error = '' WHERE id = $2",
      {now_ms, id});
}

void PostgresPushStore::mark_failed(std::int64_t id, const std::string& error,
                                    std::optional<std::int64_t> retry_at_ms, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->query(
      "UPDATE push_queue SET attempts = attempts + 1, claimed_until = 0, last_error = $1,"
      " due_at = coalesce($2, due_at), failed_at = $3 WHERE id = $4",
      {error, retry_at_ms, retry_at_ms ? std::nullopt : std::optional<std::int64_t>(now_ms), id});
}

PushCounts PostgresPushStore::counts() {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      "SELECT count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL),"
      " count(*) FILTER (WHERE sent_at IS NOT NULL), count(*) FILTER (WHERE failed_at IS NOT NULL)"
      " FROM push_queue");
  return {r.int64(0, 0), r.int64(0, 1), r.int64(0, 2)};
}

void PostgresPushStore::prune(std::int64_t before_ms) {
  std::lock_guard lock(mutex_);
  db_->query("DELETE FROM push_queue WHERE coalesce(sent_at, failed_at) < $1", {before_ms});
}

}  // namespace tengen::store
