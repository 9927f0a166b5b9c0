#include "store/migrate.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace tengen::store {
namespace {

class MigrateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() /
            ("tengen-migrate-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".sqlite3");
    std::filesystem::remove(path_);
  }
  void TearDown() override {
    for (const char* suffix : {"", "-wal", "-shm"})
      std::filesystem::remove(path_.string() + suffix);
  }
  std::filesystem::path path_;
};

bool table_exists(Database& db, const std::string& name) {
  Statement q(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
  q.bind(1, name);
  q.step();
  return q.column_int(0) == 1;
}

TEST_F(MigrateTest, FreshDatabaseReachesTheNewestVersion) {
  Database db(path_.string());
  const int newest = migrations::all().back().version;
  EXPECT_EQ(migrate(db), newest);
  EXPECT_TRUE(table_exists(db, "users"));
  EXPECT_TRUE(table_exists(db, "sessions"));
  EXPECT_EQ(migrate(db), newest);  // idempotent
  Statement rows(db, "SELECT count(*) FROM schema_version");
  rows.step();
  EXPECT_EQ(rows.column_int(0), newest);
}

// The real migrations: a database made by the first schema (accounts only) gains the games
// tables, and its users and sessions stay as they were.
TEST_F(MigrateTest, AnAccountsOnlyDatabaseGainsTheGamesTables) {
  const auto all = migrations::all();
  {
    Database db(path_.string());
    ASSERT_EQ(migrate(db, all.first(1)), 1);
    db.exec(
        "INSERT INTO users(id, username, password_hash, created_at) VALUES (7, 'shusaku', 'h', 1), "
        "(8, 'gennan', 'h', 1)");
    db.exec(
        "INSERT INTO sessions(user_id, token_hash, created_at, last_seen_at) VALUES (7, x'00', 1, "
        "1)");
    EXPECT_FALSE(table_exists(db, "games"));
  }
  Database db(path_.string());
  EXPECT_EQ(migrate(db), all.back().version);
  for (const char* table : {"challenges", "games", "game_events", "ratings", "rating_history"})
    EXPECT_TRUE(table_exists(db, table)) << table;
  Statement users(db,
                  "SELECT count(*) FROM users u JOIN sessions s ON s.user_id = u.id WHERE "
                  "u.username = 'shusaku'");
  ASSERT_TRUE(users.step());
  EXPECT_EQ(users.column_int(0), 1);
  db.exec(
      "INSERT INTO games(id, settings, first_id, second_id, black_id, white_id, created_at) VALUES "
      "(1, '{}', 7, 8, 7, 8, 2)");
  EXPECT_THROW(
      db.exec("INSERT INTO games(id, settings, first_id, second_id, black_id, white_id, created_at)"
              " VALUES (2, '{}', 7, 99, 7, 99, 2)"),
      SqliteError);  // foreign keys are on
}

TEST_F(MigrateTest, UpgradesADatabaseMadeByAnEarlierSchema) {
  const migrations::Migration v1{1, "0001_a.sql", "CREATE TABLE a (x INTEGER) STRICT;"};
  const migrations::Migration v2{2, "0002_b.sql", "ALTER TABLE a ADD COLUMN y TEXT;"};
  {
    Database db(path_.string());
    const migrations::Migration only_v1[] = {v1};
    ASSERT_EQ(migrate(db, only_v1), 1);
    db.exec("INSERT INTO a(x) VALUES (42)");
  }
  Database db(path_.string());
  const migrations::Migration both[] = {v1, v2};
  EXPECT_EQ(migrate(db, both), 2);
  Statement q(db, "SELECT x, coalesce(y, 'none') FROM a");
  ASSERT_TRUE(q.step());
  EXPECT_EQ(q.column_int(0), 42);
  EXPECT_EQ(q.column_text(1), "none");
}

TEST_F(MigrateTest, RefusesADatabaseNewerThanTheServer) {
  Database db(path_.string());
  const migrations::Migration v1{1, "0001_a.sql", "CREATE TABLE a (x INTEGER);"};
  const migrations::Migration v2{2, "0002_b.sql", "CREATE TABLE b (x INTEGER);"};
  const migrations::Migration both[] = {v1, v2};
  const migrations::Migration only_v1[] = {v1};
  migrate(db, both);
  try {
    migrate(db, only_v1);
    FAIL() << "a newer database was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "the database has schema version 2 but this server knows only up to 1; run a "
                 "newer server or restore a backup");
  }
}

TEST_F(MigrateTest, AFailingMigrationLeavesNoTrace) {
  Database db(path_.string());
  const migrations::Migration good{1, "0001_a.sql", "CREATE TABLE a (x INTEGER);"};
  const migrations::Migration bad{2, "0002_b.sql", "CREATE TABLE b (x INTEGER); SELEC oops;"};
  const migrations::Migration both[] = {good, bad};
  EXPECT_THROW(migrate(db, both), std::runtime_error);
  EXPECT_EQ(schema_version(db), 1);
  EXPECT_FALSE(table_exists(db, "b"));  // the half-applied migration rolled back
}

}  // namespace
}  // namespace tengen::store
