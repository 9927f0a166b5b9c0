// One owner per game (docs/architecture.md, "Owners"), through the real stack: a game whose
// actor is stalled holds up neither other games nor the lobby; a game read back from a store
// whose reads hang holds up no other command, and its own commands wait for it without any
// thread waiting; many games played at once from many threads keep each game's events in order,
// each acknowledged once.
#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "store/admin_role.h"
#include "support/many_players.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

class GameOwners : public ManyPlayers {
 protected:
  void TearDown() override {
    stack_->timers().release();
    ManyPlayers::TearDown();
  }
};

TEST_F(GameOwners, OneGamesStalledActorHoldsUpNeitherOtherGamesNorTheLobby) {
  auto ann = player("ann");
  auto bob = player("bob");
  auto cyd = player("cyd");
  auto dan = player("dan");
  const auto first = game_between(*ann, *bob);
  const auto second = game_between(*cyd, *dan);

  // Ann's move stops half-way, on its game's actor (which arms the game's deadline before it
  // submits the move): the actor, and the pool thread it runs on, are stalled.
  stack_->timers().hold(GameDeadline{first});
  auto held = std::async(std::launch::async, [&] { return ann->command(play(first, "D4")); });
  stack_->timers().wait_until_held();

  // Meanwhile another game plays on, and the lobby answers: had they waited for Ann's game, the
  // client's read would time out.
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

TEST_F(GameOwners, GamesPlayedAtOnceFromManyThreadsKeepEachGamesEventsInOrder) {
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

// A door a store read can be held at (as a disk that hangs would hold it).
class Gate {
 public:
  void hold() {
    std::lock_guard lock(mutex_);
    holding_ = true;
  }
  // True once a read is held here; false if none came within the test's patience.
  bool wait_until_inside() {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(30), [&] { return inside_; });
  }
  void release() {
    {
      std::lock_guard lock(mutex_);
      holding_ = false;
    }
    changed_.notify_all();
  }
  // Called by the read: returns at once, or once released.
  void pass() {
    std::unique_lock lock(mutex_);
    inside_ = holding_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return !holding_; });
    inside_ = false;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool holding_ = false;
  bool inside_ = false;
};

// The real store, except that two reads can be held: one game's events (the loader reading a
// game back waits inside stored_game()) and every finished game (a rebuild of every rating).
class HeldReads final : public store::GameStore {
 public:
  explicit HeldReads(store::GameStore& real) : real_(real) {}

  Gate game_reads;
  Gate rebuild_reads;

  std::optional<store::StoredGame> stored_game(std::int64_t game_id) override {
    game_reads.pass();
    return real_.stored_game(game_id);
  }
  std::vector<store::GameSummary> games_in_order_of_ending() override {
    rebuild_reads.pass();
    return real_.games_in_order_of_ending();
  }

  void write(std::span<const store::Write> writes) override { real_.write(writes); }
  std::vector<store::ChallengeOpened> open_challenges() override { return real_.open_challenges(); }
  std::vector<store::StoredGame> unfinished_games() override { return real_.unfinished_games(); }
  std::int64_t last_challenge_id() override { return real_.last_challenge_id(); }
  std::int64_t last_game_id() override { return real_.last_game_id(); }
  std::vector<store::AppliedCommand> recent_commands(int per_user) override {
    return real_.recent_commands(per_user);
  }
  std::optional<std::string> finished_sgf(std::int64_t game_id) override {
    return real_.finished_sgf(game_id);
  }
  std::optional<store::GameSummary> game(std::int64_t game_id) override {
    return real_.game(game_id);
  }
  std::vector<store::GameSummary> games_of(std::int64_t user_id, store::Page page) override {
    return real_.games_of(user_id, page);
  }
  std::vector<store::GameSummary> finished_games(store::Page page) override {
    return real_.finished_games(page);
  }
  std::vector<store::GameSummary> live_games(store::Page page) override {
    return real_.live_games(page);
  }
  std::vector<store::StoredRating> ratings() override { return real_.ratings(); }
  std::optional<store::StoredRating> rating(std::int64_t user_id) override {
    return real_.rating(user_id);
  }
  std::vector<store::RatingPoint> rating_history(std::int64_t user_id, int limit) override {
    return real_.rating_history(user_id, limit);
  }
  std::vector<DueRating> ratings_due() override { return real_.ratings_due(); }
  std::vector<store::StoredTournament> tournaments() override { return real_.tournaments(); }
  std::vector<store::StoredReview> open_reviews() override { return real_.open_reviews(); }
  std::int64_t last_review_id() override { return real_.last_review_id(); }
  std::optional<store::ClosedReview> closed_review(std::int64_t review_id) override {
    return real_.closed_review(review_id);
  }

 private:
  store::GameStore& real_;
};

class ColdLoads : public ManyPlayers {
 protected:
  void SetUp() override {
    stack_.emplace(temp_.path(), LiveStack::limits(), RoomOptions{}, LiveStack::Mail{},
                   [this](store::GameStore& real) {
                     auto held = std::make_unique<HeldReads>(real);
                     held_ = held.get();
                     return held;
                   });
  }
  void TearDown() override {
    held_->game_reads.release();
    held_->rebuild_reads.release();
    ManyPlayers::TearDown();
  }
  HeldReads* held_ = nullptr;
};

TEST_F(ColdLoads, AGameReadBackFromAStoreThatHangsHoldsUpNoOtherCommandAndNoThreadWaitsForIt) {
  auto ann = player("ann");
  auto bob = player("bob");
  const auto finished = game_between(*ann, *bob);
  ASSERT_EQ(ann->command({{"type", "resign"}, {"game", finished}})["type"], "ack");
  // Nobody watches the finished game any more: it leaves memory.
  ASSERT_EQ(ann->command({{"type", "leave"}, {"game", finished}})["type"], "ack");
  ASSERT_EQ(bob->command({{"type", "leave"}, {"game", finished}})["type"], "ack");

  // A spectator opens it: it is read back from the store, whose read now hangs.
  held_->game_reads.hold();
  auto cyd = player("cyd");
  cyd->send_text(json{{"v", 1}, {"type", "join"}, {"cid", "late"}, {"game", finished}}.dump());
  ASSERT_TRUE(held_->game_reads.wait_until_inside()) << "the finished game was not read back";

  // Meanwhile the lobby answers, a new game starts and is played, and a second look at the
  // finished game (from another connection) is taken and waits with the first: with a lock
  // around loads, or a network thread waiting for the disk, these would time out.
  auto dan = player("dan");
  auto eve = player("eve");
  const auto playing = game_between(*dan, *eve);
  const json move = dan->command(play(playing, "D4"));
  ASSERT_EQ(move["type"], "ack") << move.dump();
  EXPECT_EQ(eve->wait_event(playing, move["seq"])["vertex"], "D4");
  bob->send_text(json{{"v", 1}, {"type", "join"}, {"cid", "again"}, {"game", finished}}.dump());

  // The read completes: both looks are answered, with the game as it ended.
  held_->game_reads.release();
  for (auto* client : {cyd.get(), bob.get()}) {
    const json snapshot = client->wait_type("snapshot");
    EXPECT_EQ(snapshot["game"], finished);
    EXPECT_TRUE(snapshot.contains("result")) << snapshot.dump();
    const json ack = client->wait_type("ack");
    EXPECT_EQ(ack["game"], finished) << ack.dump();
  }
}

// The ratings' owner rebuilds every rating (an administrator annulled a rated game) from a store
// whose read hangs: other games play on and the lobby answers; a rated game that ends meanwhile
// waits for the new ratings (its end and its ratings are one submission), then is answered.
TEST_F(ColdLoads, ARebuildOfEveryRatingHoldsUpOnlyTheRatedGamesThatEndMeanwhile) {
  player("root");
  ASSERT_NE(store::set_admin_role(temp_.path(), "root", true, 1).find("is now an administrator"),
            std::string::npos);
  auto ann = player("ann");
  auto bob = player("bob");
  const auto rated = [&](WsClient& black, WsClient& white) {
    const json created =
        black.command({{"type", "create_challenge"},
                       {"settings", {{"width", 9}, {"color", "black"}, {"rated", true}}}});
    const json accepted =
        white.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
    return accepted["game"].get<std::int64_t>();
  };
  const auto annulled = rated(*ann, *bob);
  ASSERT_EQ(bob->command({{"type", "resign"}, {"game", annulled}})["type"], "ack");
  auto cyd = player("cyd");
  auto dan = player("dan");
  const auto ending = rated(*cyd, *dan);  // rated, ends during the rebuild
  const auto playing = game_between(*ann, *bob);

  held_->rebuild_reads.hold();
  auto annulling = std::async(std::launch::async, [&] {
    return request("POST", "/api/v1/admin/games/" + std::to_string(annulled), "root",
                   R"({"action":"annul","reason":"a test"})");
  });
  const std::shared_ptr<void> let_go(nullptr, [&](void*) { held_->rebuild_reads.release(); });
  ASSERT_TRUE(held_->rebuild_reads.wait_until_inside()) << "the annulment rebuilt no rating";

  // Meanwhile: a game plays on, the lobby answers; the rated game that ends waits.
  dan->send_text(json{{"type", "resign"}, {"cid", "late"}, {"game", ending}}.dump());
  const json move = ann->command(play(playing, "D4"));
  ASSERT_EQ(move["type"], "ack") << move.dump();
  EXPECT_EQ(bob->wait_event(playing, move["seq"])["vertex"], "D4");
  const json opened = cyd->command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
  ASSERT_EQ(opened["type"], "ack") << opened.dump();
  // Dan hears of the new challenge, and nothing yet of his resignation, sent before it.
  dan->wait([&](const json& m) {
    return m["type"] == "challenge_opened" && m["challenge"]["id"] == opened["challenge"];
  });
  for (const auto& m : dan->kept()) EXPECT_NE(m.value("cid", ""), "late") << m.dump();

  held_->rebuild_reads.release();
  const auto [status, answer] = annulling.get();
  EXPECT_EQ(status, 200) << raw_;
  EXPECT_EQ(answer["ratings_rebuilt"], 0) << "the only rated game that had ended is void";
  const json late = dan->wait([](const json& m) { return m.value("cid", "") == "late"; });
  EXPECT_EQ(late["type"], "ack") << late.dump();
}

}  // namespace
}  // namespace tengen::testing
