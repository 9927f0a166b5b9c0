// The journal's group commit on a real SQLite file: what is queued while a commit runs goes
// into the next one together, callbacks run in submission order and only after the commit.
#include "store/journal.h"

#include <gtest/gtest.h>

#include <future>

#include "store/migrate.h"
#include "store/sql_game_store.h"
#include "support/temp_database.h"

namespace tengen::store {
namespace {

class JournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Database db(temp_.path());
    migrate(db);
    db.exec(
        "INSERT INTO users(id, username, password_hash, created_at) VALUES (1, 'b', 'x', 0), (2, "
        "'w', 'x', 0)");
    store_.emplace(sql::sqlite_connection(temp_.path()), sql::sqlite_connection(temp_.path()));
  }
  std::int64_t count_events() {
    Database db(temp_.path());
    Statement q(db, "SELECT count(*) FROM game_events");
    q.step();
    return q.column_int(0);
  }
  static GameEvent event(std::int64_t seq) {
    return GameEvent{1, seq, "chat", false, std::nullopt, "{}", 0, std::nullopt, std::nullopt};
  }

  testing::TempDatabase temp_;
  std::optional<SqlGameStore> store_;
};

TEST_F(JournalTest, WhatArrivesDuringACommitSharesTheNextOneAndCallbacksKeepTheirOrder) {
  Journal journal(*store_);
  std::promise<void> holding, release;
  auto released = release.get_future().share();
  std::vector<int> order;  // touched only on the journal's thread
  // The first submission's callback holds the writer; meanwhile 100 more queue up.
  journal.submit({GameCreated{1, std::nullopt, "{}", 1, 2, {}, {}, 0}}, [&, released] {
    order.push_back(0);
    holding.set_value();
    released.wait();
  });
  holding.get_future().wait();
  for (int i = 1; i <= 100; ++i) {
    journal.submit({event(i)}, [&, i] { order.push_back(i); });
  }
  journal.submit({}, [&] { order.push_back(101); });  // no rows: still waits for those before it
  release.set_value();
  journal.barrier().wait();
  ASSERT_EQ(order.size(), 102u);
  for (int i = 0; i <= 101; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
  const auto stats = journal.stats();
  EXPECT_EQ(stats.commits, 2u);  // the game, then the 100 events in one transaction
  EXPECT_EQ(stats.writes, 101u);
  EXPECT_EQ(stats.submissions, 103u);
  EXPECT_EQ(count_events(), 100);
}

TEST_F(JournalTest, CallbacksRunOnlyOnceTheRowsAreReadableByAnotherConnection) {
  Journal journal(*store_);
  journal.submit({GameCreated{1, std::nullopt, "{}", 1, 2, {}, {}, 0}}, {});
  std::promise<std::int64_t> seen;
  journal.submit({event(1), event(2)}, [&] { seen.set_value(count_events()); });
  EXPECT_EQ(seen.get_future().get(), 2);
}

TEST_F(JournalTest, StoppingCommitsWhatIsQueued) {
  {
    Journal journal(*store_);
    journal.submit({GameCreated{1, std::nullopt, "{}", 1, 2, {}, {}, 0}}, {});
    for (int i = 1; i <= 50; ++i) journal.submit({event(i)}, {});
  }
  EXPECT_EQ(count_events(), 50);
}

}  // namespace
}  // namespace tengen::store
