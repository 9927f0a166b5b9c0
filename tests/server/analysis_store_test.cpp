// The analysis store (docs/analysis.md) on both backends, a real SQLite file and a real
// PostgreSQL: worker keys by their hash and revoked, one job per game, the queue oldest first and
// shared by two nodes, a claim that runs out going to another worker, a job claimed too often
// failing, and only the worker holding a job reporting on it.
#include "store/analysis_store.h"

#include <gtest/gtest.h>

#include <memory>

#include "store/migrate.h"
#include "store/position_analysis_store.h"
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
  virtual AnalysisStore& analysis() = 0;
  virtual std::unique_ptr<AnalysisStore> another() = 0;  // a second connection: another node
  virtual void exec(const std::string& sql) = 0;
  // The review boards' positions' queue, on a connection of its own (each call: another node).
  virtual std::unique_ptr<PositionAnalysisStore> positions() = 0;
};

class Sqlite final : public Backend {
 public:
  Sqlite() : db_(temp_.path()), analysis_((migrate(db_), sql::sqlite_connection(temp_.path()))) {}
  AnalysisStore& analysis() override { return analysis_; }
  std::unique_ptr<AnalysisStore> another() override {
    return std::make_unique<AnalysisStore>(sql::sqlite_connection(temp_.path()));
  }
  void exec(const std::string& sql) override { db_.exec(sql); }
  std::unique_ptr<PositionAnalysisStore> positions() override {
    return std::make_unique<PositionAnalysisStore>(sql::sqlite_connection(temp_.path()));
  }

 private:
  testing::TempDatabase temp_;
  Database db_;
  AnalysisStore analysis_;
};

class Postgres final : public Backend {
 public:
  Postgres()
      : conninfo_(testing::TempPostgres::instance().new_database()),
        db_(conninfo_),
        analysis_((pg::migrate(db_), sql::postgres_connection(conninfo_))) {}
  AnalysisStore& analysis() override { return analysis_; }
  std::unique_ptr<AnalysisStore> another() override {
    return std::make_unique<AnalysisStore>(sql::postgres_connection(conninfo_));
  }
  void exec(const std::string& sql) override { db_.exec(sql); }
  std::unique_ptr<PositionAnalysisStore> positions() override {
    return std::make_unique<PositionAnalysisStore>(sql::postgres_connection(conninfo_));
  }

 private:
  std::string conninfo_;
  pg::Connection db_;
  AnalysisStore analysis_;
};

class AnalysisStores : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "sqlite")
      backend_ = std::make_unique<Sqlite>();
    else
      backend_ = std::make_unique<Postgres>();
    backend_->exec(
        "INSERT INTO users(id, username, password_hash, created_at) VALUES (1, 'a', 'h', 1),"
        " (2, 'b', 'h', 1)");
    for (int game = 1; game <= 4; ++game)
      backend_->exec(
          "INSERT INTO games(id, settings, first_id, second_id, black_id, white_id,"
          " created_at) VALUES (" +
          std::to_string(game) + ", '{}', 1, 2, 1, 2, 1)");
  }
  AnalysisStore& store() { return backend_->analysis(); }
  std::unique_ptr<Backend> backend_;
};

TEST_P(AnalysisStores, WorkerKeysAreFoundByTheirHashUntilRevoked) {
  const auto id = store().add_worker("box", "hash-1", 10);
  ASSERT_TRUE(id);
  EXPECT_FALSE(store().add_worker("box", "hash-2", 11)) << "the name is taken";
  EXPECT_FALSE(store().add_worker("other", "hash-1", 11)) << "the key is taken";
  const auto found = store().worker_by_key("hash-1", 20);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->id, *id);
  EXPECT_EQ(found->name, "box");
  EXPECT_EQ(found->last_seen_at_ms, 20);
  EXPECT_EQ(store().worker_by_key("hash-1", 30'000)->last_seen_at_ms, 20) << "once a minute";
  EXPECT_EQ(store().worker_by_key("hash-1", 60'020)->last_seen_at_ms, 60'020);
  EXPECT_FALSE(store().worker_by_key("hash-9", 20));
  EXPECT_TRUE(store().revoke_worker("box", 70'000));
  EXPECT_FALSE(store().revoke_worker("box", 70'001)) << "revoked already";
  EXPECT_FALSE(store().worker_by_key("hash-1", 70'002));
  ASSERT_EQ(store().workers().size(), 1u);
  EXPECT_EQ(store().workers()[0].revoked_at_ms, 70'000);
  // The house worker's key, renewed at each start: the revocation lifted.
  store().set_worker_key("box", "hash-3", 80'000);
  EXPECT_FALSE(store().worker_by_key("hash-1", 80'001));
  EXPECT_EQ(store().worker_by_key("hash-3", 80'002)->name, "box");
}

TEST_P(AnalysisStores, TheQueueIsOldestFirstOneJobPerGameAndSharedByNodes) {
  const auto w1 = *store().add_worker("w1", "k1", 1);
  const auto w2 = *store().add_worker("w2", "k2", 1);
  EXPECT_TRUE(store().enqueue(3, 1, 10, 100));
  EXPECT_TRUE(store().enqueue(1, 2, 20, 200));
  EXPECT_TRUE(store().enqueue(2, 1, 30, 200));
  EXPECT_FALSE(store().enqueue(3, 2, 10, 300)) << "asked for already";
  EXPECT_EQ(store().unfinished(1), 2);
  EXPECT_EQ(store().unfinished(std::nullopt), 3);
  EXPECT_EQ(store().requested_since(1, 150), 1);
  EXPECT_EQ(store().ahead_of(3), 0);
  EXPECT_EQ(store().ahead_of(1), 1);
  EXPECT_EQ(store().ahead_of(2), 2);  // the same time as game 1: by game number
  const auto node2 = backend_->another();
  const auto a = store().claim(w1, 1000, 2000, 3);
  const auto b = node2->claim(w2, 1000, 2000, 3);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->game_id, 3);
  EXPECT_EQ(b->game_id, 1);
  EXPECT_EQ(a->state, "running");
  EXPECT_EQ(a->attempts, 1);
  EXPECT_EQ(a->moves_total, 10);
  EXPECT_EQ(store().ahead_of(2), 2) << "running jobs are still ahead";
  // Only the holder reports, and only while it holds the job.
  EXPECT_FALSE(store().progress(3, w2, 5, 3000));
  EXPECT_TRUE(store().progress(3, w1, 5, 3000));
  EXPECT_EQ(store().job(3)->moves_done, 5);
  EXPECT_FALSE(store().finish(3, w2, "e", "{}", 1500));
  EXPECT_TRUE(store().finish(3, w1, "GNU Go", R"({"r":1})", 1500));
  const auto done = store().job(3);
  EXPECT_EQ(done->state, "done");
  EXPECT_EQ(done->engine, "GNU Go");
  EXPECT_EQ(done->result, R"({"r":1})");
  EXPECT_EQ(done->moves_done, 10);
  EXPECT_EQ(done->finished_at_ms, 1500);
  EXPECT_FALSE(store().finish(3, w1, "again", "{}", 1600)) << "kept once";
  EXPECT_TRUE(node2->fail(1, w2, "engine gone", 1700));
  EXPECT_EQ(store().job(1)->state, "failed");
  EXPECT_EQ(store().job(1)->error, "engine gone");
  EXPECT_EQ(store().unfinished(std::nullopt), 1);
  // The Admin page's list: what waits first, then what ended, the latest first; with names.
  const auto listed = store().listed_jobs(10);
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(listed[0].job.game_id, 2);
  EXPECT_EQ(listed[0].job.state, "queued");
  EXPECT_EQ(listed[0].requested_by_name, "a");
  EXPECT_FALSE(listed[0].worker_name);
  EXPECT_EQ(listed[1].job.game_id, 1);
  EXPECT_EQ(listed[1].job.state, "failed");
  EXPECT_EQ(listed[1].worker_name, "w2");
  EXPECT_EQ(listed[1].job.error, "engine gone");
  EXPECT_EQ(listed[2].job.game_id, 3);
  EXPECT_EQ(listed[2].worker_name, "w1");
  EXPECT_EQ(listed[2].job.result, "") << "the analysis itself is not read for the list";
  const auto one_each = store().listed_jobs(1);
  ASSERT_EQ(one_each.size(), 2u);
  EXPECT_EQ(one_each[0].job.game_id, 2);
  EXPECT_EQ(one_each[1].job.game_id, 1);
  // Asked for again, a failed job waits again, afresh; a done one stays done.
  EXPECT_TRUE(store().enqueue(1, 1, 20, 1800));
  const auto again = store().job(1);
  EXPECT_EQ(again->state, "queued");
  EXPECT_EQ(again->requested_by, 1);
  EXPECT_EQ(again->attempts, 0);
  EXPECT_EQ(again->error, "");
  EXPECT_FALSE(again->finished_at_ms);
  EXPECT_FALSE(store().enqueue(3, 1, 10, 1900));
  EXPECT_EQ(store().job(3)->state, "done");
}

TEST_P(AnalysisStores, ReviewBoardsPositionsQueueLikeGamesAndOneNodeClaimsEach) {
  const auto w1 = *store().add_worker("w1", "k1", 1);
  const auto w2 = *store().add_worker("w2", "k2", 1);
  backend_->exec(
      "INSERT INTO reviews(id, owner_id, title, sgf, created_at) VALUES (7, 1, 'r', '(;)', 1)");
  auto node1 = backend_->positions();
  auto node2 = backend_->positions();
  const auto a = node1->enqueue(7, 4, 1, "(;SZ[9];B[ee])", 1, 100);
  const auto b = node1->enqueue(7, 9, 2, "(;SZ[9])", 0, 200);
  EXPECT_EQ(node2->at(7, 4)->id, a);
  EXPECT_FALSE(node2->at(7, 5));
  EXPECT_EQ(node1->unfinished(1), 1);
  EXPECT_EQ(node1->unfinished(std::nullopt), 2);
  EXPECT_EQ(node1->requested_since(2, 150), 1);
  EXPECT_EQ(node1->ahead_of(b), 1);
  // Two nodes' workers at once: each its own job, the oldest first.
  const auto first = node1->claim(w1, 1000, 2000, 2);
  const auto second = node2->claim(w2, 1000, 2000, 2);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->id, a);
  EXPECT_EQ(first->sgf, "(;SZ[9];B[ee])");
  EXPECT_EQ(first->from_move, 1);
  EXPECT_EQ(second->id, b);
  EXPECT_FALSE(node1->claim(w1, 1500, 2500, 2)) << "both held";
  EXPECT_FALSE(node1->extend(a, w2, 3000)) << "not w2's";
  EXPECT_TRUE(node1->extend(a, w1, 3000));
  EXPECT_FALSE(node2->finish(a, w2, "e", "{}", 1600));
  EXPECT_TRUE(node2->finish(a, w1, "GNU Go", R"({"p":1})", 1600));
  EXPECT_EQ(node1->job(a)->state, "done");
  EXPECT_EQ(node1->job(a)->result, R"({"p":1})");
  EXPECT_FALSE(node1->finish(a, w1, "again", "{}", 1700)) << "kept once";
  // w2 goes silent: its job goes to w1 after the claim, then fails once the attempts are spent.
  const auto taken = node1->claim(w1, 2001, 3000, 2);
  ASSERT_TRUE(taken);
  EXPECT_EQ(taken->id, b);
  EXPECT_EQ(taken->attempts, 2);
  EXPECT_FALSE(node2->fail(b, w2, "late", 2100)) << "no longer w2's";
  EXPECT_FALSE(node2->claim(w2, 3001, 4000, 2));
  EXPECT_EQ(node1->job(b)->state, "failed");
  EXPECT_EQ(node1->job(b)->error, "no worker finished it");
  EXPECT_EQ(node1->unfinished(std::nullopt), 0);
}

TEST_P(AnalysisStores, AClaimThatRunsOutGoesToAnotherWorkerUntilTheAttemptsAreSpent) {
  const auto w1 = *store().add_worker("w1", "k1", 1);
  const auto w2 = *store().add_worker("w2", "k2", 1);
  store().enqueue(4, 1, 10, 100);
  ASSERT_TRUE(store().claim(w1, 1000, 2000, 2));
  EXPECT_FALSE(store().claim(w2, 1500, 2500, 2)) << "still w1's";
  const auto again = store().claim(w2, 2001, 3000, 2);  // w1 went silent
  ASSERT_TRUE(again);
  EXPECT_EQ(again->worker_id, w2);
  EXPECT_EQ(again->attempts, 2);
  EXPECT_FALSE(store().progress(4, w1, 3, 4000)) << "no longer w1's";
  // w2 goes silent too: two claims were all it may have.
  EXPECT_FALSE(store().claim(w1, 3001, 4000, 2));
  EXPECT_EQ(store().job(4)->state, "failed");
  EXPECT_EQ(store().job(4)->error, "no worker finished it");
}

INSTANTIATE_TEST_SUITE_P(Backends, AnalysisStores, ::testing::Values("sqlite", "postgres"),
                         [](const auto& backend) { return backend.param; });

}  // namespace
}  // namespace tengen::store
