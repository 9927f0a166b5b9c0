// One lock per game, and the lobby's own (docs/architecture.md, "Threads"), through the real
// stack: a command for one game does not wait for another game, and many games played at once
// from many threads keep each game's events in order, each acknowledged once.
#include <gtest/gtest.h>

#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/many_players.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

class GameLocks : public ManyPlayers {
 protected:
  void TearDown() override {
    stack_->timers().release();
    ManyPlayers::TearDown();
  }
};

TEST_F(GameLocks, ACommandForOneGameDoesNotWaitForAnotherGameOrTheLobby) {
  auto ann = player("ann");
  auto bob = player("bob");
  auto cyd = player("cyd");
  auto dan = player("dan");
  const auto first = game_between(*ann, *bob);
  const auto second = game_between(*cyd, *dan);

  // Ann's move stops half-way, inside its game's lock (the hub arms the game's deadline there).
  stack_->timers().hold(GameDeadline{first});
  auto held = std::async(std::launch::async, [&] { return ann->command(play(first, "D4")); });
  stack_->timers().wait_until_held();

  // Meanwhile another game plays on, and the lobby answers: with one lock over every game, these
  // would wait for Ann's move, and the client's read would time out.
  const json other = cyd->command(play(second, "Q16"));
  EXPECT_EQ(other["type"], "ack") << other.dump();
  EXPECT_EQ(dan->wait_event(second, other["seq"])["vertex"], "Q16");
  const json challenge = dan->command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
  EXPECT_EQ(challenge["type"], "ack") << challenge.dump();

  // Ann's move is not sent to Bob before it is done; then it completes.
  stack_->timers().release();
  const json mine = held.get();
  ASSERT_EQ(mine["type"], "ack") << mine.dump();
  EXPECT_EQ(bob->wait_event(first, mine["seq"])["vertex"], "D4");
}

TEST_F(GameLocks, GamesPlayedAtOnceFromManyThreadsKeepEachGamesEventsInOrder) {
  constexpr int kGames = 4;
  constexpr int kMovesEach = 12;  // per player
  std::vector<std::unique_ptr<WsClient>> blacks, whites;
  std::vector<std::int64_t> games;
  for (int g = 0; g < kGames; ++g) {
    blacks.push_back(player("black" + std::to_string(g)));
    whites.push_back(player("white" + std::to_string(g)));
    games.push_back(game_between(*blacks.back(), *whites.back()));
  }
  // Each game on a thread of its own: Black on the first line, White on the last, in turn; each
  // player checks that the opponent's move arrives as the next event, with the next number.
  const std::string columns = "ABCDEFGHJKLMNOPQRST";
  auto run = [&](int g) {
    std::uint64_t last = 0;
    for (int m = 0; m < kMovesEach; ++m) {
      for (int side = 0; side < 2; ++side) {
        WsClient& mover = side == 0 ? *blacks[g] : *whites[g];
        WsClient& other = side == 0 ? *whites[g] : *blacks[g];
        const std::string vertex =
            std::string(1, columns[static_cast<std::size_t>(m)]) + (side == 0 ? "1" : "19");
        const json ack = mover.command(play(games[g], vertex));
        if (ack["type"] != "ack") return "game " + std::to_string(g) + ": " + ack.dump();
        const auto seq = ack["seq"].get<std::uint64_t>();
        if (seq != last + 1)
          return "game " + std::to_string(g) + ": seq " + std::to_string(seq) + " after " +
                 std::to_string(last);
        last = seq;
        const json seen = other.wait_event(games[g], seq);
        if (seen["vertex"] != vertex) return "game " + std::to_string(g) + ": saw " + seen.dump();
      }
    }
    return std::string();
  };
  std::vector<std::future<std::string>> running;
  for (int g = 0; g < kGames; ++g) running.push_back(std::async(std::launch::async, run, g));
  for (auto& r : running) EXPECT_EQ(r.get(), "");
  // Every move is stored once, in order.
  for (const auto game : games) {
    stack_->journal().barrier().wait();
    const auto stored = stack_->games().stored_game(game);
    ASSERT_TRUE(stored);
    std::size_t moves = 0;
    for (const auto& e : stored->events) moves += e.kind == "move";
    EXPECT_EQ(moves, static_cast<std::size_t>(2 * kMovesEach)) << "game " << game;
  }
}

}  // namespace
}  // namespace tengen::testing
