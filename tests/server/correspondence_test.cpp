// Correspondence games through the real stack (docs/correspondence.md): days a move, each player's
// weekend in their own time zone set by the account API, a change of zone in the middle of a turn
// moving the flag at once, a restart, and none of the live game's countdowns. The stack's manual
// clock starts on Wednesday 18 November 2026, 11:06:40 UTC.
#include <gtest/gtest.h>

#include "support/game_commands.h"
#include "support/many_players.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using std::chrono::milliseconds;
using testing::expect_ack;

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kDay = 24 * kHour;
constexpr std::int64_t kStart = 1'795'000'000'000;          // Wednesday 11:06:40 UTC
constexpr std::int64_t kWednesdayNoon = 1'795'003'200'000;  // Wednesday 12:00 UTC
// Auckland's weekend (UTC+13 in November): Friday 11:00 UTC to Sunday 11:00 UTC.
constexpr std::int64_t kSaturdayAuckland = 1'795'172'400'000;
constexpr std::int64_t kMondayAuckland = 1'795'345'200'000;
constexpr std::int64_t kGrace = 1'000;  // the lag credit a move could still get (docs/clocks.md)

const json kTwoDaysWeekendsOff = {{"width", 9},
                                  {"time",
                                   {{"system", "correspondence"},
                                    {"per_move_ms", 2 * kDay},
                                    {"max_ms", 0},
                                    {"weekends_off", true}}}};

class Correspondence : public testing::ManyPlayers {
 protected:
  void advance_to(std::int64_t unix_ms) {
    const auto now = stack_->clock().unix_ms();
    ASSERT_GE(unix_ms, now);
    stack_->advance(milliseconds(unix_ms - now));
  }
  json snapshot(std::int64_t game) {
    auto watcher = std::make_unique<testing::WsClient>(
        stack_->port(), testing::WsClient::Options{"", "", "/ws/v1"});
    watcher->wait_type("welcome");
    watcher->command({{"type", "join"}, {"game", game}});
    return watcher->wait_type("snapshot");
  }
  void set_zone(const std::string& who, const std::string& zone) {
    const auto [status, body] =
        request("PATCH", "/api/v1/me", who, json{{"time_zone", zone}}.dump());
    ASSERT_EQ(status, 200) << raw_;
    EXPECT_EQ(body["user"]["time_zone"], zone);
  }
};

TEST_F(Correspondence, APlayerSetsATimeZoneTheServerKnows) {
  auto alice = player("alice");
  EXPECT_EQ(request("GET", "/api/v1/me", "alice").second["user"]["time_zone"], "UTC");
  set_zone("alice", "Pacific/Auckland");
  EXPECT_EQ(request("GET", "/api/v1/me", "alice").second["user"]["time_zone"], "Pacific/Auckland");
  auto [status, body] =
      request("PATCH", "/api/v1/me", "alice", json{{"time_zone", "Mars/Olympus_Mons"}}.dump());
  EXPECT_EQ(status, 400);
  EXPECT_EQ(body["error"]["code"], "bad_time_zone");
  EXPECT_EQ(body["error"]["message"],
            "'Mars/Olympus_Mons' is not a time zone this server knows (an IANA name such as "
            "Europe/Amsterdam or America/New_York)");
  std::tie(status, body) = request("PATCH", "/api/v1/me", "alice", R"({"zone":"UTC"})");
  EXPECT_EQ(status, 400);
  EXPECT_EQ(body["error"]["message"], "unknown field 'zone'");
  EXPECT_EQ(request("PATCH", "/api/v1/me", "", R"({"time_zone":"UTC"})").first, 401);
  EXPECT_EQ(request("GET", "/api/v1/me", "alice").second["user"]["time_zone"], "Pacific/Auckland")
      << "unchanged by the refusals";
}

TEST_F(Correspondence, SettingsOutsideTheirRangeAreRefused) {
  auto alice = player("alice");
  const auto refused = [&](json time) {
    return alice->command({{"type", "create_challenge"}, {"settings", {{"time", time}}}});
  };
  EXPECT_EQ(refused({{"system", "correspondence"}, {"per_move_ms", 1'800'000}})["message"],
            "time.per_move_ms must be between 3600000 and 2592000000, not 1800000");
  EXPECT_EQ(
      refused(
          {{"system", "correspondence"}, {"per_move_ms", 3 * kDay}, {"max_ms", kDay}})["message"],
      "time.max_ms must be 0 (no bank: a fresh allowance each move) or at least "
      "time.per_move_ms");
  EXPECT_EQ(refused({{"system", "fischer"},
                     {"main_ms", 60'000},
                     {"increment_ms", 1'000},
                     {"weekends_off", true}})["message"],
            "time.weekends_off is for correspondence games only");
}

// Two games on Wednesday noon, each player with two days a move and weekends off. Alice (in
// Auckland) moves to UTC on Thursday: her flag comes forward to Friday noon. Carol stays in
// Auckland: her clock stands still over her weekend and through a restart.
TEST_F(Correspondence, WeekendsStopEachPlayersClockInTheirOwnZone) {
  auto alice = player("alice");
  auto bob = player("bob");
  auto carol = player("carol");
  set_zone("alice", "Pacific/Auckland");
  set_zone("carol", "Pacific/Auckland");
  advance_to(kWednesdayNoon);
  const auto first = testing::start_game(*alice, *bob, kTwoDaysWeekendsOff);
  const auto second = testing::start_game(*carol, *bob, kTwoDaysWeekendsOff);
  for (const auto game : {first, second}) {
    expect_ack((game == first ? alice : carol)->command(testing::play(game, "E5")));
    expect_ack(bob->command(testing::play(game, "C3")));
  }
  // Players come and go: nobody may claim a win for an absence.
  alice.reset();
  const auto claimed = bob->command({{"type", "claim_win"}, {"game", first}});
  EXPECT_EQ(claimed["message"],
            "a correspondence game has no absence countdown: your opponent's clock decides");

  advance_to(kWednesdayNoon + kDay);
  set_zone("alice", "UTC");
  // Friday noon in UTC, and the grace: the timer itself (nothing else touches the game).
  advance_to(kWednesdayNoon + 2 * kDay + kGrace + 1);
  const json ended = bob->wait_type("game_ended");
  EXPECT_EQ(ended["game"], first);
  EXPECT_EQ(ended["result"], "W+T") << "alice's flag, at her new zone's time";

  // Carol's weekend began on Friday 11:00 UTC: 47 hours used, one left, standing still.
  const json carols = snapshot(second);
  EXPECT_EQ(carols["result"], nullptr);
  EXPECT_EQ(carols["clock"]["running"], "black");
  EXPECT_EQ(carols["clock"]["black"]["main_ms"], kHour);
  EXPECT_EQ(carols["clock"]["time_off_ms"],
            kMondayAuckland - (kWednesdayNoon + 2 * kDay + kGrace + 1));
  EXPECT_FALSE(snapshot(first)["clock"].contains("time_off_ms")) << "a finished game's";

  // A restart: the stack's clock starts again on Wednesday 11:06:40 and the turn with it (the
  // downtime and the turn so far are not charged): two days again, less Carol's weekend.
  bob.reset();
  carol.reset();
  stack_.reset();
  stack_.emplace(temp_.path());
  const std::int64_t flag =
      kMondayAuckland + (2 * kDay - (kSaturdayAuckland - kStart)) + kGrace + 1;
  advance_to(flag - 1);
  EXPECT_EQ(snapshot(second)["result"], nullptr);
  stack_->advance(milliseconds(1));
  EXPECT_EQ(snapshot(second)["result"], "W+T");
}

// "Games waiting for my move": alice's own first, the least time left first; then the others.
TEST_F(Correspondence, APlayerListsTheGamesWaitingForTheirMove) {
  auto alice = player("alice");
  auto bob = player("bob");
  auto carol = player("carol");
  const auto days = [](int n) {
    return json{{"width", 9},
                {"time", {{"system", "correspondence"}, {"per_move_ms", n * kDay}, {"max_ms", 0}}}};
  };
  const auto slow = testing::start_game(*alice, *bob, days(5));     // alice to move, 5 days
  const auto quick = testing::start_game(*alice, *carol, days(1));  // alice to move, 1 day
  const auto theirs = testing::start_game(*bob, *alice, days(2));   // bob to move
  const auto others = testing::start_game(*bob, *carol, days(2));   // not alice's
  for (const auto game : {slow, quick}) expect_ack(alice->command(testing::play(game, "E5")));
  expect_ack(bob->command(testing::play(slow, "C3")));
  expect_ack(carol->command(testing::play(quick, "C3")));
  stack_->advance(milliseconds(kHour));
  expect_ack(alice->command({{"type", "my_games"}, {"cid", "list"}}));
  const json list = alice->wait_type("my_games");
  ASSERT_EQ(list["games"].size(), 3u) << list.dump();
  EXPECT_EQ(list["games"][0]["game"], quick);
  EXPECT_EQ(list["games"][0]["your_move"], true);
  EXPECT_EQ(list["games"][0]["to_move"], "black");
  EXPECT_EQ(list["games"][0]["moves"], 2);
  EXPECT_EQ(list["games"][0]["clock"]["black"]["main_ms"], kDay - kHour);
  EXPECT_EQ(list["games"][0]["white"]["name"], "carol");
  EXPECT_EQ(list["games"][1]["game"], slow);
  EXPECT_EQ(list["games"][2]["game"], theirs);
  EXPECT_EQ(list["games"][2]["your_move"], false);
  EXPECT_EQ(list["games"][2]["to_move"], "black");
  (void)others;
  const auto guest = std::make_unique<testing::WsClient>(
      stack_->port(), testing::WsClient::Options{"", "", "/ws/v1"});
  guest->wait_type("welcome");
  EXPECT_EQ(guest->command({{"type", "my_games"}})["code"], "not_authenticated");
}

// Alice takes a vacation an hour into her turns: both her games stand still until she ends it
// three days later (moving meanwhile is allowed); her flag then falls three days later than it
// would have, by the timer.
TEST_F(Correspondence, AVacationStopsEveryClockOfThePlayerUntilItEnds) {
  auto alice = player("alice");
  auto bob = player("bob");
  const json before = request("GET", "/api/v1/me", "alice").second["user"]["vacation"];
  EXPECT_GE(before["left_ms"], 7 * kDay) << "a new account's (and what accrued since)";
  EXPECT_LT(before["left_ms"], 7 * kDay + 1'000);
  EXPECT_EQ(before["until_ms"], nullptr);
  const json two_days = {{"width", 9},
                         {"time", {{"system", "correspondence"}, {"per_move_ms", 2 * kDay}}}};
  const auto mine = testing::start_game(*alice, *bob, two_days);    // alice black
  const auto theirs = testing::start_game(*bob, *alice, two_days);  // alice white
  expect_ack(alice->command(testing::play(mine, "E5")));
  expect_ack(bob->command(testing::play(mine, "C3")));
  expect_ack(bob->command(testing::play(theirs, "E5")));
  const std::int64_t turn = stack_->clock().unix_ms();  // alice's turns in both begin

  stack_->advance(milliseconds(kHour));
  auto [status, body] = request("PATCH", "/api/v1/me", "alice", R"({"vacation":true})");
  ASSERT_EQ(status, 200) << raw_;
  const std::int64_t left = body["user"]["vacation"]["left_ms"];
  EXPECT_GE(left, before["left_ms"].get<std::int64_t>() + kHour / 12 - 1)
      << "a day accrues every twelve";
  EXPECT_EQ(body["user"]["vacation"]["until_ms"], turn + kHour + left);
  json clock = snapshot(mine)["clock"];
  EXPECT_EQ(clock["black"]["main_ms"], 2 * kDay - kHour);
  EXPECT_EQ(clock["time_off_ms"], left);
  EXPECT_EQ(clock["vacation"], true);
  // Every game of hers: in the other, her first move's countdown (as long as a move) waits too.
  EXPECT_EQ(snapshot(theirs)["first_move_in_ms"], left + 2 * kDay - kHour);
  EXPECT_EQ(request("PATCH", "/api/v1/me", "alice", R"({"vacation":true})")
                .second["user"]["vacation"]["until_ms"],
            turn + kHour + left)
      << "already away: as it was";

  stack_->advance(milliseconds(3 * kDay));
  clock = snapshot(mine)["clock"];
  EXPECT_EQ(clock["black"]["main_ms"], 2 * kDay - kHour) << "three days later";
  expect_ack(alice->command(testing::play(theirs, "C3")));  // a move while away
  EXPECT_FALSE(snapshot(theirs)["clock"].contains("time_off_ms")) << "bob's clock runs";
  std::tie(status, body) = request("PATCH", "/api/v1/me", "alice", R"({"vacation":false})");
  ASSERT_EQ(status, 200) << raw_;
  EXPECT_EQ(body["user"]["vacation"]["left_ms"], left - 3 * kDay) << "what she did not use";
  EXPECT_EQ(body["user"]["vacation"]["until_ms"], nullptr);
  EXPECT_FALSE(snapshot(mine)["clock"].contains("time_off_ms"));

  // Two days from the turn's start, plus the three days away, and the grace: by the timer.
  const std::int64_t flag = turn + 2 * kDay + 3 * kDay + kGrace + 1;
  stack_->advance(milliseconds(flag - 1 - stack_->clock().unix_ms()));
  EXPECT_EQ(snapshot(mine)["result"], nullptr);
  stack_->advance(milliseconds(1));
  const json ended = bob->wait_type("game_ended");
  EXPECT_EQ(ended["game"], mine);
  EXPECT_EQ(ended["result"], "W+T");
}

TEST_F(Correspondence, VacationsAreBoundedAndTheirRefusalsSayWhy) {
  auto alice = player("alice");
  auto carol = player("carol");
  auto [status, body] = request("PATCH", "/api/v1/me", "alice", R"({"vacation":"yes"})");
  EXPECT_EQ(status, 400);
  EXPECT_EQ(body["error"]["message"],
            "field 'vacation' must be true (start one) or false (end it)");
  // Five may begin in a day: each moves the flags of every game of the player.
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(request("PATCH", "/api/v1/me", "alice", R"({"vacation":true})").first, 200);
    stack_->advance(milliseconds(1));
    ASSERT_EQ(request("PATCH", "/api/v1/me", "alice", R"({"vacation":false})").first, 200);
  }
  std::tie(status, body) = request("PATCH", "/api/v1/me", "alice", R"({"vacation":true})");
  EXPECT_EQ(status, 429);
  EXPECT_EQ(body["error"]["code"], "too_many_vacations");
  EXPECT_NE(head_.find("\r\nRetry-After: 3600"), std::string::npos) << head_;
  EXPECT_EQ(request("GET", "/api/v1/me", "alice").second["user"]["vacation"]["until_ms"], nullptr);
  stack_->advance(milliseconds(kDay));
  EXPECT_EQ(request("PATCH", "/api/v1/me", "alice", R"({"vacation":true})").first, 200)
      << "a day later";

  // Carol's vacation lasts as long as her days: it ends by itself, and what accrues in the next
  // six hours (half an hour) is not enough to begin another.
  std::tie(status, body) = request("PATCH", "/api/v1/me", "carol", R"({"vacation":true})");
  ASSERT_EQ(status, 200);
  const std::int64_t until = body["user"]["vacation"]["until_ms"];
  stack_->advance(milliseconds(until + 6 * kHour - stack_->clock().unix_ms()));
  body = request("GET", "/api/v1/me", "carol").second;
  EXPECT_EQ(body["user"]["vacation"]["until_ms"], nullptr);
  EXPECT_EQ(body["user"]["vacation"]["left_ms"], kHour / 2);
  std::tie(status, body) =
      request("PATCH", "/api/v1/me", "carol", R"({"vacation":true,"time_zone":"Asia/Tokyo"})");
  EXPECT_EQ(status, 409);
  EXPECT_EQ(body["error"]["message"],
            "you have less than an hour of vacation left (a day accrues every 12 days)");
  EXPECT_EQ(request("GET", "/api/v1/me", "carol").second["user"]["time_zone"], "UTC")
      << "a refusal changes nothing";
}

// Conditional moves: alice, having moved, answers bob's expected moves in advance. The reply is
// played the instant bob's move matches, the rest of the line waits, a move she did not expect
// drops them; only she ever sees them, and they survive a restart.
TEST_F(Correspondence, ConditionalMovesAnswerTheExpectedMoveAtOnce) {
  auto alice = player("alice");
  auto bob = player("bob");
  const json two_days = {{"width", 9},
                         {"time", {{"system", "correspondence"}, {"per_move_ms", 2 * kDay}}}};
  const auto game = testing::start_game(*alice, *bob, two_days);  // alice black
  expect_ack(alice->command(testing::play(game, "E5")));
  expect_ack(bob->command(testing::play(game, "C3")));
  expect_ack(alice->command(testing::play(game, "G5")));
  const auto set = [&](testing::WsClient& who, json lines) {
    return who.command({{"type", "set_conditional_moves"}, {"game", game}, {"lines", lines}});
  };
  // What is refused, and why.
  EXPECT_EQ(set(*bob, {"C7 D7"})["message"],
            "it is your move: conditional moves answer your opponent's next move, so set them "
            "after your own");
  EXPECT_EQ(set(*alice, {"C7"})["message"],
            "line 1 ends with C7, your opponent's move, without your reply");
  EXPECT_EQ(set(*alice, {"C7 D7", "Z9 A1"})["message"],
            "line 2: 'Z9' is not a point on this 9x9 board (GTP coordinates such as D4)");
  EXPECT_EQ(set(*alice, {"C7 pass"})["message"],
            "line 1: a pass cannot be expected or played by a condition");
  EXPECT_EQ(set(*alice, {"C7 D7", "C7 D6"})["message"],
            "line 2 answers C7 with D6 where an earlier line answers it with D7: one reply to "
            "each move");
  EXPECT_EQ(set(*alice, {"C7 D7 D7 C6"})["message"],
            "after C7 D7: occupied: there is already a stone on D7");
  EXPECT_EQ(set(*alice, json::array({std::string(401, 'A')}))["message"],
            "field 'lines' must be lines of 1 to 400 bytes");
  const auto live = testing::start_game(*alice, *bob, json{{"width", 9}});
  expect_ack(alice->command(testing::play(live, "E5")));
  EXPECT_EQ(
      alice->command(
          {{"type", "set_conditional_moves"}, {"game", live}, {"lines", {"C7 D7"}}})["message"],
      "conditional moves are for correspondence games (docs/correspondence.md)");

  expect_ack(set(*alice, {"C7 D7 C6 D6", "G3 G4", "C7 D7 B7 B8"}));
  const json kept = alice->wait_type("conditional_moves");
  EXPECT_EQ(kept["lines"], json({"C7 D7 C6 D6", "C7 D7 B7 B8", "G3 G4"}));
  EXPECT_EQ(kept["color"], "black");
  EXPECT_EQ(snapshot(game).contains("conditional_moves"), false) << "a spectator's";

  stack_->advance(milliseconds(kHour));
  const json played = bob->command(testing::play(game, "C7"));
  expect_ack(played);
  const json reply = bob->wait_event(game, played["seq"].get<std::uint64_t>() + 1);
  EXPECT_EQ(reply["vertex"], "D7") << "played for alice the instant C7 arrived";
  EXPECT_EQ(reply["clock"]["running"], "white");
  EXPECT_EQ(reply["clock"]["black"]["main_ms"], 2 * kDay);
  EXPECT_EQ(alice->wait_type("conditional_moves")["lines"], json({"C6 D6", "B7 B8"}));
  // Bob never hears of them: his stream goes from alice's reply to his own chat line.
  const std::uint64_t replied_at = reply["seq"];
  expect_ack(bob->command({{"type", "chat"}, {"game", game}, {"text", "quick!"}}));
  bob->wait_event(game, replied_at + 2);
  for (const json& m : bob->kept()) EXPECT_NE(m["type"], "conditional_moves") << m.dump();

  // Through a restart: kept, and followed.
  alice.reset();
  bob.reset();
  stack_.reset();
  stack_.emplace(temp_.path());
  alice = player("alice");
  bob = player("bob");
  auto watching = [&](testing::WsClient& who) {
    who.command({{"type", "join"}, {"game", game}});
    return who.wait_type("snapshot");
  };
  EXPECT_EQ(watching(*alice)["conditional_moves"], json({"C6 D6", "B7 B8"}));
  EXPECT_FALSE(watching(*bob).contains("conditional_moves"));
  const json b7 = bob->command(testing::play(game, "B7"));
  expect_ack(b7);
  EXPECT_EQ(alice->wait_event(game, b7["seq"].get<std::uint64_t>() + 1)["vertex"], "B8");
  EXPECT_EQ(alice->wait_type("conditional_moves")["lines"], json::array()) << "used up";

  // A move that was not expected drops them.
  expect_ack(set(*alice, {"J9 J8"}));
  alice->wait_type("conditional_moves");
  expect_ack(bob->command(testing::play(game, "A1")));
  EXPECT_EQ(alice->wait_type("conditional_moves")["lines"], json::array());
  EXPECT_EQ(watching(*alice)["to_move"], "black") << "nothing played for her";

  // An undo takes back the move they answered: dropped too.
  expect_ack(alice->command(testing::play(game, "H2")));
  expect_ack(set(*alice, {"J9 J8"}));
  alice->wait_type("conditional_moves");
  expect_ack(alice->command({{"type", "undo_request"}, {"game", game}}));
  expect_ack(bob->command({{"type", "undo_answer"}, {"game", game}, {"accept", true}}));
  EXPECT_EQ(alice->wait_type("conditional_moves")["lines"], json::array());

  // Two passes stop play for counting: what was planned for the next move is dropped.
  expect_ack(alice->command({{"type", "pass"}, {"game", game}}));
  expect_ack(set(*alice, {"J9 J8"}));
  alice->wait_type("conditional_moves");
  expect_ack(bob->command({{"type", "pass"}, {"game", game}}));
  EXPECT_EQ(alice->wait_type("conditional_moves")["lines"], json::array());
  EXPECT_FALSE(watching(*alice).contains("conditional_moves"));
}

// A correspondence league (a round robin whose round lasts days) whose pause policy says that
// vacations do not stop its clocks: alice's vacation stops her casual game's clock, not her
// tournament game's; a first move may take as long as a move, not the no-show time.
TEST_F(Correspondence, ATournamentsPausePolicyDecidesWhetherVacationsCount) {
  auto tdir = player("tdir");
  auto alice = player("alice");
  auto bob = player("bob");
  json settings = {
      {"name", "Winter league"},
      {"system", "round_robin"},
      {"game", {{"width", 9}, {"time", {{"system", "correspondence"}, {"per_move_ms", 2 * kDay}}}}},
      {"no_show_ms", 60'000},
      {"vacations", false}};
  json live = settings;
  live["game"]["time"] = {{"system", "fischer"}, {"main_ms", 600'000}, {"increment_ms", 5'000}};
  EXPECT_EQ(tdir->command({{"type", "create_tournament"}, {"settings", live}})["message"],
            "vacations: a pause policy is for correspondence tournaments only");
  const json created = tdir->command({{"type", "create_tournament"}, {"settings", settings}});
  ASSERT_EQ(created["type"], "ack") << created.dump();
  const int id = created["tournament"];
  for (auto* who : {alice.get(), bob.get()})
    expect_ack(who->command({{"type", "tournament_register"}, {"tournament", id}}));
  expect_ack(tdir->command({{"type", "tournament_start"}, {"tournament", id}}));
  expect_ack(alice->command({{"type", "my_games"}}));
  const json listed = alice->wait_type("my_games");
  ASSERT_EQ(listed["games"].size(), 1u) << listed.dump();
  const std::int64_t league = listed["games"][0]["game"];
  auto& first = listed["games"][0]["your_move"] == true ? *alice : *bob;
  auto& second = &first == alice.get() ? *bob : *alice;
  stack_->advance(milliseconds(5 * 60'000));
  EXPECT_EQ(snapshot(league)["result"], nullptr) << "no forfeit after the no-show time";
  expect_ack(first.command(testing::play(league, "E5")));
  expect_ack(second.command(testing::play(league, "C3")));
  expect_ack(first.command(testing::play(league, "G5")));
  // Now `second` is to move in the league; a casual game of theirs waits for them too.
  const json two_days = {{"width", 9},
                         {"time", {{"system", "correspondence"}, {"per_move_ms", 2 * kDay}}}};
  const auto casual = testing::start_game(first, second, two_days);
  expect_ack(first.command(testing::play(casual, "E5")));
  expect_ack(second.command(testing::play(casual, "C3")));
  expect_ack(first.command(testing::play(casual, "G5")));
  const std::string away = &second == alice.get() ? "alice" : "bob";
  ASSERT_EQ(request("PATCH", "/api/v1/me", away, R"({"vacation":true})").first, 200) << raw_;
  stack_->advance(milliseconds(kDay));
  EXPECT_EQ(snapshot(casual)["clock"]["vacation"], true);
  EXPECT_EQ(snapshot(casual)["clock"]["white"]["main_ms"], 2 * kDay);
  const json clock = snapshot(league)["clock"];
  EXPECT_FALSE(clock.contains("time_off_ms")) << "the league's policy: vacations do not count";
  EXPECT_EQ(clock["white"]["main_ms"], kDay);
  stack_->advance(milliseconds(kDay + kGrace + 1));
  EXPECT_EQ(snapshot(league)["result"], "B+T");
  EXPECT_EQ(snapshot(casual)["result"], nullptr);
}

// A league of four playing all its rounds at once: each player's three games start together, the
// results come in any order, and it finishes when the last game does; a withdrawal forfeits the
// player's games in every round.
TEST_F(Correspondence, ALeaguePlaysAllItsRoundsAtOnce) {
  auto tdir = player("tdir");
  std::map<std::string, std::unique_ptr<testing::WsClient>> players;
  for (const char* n : {"amy", "bob", "cat", "dan"}) players[n] = player(n);
  json settings = {
      {"name", "Club league"},
      {"system", "round_robin"},
      {"game", {{"width", 9}, {"time", {{"system", "correspondence"}, {"per_move_ms", 3 * kDay}}}}},
      {"all_rounds_at_once", true}};
  json swiss = settings;
  swiss["system"] = "swiss";
  swiss["rounds"] = 3;
  EXPECT_EQ(tdir->command({{"type", "create_tournament"}, {"settings", swiss}})["message"],
            "all_rounds_at_once is for round robin leagues by correspondence, their rounds "
            "starting after_previous");
  const json created = tdir->command({{"type", "create_tournament"}, {"settings", settings}});
  ASSERT_EQ(created["type"], "ack") << created.dump();
  const int id = created["tournament"];
  for (auto& [name, who] : players)
    expect_ack(who->command({{"type", "tournament_register"}, {"tournament", id}}));
  expect_ack(tdir->command({{"type", "tournament_start"}, {"tournament", id}}));
  const auto view = [&] {
    return request("GET", "/api/v1/tournaments/" + std::to_string(id)).second;
  };
  json v = view();
  ASSERT_EQ(v["round_list"].size(), 3u) << v.dump();
  std::map<std::int64_t, std::pair<std::string, std::string>> games;  // black, white
  for (const auto& round : v["round_list"]) {
    EXPECT_EQ(round["started"], true);
    for (const auto& g : round["games"])
      games[g["game"].get<std::int64_t>()] = {g["black"]["name"], g["white"]["name"]};
  }
  ASSERT_EQ(games.size(), 6u);
  expect_ack(players["amy"]->command({{"type", "my_games"}}));
  EXPECT_EQ(players["amy"]->wait_type("my_games")["games"].size(), 3u) << "all three at once";

  // Dan withdraws: his three games are lost by forfeit, whatever their round.
  expect_ack(tdir->command({{"type", "watch_tournaments"}, {"tournament", id}}));
  expect_ack(
      tdir->command({{"type", "tournament_withdraw"}, {"tournament", id}, {"player", "dan"}}));
  // The others resign in reverse order of the rounds: the last round's game first.
  std::vector<std::int64_t> rest;
  for (const auto& [game, pair] : games) {
    if (pair.first != "dan" && pair.second != "dan") rest.push_back(game);
  }
  ASSERT_EQ(rest.size(), 3u);
  for (auto it = rest.rbegin(); it != rest.rend(); ++it) {
    EXPECT_EQ(view()["status"], "running");
    const auto& black = games[*it].first;
    expect_ack(players[black]->command({{"type", "resign"}, {"game", *it}}));
  }
  // Each result reaches the tournament in turn, and its watchers hear of each.
  while (view()["status"] != "finished") tdir->wait_type("tournament_changed");
  v = view();
  EXPECT_EQ(v["status"], "finished") << v.dump();
  for (const auto& round : v["round_list"]) {
    for (const auto& g : round["games"]) EXPECT_NE(g["result"], nullptr) << g.dump();
  }
}

TEST_F(Correspondence, TheFirstMoveMayTakeAsLongAsAMove) {
  auto alice = player("alice");
  auto bob = player("bob");
  const auto game = testing::start_game(*alice, *bob, kTwoDaysWeekendsOff);
  EXPECT_EQ(snapshot(game)["first_move_ms"], 2 * kDay);
  stack_->advance(milliseconds(2 * kDay - 1));
  EXPECT_EQ(snapshot(game)["result"], nullptr) << "a live game's minute is long gone";
  stack_->advance(milliseconds(1));
  EXPECT_EQ(snapshot(game)["result"], "Void");
}

}  // namespace
}  // namespace tengen
