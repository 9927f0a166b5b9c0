// A cluster's faults under load (docs/cluster.md, "A node killed", "Stopping a node"): three
// real tengen-server processes over one PostgreSQL and a NATS, 60 games at five moves a second
// each, every game's two players on two different nodes so that every node holds players
// (tests/support/paced_game.h: a player whose node goes reconnects to another, as a proxy would
// send it, and sends its move again under its cid; one told to resync sends it again on the same
// socket). Every acknowledged move is in the database once. The figures are printed
// (docs/cluster.md has them); the bounds that fail are the targets with room for this
// 2-core machine's hiccups, or more for the sanitizers' builds, which also play fewer games, more
// slowly.
//
// - A front node killed with SIGKILL: the games with a player on it pause while that player
//   reconnects; every other game goes on, its players neither closed nor told to resync, its
//   round trips measured through the kill. Then the hub killed: another node takes the games
//   over; every game pauses, its players on the surviving node told to resync on the sockets
//   they have, those on the hub reconnecting.
// - A rolling restart: each node stopped with SIGTERM and started again under its name, the hub
//   last: the longest pause of any game, and connections closed only on the stopping node.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "store/postgres.h"
#include "support/node_processes.h"
#include "support/paced_game.h"
#include "support/temp_nats.h"
#include "support/temp_postgres.h"

namespace tengen {
namespace {

using namespace std::chrono_literals;
using testing::PacedGame;
using Clock = std::chrono::steady_clock;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kGames = 20;
constexpr auto kPace = 400ms;
#else
constexpr int kGames = 60;
constexpr auto kPace = 200ms;
#endif

double ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

// The round trips of moves sent from `from` to `to`, in milliseconds, sorted.
std::vector<double> round_trips(const std::vector<std::unique_ptr<PacedGame>>& games,
                                const std::vector<std::size_t>& which, Clock::time_point from,
                                Clock::time_point to) {
  std::vector<double> out;
  for (const auto g : which) {
    for (const auto& r : games[g]->round_trips())
      if (r.sent >= from && r.sent < to) out.push_back(ms(r.took));
  }
  std::sort(out.begin(), out.end());
  return out;
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto i = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

// Lets every game make `more` moves (from where each is now).
void let_them_move(std::vector<std::unique_ptr<PacedGame>>& games, int more) {
  std::vector<int> targets;
  for (auto& g : games) targets.push_back(g->moves() + more);
  for (std::size_t i = 0; i < games.size(); ++i)
    ASSERT_TRUE(games[i]->wait_until_moves(targets[i])) << games[i]->failure();
}

// The parameter: games on every node (--games every-node: each game played on the node of its
// White, who accepted), or every game on the hub.
class UnderLoad : public ::testing::TestWithParam<bool> {
 protected:
  UnderLoad() : uri_(testing::TempPostgres::instance().new_database_uri()) {
    // Each game's players register and connect from an address of their own, as the test says
    // as a proxy.
    for (int i = 0; i < 3; ++i) start(i);
    EXPECT_EQ(nodes_.health(0)["role"], "hub");
    // Game g: Black on node g % 3, White on the next.
    for (int g = 0; g < kGames; ++g) {
      const std::array<int, 2> on{g % 3, (g + 1) % 3};
      games_.push_back(std::make_unique<PacedGame>(
          nodes_, up_, on,
          std::array<std::string, 2>{"black" + std::to_string(g), "white" + std::to_string(g)},
          kPace, "10.0.0." + std::to_string(g + 1)));
    }
    for (auto& g : games_) g->start();
  }
  void start(int i) {
    std::vector<std::string> options{"--trusted-proxies", "127.0.0.1"};
    options.insert(options.end(), {"--games", GetParam() ? "every-node" : "hub"});
    nodes_.start(i, uri_, nats_.url(), options);
  }
  // The games played on node i now (PostgreSQL's game_leases).
  std::vector<std::size_t> played_on(int i) {
    const auto node = nodes_.health(i)["node_id"].get<std::int64_t>();
    store::pg::Connection db(uri_);
    std::vector<std::size_t> out;
    for (std::size_t g = 0; g < games_.size(); ++g) {
      if (db.query("SELECT node_id FROM game_leases WHERE game_id = $1", {games_[g]->game()})
              .int64(0, 0) == node)
        out.push_back(g);
    }
    return out;
  }
  // The players on node i now.
  int players_on(int i) {
    int n = 0;
    for (auto& g : games_) n += (g->on(0) == i ? 1 : 0) + (g->on(1) == i ? 1 : 0);
    return n;
  }
  int closed() {
    int n = 0;
    for (auto& g : games_) n += g->closed(0) + g->closed(1);
    return n;
  }
  int resyncs() {
    int n = 0;
    for (auto& g : games_) n += g->resyncs(0) + g->resyncs(1);
    return n;
  }
  // The longest pause of any game since the last call.
  Clock::duration longest_pause() {
    Clock::duration longest{};
    for (auto& g : games_) longest = std::max(longest, g->longest_pause());
    return longest;
  }
  // Stops the games, and checks every acknowledged move is stored once.
  void stop_and_count() {
    for (auto& g : games_) g->stop();
    store::pg::Connection db(uri_);
    for (auto& g : games_) {
      ASSERT_EQ(g->failure(), "");
      EXPECT_EQ(db.query("SELECT count(*) FROM game_events WHERE kind = 'move' AND game_id = $1",
                         {g->game()})
                    .int64(0, 0),
                g->moves())
          << "game " << g->game() << ": every acknowledged move, once";
    }
  }

  testing::TempNats nats_;
  std::string uri_;
  testing::NodeProcesses nodes_{"load"};
  PacedGame::Up up_{true, true, true};
  std::vector<std::unique_ptr<PacedGame>> games_;
};

TEST_P(UnderLoad, AFrontNodeKilledPausesOnlyItsPlayersGamesAndTheHubKilledPausesItsGamesBriefly) {
  std::vector<std::size_t> elsewhere, touched;  // without, and with, a player on node 1
  for (std::size_t g = 0; g < games_.size(); ++g)
    (games_[g]->on(0) == 1 || games_[g]->on(1) == 1 ? touched : elsewhere).push_back(g);
  let_them_move(games_, 4);

  // ---- a front node killed ----
  const auto on0 = played_on(0).size(), on1 = played_on(1).size(), on2 = played_on(2).size();
  for (auto& g : games_) g->longest_pause();
  const auto front_killed = Clock::now();
  up_[1] = false;
  nodes_.node(1).kill9();
  let_them_move(games_, 10);
  const auto front_after = round_trips(games_, elsewhere, front_killed, front_killed + 2s);
  const auto front_before = round_trips(games_, elsewhere, front_killed - 2s, front_killed);
  Clock::duration elsewhere_pause{}, touched_pause{};
  for (const auto g : elsewhere) {
    elsewhere_pause = std::max(elsewhere_pause, games_[g]->longest_pause());
    for (int p = 0; p < 2; ++p) {
      EXPECT_EQ(games_[g]->closed(p), 0) << "game " << g << ": its players' nodes live";
      EXPECT_EQ(games_[g]->resyncs(p), 0) << "game " << g << ": the hub did not change";
    }
  }
  int came_back = 0;
  for (const auto g : touched) {
    touched_pause = std::max(touched_pause, games_[g]->longest_pause());
    came_back += games_[g]->closed(0) + games_[g]->closed(1);
  }
  EXPECT_EQ(came_back, static_cast<int>(touched.size())) << "each one player on node 1, once";
  ASSERT_FALSE(front_after.empty());
  std::printf(
      "front node killed, %zu games at %lld ms a move: the %zu games without a player on it — "
      "round trip p50 %.1f ms, p99 %.1f ms, max %.1f ms in the 2 s after the kill (before: p50 "
      "%.1f, p99 %.1f), longest pause %.0f ms (the pace included), 0 closed, 0 resyncs; the %zu "
      "games with a player on it — longest pause %.0f ms, %d players reconnected\n",
      games_.size(), static_cast<long long>(kPace / 1ms), elsewhere.size(),
      percentile(front_after, 0.5), percentile(front_after, 0.99), front_after.back(),
      percentile(front_before, 0.5), percentile(front_before, 0.99), ms(elsewhere_pause),
      touched.size(), ms(touched_pause), came_back);
  // The target: p99 under 50 ms; its games move again within 2 s.
  EXPECT_LT(percentile(front_after, 0.99), 250.0);
  EXPECT_LT(ms(touched_pause), 4000.0);
  if (GetParam()) {  // the games it played, spread over the two nodes left (as many each)
    const auto to0 = played_on(0).size() - on0, to2 = played_on(2).size() - on2;
    std::printf("its %zu games given to the running nodes: %zu to the hub, %zu to node c\n", on1,
                to0, to2);
    EXPECT_EQ(to0 + to2, on1);
    // As many each as a rule (the fewest games first; 20 and 20 before); one whose player's
    // command reached the hub before it was given stays there.
    EXPECT_GE(to0, on1 / 4);
    EXPECT_GE(to2, on1 / 4);
  }

  // ---- the hub killed ----
  longest_pause();
  const int on_hub = players_on(0), closed_before = closed();
  // Games on every node: those played on the node that survives, and the rest (the hub's).
  const auto survivors = played_on(2);
  up_[0] = false;
  nodes_.node(0).kill9();
  let_them_move(games_, 10);
  Clock::duration hub_pause{}, survivors_pause{};
  for (std::size_t g = 0; g < games_.size(); ++g) {
    const auto pause = games_[g]->longest_pause();
    const bool survived = std::find(survivors.begin(), survivors.end(), g) != survivors.end();
    (survived ? survivors_pause : hub_pause) =
        std::max(survived ? survivors_pause : hub_pause, pause);
  }
  const int reconnected = closed() - closed_before;
  EXPECT_EQ(nodes_.health(2)["role"], "hub");
  std::printf(
      "the hub killed: its %zu games paused, the longest %.0f ms (the pace included); the %zu "
      "games played on the surviving node: longest pause %.0f ms; %d resyncs told to players on "
      "their sockets, %d players reconnected (those on the hub)\n",
      games_.size() - survivors.size(), ms(hub_pause), survivors.size(), ms(survivors_pause),
      resyncs(), reconnected);
  EXPECT_LT(ms(hub_pause), 4000.0);
  EXPECT_EQ(survivors.empty(), !GetParam()) << "games on every node: some are node c's";
  EXPECT_EQ(reconnected, on_hub) << "only the players whose node died reconnected";
  EXPECT_GE(resyncs(), 1);
  stop_and_count();
  EXPECT_EQ(nodes_.node(2).terminate(), 0);
}

// Every node stopped with SIGTERM and started again under its name, in turn, the hub last
// (docs/cluster.md, "Stopping a node"): the target is no game paused more than 1 s, and
// connections closed only on the node stopping.
TEST_P(UnderLoad, ARollingRestartOfEveryNodePausesNoGameLongAndClosesOnlyTheStoppingNodes) {
  let_them_move(games_, 4);
  std::array<double, 3> pauses{};
  std::array<int, 3> closed_on{};
  for (const int node : {1, 2, 0}) {  // the front nodes, then the hub
    longest_pause();
    const int on_it = players_on(node), closed_before = closed();
    const auto its_games = GetParam() ? played_on(node) : std::vector<std::size_t>{};
    up_[static_cast<std::size_t>(node)] = false;
    EXPECT_EQ(nodes_.node(node).terminate(), 0) << "node " << node << " stops cleanly";
    let_them_move(games_, 4);
    if (GetParam()) {  // where the stopping node's games went: the other two, spread
      std::array<std::size_t, 3> to{};
      for (int other = 0; other < 3; ++other) {
        if (other == node) continue;
        for (const auto g : played_on(other))
          to[static_cast<std::size_t>(other)] += std::ranges::count(its_games, g);
      }
      std::printf("node %d stopped: its %zu games went %zu / %zu / %zu to nodes a / b / c\n", node,
                  its_games.size(), to[0], to[1], to[2]);
      EXPECT_EQ(to[0] + to[1] + to[2], its_games.size()) << "node " << node;
      // The fewest games first: node b's go half and half to a and c (20 games each); c's and
      // then a's to the node restarted just before, without games, as a rule (one whose
      // player's command reached the hub first may stay there).
      const auto n = its_games.size();
      if (node == 1) {
        EXPECT_GE(to[0], n / 4);
        EXPECT_GE(to[2], n / 4);
      } else {
        EXPECT_GE(to[node == 2 ? 1 : 2], n / 2) << "node " << node;
      }
    }
    start(node);
    up_[static_cast<std::size_t>(node)] = true;
    let_them_move(games_, 6);
    pauses[static_cast<std::size_t>(node)] = ms(longest_pause());
    closed_on[static_cast<std::size_t>(node)] = closed() - closed_before;
    EXPECT_EQ(closed() - closed_before, on_it)
        << "node " << node << ": its own players, once each, and nobody else";
    EXPECT_LT(pauses[static_cast<std::size_t>(node)], 2000.0) << "node " << node;
  }
  EXPECT_NE(nodes_.health(0)["role"], "hub") << "the hub moved, and the old one came back a front";
  std::printf(
      "rolling restart, %zu games at %lld ms a move: the longest pause of any game (the pace "
      "included) while node b restarted %.0f ms, node c %.0f ms, the hub (a) %.0f ms; players "
      "closed %d, %d and %d (each node's own), resyncs told %d\n",
      games_.size(), static_cast<long long>(kPace / 1ms), pauses[1], pauses[2], pauses[0],
      closed_on[1], closed_on[2], closed_on[0], resyncs());
  stop_and_count();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(nodes_.node(i).terminate(), 0);
}

INSTANTIATE_TEST_SUITE_P(Games, UnderLoad, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& param) {
                           return param.param ? "OnEveryNode" : "OnTheHub";
                         });

}  // namespace
}  // namespace tengen
