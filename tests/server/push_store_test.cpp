// The push store (docs/web-client.md, "Push") on both backends, a real SQLite file and a real
// PostgreSQL: the server's key kept once (two nodes agree), devices kept by endpoint and bounded
// per player, the queue claimed by one node, retried and given up on, and a device the push
// service says is gone forgotten with its queue.
#include "store/push_store.h"

#include <gtest/gtest.h>

#include <memory>

#include "store/account_store.h"
#include "store/migrate.h"
#include "store/postgres.h"
#include "store/postgres_migrate.h"
#include "store/sql_postgres.h"
#include "support/temp_database.h"
#include "support/temp_postgres.h"

namespace tengen::store {
namespace {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual AccountStore& accounts() = 0;
  virtual PushStore& push() = 0;
  virtual std::unique_ptr<PushStore> another() = 0;  // a second connection: another node
};

class Sqlite final : public Backend {
 public:
  Sqlite()
      : db_(temp_.path()),
        accounts_(sql::sqlite_connection((migrate(db_), db_))),
        push_(sql::sqlite_connection(temp_.path())) {}
  AccountStore& accounts() override { return accounts_; }
  PushStore& push() override { return push_; }
  std::unique_ptr<PushStore> another() override {
    return std::make_unique<PushStore>(sql::sqlite_connection(temp_.path()));
  }

 private:
  testing::TempDatabase temp_;
  Database db_;
  AccountStore accounts_;
  PushStore push_;
};

class Postgres final : public Backend {
 public:
  Postgres()
      : conninfo_(testing::TempPostgres::instance().new_database()),
        db_(conninfo_),
        accounts_(sql::postgres_connection((pg::migrate(db_), db_))),
        push_(sql::postgres_connection(conninfo_)) {}
  AccountStore& accounts() override { return accounts_; }
  PushStore& push() override { return push_; }
  std::unique_ptr<PushStore> another() override {
    return std::make_unique<PushStore>(sql::postgres_connection(conninfo_));
  }

 private:
  std::string conninfo_;
  pg::Connection db_;
  AccountStore accounts_;
  PushStore push_;
};

class PushStores : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "sqlite")
      backend_ = std::make_unique<Sqlite>();
    else
      backend_ = std::make_unique<Postgres>();
    alice_ = backend_->accounts().create_user("alice", "hash", false, 1000)->id;
    bob_ = backend_->accounts().create_user("bob", "hash", false, 1000)->id;
  }
  PushStore& push() { return backend_->push(); }
  PushSubscription device(std::int64_t user, const std::string& name, std::int64_t at) {
    return {0, user, "https://push.example.net/" + name, "key-" + name, "auth-" + name, {}, at};
  }

  std::unique_ptr<Backend> backend_;
  std::int64_t alice_ = 0, bob_ = 0;
};

TEST_P(PushStores, TheServersKeyIsTheFirstOneWrittenForEveryNode) {
  EXPECT_EQ(push().server_key("vapid", "first", 1), "first");
  EXPECT_EQ(backend_->another()->server_key("vapid", "second", 2), "first");
  EXPECT_EQ(push().server_key("other", "x", 3), "x");
}

TEST_P(PushStores, DevicesAreKeptByEndpointAndBoundedPerPlayer) {
  const auto a = push().subscribe(device(alice_, "a", 10), 2);
  auto again = device(alice_, "a", 11);
  again.choices.your_move = false;
  again.auth = "auth-a2";
  EXPECT_EQ(push().subscribe(again, 2), a) << "the same device, its keys and choices replaced";
  EXPECT_EQ(push().subscription(alice_, "https://push.example.net/a")->auth, "auth-a2");
  EXPECT_FALSE(push().subscription(alice_, "https://push.example.net/a")->choices.your_move);
  push().subscribe(device(alice_, "b", 12), 2);
  push().subscribe(device(alice_, "c", 13), 2);  // the oldest (a) goes
  const auto kept = push().subscriptions_of(alice_);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].endpoint, "https://push.example.net/b");
  EXPECT_EQ(kept[1].endpoint, "https://push.example.net/c");
  // The device signed in as another player now: it is theirs.
  push().subscribe(device(bob_, "c", 14), 2);
  EXPECT_EQ(push().subscriptions_of(alice_).size(), 1u);
  EXPECT_FALSE(push().unsubscribe(alice_, "https://push.example.net/c")) << "bob's now";
  EXPECT_TRUE(push().unsubscribe(bob_, "https://push.example.net/c"));
  EXPECT_TRUE(push().subscriptions_of(bob_).empty());
}

TEST_P(PushStores, AMessageIsClaimedByOneNodeRetriedAndGivenUpOn) {
  const auto a = push().subscribe(device(alice_, "a", 10), 5);
  const auto first = push().enqueue({a, "your_move", R"({"game":1})", "game-1", "high", 600}, 100);
  push().enqueue({a, "game_start", R"({"game":2})"}, 101);
  EXPECT_EQ(push().queued_since(alice_, 100), 2);
  EXPECT_EQ(push().queued_since(bob_, 0), 0);
  const auto other = backend_->another();
  const auto claimed = push().claim(200, 260);
  ASSERT_TRUE(claimed);
  EXPECT_EQ(claimed->id, first);
  EXPECT_EQ(claimed->push.urgency, "high");
  EXPECT_EQ(claimed->push.ttl_s, 600);
  EXPECT_EQ(claimed->subscription.p256dh, "key-a");
  const auto second = other->claim(200, 260);
  ASSERT_TRUE(second);
  EXPECT_NE(second->id, first) << "held by the first node";
  EXPECT_FALSE(other->claim(200, 260));
  other->mark_sent(second->id, 220);
  push().mark_failed(first, "503", 300, 210);
  EXPECT_FALSE(push().claim(250, 310)) << "not before it is due again";
  const auto retried = push().claim(300, 360);
  ASSERT_TRUE(retried);
  EXPECT_EQ(retried->attempts, 1);
  EXPECT_EQ(retried->id, first);
  push().mark_failed(first, "400 bad request", std::nullopt, 300);
  EXPECT_EQ(push().counts().failed, 1);
  EXPECT_EQ(push().counts().sent, 1);
  EXPECT_EQ(push().counts().pending, 0);
  push().prune(301);
  EXPECT_EQ(push().counts().failed + push().counts().sent, 0);
}

TEST_P(PushStores, ADeviceThePushServiceForgotIsDroppedWithItsQueue) {
  const auto a = push().subscribe(device(alice_, "a", 10), 5);
  push().enqueue({a, "your_move", "{}"}, 100);
  push().drop(a);
  EXPECT_FALSE(push().claim(200, 260));
  EXPECT_TRUE(push().subscriptions_of(alice_).empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, PushStores, ::testing::Values("sqlite", "postgres"),
                         [](const auto& backend) { return backend.param; });

}  // namespace
}  // namespace tengen::store
