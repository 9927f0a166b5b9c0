// The stores behind their interfaces, on both backends (docs/cluster.md): the same tests against
// a real SQLite file and a real PostgreSQL (tests/support/temp_postgres.h); and PostgreSQL's
// migrations, applied as SQLite's are, by several servers at once.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "store/account_store.h"
#include "store/migrate.h"
#include "store/postgres.h"
#include "store/postgres_migrate.h"
#include "store/sql_game_store.h"
#include "store/sql_postgres.h"
#include "support/temp_database.h"
#include "support/temp_postgres.h"

namespace tengen::store {
namespace {

using testing::TempPostgres;

// One backend's stores on a fresh, migrated database.
class Holder {
 public:
  virtual ~Holder() = default;
  virtual AccountStore& store() = 0;
  virtual GameStore& games() = 0;
};

class SqliteHolder final : public Holder {
 public:
  SqliteHolder()
      : db_(temp_.path()),
        store_(sql::sqlite_connection((migrate(db_), db_))),
        games_(sql::sqlite_connection(temp_.path()), sql::sqlite_connection(temp_.path())) {}
  AccountStore& store() override { return store_; }
  GameStore& games() override { return games_; }

 private:
  testing::TempDatabase temp_;
  Database db_;
  AccountStore store_;
  SqlGameStore games_;
};

class PostgresHolder final : public Holder {
 public:
  PostgresHolder()
      : conninfo_(TempPostgres::instance().new_database()),
        db_(conninfo_),
        store_(sql::postgres_connection((pg::migrate(db_), db_))),
        games_(sql::postgres_connection(conninfo_), sql::postgres_connection(conninfo_)) {}
  AccountStore& store() override { return store_; }
  GameStore& games() override { return games_; }

 private:
  std::string conninfo_;
  pg::Connection db_;
  AccountStore store_;
  SqlGameStore games_;
};

std::unique_ptr<Holder> open_backend(const std::string& name) {
  if (name == "sqlite") return std::make_unique<SqliteHolder>();
  return std::make_unique<PostgresHolder>();
}

class AccountStores : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { holder_ = open_backend(GetParam()); }
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
  EXPECT_EQ(found->second.last_seen_at_ms, 100) << "not touched: seen less than a minute ago";
  EXPECT_EQ(store().sessions_of(user.id)[0].last_seen_at_ms, 100);
  EXPECT_EQ(store().session_by_token(token(1), 60'100)->second.last_seen_at_ms, 60'100);
  EXPECT_EQ(store().session_by_token(token(1), 60'200)->second.last_seen_at_ms, 60'100);
  EXPECT_FALSE(store().session_by_token(token(9), 500));

  const auto mine = store().sessions_of(user.id);
  ASSERT_EQ(mine.size(), 2u);
  EXPECT_EQ(mine[0].id, first.id);
  EXPECT_EQ(mine[0].last_seen_at_ms, 60'100) << "touched when it was found a minute later";
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

// Vacations (docs/correspondence.md): begun only on the balance read (a second request, or
// another node's, changes nothing), ended early keeping the rest, and old ones forgotten when a
// new one begins.
TEST_P(AccountStores, VacationsBeginOnTheBalanceReadAndEndKeepingTheRest) {
  const auto u = store().create_user("alice", "hash", false, 1'000).value();
  EXPECT_EQ(store().vacation_balance(u.id), std::nullopt) << "a new account's: none stored";
  EXPECT_TRUE(store().begin_vacation(u.id, std::nullopt, {5'000, 9'000}, 0));
  EXPECT_EQ(store().vacation_balance(u.id), (VacationBalance{0, 9'000}));
  EXPECT_FALSE(store().begin_vacation(u.id, std::nullopt, {5'000, 9'500}, 0))
      << "the balance is no longer the one read";
  EXPECT_FALSE(store().begin_vacation(u.id, VacationBalance{7, 1'000}, {5'000, 9'500}, 0));
  EXPECT_EQ(store().vacations_of(u.id, 0), (std::vector<VacationSpan>{{5'000, 9'000}}));

  EXPECT_FALSE(store().end_vacation(u.id, {5'000, 8'000}, 6'000)) << "not the one recorded";
  EXPECT_TRUE(store().end_vacation(u.id, {5'000, 9'000}, 6'000));
  EXPECT_EQ(store().vacation_balance(u.id), (VacationBalance{3'000, 6'000}));
  EXPECT_FALSE(store().end_vacation(u.id, {5'000, 9'000}, 7'000)) << "already ended";

  EXPECT_TRUE(store().begin_vacation(u.id, VacationBalance{3'000, 6'000}, {20'000, 23'500}, 0));
  EXPECT_EQ(store().vacations_of(u.id, 0),
            (std::vector<VacationSpan>{{5'000, 6'000}, {20'000, 23'500}}));
  // Begun and ended at one millisecond, then begun again at it: the empty one is replaced.
  EXPECT_TRUE(store().end_vacation(u.id, {20'000, 23'500}, 20'000));
  EXPECT_TRUE(store().begin_vacation(u.id, VacationBalance{3'500, 20'000}, {20'000, 23'500}, 0));
  EXPECT_EQ(store().vacations_of(u.id, 0),
            (std::vector<VacationSpan>{{5'000, 6'000}, {20'000, 23'500}}));
  EXPECT_EQ(store().vacations_of(u.id, 6'000), (std::vector<VacationSpan>{{20'000, 23'500}}));
  EXPECT_EQ(store().vacations_of(u.id, 0).size(), 2u) << "reading deletes nothing";
  // Beginning one forgets those that ended long enough before.
  EXPECT_TRUE(store().end_vacation(u.id, {20'000, 23'500}, 21'000));
  EXPECT_TRUE(
      store().begin_vacation(u.id, VacationBalance{2'500, 21'000}, {30'000, 32'500}, 6'000));
  EXPECT_EQ(store().vacations_of(u.id, 0),
            (std::vector<VacationSpan>{{20'000, 21'000}, {30'000, 32'500}}))
      << "the one that ended at 6,000 is gone";
  EXPECT_TRUE(store().vacations_of(u.id + 1, 0).empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, AccountStores, ::testing::Values("sqlite", "postgres"),
                         [](const auto& backend) { return backend.param; });

// ---- games, challenges, ratings, tournaments ----

// Attempts counted by every node (docs/limits.md): a bucket per key in PostgreSQL, shared by two
// stores on connections of their own (two nodes); refilled by the database's clock (moved back
// here rather than waited for). SQLite keeps none: its one server counts in memory.
TEST_P(AccountStores, AttemptsAreCountedByEveryServerOnTheDatabase) {
  const auto hour = std::chrono::milliseconds(3600000);
  if (GetParam() == "sqlite") {
    EXPECT_FALSE(store().take_attempt(token(1), 3, hour)) << "none kept: the server counts";
    return;
  }
  for (int i = 0; i < 3; ++i) EXPECT_EQ(store().take_attempt(token(1), 3, hour), true) << i;
  EXPECT_EQ(store().take_attempt(token(1), 3, hour), false) << "the burst is used up";
  EXPECT_EQ(store().take_attempt(token(2), 3, hour), true) << "another key has its own";
}

TEST(PostgresAttempts, TwoNodesShareABucketThatRefillsByTheDatabasesClock) {
  const std::string conninfo = TempPostgres::instance().new_database();
  pg::Connection a(conninfo);
  pg::migrate(a);
  pg::Connection b(conninfo);
  AccountStore first(sql::postgres_connection(a));
  AccountStore second(sql::postgres_connection(b));
  TokenHash key{};
  key.fill(7);
  const auto minute = std::chrono::milliseconds(60000);
  EXPECT_EQ(first.take_attempt(key, 2, minute), true);
  EXPECT_EQ(second.take_attempt(key, 2, minute), true);
  EXPECT_EQ(first.take_attempt(key, 2, minute), false) << "two taken, on two nodes";
  EXPECT_EQ(second.take_attempt(key, 2, minute), false);
  // Half a minute on: half a token, still none; a minute and a half: one more, then none.
  a.exec("UPDATE attempt_buckets SET at = at - interval '30 seconds'");
  EXPECT_EQ(second.take_attempt(key, 2, minute), false);
  a.exec("UPDATE attempt_buckets SET at = at - interval '60 seconds'");
  EXPECT_EQ(first.take_attempt(key, 2, minute), true);
  EXPECT_EQ(second.take_attempt(key, 2, minute), false);
  // Long after, the bucket is full again, and no fuller than its burst.
  a.exec("UPDATE attempt_buckets SET at = at - interval '1 day'");
  EXPECT_EQ(first.take_attempt(key, 2, minute), true);
  EXPECT_EQ(second.take_attempt(key, 2, minute), true);
  EXPECT_EQ(first.take_attempt(key, 2, minute), false);
}

class GameStores : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    holder_ = open_backend(GetParam());
    ann_ = holder_->store().create_user("ann", "h", false, 1)->id;
    bob_ = holder_->store().create_user("bob", "h", false, 1)->id;
  }
  GameStore& games() { return holder_->games(); }
  // Event `seq` of `game`: the third is for spectators only.
  static GameEvent event(std::int64_t game, std::int64_t seq, std::optional<std::int64_t> user,
                         std::optional<std::string> cid, std::int64_t at) {
    return GameEvent{game,
                     seq,
                     seq == 1 ? "nigiri" : "move",
                     seq == 3,
                     "{\"r\":" + std::to_string(seq) + "}",
                     "text " + std::to_string(seq),
                     at,
                     user,
                     std::move(cid)};
  }

  std::unique_ptr<Holder> holder_;
  std::int64_t ann_ = 0, bob_ = 0;
};

TEST_P(GameStores, WhatIsWrittenIsReadBackForRecoveryAndTheLists) {
  const std::vector<Write> opening{
      ChallengeOpened{1, ann_, std::nullopt, R"({"width":9})", 10, "c-1"},
      ChallengeOpened{2, bob_, ann_, R"({"width":19,"private":true})", 11, "c-2"},
      ChallengeClosed{1, "accepted", 5, 12},
      GameCreated{5, 1, R"({"width":9})", ann_, bob_, "secret", "nonce", 12},
      GameCreated{6, std::nullopt, R"({"width":19,"private":true})", bob_, ann_, {}, {}, 13},
      event(5, 1, std::nullopt, std::nullopt, 14),
      GameSeated{5, bob_, ann_},
      event(5, 2, bob_, "m-1", 15),
      event(5, 3, ann_, "m-2", 16),
      event(6, 1, bob_, "m-3", 17),
  };
  games().write(opening);
  EXPECT_EQ(games().last_challenge_id(), 2);
  EXPECT_EQ(games().last_game_id(), 6);
  const auto open = games().open_challenges();
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].id, 2);
  EXPECT_EQ(open[0].opponent_id, ann_);
  EXPECT_EQ(open[0].settings, R"({"width":19,"private":true})");

  auto unfinished = games().unfinished_games();
  ASSERT_EQ(unfinished.size(), 2u);
  EXPECT_EQ(unfinished[0].created.id, 5);
  EXPECT_EQ(unfinished[0].created.challenge_id, 1);
  EXPECT_EQ(unfinished[0].created.nigiri_secret, "secret");
  EXPECT_FALSE(unfinished[1].created.nigiri_nonce);
  ASSERT_EQ(unfinished[0].events.size(), 3u);
  EXPECT_EQ(unfinished[0].events[2].seq, 3);
  EXPECT_TRUE(unfinished[0].events[2].spectators_only);
  EXPECT_EQ(unfinished[0].events[1].record, R"({"r":2})");
  EXPECT_EQ(unfinished[0].events[1].text, "text 2");
  EXPECT_EQ(unfinished[0].events[1].at_ms, 15);
  ASSERT_EQ(unfinished[1].events.size(), 1u) << "each game its own events";
  EXPECT_EQ(unfinished[1].events[0].game_id, 6);
  EXPECT_EQ(unfinished[1].events[0].text, "text 1");

  const auto commands = games().recent_commands(2);
  std::vector<std::string> cids;
  for (const auto& c : commands) cids.push_back(c.cid);
  EXPECT_EQ(cids, (std::vector<std::string>{"c-1", "c-2", "m-1", "m-2", "m-3"}));
  ASSERT_EQ(commands.size(), 5u);
  EXPECT_EQ(commands[3].game, 5);
  EXPECT_EQ(commands[3].seq, 3);
  EXPECT_EQ(commands[1].challenge, 2);

  const auto live = games().live_games({});
  ASSERT_EQ(live.size(), 1u) << "the private game is left out";
  EXPECT_EQ(live[0].id, 5);
  EXPECT_EQ(live[0].black_name, "bob") << "seated by the nigiri";
  EXPECT_EQ(live[0].white_name, "ann");
  EXPECT_FALSE(games().finished_sgf(5));

  const std::vector<Write> ending{
      event(5, 4, ann_, "m-4", 20),
      GameFinished{5, "W+R", "resignation", 2, "(;GM[1]RE[W+R])", 20},
      RatingChanged{bob_, 5, 1400.0 + 1.0 / 3.0, 200.25, 0.06, 1, 20},
      RatingChanged{ann_, 5, 1600.5, 200.25, 0.059999, 1, 20},
  };
  games().write(ending);
  EXPECT_EQ(games().finished_sgf(5), "(;GM[1]RE[W+R])");
  const auto summary = games().game(5);
  ASSERT_TRUE(summary);
  EXPECT_EQ(summary->result, "W+R");
  EXPECT_EQ(summary->end_reason, "resignation");
  EXPECT_EQ(summary->ended_at_ms, 20);
  EXPECT_EQ(summary->move_count, 2);
  EXPECT_EQ(games().finished_games({}).size(), 1u);
  EXPECT_TRUE(games().live_games({}).empty());
  EXPECT_EQ(games().games_of(ann_, {}).size(), 2u) << "her own list has the private game";
  EXPECT_EQ(games().games_of(ann_, {6, 50}).size(), 1u) << "a page before game 6";
  EXPECT_EQ(games().unfinished_games().size(), 1u);
  const auto stored = games().stored_game(5);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->events.size(), 4u);

  const auto rating = games().rating(ann_);
  ASSERT_TRUE(rating);
  EXPECT_EQ(rating->rating, 1600.5);
  EXPECT_EQ(rating->volatility, 0.059999) << "doubles exactly";
  EXPECT_EQ(games().rating(bob_)->rating, 1400.0 + 1.0 / 3.0) << "to the last bit";
  EXPECT_EQ(games().ratings().size(), 2u);
  const std::vector<Write> again{RatingChanged{ann_, 6, 1610, 190, 0.06, 2, 30},
                                 GameFinished{6, "B+R", "resignation", 0, "(;)", 30}};
  games().write(again);
  EXPECT_EQ(games().rating(ann_)->games, 2);
  const auto history = games().rating_history(ann_, 10);
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[0].game_id, 5);
  EXPECT_EQ(history[1].rating, 1610);
  EXPECT_EQ(games().rating_history(ann_, 1).at(0).game_id, 6) << "the newest";

  const std::vector<Write> tournament{
      TournamentCreated{3, "Cup", ann_, R"({"name":"Cup"})", 40, "t-1"},
      TournamentEvent{3, 1, "registered", R"({"user":1})", bob_, 41, "t-2"},
      TournamentEvent{3, 2, "started", "{}", std::nullopt, 42, std::nullopt},
      TournamentStatus{3, "running"},
  };
  games().write(tournament);
  const auto tournaments = games().tournaments();
  ASSERT_EQ(tournaments.size(), 1u);
  EXPECT_EQ(tournaments[0].created.cid, "t-1");
  ASSERT_EQ(tournaments[0].events.size(), 2u);
  EXPECT_EQ(tournaments[0].events[0].by_user, bob_);
  EXPECT_FALSE(tournaments[0].events[1].by_user);
  EXPECT_EQ(tournaments[0].events[1].kind, "started");
}

// A group commit is one transaction: a row that cannot be written takes the others with it,
// and the store goes on.
TEST_P(GameStores, AWriteThatFailsLeavesNothingOfItsGroup) {
  const std::vector<Write> first{GameCreated{5, std::nullopt, "{}", ann_, bob_, {}, {}, 1},
                                 event(5, 1, ann_, "a", 2)};
  games().write(first);
  std::vector<Write> group{event(5, 2, ann_, "b", 3)};
  for (int i = 0; i < 600; ++i) {  // past a pipeline's sync interval
    group.push_back(ChallengeOpened{100 + i, bob_, std::nullopt, "{}", 3, "c" + std::to_string(i)});
  }
  group.push_back(event(5, 1, bob_, "c", 4));  // seq 1 again
  EXPECT_ANY_THROW(games().write(group));
  EXPECT_EQ(games().stored_game(5)->events.size(), 1u);
  EXPECT_EQ(games().last_challenge_id(), 0);
  const std::vector<Write> next{event(5, 2, ann_, "b", 5)};
  games().write(next);
  EXPECT_EQ(games().stored_game(5)->events.size(), 2u);
}

// A seeded rating (a house bot's start): a row with no games, written only where there is none,
// overwritten by the first rated game, and kept by a rebuild for one who played none.
TEST_P(GameStores, ASeededRatingIsWrittenOnceAndGivesWayToARatedGame) {
  const std::vector<Write> seed{RatingSeeded{ann_, 1150, 150, 0.06, 5}};
  games().write(seed);
  const std::vector<Write> again{RatingSeeded{ann_, 1750, 150, 0.06, 6}};
  games().write(again);
  ASSERT_TRUE(games().rating(ann_));
  EXPECT_EQ(games().rating(ann_)->rating, 1150) << "written once";
  EXPECT_EQ(games().rating(ann_)->games, 0);
  EXPECT_TRUE(games().rating_history(ann_, 10).empty());
  const std::vector<Write> rated{
      GameCreated{5, std::nullopt, "{}", ann_, bob_, {}, {}, 1},
      GameFinished{5, "B+R", "resignation", 2, "(;)", 7},
      RatingChanged{ann_, 5, 1200, 140, 0.06, 1, 7},
  };
  games().write(rated);
  EXPECT_EQ(games().rating(ann_)->games, 1);
  const std::vector<Write> rebuilt{RatingsReplaced{{}, {RatingSeeded{bob_, 1750, 150, 0.06, 8}}}};
  games().write(rebuilt);
  EXPECT_FALSE(games().rating(ann_)) << "replaced: nothing rated in this rebuild";
  EXPECT_EQ(games().rating(bob_)->rating, 1750);
}

// A rated game ended on another node (docs/cluster.md, "Games on every node"): its end and its
// row to rate go together; the hub's list has them in the order they ended, says which a rebuild
// rated already, and loses each with its RatingDone. A game not ended yet is not listed.
TEST_P(GameStores, GamesLeftToRateAreListedInTheOrderTheyEndedUntilRated) {
  const std::vector<Write> three{
      GameCreated{5, std::nullopt, R"({"rated":true})", ann_, bob_, {}, {}, 1},
      GameCreated{6, std::nullopt, R"({"rated":true})", bob_, ann_, {}, {}, 1},
      GameCreated{7, std::nullopt, R"({"rated":true})", ann_, bob_, {}, {}, 1},
  };
  games().write(three);
  const std::vector<Write> ends{
      GameFinished{6, "W+R", "resignation", 2, "(;)", 8},
      RatingDue{6},
      GameFinished{5, "B+R", "resignation", 2, "(;)", 9},
      RatingDue{5},
      RatingDue{7},  // not ended (a row no node writes so: listed only once it ends)
  };
  games().write(ends);
  const std::vector<Write> twice{RatingDue{5}};  // a retried group: no second row
  games().write(twice);
  auto due = games().ratings_due();
  ASSERT_EQ(due.size(), 2u);
  EXPECT_EQ(due[0].game.id, 6) << "ended first";
  EXPECT_EQ(due[0].game.result, "W+R");
  EXPECT_EQ(due[0].game.black_id, bob_);
  EXPECT_FALSE(due[0].rated);
  EXPECT_EQ(due[1].game.id, 5);
  // A rebuild rated game 5 meanwhile; game 6 the hub rates now.
  const std::vector<Write> rebuilt{
      RatingsReplaced{{RatingChanged{ann_, 5, 1600, 200, 0.06, 1, 10},
                       RatingChanged{bob_, 5, 1400, 200, 0.06, 1, 10}}}};
  games().write(rebuilt);
  due = games().ratings_due();
  ASSERT_EQ(due.size(), 2u);
  EXPECT_FALSE(due[0].rated);
  EXPECT_TRUE(due[1].rated);
  const std::vector<Write> done{RatingChanged{bob_, 6, 1500, 180, 0.06, 2, 11},
                                RatingChanged{ann_, 6, 1500, 180, 0.06, 2, 11}, RatingDone{6},
                                RatingDone{5}};
  games().write(done);
  EXPECT_TRUE(games().ratings_due().empty());
}

// In a cluster a node becomes the hub, and its centre recovers (reads on the writer's
// connection), while its journal writes the games the node plays: one at a time on that
// connection (on PostgreSQL two at once broke the journal's pipelined batch).
TEST_P(GameStores, TheJournalsWritesAndARecoverysReadsShareTheWriterOneAtATime) {
  const std::vector<Write> created{
      GameCreated{9, std::nullopt, R"({"width":9})", ann_, bob_, {}, {}, 1}};
  games().write(created);
  constexpr int kEvents = 300;
  std::atomic<bool> done{false};
  std::string failed;
  std::thread journal([&] {
    try {
      for (int seq = 1; seq <= kEvents; ++seq) {
        const std::vector<Write> one{event(9, seq, ann_, "c" + std::to_string(seq), seq + 1)};
        games().write(one);
      }
    } catch (const std::exception& e) {
      failed = e.what();
    }
    done = true;
  });
  int recoveries = 0;
  std::string recovery_failed;
  try {
    while (!done) {
      const auto unfinished = games().unfinished_games();
      EXPECT_EQ(unfinished.size(), 1u);
      EXPECT_EQ(games().last_game_id(), 9);
      EXPECT_EQ(games().open_challenges().size(), 0u);
      ++recoveries;
    }
  } catch (const std::exception& e) {
    recovery_failed = e.what();
  }
  journal.join();
  EXPECT_EQ(failed, "") << "the journal's write broke";
  EXPECT_EQ(recovery_failed, "") << "a recovery's read broke";
  EXPECT_GT(recoveries, 0);
  const auto stored = games().unfinished_games();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].events.size(), static_cast<std::size_t>(kEvents));
}

// A closed review as both backends read it back: its tree, the game it reviews, and its
// invitations in order (what decides who may download it: docs/reviews.md, "Private reviews").
TEST_P(GameStores, AClosedReviewComesBackWithItsGameAndItsInvitations) {
  const std::vector<Write> writes{
      GameCreated{6, std::nullopt, R"({"width":9,"private":true})", bob_, ann_, {}, {}, 1},
      ReviewCreated{1, bob_, "bob vs ann", 6, "(;SZ[9])", 2},
      ReviewEvent{1, 1, "invite", R"({"user":{"id":9,"name":"cy"},"remove":false})", bob_, 3},
      ReviewEvent{1, 2, "play", R"({"color":"black","vertex":"E5"})", bob_, 4},
      ReviewEvent{1, 3, "invite", R"({"user":{"id":9,"name":"cy"},"remove":true})", ann_, 5},
      ReviewCreated{2, ann_, "demo", std::nullopt, "(;SZ[9])", 6},
  };
  games().write(writes);
  EXPECT_FALSE(games().closed_review(1)) << "still open";
  const std::vector<Write> closing{ReviewClosed{1, "(;SZ[9];B[ee])", 7},
                                   ReviewClosed{2, "(;SZ[9])", 8}};
  games().write(closing);
  const auto closed = games().closed_review(1);
  ASSERT_TRUE(closed);
  EXPECT_EQ(closed->owner_id, bob_);
  EXPECT_EQ(closed->game_id, 6);
  EXPECT_EQ(closed->sgf, "(;SZ[9];B[ee])");
  ASSERT_EQ(closed->invitations.size(), 2u) << "the invitations only, not the moves";
  EXPECT_EQ(closed->invitations[1].seq, 3);
  EXPECT_EQ(closed->invitations[1].by_user, ann_);
  EXPECT_FALSE(games().closed_review(2)->game_id);
  EXPECT_FALSE(games().closed_review(3));
}

INSTANTIATE_TEST_SUITE_P(Backends, GameStores, ::testing::Values("sqlite", "postgres"),
                         [](const auto& backend) { return backend.param; });

// ---- PostgreSQL's migrations ----

int count(pg::Connection& db, const std::string& sql) {
  return static_cast<int>(db.query(sql).int64(0, 0));
}

TEST(PostgresMigrations, SQLitesTablesAtTheSameVersionsThenTheClustersOwn) {
  pg::Connection db(TempPostgres::instance().new_database());
  const auto sqlite = migrations::all();
  const auto postgres = migrations::postgres();
  // Each SQLite migration has its PostgreSQL twin, in the same order and named alike after the
  // number; PostgreSQL has four more, the cluster's own (0005_nodes.sql, which shifts the
  // numbers after it by one, 0011_survival.sql: surviving the database's restarts,
  // 0013_attempts.sql: login attempts counted across nodes, and 0022_movable_games.sql: which
  // games a dead node's may be given to any node).
  std::vector<std::string_view> twins;
  for (const auto& m : postgres) {
    const std::string_view name = m.name;
    if (name != "0005_nodes.sql" && name != "0011_survival.sql" && name != "0013_attempts.sql" &&
        name != "0022_movable_games.sql")
      twins.push_back(name.substr(5));
  }
  ASSERT_EQ(twins.size(), sqlite.size());
  ASSERT_EQ(postgres.size(), sqlite.size() + 4);
  for (std::size_t i = 0; i < sqlite.size(); ++i)
    EXPECT_EQ(twins[i], std::string_view(sqlite[i].name).substr(5)) << sqlite[i].name;

  const int newest = postgres.back().version;
  EXPECT_EQ(pg::migrate(db), newest);
  EXPECT_EQ(pg::migrate(db), newest) << "idempotent";
  EXPECT_EQ(count(db, "SELECT count(*) FROM schema_version"), newest);
  for (const char* table :
       {"users", "sessions", "challenges", "games", "game_events", "ratings", "rating_history",
        "tournaments", "tournament_events", "nodes", "game_leases", "reviews", "review_events"}) {
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
