// A node of a cluster killed with SIGKILL under load (docs/cluster.md, "A node killed"): three
// real tengen-server processes over one PostgreSQL and a NATS, 60 games at five moves a second
// each, every game's two players on two different nodes so that every node holds players. First
// a front node is killed: the games with a player on it pause while that player reconnects to
// another node (as a proxy would send it) and sends the move again under its cid; every other
// game goes on, its players neither closed nor told to resync, its round trips measured through
// the kill. Then the hub is killed: another node takes the games over; every game pauses, its
// players on the surviving node told to resync on the sockets they have, those on the hub
// reconnecting. Every acknowledged move is in the database once. The figures are printed
// (docs/cluster.md has them); the bounds that fail are twice the targets or more, for
// the sanitizers' builds, which also play fewer games, more slowly.
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

TEST(NodeKill, AFrontNodeKilledPausesOnlyItsPlayersGamesAndTheHubKilledPausesEveryGameBriefly) {
  const std::string uri = testing::TempPostgres::instance().new_database_uri();
  testing::TempNats nats;
  testing::NodeProcesses nodes("kill");
  // Each game's players register from an address of their own, as the test says as a proxy.
  for (int i = 0; i < 3; ++i) nodes.start(i, uri, nats.url(), {"--trusted-proxies", "127.0.0.1"});
  ASSERT_EQ(nodes.health(0)["role"], "hub");

  // Game g: Black on node g % 3, White on the next: a third of the games have no player on
  // node 1 (Black on 2, White on the hub).
  PacedGame::Up up{true, true, true};
  std::vector<std::unique_ptr<PacedGame>> games;
  std::vector<std::size_t> elsewhere, touched;  // without, and with, a player on node 1
  for (int g = 0; g < kGames; ++g) {
    const std::array<int, 2> on{g % 3, (g + 1) % 3};
    games.push_back(std::make_unique<PacedGame>(
        nodes, up, on,
        std::array<std::string, 2>{"black" + std::to_string(g), "white" + std::to_string(g)}, kPace,
        "10.0.0." + std::to_string(g + 1)));
    (on[0] == 1 || on[1] == 1 ? touched : elsewhere).push_back(static_cast<std::size_t>(g));
  }
  for (auto& g : games) g->start();
  let_them_move(games, 4);

  // ---- a front node killed ----
  for (auto& g : games) g->longest_pause();
  const auto front_killed = Clock::now();
  up[1] = false;
  nodes.node(1).kill9();
  let_them_move(games, 10);
  const auto front_after = round_trips(games, elsewhere, front_killed, front_killed + 2s);
  const auto front_before = round_trips(games, elsewhere, front_killed - 2s, front_killed);
  Clock::duration elsewhere_pause{}, touched_pause{};
  for (const auto g : elsewhere) {
    elsewhere_pause = std::max(elsewhere_pause, games[g]->longest_pause());
    for (int p = 0; p < 2; ++p) {
      EXPECT_EQ(games[g]->closed(p), 0) << "game " << g << ": its players' nodes live";
      EXPECT_EQ(games[g]->resyncs(p), 0) << "game " << g << ": the hub did not change";
    }
  }
  int reconnected = 0;
  for (const auto g : touched) {
    touched_pause = std::max(touched_pause, games[g]->longest_pause());
    reconnected += games[g]->closed(0) + games[g]->closed(1);
  }
  EXPECT_EQ(reconnected, static_cast<int>(touched.size())) << "each one player on node 1, once";
  ASSERT_FALSE(front_after.empty());
  std::printf(
      "front node killed, %zu games at %lld ms a move: the %zu games without a player on it — "
      "round trip p50 %.1f ms, p99 %.1f ms, max %.1f ms in the 2 s after the kill (before: p50 "
      "%.1f, p99 %.1f), longest pause %.0f ms (the pace included), 0 closed, 0 resyncs; the %zu "
      "games with a player on it — longest pause %.0f ms, %d players reconnected\n",
      games.size(), static_cast<long long>(kPace / 1ms), elsewhere.size(),
      percentile(front_after, 0.5), percentile(front_after, 0.99), front_after.back(),
      percentile(front_before, 0.5), percentile(front_before, 0.99), ms(elsewhere_pause),
      touched.size(), ms(touched_pause), reconnected);
  // The target: p99 under 50 ms; its games move again within 2 s.
  EXPECT_LT(percentile(front_after, 0.99), 250.0);
  EXPECT_LT(ms(touched_pause), 4000.0);

  // ---- the hub killed ----
  std::array<int, kGames> closed_before{};
  int on_hub = 0;
  for (std::size_t g = 0; g < games.size(); ++g) {
    games[g]->longest_pause();
    closed_before[g] = games[g]->closed(0) + games[g]->closed(1);
    on_hub += (games[g]->on(0) == 0 ? 1 : 0) + (games[g]->on(1) == 0 ? 1 : 0);
  }
  up[0] = false;
  nodes.node(0).kill9();
  let_them_move(games, 10);
  Clock::duration hub_pause{};
  int resynced = 0, closed = 0;
  for (std::size_t g = 0; g < games.size(); ++g) {
    hub_pause = std::max(hub_pause, games[g]->longest_pause());
    resynced += games[g]->resyncs(0) + games[g]->resyncs(1);
    closed += games[g]->closed(0) + games[g]->closed(1) - closed_before[g];
  }
  EXPECT_EQ(nodes.health(2)["role"], "hub");
  std::printf(
      "the hub killed: every game paused, the longest %.0f ms (the pace included); %d resyncs "
      "told to players on their sockets, %d players reconnected (those on the hub)\n",
      ms(hub_pause), resynced, closed);
  EXPECT_LT(ms(hub_pause), 4000.0);
  EXPECT_EQ(closed, on_hub) << "only the players whose node died reconnected";
  EXPECT_GE(resynced, 1);

  for (auto& g : games) g->stop();
  store::pg::Connection db(uri);
  for (auto& g : games) {
    ASSERT_EQ(g->failure(), "");
    EXPECT_EQ(db.query("SELECT count(*) FROM game_events WHERE kind = 'move' AND game_id = $1",
                       {g->game()})
                  .int64(0, 0),
              g->moves())
        << "game " << g->game() << ": every acknowledged move, once";
  }
  EXPECT_EQ(nodes.node(2).terminate(), 0);
}

}  // namespace
}  // namespace tengen
