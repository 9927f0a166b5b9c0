// Which node owns each game (store/leases.h, docs/cluster.md), on a real PostgreSQL: one live
// owner per game, passed on only when its owner's liveness has run out, one epoch on; a stale
// owner's writes fenced off whole; a restarted node taking its games back at once; the keeper
// renewing, adopting orphans, and stopping a node the others consider dead.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cluster/lease_keeper.h"
#include "store/account_store.h"
#include "store/postgres.h"
#include "store/postgres_leases.h"
#include "store/postgres_migrate.h"
#include "store/sql_game_store.h"
#include "store/sql_postgres.h"
#include "support/temp_postgres.h"

namespace tengen::store {
namespace {

using namespace std::chrono_literals;
using testing::TempPostgres;
using Options = PostgresLeases::Options;

class Leases : public ::testing::Test {
 protected:
  Leases() : conninfo_(TempPostgres::instance().new_database()), db_(conninfo_) {
    pg::migrate(db_);
    AccountStore accounts(sql::postgres_connection(db_));
    ann_ = accounts.create_user("ann", "h", false, 1)->id;
    bob_ = accounts.create_user("bob", "h", false, 1)->id;
    games_ = std::make_unique<SqlGameStore>(sql::postgres_connection(conninfo_),
                                            sql::postgres_connection(conninfo_));
    std::vector<Write> created;
    for (std::int64_t id = 1; id <= kGames; ++id)
      created.emplace_back(GameCreated{id, std::nullopt, "{}", ann_, bob_, {}, {}, 1});
    games_->write(created);
  }

  std::unique_ptr<PostgresLeases> join(const std::string& name, bool sole = false) {
    return std::make_unique<PostgresLeases>(conninfo_, Options{name, 60s, sole});
  }
  // The node's liveness runs out now, as if it had been paused past its lease.
  void expire(const PostgresLeases& node) {
    db_.query("UPDATE nodes SET expires_at = now() - interval '1 millisecond' WHERE id = $1",
              {node.node()});
  }
  GameEvent event(std::int64_t game, std::int64_t seq) const {
    return GameEvent{game, seq, "move", false, "{}", "text", 2, ann_, "cid-" + std::to_string(seq)};
  }
  std::size_t events_of(std::int64_t game) { return games_->stored_game(game)->events.size(); }
  // Until the sessions of `node` (pg_terminate_backend is asynchronous) or, with 0, every other
  // session of this database, have ended: asked of PostgreSQL, no sleeping.
  void wait_until_gone(std::int64_t node) {
    const std::string which = node ? "application_name = 'tengen-node-" + std::to_string(node) + "'"
                                   : "datname = current_database() AND pid <> pg_backend_pid()";
    for (int i = 0; i < 100000; ++i) {
      if (db_.query("SELECT count(*) FROM pg_stat_activity WHERE " + which).int64(0, 0) == 0)
        return;
    }
    FAIL() << "sessions still there";
  }

  static constexpr std::int64_t kGames = 20;
  std::string conninfo_;
  pg::Connection db_;
  std::int64_t ann_ = 0, bob_ = 0;
  std::unique_ptr<SqlGameStore> games_;
};

TEST_F(Leases, AGameHasOneLiveOwnerAndPassesOnOnlyWhenItsOwnerIsGone) {
  const auto a = join("a");
  const auto b = join("b");
  EXPECT_NE(a->node(), b->node());
  EXPECT_EQ(a->take(1), 1) << "nobody had it";
  EXPECT_EQ(a->take(1), 1) << "its own already: the same epoch";
  EXPECT_EQ(b->take(1), std::nullopt) << "a is alive";
  EXPECT_EQ(b->take(999), std::nullopt) << "no such game";
  EXPECT_TRUE(b->orphans(10).empty());

  expire(*a);
  EXPECT_EQ(b->orphans(10), std::vector<std::int64_t>{1});
  EXPECT_EQ(b->take(1), 2) << "a's liveness ran out: b owns it, one epoch on";
  EXPECT_TRUE(b->orphans(10).empty());
  EXPECT_FALSE(a->renew()) << "a learns that it is dead";
  EXPECT_EQ(a->take(2), std::nullopt) << "a dead node takes nothing";
  EXPECT_TRUE(b->renew());

  games_->write(std::vector<Write>{GameFinished{1, "B+R", "resignation", 0, "(;)", 3}});
  expire(*b);
  const auto c = join("c");
  EXPECT_TRUE(c->orphans(10).empty()) << "a finished game is nobody's worry";
}

// Which nodes the hub takes for dead, to let go of their connections (cluster::Roles): ended,
// expired, or with no session of its own left in the database (killed: PostgreSQL ends its
// sessions at once); the living and unknown ids are told apart.
TEST_F(Leases, TheDeadAmongNodesAreThoseEndedExpiredOrWithoutASession) {
  const auto hub = join("hub");
  const auto alive = join("alive");
  const auto expired = join("expired");
  const auto killed = join("killed");
  auto restarted = join("restarted");
  EXPECT_TRUE(restarted->renew());  // its session exists
  const std::int64_t old_life = restarted->node();
  restarted.reset();  // killed: its session ends
  wait_until_gone(old_life);
  restarted = join("restarted");  // a new life under the name ends the old one
  expire(*expired);
  db_.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
            {"tengen-node-" + std::to_string(killed->node())});
  wait_until_gone(killed->node());
  const std::vector<std::int64_t> asked{alive->node(), expired->node(),   killed->node(),
                                        old_life,      restarted->node(), 999999};
  EXPECT_EQ(hub->gone(asked),
            (std::vector<std::int64_t>{expired->node(), killed->node(), old_life, 999999}));
  EXPECT_TRUE(hub->gone({}).empty());
  // The same test of running refuses a second node under a running node's name.
  EXPECT_THROW(join("alive"), std::runtime_error);
  EXPECT_TRUE(killed->renew()) << "its next statement connects again: alive";
  EXPECT_EQ(hub->gone({killed->node()}), std::vector<std::int64_t>{}) << "and seen so";
}

// Games on every node (docs/cluster.md): a new hub ends the owners of games that are no longer
// running (the last hub, killed), not the nodes that play games and run; without sparing, every
// owner (the last hub, when only the hub owns games). A node that stops ends itself, and its
// games are orphans at once.
TEST_F(Leases, ANewHubSparesRunningGameOwnersAndAStoppingNodeEndsItself) {
  const auto hub = join("hub");
  const auto playing = join("playing");
  const auto killed = join("killed");
  const auto stopping = join("stopping");
  ASSERT_EQ(playing->take(3), 1);
  ASSERT_EQ(killed->take(4), 1);
  ASSERT_EQ(stopping->take(5), 1);
  db_.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
            {"tengen-node-" + std::to_string(killed->node())});
  wait_until_gone(killed->node());
  hub->end_game_owners(true);
  EXPECT_TRUE(playing->renew()) << "running: spared";
  EXPECT_EQ(hub->take(3), std::nullopt);
  EXPECT_EQ(hub->take(4), 2) << "the killed one's game, at once";
  EXPECT_FALSE(killed->renew()) << "ended";

  EXPECT_TRUE(hub->orphans(10).empty());
  stopping->end();
  EXPECT_EQ(hub->orphans(10), std::vector<std::int64_t>{5}) << "at once, not after its lease";
  EXPECT_FALSE(stopping->renew());

  // What a new hub reads of where games are played: the running nodes' games, not its own.
  EXPECT_EQ(hub->placements(),
            (std::vector<std::pair<std::int64_t, std::int64_t>>{{3, playing->node()}}));

  hub->end_game_owners(false);
  EXPECT_FALSE(playing->renew()) << "not spared";
  EXPECT_EQ(hub->take(3), 2);
}

// Games on every node: the hub gives a dead node's movable games to the running nodes, each to
// the one with the fewest games in play (the hub last on a tie), and only those; a game one of
// them took itself meanwhile stays its own, one that a node stopped before it was given stays an
// orphan (for the hub to adopt), and giving again changes nothing.
TEST_F(Leases, ADeadNodesMovableGamesAreSpreadOverTheRunningNodesTheFewestGamesFirst) {
  const auto hub = join("hub");
  const auto b = join("b");
  const auto c = join("c");
  const auto dead = join("dead");
  std::vector<Write> owned;
  for (std::int64_t g = 1; g <= 6; ++g) owned.emplace_back(GameOwned{g, dead->node(), 1, true});
  owned.emplace_back(GameOwned{7, dead->node(), 1, false});  // a tournament's: the hub's
  owned.emplace_back(GameOwned{8, b->node(), 1, true});
  owned.emplace_back(GameOwned{9, hub->node(), 1, false});
  owned.emplace_back(GameOwned{10, hub->node(), 1, false});
  games_->write(owned);
  EXPECT_TRUE(hub->spread(100).empty()) << "its owner alive: nothing to give";
  expire(*dead);

  using H = Handover;
  const auto plan = hub->spread(100);
  // Before: the hub 2 games, b 1, c 0; each given counts.
  EXPECT_EQ(plan, (std::vector<H>{{1, c->node()},
                                  {2, b->node()},
                                  {3, c->node()},
                                  {4, b->node()},
                                  {5, c->node()},
                                  {6, hub->node()}}));
  EXPECT_EQ(hub->spread(2), (std::vector<H>{{1, c->node()}, {2, b->node()}})) << "at most 2";

  // Meanwhile c took game 3 itself (a command reached it first), and b stopped.
  ASSERT_EQ(c->take(3), 2);
  b->end();
  const auto owners = hub->hand(plan);
  EXPECT_EQ(owners,
            (std::vector<H>{{1, c->node()}, {3, c->node()}, {5, c->node()}, {6, hub->node()}}));
  const auto epoch = [&](std::int64_t g) {
    return db_.query("SELECT epoch FROM game_leases WHERE game_id = $1", {g}).int64(0, 0);
  };
  for (const std::int64_t g : {1, 3, 5, 6}) EXPECT_EQ(epoch(g), 2) << "game " << g;
  EXPECT_EQ(epoch(2), 1) << "b stopped before it was given";
  EXPECT_EQ(hub->orphans(100), (std::vector<std::int64_t>{2, 4, 7, 8}))
      << "what the hub adopts itself: the games b had and those that stay on the hub";
  EXPECT_FALSE(dead->renew()) << "the node its games were given away from is ended";
  EXPECT_EQ(c->take(1), 2) << "c owns it: it brings it into memory under its epoch";

  EXPECT_EQ(hub->hand(plan), owners) << "given again: the same owners";
  for (const std::int64_t g : {1, 3, 5, 6}) EXPECT_EQ(epoch(g), 2) << "game " << g;
  EXPECT_EQ(db_.query("SELECT count(*) FROM game_leases WHERE movable").int64(0, 0), 7);
}

// Told to look now (a node said it stopped), the keeper renews and adopts orphans at its next
// round, not a third of the lease later.
TEST_F(Leases, TheKeeperLooksForOrphansAtOnceWhenTold) {
  const auto a = join("a");
  const auto b = join("b");
  ASSERT_EQ(a->take(3), 1);
  std::vector<std::int64_t> adopted;
  Metrics metrics;
  cluster::LeaseKeeper keeper(*b, 60s,
                              {.spread = {},
                               .adopt =
                                   [&](const std::vector<std::int64_t>& games) {
                                     for (const auto g : games)
                                       if (b->take(g)) adopted.push_back(g);
                                     return adopted.size();
                                   },
                               .lost = {},
                               .keep_lock = {},
                               .ticked = {},
                               .renewed = {}},
                              &metrics, cluster::LeaseKeeper::Thread::None);
  const auto t0 = std::chrono::steady_clock::now();
  keeper.round(t0);
  a->end();
  keeper.round(t0 + 1s);
  EXPECT_TRUE(adopted.empty()) << "not due: a third of the lease is 20 s";
  keeper.look_now();
  keeper.round(t0 + 2s);
  EXPECT_EQ(adopted, std::vector<std::int64_t>{3});
  EXPECT_EQ(metrics.lease_renewals_total, 2u);
}

TEST_F(Leases, AStaleOwnersWritesAreFencedOffWholeAndTheNewOwnersGoIn) {
  const auto a = join("a");
  ASSERT_EQ(a->take(1), 1);
  games_->write(std::vector<Write>{event(1, 1), Fence{1, 1}});

  expire(*a);  // paused past its lease...
  const auto b = join("b");
  ASSERT_EQ(b->take(1), 2);  // ...while b took the game over
  const std::vector<Write> stale{event(1, 2),
                                 ChallengeOpened{7, ann_, std::nullopt, "{}", 3, "c-7"},
                                 GameFinished{1, "W+R", "resignation", 1, "(;)", 3}, Fence{1, 1}};
  try {
    games_->write(stale);
    ADD_FAILURE() << "a stale owner wrote";
  } catch (const pg::Error& e) {
    EXPECT_EQ(e.sqlstate(), "TG001") << e.what();
    EXPECT_NE(std::string(e.what()).find("another node took it over"), std::string::npos);
  }
  EXPECT_EQ(events_of(1), 1u) << "nothing of its group: not the event";
  EXPECT_EQ(games_->last_challenge_id(), 0) << "not the other rows";
  EXPECT_FALSE(games_->game(1)->result) << "not the end";

  games_->write(std::vector<Write>{event(1, 2), Fence{1, 2}});
  EXPECT_EQ(events_of(1), 2u) << "the new owner writes";

  // The stale owner's next group holds the same event number as the new owner's: it fails on
  // its fence (TG001), however the group is ordered, never on the duplicate row.
  try {
    games_->write(std::vector<Write>{event(1, 2), Fence{1, 1}});
    ADD_FAILURE() << "a stale owner wrote";
  } catch (const pg::Error& e) {
    EXPECT_EQ(e.sqlstate(), "TG001") << e.what();
  }

  // A new game is owned by its creator from the transaction that creates it.
  const auto c = join("c");
  games_->write(std::vector<Write>{GameCreated{50, std::nullopt, "{}", ann_, bob_, {}, {}, 4},
                                   GameOwned{50, c->node(), 1}, event(50, 1), Fence{50, 1}});
  EXPECT_EQ(c->take(50), 1);
  EXPECT_EQ(b->take(50), std::nullopt);
}

TEST_F(Leases, ARestartedNodeTakesItsGamesBackAtOnceAndASoleNodeTakesEveryonesGames) {
  const auto a = join("a");
  const auto b = join("b");
  ASSERT_EQ(a->take(1), 1);
  ASSERT_EQ(b->take(2), 1);

  // A node of a running node's name is refused: the two would end each other in turn.
  EXPECT_THROW(join("a"), std::runtime_error);
  // a dies (its sessions end with its process) and restarts: the name is the node's.
  db_.query(
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
      " WHERE application_name = $1",
      {"tengen-node-" + std::to_string(a->node())});
  wait_until_gone(a->node());
  const auto a_again = join("a");
  EXPECT_FALSE(a->renew()) << "the old a is dead from the new one's start";
  EXPECT_EQ(a_again->take(1), 2) << "no wait for the old a's lease to run out";
  EXPECT_EQ(a_again->take(2), std::nullopt) << "b lives";

  const auto sole = join("d", /*sole=*/true);  // holds the one-server lock: alone
  EXPECT_FALSE(b->renew());
  EXPECT_FALSE(a_again->renew());
  EXPECT_EQ(sole->take(2), 2);
  EXPECT_EQ(sole->take(1), 3);
}

TEST_F(Leases, NodesTakingOrphansAtOnceTakeEachOnce) {
  const auto dead = join("dead");
  for (std::int64_t g = 1; g <= kGames; ++g) ASSERT_EQ(dead->take(g), 1);
  expire(*dead);
  const auto b = join("b");
  const auto c = join("c");
  std::vector<std::optional<std::int64_t>> by_b(kGames + 1), by_c(kGames + 1);
  std::atomic<bool> go = false;
  auto take_all = [&](PostgresLeases& node, std::vector<std::optional<std::int64_t>>& got) {
    while (!go) std::this_thread::yield();
    for (std::int64_t g = 1; g <= kGames; ++g) got[static_cast<std::size_t>(g)] = node.take(g);
  };
  std::thread tb(take_all, std::ref(*b), std::ref(by_b));
  std::thread tc(take_all, std::ref(*c), std::ref(by_c));
  go = true;
  tb.join();
  tc.join();
  for (std::size_t g = 1; g <= kGames; ++g) {
    EXPECT_NE(by_b[g].has_value(), by_c[g].has_value()) << "game " << g << ": one owner";
    EXPECT_EQ(by_b[g].value_or(0) + by_c[g].value_or(0), 2) << "game " << g << ": one epoch on";
  }
}

TEST_F(Leases, TheKeeperRenewsAdoptsOrphansReconnectsAndStopsANodeThatIsDeadToOthers) {
  const auto a = join("a");
  const auto b = join("b");
  ASSERT_EQ(a->take(3), 1);
  ASSERT_EQ(a->take(4), 1);
  std::vector<std::int64_t> adopted;
  std::vector<std::string> lost;
  Metrics metrics;
  cluster::LeaseKeeper keeper(*b, 60s,
                              {.spread = {},
                               .adopt =
                                   [&](const std::vector<std::int64_t>& games) {
                                     std::size_t taken = 0;
                                     for (const auto g : games) {
                                       if (b->take(g)) {
                                         adopted.push_back(g);
                                         ++taken;
                                       }
                                     }
                                     return taken;
                                   },
                               .lost = [&](const std::string& why) { lost.push_back(why); },
                               .keep_lock = {},
                               .ticked = {},
                               .renewed = {}},
                              &metrics, cluster::LeaseKeeper::Thread::None);
  const auto t0 = std::chrono::steady_clock::now();

  keeper.round(t0);
  EXPECT_TRUE(adopted.empty());
  EXPECT_EQ(metrics.lease_renewals_total, 1u);
  keeper.round(t0 + 1s);
  EXPECT_EQ(metrics.lease_renewals_total, 1u) << "not due: a third of the lease is 20 s";

  expire(*a);
  keeper.round(t0 + 20s);
  EXPECT_EQ(adopted, (std::vector<std::int64_t>{3, 4})) << "a's games, taken over";

  // The database ends every connection (a restart, say): the renewal finds its connection gone
  // before it sends anything, connects again and renews; nothing fails.
  db_.query(
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
      " WHERE datname = current_database() AND pid <> pg_backend_pid()");
  wait_until_gone(0);
  keeper.round(t0 + 40s);
  EXPECT_EQ(metrics.lease_renewal_failures_total, 0u);
  EXPECT_EQ(metrics.lease_renewals_total, 3u) << "connected again and renewed";
  EXPECT_TRUE(keeper.reachable());

  // Paused past its lease, but nobody ended it (only a hub takes games, and a new hub ends the
  // last one first): alive again.
  expire(*b);
  keeper.round(t0 + 100s);
  EXPECT_TRUE(lost.empty());
  EXPECT_EQ(b->take(5), 1) << "alive: it can take a game";

  // Ended by another node (a new hub, a node started under its name): it stops.
  db_.query("UPDATE nodes SET expires_at = now(), ended_at = now() WHERE id = $1", {b->node()});
  keeper.round(t0 + 200s);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_NE(lost[0].find("ended its liveness"), std::string::npos) << lost[0];
}

// A group commit whose connection is ended while it is under way (a restart of PostgreSQL, an
// administrator) has an outcome its writer cannot know: write() throws store::Unreachable, and the
// same group written again is settled by the commit's mark (migrations/postgres/0011): sent again
// if it was not done, not sent if it was. Stored once either way.
TEST_F(Leases, ACommitCutOffMidWayIsSettledByItsMarkAndStoredOnce) {
  games_->write(std::vector<Write>{event(1, 1)});  // the writer's mark row exists from now
  // Writes `group` while another session holds the writer's mark, so that the commit waits
  // mid-transaction, and ends the writer's session there: what write() said.
  auto cut_off = [&](const std::vector<Write>& group) {
    pg::Connection blocker(conninfo_);
    pg::Transaction hold(blocker);
    blocker.query("SELECT mark FROM commit_marks FOR UPDATE");
    auto writing = std::async(std::launch::async, [&] {
      try {
        games_->write(group);
        return std::string("written");
      } catch (const Unreachable&) {
        return std::string("unreachable");
      }
    });
    // Until the writer waits on the lock (asked of PostgreSQL), then its session is ended.
    std::int64_t pid = 0;
    for (int i = 0; i < 100000 && pid == 0; ++i) {
      const auto r = db_.query(
          "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
          " AND datname = current_database()");
      if (r.rows() == 1) pid = r.int64(0, 0);
    }
    EXPECT_NE(pid, 0) << "the writer never waited";
    db_.query("SELECT pg_terminate_backend($1)", {pid});
    return writing.get();
  };

  // Not done (the transaction was rolled back): sent again.
  const std::vector<Write> second{event(1, 2)};
  EXPECT_EQ(cut_off(second), "unreachable") << "its outcome unknown to the writer";
  EXPECT_EQ(events_of(1), 1u);
  games_->write(second);
  EXPECT_EQ(events_of(1), 2u) << "sent again, stored once";

  // Done, as when the commit went through and only its answer was lost (made here by hand: its
  // row and its mark): not sent again, or its row would be there twice (a unique violation).
  const std::vector<Write> third{event(1, 3)};
  EXPECT_EQ(cut_off(third), "unreachable");
  db_.exec("UPDATE commit_marks SET mark = mark + 1");
  db_.query(
      "INSERT INTO game_events(game_id, seq, kind, spectators_only, record, text, at)"
      " VALUES (1, 3, 'move', false, '{}', 'text', 2)");
  games_->write(third);
  EXPECT_EQ(events_of(1), 3u) << "not sent again";
  games_->write(std::vector<Write>{event(1, 4)});
  EXPECT_EQ(events_of(1), 4u) << "and the writer goes on";
}

// Cut off from the database for longer than its lease, a node does not stop: nobody can take
// its games meanwhile. It says it is not ready, tries again at every tick, and lives on when the
// database is back.
TEST_F(Leases, TheKeeperKeepsANodeCutOffFromTheDatabaseAndItLivesOnWhenItComesBack) {
  pg::Connection::set_reconnect_backoff(0ms, 0ms);  // every round tries to connect
  const auto a = join("a");
  const auto b = join("b");
  ASSERT_EQ(a->take(7), 1);
  ASSERT_EQ(b->take(6), 1);
  std::vector<std::string> lost;
  std::vector<std::int64_t> adopted;
  Metrics metrics;
  cluster::LeaseKeeper keeper(*b, 60s,
                              {.spread = {},
                               .adopt =
                                   [&](const std::vector<std::int64_t>& games) {
                                     for (const auto g : games) adopted.push_back(g);
                                     return games.size();
                                   },
                               .lost = [&](const std::string& why) { lost.push_back(why); },
                               .keep_lock = {},
                               .ticked = {},
                               .renewed = {}},
                              &metrics, cluster::LeaseKeeper::Thread::None);
  const auto t0 = std::chrono::steady_clock::now();
  keeper.round(t0);
  EXPECT_TRUE(keeper.reachable());
  // Cut off: the database refuses new connections (superusers' too) from now on.
  pg::Connection admin(TempPostgres::instance().conninfo("postgres"));
  const std::string name = db_.query("SELECT current_database()").text(0, 0);
  admin.exec("ALTER DATABASE " + name + " ALLOW_CONNECTIONS false");
  db_.query(
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
      " WHERE datname = current_database() AND pid <> pg_backend_pid()");
  wait_until_gone(0);
  keeper.round(t0 + 30s);
  EXPECT_FALSE(keeper.reachable());
  keeper.round(t0 + 30s + cluster::LeaseKeeper::kTick);
  keeper.round(t0 + 90s);
  EXPECT_TRUE(lost.empty()) << "a whole lease and more away: it waits";
  EXPECT_EQ(metrics.lease_renewal_failures_total, 3u) << "tried at every tick while away";
  expire(*b);  // by PostgreSQL's clock its liveness ran out meanwhile, and a's too
  expire(*a);

  admin.exec("ALTER DATABASE " + name + " ALLOW_CONNECTIONS true");
  keeper.round(t0 + 91s);
  EXPECT_TRUE(keeper.reachable());
  EXPECT_TRUE(lost.empty());
  EXPECT_EQ(b->take(6), 1) << "still its game, under the same epoch";
  // a has not renewed yet (it reconnects in its own time): its game is not taken for a lease.
  keeper.round(t0 + 91s + 20s);
  keeper.round(t0 + 91s + 40s);
  EXPECT_TRUE(adopted.empty()) << "the others' grace after the database's return";
  keeper.round(t0 + 91s + 60s);
  EXPECT_EQ(adopted, (std::vector<std::int64_t>{7})) << "a never came back";
  pg::Connection::set_reconnect_backoff(50ms, 500ms);
}

}  // namespace
}  // namespace tengen::store
