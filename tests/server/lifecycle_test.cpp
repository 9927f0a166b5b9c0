// A game's lifecycle over real WebSockets (docs/nigiri.md, docs/clocks.md, docs/scoring.md):
// nigiri, clocks driven by the test's clock and timers, start timeout and abort, disconnection and
// claim, the scoring phase.
#include <gtest/gtest.h>

#include "engine/sgf.h"
#include "rooms/nigiri.h"
#include "support/game_commands.h"
#include "support/live_server.h"
#include "support/temp_database.h"
#include "support/ws_client.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using std::chrono::milliseconds;
using testing::WsClient;

using testing::cmd;
using testing::expect_ack;
using testing::play;
void expect_error(const json& reply, const std::string& code, const std::string& message) {
  EXPECT_EQ(reply["type"], "error") << reply.dump();
  EXPECT_EQ(reply["code"], code) << reply.dump();
  EXPECT_EQ(reply["message"], message) << reply.dump();
}

class Lifecycle : public ::testing::Test {
 protected:
  void start(RoomOptions room = {}) {
    stack_.emplace(temp_.path(), testing::LiveStack::limits(), room);
    black_token_ = stack_->token_for("black");
    white_token_ = stack_->token_for("white");
    black_ = connect(black_token_);
    white_ = connect(white_token_);
  }
  void TearDown() override {
    black_.reset();
    white_.reset();
    stack_.reset();
  }
  std::unique_ptr<WsClient> connect(const std::string& token) {
    auto c = std::make_unique<WsClient>(stack_->port(), WsClient::Options{token, "", "/ws/v1"});
    c->wait_type("welcome");
    c->wait_type("lobby");
    return c;
  }
  // "black" challenges with these settings, "white" accepts, both join.
  std::int64_t new_game(json settings) {
    return testing::start_game(*black_, *white_, std::move(settings));
  }
  static json next_event(WsClient& c, const std::string& type) { return c.wait_type(type); }
  // The game as a guest who joins now sees it.
  json guest_snapshot(std::int64_t game) {
    auto watcher = connect("");
    watcher->command({{"type", "join"}, {"game", game}});
    return watcher->wait_type("snapshot");
  }

  testing::TempDatabase temp_;
  std::optional<testing::LiveStack> stack_;
  std::string black_token_;
  std::string white_token_;
  std::unique_ptr<WsClient> black_;
  std::unique_ptr<WsClient> white_;
};

// ---- the scoring phase ----

class Scoring : public Lifecycle,
                public ::testing::WithParamInterface<std::pair<std::string, std::string>> {};

TEST_P(Scoring, DisagreeResumeThenAgree) {
  const auto& [ruleset, expected] = GetParam();
  start();
  const auto game = new_game({{"width", 9}, {"ruleset", ruleset}});
  // Black walls off columns A-C with D, White G-J with F; column E stays neutral.
  for (int row = 1; row <= 9; ++row) {
    expect_ack(black_->command(play(game, "D" + std::to_string(row))));
    expect_ack(white_->command(play(game, "F" + std::to_string(row))));
  }
  expect_ack(black_->command(cmd("pass", game)));
  expect_ack(white_->command(play(game, "B5")));  // hopeless inside Black's area
  expect_ack(black_->command(cmd("pass", game)));
  expect_error(black_->command(cmd("accept_score", game, {{"version", 1}})), "conflict",
               "there is no score to accept outside the scoring phase");
  expect_ack(white_->command(cmd("pass", game)));

  json started = next_event(*black_, "scoring_started");
  EXPECT_EQ(next_event(*white_, "scoring_started"), started);  // the same event for both
  EXPECT_EQ(started["marking"]["version"], 1);
  EXPECT_EQ(started["marking"]["dead"], json::array({"B5"}));
  EXPECT_EQ(started["marking"]["score"]["result"], expected);
  expect_error(black_->command(play(game, "E5")), "conflict",
               "play has stopped: the game is being counted (mark the dead stones, accept the "
               "score, or resume play)");

  // White disagrees: B5 alive. A new version, and the old one can no longer be accepted.
  expect_ack(white_->command(cmd("mark", game, {{"vertex", "B5"}, {"dead", false}})));
  const json marked = next_event(*black_, "marking");
  EXPECT_EQ(marked["marking"]["version"], 2);
  EXPECT_EQ(marked["marking"]["dead"], json::array());
  expect_error(black_->command(cmd("accept_score", game, {{"version", 1}})), "conflict",
               "marking version 1 is stale: the current one is 2");
  expect_error(black_->command(cmd("mark", game, {{"vertex", "B5"}, {"dead", false}})), "conflict",
               "the chain at B5 is already marked alive");
  expect_error(black_->command(cmd("mark", game, {{"vertex", "E5"}, {"dead", true}})), "bad_field",
               "there is no stone on E5");

  // Black will not have it and resumes: White, the opponent of the one who asked, moves first.
  expect_ack(black_->command(cmd("resume", game)));
  const json resumed = next_event(*white_, "play_resumed");
  EXPECT_EQ(resumed["by"], "black");
  EXPECT_EQ(resumed["to_move"], "white");
  EXPECT_EQ(resumed["resumptions"], 1);
  expect_error(black_->command(cmd("pass", game)), "not_your_turn", "it is white's move");
  expect_ack(white_->command(cmd("pass", game)));
  expect_ack(black_->command(cmd("pass", game)));

  started = next_event(*white_, "scoring_started");
  const auto version = started["marking"]["version"].get<std::uint64_t>();
  EXPECT_EQ(version, 3);
  EXPECT_EQ(started["marking"]["dead"], json::array({"B5"}));
  EXPECT_EQ(started["marking"]["resumptions"], 1);
  expect_ack(white_->command(cmd("accept_score", game, {{"version", version}})));
  expect_ack(black_->command(cmd("accept_score", game, {{"version", version}})));
  for (auto* player : {black_.get(), white_.get()}) {
    const json ended = next_event(*player, "game_ended");
    EXPECT_EQ(ended["result"], expected);
    EXPECT_EQ(ended["reason"], "score");
    const std::string ownership = ended["score"]["ownership"];
    ASSERT_EQ(ownership.size(), 81u);
    EXPECT_EQ(ownership.substr(0, 9),
              "bbbb.wwww");  // the top row: A9-D9 Black, E9 neutral, F9-J9 White
  }
  const json snapshot = guest_snapshot(game);
  EXPECT_EQ(snapshot["phase"], "finished");
  EXPECT_EQ(snapshot["result"], expected);
  EXPECT_EQ(snapshot["final_score"]["result"], expected);
}

// Japanese: territory 27 + 1 prisoner (B5) against 27 + 6.5 komi. Chinese: area 36 against 36
// + 7.5.
INSTANTIATE_TEST_SUITE_P(Rulesets, Scoring,
                         ::testing::Values(std::pair<std::string, std::string>{"japanese", "W+5.5"},
                                           std::pair<std::string, std::string>{"chinese",
                                                                               "W+7.5"}));

TEST_F(Lifecycle, RepeatedDisputesEndInTrompTaylorScoring) {
  RoomOptions options;
  options.max_resumptions = 0;
  start(options);
  const auto game = new_game({{"width", 5}, {"ruleset", "japanese"}, {"komi", 0.5}});
  expect_ack(black_->command(play(game, "C3")));
  expect_ack(white_->command(cmd("pass", game)));
  expect_ack(black_->command(cmd("pass", game)));
  next_event(*white_, "scoring_started");
  expect_ack(white_->command(cmd("resume", game)));
  const json ended = next_event(*black_, "game_ended");
  EXPECT_EQ(ended["reason"], "resumption_limit");
  EXPECT_EQ(ended["result"], "B+24.5");  // the whole board is Black's: 25 - 0.5
}

TEST_F(Lifecycle, AScoringPhaseThatTimesOutIsScoredAsPlayed) {
  RoomOptions options;
  options.scoring_timeout = milliseconds(300'000);
  start(options);
  const auto game = new_game({{"width", 5}, {"ruleset", "chinese"}, {"komi", 0.5}});
  expect_ack(black_->command(play(game, "C3")));
  expect_ack(white_->command(cmd("pass", game)));
  expect_ack(black_->command(cmd("pass", game)));
  next_event(*white_, "scoring_started");
  stack_->advance(milliseconds(299'999));
  expect_ack(black_->command({{"type", "chat"}, {"game", game}, {"text", "still thinking?"}}));
  stack_->advance(milliseconds(1));
  const json ended = next_event(*black_, "game_ended");
  EXPECT_EQ(ended["reason"], "scoring_timeout");
  EXPECT_EQ(ended["result"], "B+24.5");
}

class TrompTaylorSpelling : public Lifecycle, public ::testing::WithParamInterface<const char*> {};

// Every spelling of the ruleset the settings accept ("Tromp_Taylor" too) plays by its rules; the
// game's settings carry its one name.
TEST_P(TrompTaylorSpelling, EndsOnTwoPassesWithoutAScoringPhase) {
  start();
  const auto game = new_game({{"width", 5}, {"ruleset", GetParam()}, {"komi", 0.5}});
  expect_ack(black_->command(play(game, "C3")));
  expect_ack(white_->command(cmd("pass", game)));
  expect_ack(black_->command(cmd("pass", game)));
  const json ended = next_event(*white_, "game_ended");
  EXPECT_EQ(ended["reason"], "passes");
  EXPECT_EQ(ended["result"], "B+24.5");
  EXPECT_EQ(ended["score"]["ownership"], std::string(25, 'b'));
  expect_ack(white_->command(cmd("join", game)));
  EXPECT_EQ(next_event(*white_, "snapshot")["settings"]["ruleset"], "tromp-taylor");
}
INSTANTIATE_TEST_SUITE_P(Spellings, TrompTaylorSpelling,
                         ::testing::Values("tromp-taylor", "Tromp_Taylor", "TROMP-TAYLOR"));

// ---- clocks ----

struct FlagCase {
  const char* name;
  json time;
  // Black's and White's moves after both first moves, each with the ms it took.
  std::vector<std::pair<std::string, std::int64_t>> moves;
  std::int64_t flag_after_ms;  // from the last move, Black's turn
  const char* result;
};

class Flags : public Lifecycle, public ::testing::WithParamInterface<FlagCase> {};

TEST_P(Flags, TheServerFlagsThePlayerTheMomentTheirTimeIsGone) {
  const FlagCase& c = GetParam();
  RoomOptions options;
  options.lag = LagPolicy{milliseconds(0), milliseconds(0), milliseconds(0), milliseconds(0)};
  start(options);
  const auto game = new_game({{"width", 9}, {"ruleset", "japanese"}, {"time", c.time}});
  // First moves are free (the start timeout covers them); then the clocks run.
  expect_ack(black_->command(play(game, "A1")));
  expect_ack(white_->command(play(game, "J9")));
  const json first = next_event(*black_, "move");
  EXPECT_FALSE(first["clock"].is_null()) << "every move event carries the clocks";
  int row = 2;
  for (const auto& [color, ms] : c.moves) {
    stack_->advance(milliseconds(ms));
    auto& who = color == "black" ? black_ : white_;
    expect_ack(who->command(play(
        game, (color == "black" ? "A" : "J") + std::to_string(color == "black" ? row : 10 - row))));
    if (color == "white") ++row;
  }
  stack_->advance(milliseconds(c.flag_after_ms - 1));
  expect_ack(
      white_->command({{"type", "chat"}, {"game", game}, {"text", "tick tock"}}));  // still on
  stack_->advance(milliseconds(1));
  const json ended = next_event(*white_, "game_ended");
  EXPECT_EQ(ended["result"], c.result);
  EXPECT_EQ(ended["reason"], "time");
  expect_error(black_->command(play(game, "E5")), "game_over",
               std::string("the game is over: ") + c.result);
}

INSTANTIATE_TEST_SUITE_P(
    AllSystems, Flags,
    ::testing::Values(
        FlagCase{"absolute",
                 {{"system", "absolute"}, {"main_ms", 10'000}},
                 {{"black", 4'000}, {"white", 1'000}},
                 6'001,
                 "W+T"},
        FlagCase{"simple",
                 {{"system", "simple"}, {"per_move_ms", 5'000}},
                 {{"black", 4'900}, {"white", 100}},
                 5'001,
                 "W+T"},
        // 10 s - 3 s + 2 s = 9 s left for Black.
        FlagCase{"fischer",
                 {{"system", "fischer"}, {"main_ms", 10'000}, {"increment_ms", 2'000}},
                 {{"black", 3'000}, {"white", 0}},
                 9'001,
                 "W+T"},
        // 2 s main and one of two 3 s periods overrun: 3 s left, in the last period.
        FlagCase{"byoyomi",
                 {{"system", "byoyomi"}, {"main_ms", 2'000}, {"periods", 2}, {"period_ms", 3'000}},
                 {{"black", 5'500}, {"white", 0}},
                 3'001,
                 "W+T"},
        // Main 1 s, then 2 stones in 5 s: the first move used 1 s + 3 s of the block; 2 s left.
        FlagCase{"canadian",
                 {{"system", "canadian"}, {"main_ms", 1'000}, {"stones", 2}, {"period_ms", 5'000}},
                 {{"black", 4'000}, {"white", 0}},
                 2'001,
                 "W+T"}),
    [](const ::testing::TestParamInfo<FlagCase>& p) { return std::string(p.param.name); });

TEST_F(Lifecycle, AGameWithoutAClockNeverFlags) {
  start();
  const auto game = new_game({{"width", 9}});
  expect_ack(black_->command(play(game, "A1")));
  expect_ack(white_->command(play(game, "J9")));
  stack_->advance(milliseconds(1'000'000'000));
  expect_ack(black_->command(play(game, "E5")));
}

TEST_F(Lifecycle, MovesCarryTheClocksAndLagCredit) {
  start();  // the default lag policy: up to 1 s a move from a 2 s quota
  const auto game =
      new_game({{"width", 9}, {"time", {{"system", "absolute"}, {"main_ms", 60'000}}}});
  expect_ack(black_->command(play(game, "A1")));
  expect_ack(white_->command(play(game, "J9")));
  stack_->advance(milliseconds(5'000));
  // The client thought 4.3 s of the 5 s the server measured: 0.7 s was the network.
  expect_ack(black_->command(cmd("play", game, {{"vertex", "E5"}, {"think_ms", 4'300}})));
  json move;
  do move = next_event(*white_, "move");
  while (move["vertex"] != "E5");
  EXPECT_EQ(move["lag_credit_ms"], 700);
  EXPECT_EQ(move["clock"]["black"]["main_ms"], 60'000 - 4'300);
  EXPECT_EQ(move["clock"]["running"], "white");
}

// ---- start, abort, nigiri ----

TEST_F(Lifecycle, AGameWhoseFirstMoveNeverComesIsCancelled) {
  start();
  const auto game = new_game({{"width", 9}});
  const auto countdown = [&] {
    const json snapshot = guest_snapshot(game);
    EXPECT_EQ(snapshot["first_move_ms"], 60'000);
    return snapshot["first_move_in_ms"];
  };
  stack_->advance(milliseconds(15'000));
  EXPECT_EQ(countdown(), 45'000) << "what the page counts down";
  stack_->advance(milliseconds(44'999));
  expect_ack(black_->command({{"type", "chat"}, {"game", game}, {"text", "hm"}}));
  stack_->advance(milliseconds(1));
  const json ended = next_event(*white_, "game_ended");
  EXPECT_EQ(ended["result"], "Void");
  EXPECT_EQ(ended["reason"], "no_first_move");
}

TEST_F(Lifecycle, TheStartCountdownBeginsAgainForWhiteAndEndsWithTheSecondFirstMove) {
  start();
  const auto game = new_game({{"width", 9}});
  const auto countdown = [&] { return guest_snapshot(game)["first_move_in_ms"]; };
  stack_->advance(milliseconds(20'000));
  expect_ack(black_->command(play(game, "E5")));
  stack_->advance(milliseconds(10'000));
  EXPECT_EQ(countdown(), 50'000) << "White's own 60 s, from Black's move";
  expect_ack(white_->command(play(game, "C3")));
  EXPECT_TRUE(countdown().is_null()) << "both have moved: the clocks take over";
}

// ---- spectators and chat ----

TEST_F(Lifecycle, ThePlayersAreToldHowManyWatchAndChatLinesSayWhen) {
  start();
  const auto game = new_game({{"width", 9}});
  const auto watch = [&](const std::string& token) {
    auto c = connect(token);
    c->command({{"type", "join"}, {"game", game}});
    return c;
  };
  // Each player's messages are read in order: every count they were told, as it changed.
  const auto counts = [](WsClient& c, int n) {
    std::vector<int> seen;
    while (static_cast<int>(seen.size()) < n) seen.push_back(c.wait_type("watching")["count"]);
    return seen;
  };
  auto guest = watch("");
  const std::string kibitzer = stack_->token_for("kibitzer");
  auto first_tab = watch(kibitzer);
  auto second_tab = watch(kibitzer);  // the same person: still two, nothing to tell
  EXPECT_EQ(second_tab->wait_type("snapshot")["watching"], 2);
  guest.reset();  // a guest's page closing
  EXPECT_EQ(counts(*black_, 3), (std::vector<int>{1, 2, 1}));
  EXPECT_EQ(counts(*white_, 3), (std::vector<int>{1, 2, 1}));

  stack_->advance(std::chrono::milliseconds(1500));
  expect_ack(white_->command({{"type", "chat"}, {"game", game}, {"text", "onegaishimasu"}}));
  const json line = next_event(*black_, "chat")["line"];
  EXPECT_EQ(line["at_ms"], stack_->clock().unix_ms()) << "when it was said, kept with the line";
  auto late = watch(kibitzer);
  const json snapshot = late->wait_type("snapshot");
  ASSERT_EQ(snapshot["chat"].size(), 1u);
  EXPECT_EQ(snapshot["chat"][0]["at_ms"], line["at_ms"]);
}

TEST_F(Lifecycle, EitherPlayerMayAbortUntilBothHaveMoved) {
  start();
  const auto first = new_game({{"width", 9}});
  expect_ack(black_->command(play(first, "E5")));
  expect_ack(white_->command(cmd("abort", first)));
  EXPECT_EQ(next_event(*black_, "game_ended")["reason"], "aborted");
  const auto second = new_game({{"width", 9}});
  expect_ack(black_->command(play(second, "E5")));
  expect_ack(white_->command(play(second, "C3")));
  expect_error(black_->command(cmd("abort", second)), "conflict",
               "both players have moved: resign instead of aborting");
  // A player who leaves before their first move: the game is aborted, not won by claim.
  const auto third = new_game({{"width", 9}});
  expect_ack(black_->command(play(third, "E5")));
  white_.reset();
  next_event(*black_, "player_left");  // the server has seen White go
  stack_->advance(milliseconds(59'000));
  expect_error(black_->command(cmd("claim_win", third)), "conflict",
               "the game has barely begun: abort it instead");
  expect_ack(black_->command(cmd("abort", third)));
}

TEST_F(Lifecycle, ANigiriThatAnyoneCanVerify) {
  start();
  const json created = black_->command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "nigiri"}}}});
  const json accepted =
      white_->command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
  const auto game = accepted["game"].get<std::int64_t>();
  EXPECT_TRUE(black_->wait_type("game_started")["nigiri"].get<bool>());
  expect_ack(black_->command({{"type", "join"}, {"game", game}}));
  const json snapshot = black_->wait_type("snapshot");
  EXPECT_EQ(snapshot["phase"], "nigiri");
  EXPECT_EQ(snapshot["role"], "player");
  const std::string commitment = snapshot["nigiri"]["commitment"];
  EXPECT_EQ(commitment.size(), 64u);
  EXPECT_FALSE(snapshot["nigiri"].contains("secret"));  // not before both chose
  expect_ack(white_->command({{"type", "join"}, {"game", game}}));

  expect_error(black_->command(play(game, "E5")), "conflict",
               "the nigiri is not done yet: colours are not drawn");
  expect_error(black_->command(cmd("nigiri", game, {{"seed", "holder-seed"}, {"guess", "odd"}})),
               "bad_field", "you hold the stones: only the guesser sends 'guess'");
  expect_ack(black_->command(cmd("nigiri", game, {{"seed", "holder-seed"}})));
  expect_error(white_->command(cmd("nigiri", game, {{"seed", "guesser-seed"}})), "bad_field",
               "you are the guesser: send 'guess', \"odd\" or \"even\"");
  expect_ack(white_->command(cmd("nigiri", game, {{"seed", "guesser-seed"}, {"guess", "even"}})));
  const json done = black_->wait_type("nigiri_done");
  const json& n = done["nigiri"];
  EXPECT_EQ(n["commitment"], commitment);
  const NigiriProof proof{n["commitment"],
                          n["secret"],
                          n["nonce"],
                          n["holder_seed"],
                          n["guesser_seed"],
                          n["guess"],
                          n["stones"].get<int>(),
                          done["black"]["name"] == "white"};
  EXPECT_TRUE(verify(proof));
  EXPECT_EQ(n["holder"]["name"], "black");  // the challenger holds, whatever colour they get
  EXPECT_EQ(n["guesser"]["name"], "white");
  // Black, whoever that is now, moves first.
  auto& first = done["black"]["name"] == "black" ? black_ : white_;
  expect_ack(first->command(play(game, "E5")));
  // The proof goes into the game's record.
  const GameRecord record = read_sgf(*stack_->centre().sgf(game));
  EXPECT_NE(record.game_comment.find("secret " + n["secret"].get<std::string>()), std::string::npos)
      << record.game_comment;
  EXPECT_NE(record.game_comment.find("guess even, stones " + std::to_string(proof.stones)),
            std::string::npos);
  EXPECT_EQ(record.black_name, done["black"]["name"]);
  ASSERT_EQ(record.moves.size(), 1u);
}

// ---- disconnection ----

TEST_F(Lifecycle, AnAbandonedGameIsWonByClaimAfterTheCountdown) {
  RoomOptions options;
  options.disconnect_grace = milliseconds(30'000);
  start(options);
  const auto game = new_game({{"width", 9}});
  expect_ack(black_->command(play(game, "E5")));
  expect_ack(white_->command(play(game, "C3")));
  // Black leaves on their own move: White sees the countdown.
  black_.reset();
  const json left = next_event(*white_, "player_left");
  EXPECT_EQ(left["absence"]["color"], "black");
  EXPECT_EQ(left["absence"]["claim_in_ms"], 30'000);
  stack_->advance(milliseconds(29'999));
  expect_error(white_->command(cmd("claim_win", game)), "conflict",
               "your opponent's countdown has 1 s left");
  stack_->advance(milliseconds(1));
  expect_ack(white_->command(cmd("claim_win", game)));
  const json ended = next_event(*white_, "game_ended");
  EXPECT_EQ(ended["result"], "W+F");
  EXPECT_EQ(ended["reason"], "abandoned");
}

TEST_F(Lifecycle, TheCountdownRunsOnlyOnTheLeaversMoveAndStopsWhenTheyReturn) {
  RoomOptions options;
  options.disconnect_grace = milliseconds(30'000);
  start(options);
  const auto game = new_game({{"width", 9}});
  expect_ack(black_->command(play(game, "E5")));
  // White moves and leaves: it is Black's move.
  expect_ack(white_->command(play(game, "C3")));
  white_.reset();
  const json left = next_event(*black_, "player_left");
  EXPECT_EQ(left["absence"]["color"], "white");
  EXPECT_TRUE(left["absence"]["claim_in_ms"].is_null());  // Black's move: no countdown
  stack_->advance(milliseconds(60'000));
  expect_error(black_->command(cmd("claim_win", game)), "conflict",
               "your opponent's countdown runs only while it is their move");
  expect_ack(black_->command(play(game, "G7")));
  const json countdown = next_event(*black_, "player_left");
  EXPECT_EQ(countdown["absence"]["claim_in_ms"], 30'000);
  stack_->advance(milliseconds(20'000));
  // White comes back on a new connection: the countdown stops.
  white_ = connect(white_token_);
  expect_ack(white_->command({{"type", "join"}, {"game", game}}));
  EXPECT_EQ(next_event(*black_, "player_returned")["color"], "white");
  stack_->advance(milliseconds(60'000));
  expect_error(black_->command(cmd("claim_win", game)), "conflict", "your opponent is still here");
}

}  // namespace
}  // namespace tengen
