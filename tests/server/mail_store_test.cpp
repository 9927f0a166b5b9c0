// The mail store (docs/mail.md) on both backends, a real SQLite file and a real PostgreSQL: the
// settings, the links' tokens, the queue and its claims, and the compare-and-set notes that keep
// "your move" to one mail a game per interval and a digest to one a day, also across nodes.
#include "store/mail_store.h"

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
  virtual MailStore& mail() = 0;
  // A second connection to the same database: another node.
  virtual std::unique_ptr<MailStore> another() = 0;
};

class Sqlite final : public Backend {
 public:
  Sqlite()
      : db_(temp_.path()),
        accounts_(sql::sqlite_connection((migrate(db_), db_))),
        mail_(sql::sqlite_connection(temp_.path())) {}
  AccountStore& accounts() override { return accounts_; }
  MailStore& mail() override { return mail_; }
  std::unique_ptr<MailStore> another() override {
    return std::make_unique<MailStore>(sql::sqlite_connection(temp_.path()));
  }

 private:
  testing::TempDatabase temp_;
  Database db_;
  AccountStore accounts_;
  MailStore mail_;
};

class Postgres final : public Backend {
 public:
  Postgres()
      : conninfo_(testing::TempPostgres::instance().new_database()),
        db_(conninfo_),
        accounts_(sql::postgres_connection((pg::migrate(db_), db_))),
        mail_(sql::postgres_connection(conninfo_)) {}
  AccountStore& accounts() override { return accounts_; }
  MailStore& mail() override { return mail_; }
  std::unique_ptr<MailStore> another() override {
    return std::make_unique<MailStore>(sql::postgres_connection(conninfo_));
  }

 private:
  std::string conninfo_;
  pg::Connection db_;
  AccountStore accounts_;
  MailStore mail_;
};

class MailStores : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "sqlite")
      backend_ = std::make_unique<Sqlite>();
    else
      backend_ = std::make_unique<Postgres>();
    alice_ = backend_->accounts().create_user("alice", "hash", false, 1000)->id;
    bob_ = backend_->accounts().create_user("bob", "hash", false, 1000)->id;
  }
  MailStore& mail() { return backend_->mail(); }
  static TokenHash token(unsigned char fill) {
    TokenHash h{};
    h.fill(fill);
    h[7] = 0;
    return h;
  }
  OutgoingMail to(std::int64_t user, const std::string& kind) {
    return {user, kind, "someone@example.org", "subject", "body é", ""};
  }

  std::unique_ptr<Backend> backend_;
  std::int64_t alice_ = 0, bob_ = 0;
};

TEST_P(MailStores, SettingsAreWrittenWholeAndFoundByVerifiedAddress) {
  EXPECT_FALSE(mail().settings(alice_));
  const MailSettings s{alice_, "Alice@Example.org", std::nullopt, true, false, true, "key", 5};
  mail().put_settings(s);
  EXPECT_EQ(mail().settings(alice_), s);
  EXPECT_TRUE(mail().users_with_address("alice@example.org", 5).empty()) << "not verified yet";
  auto verified = s;
  verified.verified_at_ms = 2000;
  mail().put_settings(verified);
  EXPECT_EQ(mail().settings(alice_), verified);
  EXPECT_EQ(mail().users_with_address("ALICE@example.ORG", 5), std::vector<std::int64_t>{alice_});
  mail().delete_settings(alice_);
  EXPECT_FALSE(mail().settings(alice_));
}

TEST_P(MailStores, TokensExpireAndAreTakenOnce) {
  mail().add_token(token(1), {alice_, "verify", "a@example.org", 1000, 5000});
  mail().add_token(token(2), {alice_, "reset", "a@example.org", 2000, 6000});
  EXPECT_EQ(mail().tokens_since(alice_, "verify", 0), 1);
  EXPECT_EQ(mail().tokens_since(alice_, "reset", 2001), 0);
  const auto found = mail().token(token(1), 4999);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->purpose, "verify");
  EXPECT_EQ(found->address, "a@example.org");
  EXPECT_FALSE(mail().token(token(1), 5000)) << "expired";
  EXPECT_TRUE(mail().take_token(token(1)));
  EXPECT_FALSE(mail().take_token(token(1))) << "taken once";
  EXPECT_FALSE(mail().token(token(3), 0));
}

TEST_P(MailStores, AQueuedMailIsClaimedByOneNodeAndRetriedWhenDue) {
  const auto first = mail().enqueue(to(alice_, "verify"), 1000);
  mail().enqueue(to(bob_, "reset"), 1001);
  EXPECT_EQ(mail().queued_since(alice_, 1000), 1);
  EXPECT_EQ(mail().queued_since(alice_, 1001), 0);
  auto other = backend_->another();
  const auto claimed = mail().claim(2000, 60'000);
  ASSERT_TRUE(claimed);
  EXPECT_EQ(claimed->id, first);
  EXPECT_EQ(claimed->mail.body, "body é");
  EXPECT_EQ(claimed->attempts, 0);
  const auto second = other->claim(2000, 60'000);
  ASSERT_TRUE(second);
  EXPECT_NE(second->id, first) << "another node takes the next one";
  EXPECT_FALSE(other->claim(2000, 60'000)) << "both held";
  mail().mark_failed(first, "connection refused", 10'000, 2000);
  EXPECT_FALSE(mail().claim(9'999, 70'000)) << "not due before its retry";
  const auto again = other->claim(10'000, 70'000);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->attempts, 1);
  other->mark_sent(first, 10'000);
  other->mark_failed(second->id, "550 no such mailbox", std::nullopt, 10'000);
  EXPECT_EQ(mail().counts().sent, 1);
  EXPECT_EQ(mail().counts().failed, 1);
  EXPECT_EQ(mail().counts().pending, 0);
  EXPECT_FALSE(mail().claim(100'000, 200'000)) << "neither is sent again";
  mail().prune(10'001);
  EXPECT_EQ(mail().counts().sent + mail().counts().failed, 0);
}

TEST_P(MailStores, YourMoveIsNotedOncePerIntervalAndADigestTakenOnce) {
  EXPECT_TRUE(mail().note_your_move(alice_, 7, 0, 1000));
  EXPECT_FALSE(backend_->another()->note_your_move(alice_, 7, 500, 1500)) << "told at 1000";
  EXPECT_TRUE(mail().note_your_move(alice_, 8, 500, 1500)) << "another game";
  EXPECT_TRUE(mail().note_your_move(alice_, 7, 1001, 5000));

  MailSettings s{alice_, "a@example.org", 100, true, true, true, "key", 0};
  mail().put_settings(s);
  auto unverified = s;
  unverified.user_id = bob_;
  unverified.verified_at_ms.reset();
  mail().put_settings(unverified);
  const auto due = mail().digests_due(1000, 10);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].user_id, alice_);
  EXPECT_TRUE(mail().take_digest(alice_, 0, 86'401'000));
  EXPECT_FALSE(backend_->another()->take_digest(alice_, 0, 86'401'000)) << "taken";
  EXPECT_TRUE(mail().digests_due(86'400'999, 10).empty());
  EXPECT_EQ(mail().digests_due(86'401'000, 10).size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Backends, MailStores, ::testing::Values("sqlite", "postgres"),
                         [](const auto& backend) { return backend.param; });

}  // namespace
}  // namespace tengen::store
