// Ratings (docs/ratings.md) through the real stack: rated games change both players' Glicko-2
// ratings in the same transaction as the result, unrated and void games change nothing, the ratings
// survive a restart, and automatic colours and handicap follow them.
#include <gtest/gtest.h>

#include "ratings/glicko2.h"
#include "store/sqlite.h"
#include "support/game_commands.h"
#include "support/live_server.h"
#include "support/server_process.h"
#include "support/temp_database.h"
#include "support/two_players.h"
#include "support/ws_client.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using testing::cmd;
using testing::expect_ack;
using testing::WsClient;

class Ratings : public testing::TwoPlayers {
 protected:
  Ratings() : TwoPlayers("alice", "bob") {}
  using TwoPlayers::start;
  json user(const std::string& name) { return json::parse(get("/api/v1/users/" + name))["user"]; }
  // `challenger` offers, `accepter` accepts; both join. The game_started message.
  json start(WsClient& challenger, WsClient& accepter, const json& settings) {
    const auto created = challenger.command({{"type", "create_challenge"}, {"settings", settings}});
    expect_ack(created);
    accepter.forget();
    expect_ack(
        accepter.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}}));
    const json started = accepter.wait_type("game_started");
    expect_ack(challenger.command({{"type", "join"}, {"game", started["game"]}}));
    expect_ack(accepter.command({{"type", "join"}, {"game", started["game"]}}));
    return started;
  }

  std::unique_ptr<WsClient>& alice_ = players_[0];
  std::unique_ptr<WsClient>& bob_ = players_[1];
};

TEST_F(Ratings, RatedGamesMoveBothRatingsAndNothingElseDoes) {
  start();
  const json fresh = user("alice");
  EXPECT_EQ(fresh["rating"], (json{{"rating", 1500.0},
                                   {"deviation", 350.0},
                                   {"volatility", 0.06},
                                   {"rank", "10k?"},
                                   {"provisional", true},
                                   {"games", 0}}));
  EXPECT_EQ(fresh["bot"], false);

  // An unrated game and a void rated one change nothing.
  const auto unrated = testing::start_game(*alice_, *bob_, {{"width", 9}});
  expect_ack(bob_->command(cmd("resign", unrated)));
  const auto aborted = testing::start_game(*alice_, *bob_, {{"width", 9}, {"rated", true}});
  expect_ack(alice_->command(cmd("abort", aborted)));
  EXPECT_EQ(user("alice")["rating"], fresh["rating"]);
  EXPECT_EQ(user("bob")["rating"]["games"], 0);

  // A rated even game: Bob (White) resigns.
  const auto rated = testing::start_game(*alice_, *bob_, {{"width", 9}, {"rated", true}});
  expect_ack(alice_->command(testing::play(rated, "E5")));
  expect_ack(bob_->command(cmd("resign", rated)));
  const auto expected = ratings::rate_game({}, {}, 1, 0);
  const json alice = user("alice")["rating"];
  const json bob = user("bob")["rating"];
  EXPECT_NEAR(alice["rating"].get<double>(), expected.black.rating, 0.006);
  EXPECT_NEAR(bob["rating"].get<double>(), expected.white.rating, 0.006);
  EXPECT_NEAR(alice["rating"].get<double>() - 1500, 1500 - bob["rating"].get<double>(),
              0.01);  // newcomers: symmetric
  EXPECT_GT(alice["rating"].get<double>(), 1600);
  EXPECT_NEAR(alice["deviation"].get<double>(), expected.black.deviation, 0.006);
  EXPECT_EQ(alice["games"], 1);
  EXPECT_EQ(alice["rank"], ratings::rank_name(expected.black.rating, expected.black.deviation));

  const json history = json::parse(get("/api/v1/users/alice/ratings"));
  ASSERT_EQ(history["history"].size(), 1u) << history.dump();
  EXPECT_EQ(history["history"][0]["game"], rated);
  EXPECT_EQ(history["history"][0]["rating"], alice["rating"]);
  const json batch = json::parse(get("/api/v1/ratings?ids=2,1,99"));
  ASSERT_EQ(batch["ratings"].size(), 2u) << batch.dump();  // unknown ids are left out
  EXPECT_EQ(batch["ratings"][0]["name"], "bob");

  // The deviation grows while a player does not play: 30 days later.
  stack_->clock().advance(std::chrono::hours(24 * 30));
  const double idle = user("alice")["rating"]["deviation"].get<double>();
  EXPECT_NEAR(idle, ratings::decayed(expected.black, 30 * ratings::kMsPerIdlePeriod).deviation,
              0.006);
  EXPECT_GT(idle, alice["deviation"].get<double>());

  // After a restart the ratings are still there, and automatic colours use them: the weaker
  // player (Bob) takes Black whoever challenges.
  stop();
  start();
  EXPECT_EQ(user("alice")["rating"]["games"], 1);
  const json started = start(*alice_, *bob_, {{"width", 9}, {"color", "automatic"}});
  EXPECT_EQ(started["black"]["name"], "bob");
  const json again = start(*bob_, *alice_, {{"width", 9}, {"color", "automatic"}});
  EXPECT_EQ(again["black"]["name"], "bob");

  // Errors say what is wrong.
  EXPECT_EQ(get("/api/v1/users/nobody"),
            R"({"error":{"code":"not_found","message":"no user named 'nobody'"}})");
  EXPECT_EQ(
      get("/api/v1/ratings?ids=1,x"),
      R"({"error":{"code":"bad_request","message":"'ids' must be user ids separated by commas"}})");
  EXPECT_EQ(
      get("/api/v1/users/alice/ratings?limit=0"),
      R"({"error":{"code":"bad_request","message":"'limit' must be an integer from 1 to 1000"}})");
}

TEST_F(Ratings, AnAutomaticHandicapFollowsTheRankGapAndRatesTheGameByIt) {
  start();
  const std::int64_t now = stack_->clock().unix_ms();
  stop();
  {  // Alice is 7 kyu, Bob 10 kyu: three ranks apart.
    store::Database db(temp_.path());
    db.exec(
        "INSERT INTO ratings(user_id, rating, deviation, volatility, games, updated_at) VALUES"
        " (1, 1850, 60, 0.06, 40, " +
        std::to_string(now) + "), (2, 1540, 70, 0.06, 25, " + std::to_string(now) + ")");
  }
  start();
  EXPECT_EQ(user("alice")["rating"]["rank"], "7k");
  EXPECT_EQ(user("bob")["rating"]["rank"], "10k");

  const auto refused =
      alice_->command({{"type", "create_challenge"},
                       {"settings", {{"handicap", "automatic"}, {"color", "nigiri"}}}});
  EXPECT_EQ(refused["code"], "bad_settings");
  EXPECT_EQ(refused["message"],
            "an automatic handicap gives Black to the weaker player: choose automatic colours");

  const json settings{
      {"width", 19}, {"handicap", "automatic"}, {"color", "automatic"}, {"rated", true}};
  const json started = start(*alice_, *bob_, settings);
  EXPECT_EQ(started["black"]["name"], "bob");
  EXPECT_EQ(started["settings"]["handicap"], 3);
  EXPECT_EQ(started["settings"]["komi"], 0.5);
  const auto game = started["game"].get<std::int64_t>();
  const json summary = json::parse(get("/api/v1/games/" + std::to_string(game)));
  EXPECT_EQ(summary["game"]["settings"]["handicap"], 3);  // the game is stored as it was resolved

  expect_ack(alice_->command(cmd("resign", game)));
  const auto expected = ratings::rate_game({1540, 70, 0.06}, {1850, 60, 0.06}, 1,
                                           ratings::black_advantage_ranks(3, 0.5, 6.5));
  EXPECT_NEAR(user("bob")["rating"]["rating"].get<double>(), expected.black.rating, 0.006);
  EXPECT_NEAR(user("alice")["rating"]["rating"].get<double>(), expected.white.rating, 0.006);
  // Winning with three stones against someone three ranks up is less of a feat than an even win.
  EXPECT_LT(expected.black.rating,
            ratings::rate_game({1540, 70, 0.06}, {1850, 60, 0.06}, 1, 0).black.rating - 5);
}

// Games on every node (docs/cluster.md): a rated game another node ended waits in the store for
// the hub to rate it. The node's word may be lost on the bus while the hub lives: the hub reads
// the games left to rate now and then all the same, rates each once, and the row goes.
TEST(RatingsSweep, TheHubRatesAGameAnotherNodeEndedWithoutBeingTold) {
  testing::TempDatabase temp;
  testing::LiveStack stack(temp.path(), testing::LiveStack::limits(), {}, {}, {},
                           std::chrono::seconds(10));
  stack.token_for("ann");
  stack.token_for("bob");
  stack.token_for("cyd");
  const auto ann = stack.accounts().find_user("ann")->id;
  const auto bob = stack.accounts().find_user("bob")->id;
  const auto cyd = stack.accounts().find_user("cyd")->id;
  // The ratings' owner does one thing at a time: once it has seeded a rating, it has done what
  // was asked of it before; once the journal has written that, what it wrote before is stored.
  const auto settled = [&] {
    stack.centre().seed_rating(cyd, ratings::Rating{});
    stack.journal().barrier().wait();
  };
  settled();  // the look at recovery is over
  // What another node wrote: a rated game, its end, and the row that says it is to rate.
  const auto at = stack.clock().unix_ms();
  const std::vector<store::Write> played{
      store::GameCreated{41, std::nullopt, R"({"width":9,"rated":true})", ann, bob, {}, {}, at},
      store::GameFinished{41, "B+R", "resignation", 2, "(;SZ[9])", at + 1}, store::RatingDue{41}};
  stack.games().write(played);
  stack.advance(std::chrono::seconds(9));
  settled();
  EXPECT_EQ(stack.games().ratings_due().size(), 1u) << "nobody told the hub, and it is not time";
  EXPECT_FALSE(stack.games().rating(ann));

  stack.advance(std::chrono::seconds(1));
  settled();
  EXPECT_TRUE(stack.games().ratings_due().empty());
  const auto black = stack.games().rating(ann);
  const auto white = stack.games().rating(bob);
  ASSERT_TRUE(black && white);
  EXPECT_EQ(black->games, 1);
  EXPECT_GT(black->rating, 1500.0) << "Black won";
  EXPECT_LT(white->rating, 1500.0);
  EXPECT_EQ(stack.games().rating_history(ann, 10).size(), 1u);

  // The next sweeps find nothing to rate: rated once.
  stack.advance(std::chrono::seconds(10));
  settled();
  stack.advance(std::chrono::seconds(10));
  settled();
  EXPECT_EQ(stack.games().rating(ann)->games, 1);
  EXPECT_EQ(stack.games().rating_history(bob, 10).size(), 1u);
}

}  // namespace
}  // namespace tengen
