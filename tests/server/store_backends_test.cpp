// The stores behind their interfaces, on both backends (docs/cluster.md): the same tests against
// a real SQLite file and a real PostgreSQL (tests/support/temp_postgres.h); and PostgreSQL's
// migrations, applied as SQLite's are, by several servers at once.
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "store/migrate.h"
#include "store/postgres.h"
#include "store/postgres_account_store.h"
#include "store/postgres_migrate.h"
#include "store/sqlite_account_store.h"
#include "support/temp_database.h"
#include "support/temp_postgres.h"

namespace tengen::store {
namespace {

using testing::TempPostgres;

// One backend's AccountStore on a fresh, migrated database.
class Holder {
 public:
  virtual ~Holder() = default;
  virtual AccountStore& store() = 0;
};

class SqliteHolder final : public Holder {
 public:
  SqliteHolder() : db_(temp_.path()), store_((migrate(db_), db_)) {}
  AccountStore& store() override { return store_; }

 private:
  testing::TempDatabase temp_;
  Database db_;
  SqliteAccountStore store_;
};

class PostgresHolder final : public Holder {
 public:
  PostgresHolder()
      : db_(TempPostgres::instance().new_database()), store_((pg::migrate(db_), db_)) {}
  AccountStore& store() override { return store_; }

 private:
  pg::Connection db_;
  PostgresAccountStore store_;
};

class AccountStores : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "sqlite") {
      holder_ = std::make_unique<SqliteHolder>();
    } else {
      holder_ = std::make_unique<PostgresHolder>();
    }
  }
  AccountStore& store() { return holder_->store(); }
  static TokenHash token(unsigned char fill) {
    TokenHash h{};
    h.fill(fill);
    h[31] = 0;  // a zero byte inside: hashes are bytes, not text
    return h;
  }

  std::unique_ptr<Holder> holder_;
};

TEST_P(AccountStores, UsersAreCreatedOnceByNameWithoutRegardToCase) {
  const auto shusaku = store().create_user("Shusaku", "hash-1", false, 1000);
  ASSERT_TRUE(shusaku);
  EXPECT_GT(shusaku->id, 0);
  EXPECT_FALSE(store().create_user("shusaku", "hash-2", false, 1001)) << "the name is taken";
  const auto bot = store().create_user("GnuGo", "hash-3", true, 1002);
  ASSERT_TRUE(bot);
  EXPECT_NE(bot->id, shusaku->id);

  const auto found = store().user_by_name("SHUSAKU");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->id, shusaku->id);
  EXPECT_EQ(found->username, "Shusaku");
  EXPECT_EQ(found->password_hash, "hash-1");
  EXPECT_FALSE(found->is_bot);
  EXPECT_EQ(found->created_at_ms, 1000);
  EXPECT_TRUE(store().user_by_id(bot->id)->is_bot);
  EXPECT_FALSE(store().user_by_name("gennan"));
  EXPECT_FALSE(store().user_by_id(9999));
}

TEST_P(AccountStores, SessionsAreFoundByTheirTokensHashTouchedListedAndDeleted) {
  const auto user = *store().create_user("shusaku", "h", false, 1);
  const auto other = *store().create_user("gennan", "h", false, 1);
  const auto first = store().create_session(user.id, token(1), "Firefox", 100);
  const auto second = store().create_session(user.id, token(2), "", 200);
  store().create_session(other.id, token(3), "curl", 300);
  EXPECT_EQ(first.created_at_ms, 100);
  EXPECT_EQ(first.user_agent, "Firefox");

  const auto found = store().session_by_token(token(1), 500);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->first.id, user.id);
  EXPECT_EQ(found->first.username, "shusaku");
  EXPECT_EQ(found->second.id, first.id);
  EXPECT_EQ(found->second.last_seen_at_ms, 500);
  EXPECT_FALSE(store().session_by_token(token(9), 500));

  const auto mine = store().sessions_of(user.id);
  ASSERT_EQ(mine.size(), 2u);
  EXPECT_EQ(mine[0].id, first.id);
  EXPECT_EQ(mine[0].last_seen_at_ms, 500) << "touched when it was found";
  EXPECT_EQ(mine[1].id, second.id);
  EXPECT_EQ(mine[1].last_seen_at_ms, 200);

  EXPECT_FALSE(store().delete_session(other.id, first.id)) << "not gennan's";
  EXPECT_TRUE(store().delete_session(user.id, first.id));
  EXPECT_FALSE(store().delete_session(user.id, first.id)) << "already gone";
  EXPECT_EQ(store().delete_session_by_token(token(2)), second.id);
  EXPECT_FALSE(store().delete_session_by_token(token(2)));
  EXPECT_TRUE(store().sessions_of(user.id).empty());
  EXPECT_EQ(store().sessions_of(other.id).size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Backends, AccountStores, ::testing::Values("sqlite", "postgres"),
                         [](const auto& backend) { return backend.param; });

// ---- PostgreSQL's migrations ----

int count(pg::Connection& db, const std::string& sql) {
  return static_cast<int>(db.query(sql).int64(0, 0));
}

TEST(PostgresMigrations, TheSameTablesAsSQLitesAtTheSameVersion) {
  pg::Connection db(TempPostgres::instance().new_database());
  const auto sqlite = migrations::all();
  const auto postgres = migrations::postgres();
  ASSERT_EQ(postgres.size(), sqlite.size()) << "each SQLite migration has its PostgreSQL twin";
  for (std::size_t i = 0; i < postgres.size(); ++i)
    EXPECT_EQ(postgres[i].name, sqlite[i].name) << "named alike, version by version";

  EXPECT_EQ(pg::migrate(db), sqlite.back().version);
  EXPECT_EQ(pg::migrate(db), sqlite.back().version) << "idempotent";
  EXPECT_EQ(count(db, "SELECT count(*) FROM schema_version"), sqlite.back().version);
  for (const char* table : {"users", "sessions", "challenges", "games", "game_events", "ratings",
                            "rating_history", "tournaments", "tournament_events"}) {
    EXPECT_EQ(count(db, std::string("SELECT count(*) FROM information_schema.tables WHERE "
                                    "table_name = '") +
                            table + "'"),
              1)
        << table;
  }
  // Foreign keys hold, as in SQLite.
  db.exec("INSERT INTO users(id, username, password_hash, created_at) VALUES (7, 'a', 'h', 1)");
  EXPECT_THROW(db.exec("INSERT INTO games(id, settings, first_id, second_id, black_id, white_id,"
                       " created_at) VALUES (2, '{}', 7, 99, 7, 99, 2)"),
               pg::Error);
}

TEST(PostgresMigrations, ANewerSchemaIsRefusedAndABrokenMigrationLeavesNothingBehind) {
  pg::Connection db(TempPostgres::instance().new_database());
  const migrations::Migration v1{1, "0001_a.sql", "CREATE TABLE a (x BIGINT);"};
  const migrations::Migration v2{2, "0002_b.sql", "CREATE TABLE b (y TEXT); SELECT nonsense;"};
  const std::vector<migrations::Migration> one{v1};
  const std::vector<migrations::Migration> two{v1, v2};
  EXPECT_EQ(pg::migrate(db, one), 1);
  try {
    pg::migrate(db, two);
    ADD_FAILURE() << "a migration that fails is not applied";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("migration 0002_b.sql failed"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(count(db, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'b'"), 0)
      << "its first statement was rolled back with it";
  EXPECT_EQ(pg::schema_version(db), 1);

  const migrations::Migration v2_good{2, "0002_b.sql", "CREATE TABLE b (y TEXT);"};
  const std::vector<migrations::Migration> newer{v1, v2_good};
  EXPECT_EQ(pg::migrate(db, newer), 2);
  try {
    pg::migrate(db, one);
    ADD_FAILURE() << "a server older than the schema must not start";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 2"), std::string::npos) << e.what();
  }
}

// Several nodes start at once on one new database: each migration is applied exactly once and
// every node ends at the newest version.
TEST(PostgresMigrations, ServersStartingAtOnceApplyEachMigrationOnce) {
  const std::string database = TempPostgres::instance().new_database();
  constexpr int kNodes = 4;
  std::vector<int> versions(kNodes, -1);
  std::vector<std::string> failures(kNodes);
  std::vector<std::thread> nodes;
  for (int i = 0; i < kNodes; ++i) {
    nodes.emplace_back([&, i] {
      try {
        pg::Connection db(database);
        versions[static_cast<std::size_t>(i)] = pg::migrate(db);
      } catch (const std::exception& e) {
        failures[static_cast<std::size_t>(i)] = e.what();
      }
    });
  }
  for (auto& t : nodes) t.join();
  const int newest = migrations::postgres().back().version;
  for (int i = 0; i < kNodes; ++i) {
    EXPECT_EQ(failures[static_cast<std::size_t>(i)], "");
    EXPECT_EQ(versions[static_cast<std::size_t>(i)], newest);
  }
  pg::Connection db(database);
  EXPECT_EQ(count(db, "SELECT count(*) FROM schema_version"), newest);
}

}  // namespace
}  // namespace tengen::store
