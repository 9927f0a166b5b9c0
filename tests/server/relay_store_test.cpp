// The relays' store (docs/events.md, "Relays") on both backends, a real SQLite file and a real
// PostgreSQL: a relay's row as written, the list (live ones first, closed ones left out), each
// move kept once however often it is sent, moves taken back, and the states a relay goes
// through once each.
#include "store/relay_store.h"

#include <gtest/gtest.h>

#include <memory>

#include "support/sql_backend.h"

namespace tengen {
namespace {

class RelayRows : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = testing::SqlBackend::open(GetParam());
    store_ = std::make_unique<store::RelayStore>(backend_->connect());
    backend_->exec(
        "INSERT INTO users(id, username, password_hash, created_at) VALUES (1, 'tess', 'h', 1),"
        " (2, 'ulla', 'h', 1)");
  }
  std::int64_t make(std::int64_t director, const std::string& event, std::int64_t at) {
    store::RelayRow r;
    r.director_id = director;
    r.event = event;
    r.round = 3;
    r.table = 12;
    r.black = "Ilya Shikshin";
    r.black_rank = "7d";
    r.white = "Mateusz Surma";
    r.white_rank = "6d";
    r.size = 19;
    r.komi = 6.5;
    r.ruleset = "japanese";
    r.handicap = 0;
    r.delay = 5;
    r.board_review = 10 + at;
    r.commentary_review = 11 + at;
    r.created_at_ms = at;
    return store_->create(r);
  }
  std::unique_ptr<testing::SqlBackend> backend_;
  std::unique_ptr<store::RelayStore> store_;
};

TEST_P(RelayRows, ARelayIsKeptWithItsMovesAndGoesFromLiveToFinishedToClosed) {
  const auto id = make(1, "Dutch Championship", 100);
  auto row = store_->relay(id);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->director_name, "tess");
  EXPECT_EQ(row->event, "Dutch Championship");
  EXPECT_EQ(row->round, 3);
  EXPECT_EQ(row->table, 12);
  EXPECT_EQ(row->black, "Ilya Shikshin");
  EXPECT_EQ(row->white_rank, "6d");
  EXPECT_DOUBLE_EQ(row->komi, 6.5);
  EXPECT_EQ(row->delay, 5);
  EXPECT_EQ(row->board_review, 110);
  EXPECT_EQ(row->commentary_review, 111);
  EXPECT_EQ(row->state, "live");
  EXPECT_EQ(row->moves, 0);
  EXPECT_EQ(row->last_move, "");
  EXPECT_FALSE(store_->relay(id + 1));

  store_->add_move(id, 1, "Q16", 1, 200);
  store_->add_move(id, 2, "D4", 2, 210);
  store_->add_move(id, 2, "D4", 2, 220);  // sent again: kept once
  store_->add_move(id, 3, "pass", 3, 230);
  row = store_->relay(id);
  EXPECT_EQ(row->moves, 3);
  EXPECT_EQ(row->last_move, "pass");
  EXPECT_EQ(store_->move_node(id, 2), 2);
  store_->remove_move(id, 3);             // taken back
  store_->add_move(id, 3, "R4", 7, 240);  // another node on the board
  EXPECT_EQ(store_->move_node(id, 3), 7);
  EXPECT_FALSE(store_->move_node(id, 4));
  EXPECT_EQ(store_->relay(id)->last_move, "R4");

  EXPECT_EQ(store_->live_of(1), 1);
  EXPECT_EQ(store_->live_count(), 1);
  EXPECT_TRUE(store_->finish(id, "B+R", 300));
  EXPECT_FALSE(store_->finish(id, "W+R", 310)) << "once";
  row = store_->relay(id);
  EXPECT_EQ(row->state, "finished");
  EXPECT_EQ(row->result, "B+R");
  EXPECT_EQ(row->finished_at_ms, 300);
  EXPECT_EQ(store_->live_of(1), 0);
  EXPECT_TRUE(store_->close(id, 400));
  EXPECT_FALSE(store_->close(id, 410));
  row = store_->relay(id);
  EXPECT_EQ(row->state, "closed");
  EXPECT_EQ(row->finished_at_ms, 300) << "when the game ended, not when the relay closed";
}

TEST_P(RelayRows, TheListShowsLiveRelaysFirstThenFinishedNewestFirstAndNoClosedOne) {
  const auto a = make(1, "A", 1);
  const auto b = make(2, "B", 2);
  const auto c = make(1, "C", 3);
  const auto d = make(2, "D", 4);
  ASSERT_TRUE(store_->finish(b, "W+2.5", 10));
  ASSERT_TRUE(store_->finish(d, "B+T", 11));
  ASSERT_TRUE(store_->close(c, 12));  // closed while live
  std::vector<std::int64_t> ids;
  for (const auto& r : store_->list(10)) ids.push_back(r.id);
  EXPECT_EQ(ids, (std::vector<std::int64_t>{a, d, b}));
  EXPECT_EQ(store_->list(1).size(), 1U);
  EXPECT_EQ(store_->live_count(), 1);
  EXPECT_EQ(store_->live_of(2), 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, RelayRows, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace tengen
