// The bridge's logic without a socket or a process: GTP replies, clocks told to an engine, the
// bot's decisions in a game, its configuration, and reading what the server sends.
#include <gtest/gtest.h>

#include "bot_game.h"
#include "config.h"
#include "gtp_reply.h"
#include "protocol/codec.h"
#include "support/game_snapshot.h"
#include "time_control.h"

namespace {

using namespace tengen;
using namespace tengen::bridge;
using System = protocol::TimeControl::System;

// ---- GTP replies ----

TEST(GtpReplyReader, SplitsRepliesAcrossChunksWithIdsAndCrLf) {
  GtpReplyReader r;
  r.feed("=1 D4\r\n");
  EXPECT_FALSE(r.next());
  r.feed("\r\n\n= \n\n?3 unknown command\n\n=  A1 B2\nC3\n\n");
  const auto a = r.next();
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->ok);
  EXPECT_EQ(a->text, "D4");
  const auto b = r.next();
  ASSERT_TRUE(b);
  EXPECT_EQ(b->text, "");
  const auto c = r.next();
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->ok);
  EXPECT_EQ(c->text, "unknown command");
  const auto d = r.next();
  ASSERT_TRUE(d);
  EXPECT_EQ(split_vertices(d->text), (std::vector<std::string>{"A1", "B2", "C3"}));
  EXPECT_FALSE(r.next());
}

TEST(GtpReplyReader, ProseIsGarbage) {
  GtpReplyReader r;
  r.feed("I would play the centre\n\n");
  try {
    r.next();
    FAIL() << "no exception";
  } catch (const GtpGarbage& e) {
    EXPECT_STREQ(e.what(), "not a GTP response: 'I would play the centre'");
  }
}

TEST(GtpReplyReader, AnEndlessReplyIsGarbage) {
  GtpReplyReader r;
  r.feed("= ");
  r.feed(std::string(GtpReplyReader::kMaxReplyBytes + 1, 'x'));
  EXPECT_THROW(r.next(), GtpGarbage);
}

TEST(SplitVertices, UpperCasesAndSplitsOnAnyBlank) {
  EXPECT_EQ(split_vertices(" d4\te5\n\nq16 "), (std::vector<std::string>{"D4", "E5", "Q16"}));
}

// ---- clocks ----

protocol::TimeControl byoyomi() {
  return {.system = System::ByoYomi, .main_ms = 600'000, .periods = 5, .period_ms = 30'000};
}

TEST(TimeControl, EverySystemAsGtpTimeSettings) {
  EXPECT_EQ(time_settings_command({}, false), "time_settings 0 1 0");
  EXPECT_EQ(time_settings_command({.system = System::Absolute, .main_ms = 300'000}, false),
            "time_settings 300 0 0");
  EXPECT_EQ(time_settings_command(
                {.system = System::Fischer, .main_ms = 300'000, .increment_ms = 10'000}, false),
            "time_settings 300 0 0");
  EXPECT_EQ(time_settings_command({.system = System::Simple, .per_move_ms = 20'000}, false),
            "time_settings 0 20 1");
  EXPECT_EQ(time_settings_command(byoyomi(), false), "time_settings 600 30 1");
  EXPECT_EQ(time_settings_command(byoyomi(), true), "kgs-time_settings byoyomi 600 30 5");
  EXPECT_EQ(
      time_settings_command(
          {.system = System::Canadian, .main_ms = 600'000, .period_ms = 300'000, .stones = 25},
          false),
      "time_settings 600 300 25");
}

TEST(TimeControl, TimeLeftInMainTimeAndInOvertime) {
  EXPECT_EQ(time_left_command(byoyomi(), {.main_ms = 12'999, .periods = 5, .period_ms = 30'000},
                              "black", false),
            "time_left black 12 0");
  EXPECT_EQ(time_left_command(byoyomi(), {.main_ms = 0, .periods = 3, .period_ms = 17'500}, "white",
                              false),
            "time_left white 17 1");
  EXPECT_EQ(time_left_command(byoyomi(), {.main_ms = 0, .periods = 3, .period_ms = 17'500}, "white",
                              true),
            "time_left white 17 3");
  const protocol::TimeControl canadian{
      .system = System::Canadian, .main_ms = 0, .period_ms = 300'000, .stones = 25};
  EXPECT_EQ(time_left_command(canadian, {.main_ms = 0, .period_ms = 200'000, .stones = 7}, "black",
                              false),
            "time_left black 200 7");
  EXPECT_EQ(time_left_command({.system = System::Fischer}, {.main_ms = 45'000}, "black", false),
            "time_left black 45 0");
  EXPECT_EQ(time_left_command({}, {}, "black", false), std::nullopt);
}

TEST(TimeControl, TheClockRunsFromMainTimeIntoThePeriod) {
  const auto c = run_clock(byoyomi(), {.main_ms = 1'000, .periods = 5, .period_ms = 30'000}, 5'000);
  EXPECT_EQ(c.main_ms, 0);
  EXPECT_EQ(c.period_ms, 26'000);
  EXPECT_EQ(time_to_flag_ms(byoyomi(), c), 26'000 + 4 * 30'000);
  EXPECT_EQ(time_to_flag_ms({}, c), std::nullopt);
}

// ---- decisions ----

protocol::GameSnapshot snapshot(const std::string& role, const std::string& to_move) {
  return tengen::testing::game_snapshot(*protocol::wire::parse<protocol::Role>(role),
                                        *protocol::wire::parse<Color>(to_move));
}

protocol::RoomEvent event(protocol::Seq seq, protocol::RoomEventBody body) {
  return {7, seq, std::move(body)};
}

const SteadyTime kNow{};

TEST(BotGame, ThinksOnceOnItsTurn) {
  BotGame g(7, 2);
  EXPECT_FALSE(g.next_action()) << "nothing before the snapshot";
  g.apply(snapshot("white", "black"), kNow);
  EXPECT_FALSE(g.next_action());
  EXPECT_EQ(g.apply(event(5, protocol::MovePlayed{Color::Black, "E5", {}, {}, 0}), kNow),
            BotGame::Applied::Ok);
  ASSERT_TRUE(g.next_action());
  EXPECT_TRUE(std::holds_alternative<Think>(*g.next_action()));
  g.thought();
  EXPECT_FALSE(g.next_action()) << "the move is on its way";
  EXPECT_EQ(g.apply(event(5, protocol::MovePlayed{Color::Black, "E5", {}, {}, 0}), kNow),
            BotGame::Applied::Ignored);
  EXPECT_EQ(g.apply(event(7, protocol::MovePlayed{Color::White, "C3", {}, {}, 0}), kNow),
            BotGame::Applied::NeedSnapshot);
  EXPECT_FALSE(g.next_action()) << "lost track: waits for the snapshot";
}

TEST(BotGame, TwoPassesEndPlayBeforeTheScoringPhaseArrives) {
  BotGame g(7, 2);
  g.apply(snapshot("white", "black"), kNow);
  g.apply(event(5, protocol::MovePlayed{Color::Black, "pass", {}, {}, 0}), kNow);
  ASSERT_TRUE(g.next_action());
  g.thought();
  g.apply(event(6, protocol::MovePlayed{Color::White, "pass", {}, {}, 0}), kNow);
  g.apply(event(7, protocol::MovePlayed{Color::Black, "pass", {}, {}, 0}), kNow);
  EXPECT_TRUE(g.play_ended());
  EXPECT_FALSE(g.next_action());
  g.apply(event(8, protocol::PlayResumed{Color::Black, Color::White, 1, {}}), kNow);
  ASSERT_TRUE(g.next_action()) << "play resumed: the passes count no more";
  EXPECT_TRUE(std::holds_alternative<Think>(*g.next_action()));
}

TEST(BotGame, UnderAgaRulesABlackPassAfterWhitesDoesNotEndPlay) {
  BotGame g(7, 2);
  auto s = snapshot("white", "white");
  s.settings.ruleset = Ruleset::Aga;
  s.moves = {{Color::Black, "E5"}};
  g.apply(s, kNow);
  g.thought();
  g.apply(event(5, protocol::MovePlayed{Color::White, "pass", {}, {}, 0}), kNow);
  g.apply(event(6, protocol::MovePlayed{Color::Black, "pass", {}, {}, 0}), kNow);
  EXPECT_FALSE(g.play_ended());
  EXPECT_TRUE(g.next_action() && std::holds_alternative<Think>(*g.next_action()));
}

TEST(BotGame, PlacesFreeHandicapStonesOneByOne) {
  BotGame g(7, 1);
  auto s = snapshot("black", "black");
  s.settings.handicap = 3;
  s.settings.placement = protocol::GameSettings::Placement::Free;
  s.settings.color = protocol::GameSettings::ColorChoice::Black;
  g.apply(s, kNow);
  EXPECT_TRUE(g.placing());
  EXPECT_EQ(g.stones_to_place(), 3);
  g.thought();
  g.apply(event(5, protocol::MovePlayed{Color::Black, "C3", {}, {}, 0}), kNow);
  g.apply(event(6, protocol::MovePlayed{Color::Black, "G7", {}, {}, 0}), kNow);
  EXPECT_TRUE(g.next_action() && std::holds_alternative<Think>(*g.next_action()));
  g.thought();
  g.apply(event(7, protocol::MovePlayed{Color::Black, "C7", {}, {}, 0}), kNow);
  EXPECT_FALSE(g.placing());
  EXPECT_EQ(g.handicap_stones(), (std::vector<std::string>{"C3", "G7", "C7"}));
  EXPECT_TRUE(g.moves().empty());
  EXPECT_FALSE(g.next_action()) << "White's move";
}

TEST(BotGame, AnswersAnUndoRequestOnceAndResyncsAfterAnAcceptedOne) {
  BotGame g(7, 2);
  g.apply(snapshot("white", "white"), kNow);
  g.thought();
  g.apply(event(5, protocol::UndoRequested{Color::Black}), kNow);
  ASSERT_TRUE(g.next_action());
  EXPECT_TRUE(std::holds_alternative<AnswerUndo>(*g.next_action()));
  g.answered_undo();
  EXPECT_FALSE(g.next_action());
  EXPECT_EQ(g.apply(event(6, protocol::UndoAnswered{true, 2}), kNow),
            BotGame::Applied::NeedSnapshot);
}

TEST(BotGame, TheGuesserGuessesInTheNigiri) {
  BotGame g(7, 2);
  auto s = snapshot("player", "black");
  s.phase = protocol::Phase::Nigiri;
  s.nigiri =
      protocol::NigiriState{.commitment = "c", .holder = {1, "shusaku"}, .guesser = {2, "gnugo"}};
  g.apply(s, kNow);
  ASSERT_TRUE(g.next_action());
  EXPECT_TRUE(std::get<ChooseNigiri>(*g.next_action()).guesser);
  g.chose_nigiri();
  EXPECT_FALSE(g.next_action());
  EXPECT_EQ(g.apply(event(5, protocol::NigiriDone{}), kNow), BotGame::Applied::NeedSnapshot)
      << "colours from the snapshot";
}

TEST(BotGame, JudgesEachMarkingVersionUnlessItAcceptedIt) {
  BotGame g(7, 2);
  g.apply(snapshot("white", "black"), kNow);
  g.apply(event(5, protocol::ScoringStarted{{.version = 1, .dead = {"A1"}}}), kNow);
  ASSERT_TRUE(g.next_action());
  EXPECT_EQ(std::get<JudgeMarking>(*g.next_action()).version, 1u);
  g.judged(1, MarkChain{"B2", true});
  EXPECT_TRUE(g.corrected_marking());
  EXPECT_FALSE(g.next_action());
  g.apply(event(6, protocol::MarkingChanged{{.version = 2, .dead = {"A1", "B2"}}, Color::White}),
          kNow);
  EXPECT_FALSE(g.marking_by_opponent());
  g.judged(2, AcceptMarking{2});
  g.apply(event(7, protocol::ScoreAccepted{Color::White, 2}), kNow);
  EXPECT_FALSE(g.next_action());
  g.apply(event(8, protocol::MarkingChanged{{.version = 3, .dead = {"B2"}}, Color::Black}), kNow);
  EXPECT_TRUE(g.marking_by_opponent());
  EXPECT_EQ(std::get<JudgeMarking>(*g.next_action()).version, 3u);
}

TEST(BotGame, GivesUpByResigningOnce) {
  BotGame g(7, 2);
  g.apply(snapshot("white", "white"), kNow);
  g.give_up("the engine crashed");
  g.give_up("and then something else");
  EXPECT_EQ(g.give_up_reason(), "the engine crashed");
  EXPECT_TRUE(std::holds_alternative<GiveUp>(*g.next_action()));
  g.resigned();
  EXPECT_FALSE(g.next_action());
}

TEST(BotGame, ItsClockRunsOnlyWhileItIsToMove) {
  BotGame g(7, 2);
  auto s = snapshot("white", "white");
  s.settings.time = byoyomi();
  s.clock = protocol::ClockState{
      {.main_ms = 9'000}, {.main_ms = 10'000, .periods = 5, .period_ms = 30'000}, Color::White};
  g.apply(s, kNow);
  EXPECT_EQ(g.my_clock(kNow + std::chrono::seconds(4))->main_ms, 6'000);
  s.clock->running = Color::Black;
  g.apply(s, kNow);
  EXPECT_EQ(g.my_clock(kNow + std::chrono::seconds(4))->main_ms, 10'000);
}

TEST(JudgeMarking, AgreesMarksOneChainAtATimeAndResumesADispute) {
  const protocol::Marking marking{.version = 4, .dead = {"A1", "A2"}};
  EXPECT_EQ(std::get<AcceptMarking>(judge_marking({"A1", "A2"}, marking, true, true)).version, 4u);
  const auto more = std::get<MarkChain>(judge_marking({"A1", "A2", "J9"}, marking, false, false));
  EXPECT_EQ(more.vertex, "J9");
  EXPECT_TRUE(more.dead);
  const auto fewer = std::get<MarkChain>(judge_marking({"A1"}, marking, true, false));
  EXPECT_EQ(fewer.vertex, "A2");
  EXPECT_FALSE(fewer.dead);
  EXPECT_TRUE(std::holds_alternative<ResumeToSettle>(judge_marking({"A1"}, marking, true, true)));
  EXPECT_TRUE(std::holds_alternative<MarkChain>(judge_marking({"A1"}, marking, false, true)))
      << "its own change: go on";
}

// ---- configuration ----

const char* no_env(const char*) {
  return nullptr;
}

std::string problem(const std::string& text, const Getenv& getenv = no_env) {
  auto parsed = parse_config(text, getenv);
  return std::holds_alternative<std::string>(parsed) ? std::get<std::string>(parsed) : "";
}

TEST(BridgeConfig, ReadsEveryField) {
  auto parsed = parse_config(
      R"({"server":"http://go.example.org:9000/","username":"gnugo","password":"p4ssw0rd!",
    "engine":["gnugo","--mode","gtp"],"accept":{"direct":true,"open":true,"board_sizes":[9,19],"rulesets":["chinese"],
    "time_systems":["byoyomi"],"rated":false,"max_handicap":4,"min_main_seconds":60,"max_games":3},
    "challenge":{"width":9,"ruleset":"chinese","color":"nigiri"},"accept_undo":true,"greeting":"hi",
    "max_think_seconds":30,"log_gtp":true})",
      no_env);
  ASSERT_TRUE(std::holds_alternative<Config>(parsed)) << std::get<std::string>(parsed);
  const Config& c = std::get<Config>(parsed);
  EXPECT_EQ(c.host, "go.example.org");
  EXPECT_EQ(c.port, "9000");
  EXPECT_EQ(c.engine.size(), 3u);
  EXPECT_EQ(c.accept.board_sizes, (std::set<int>{9, 19}));
  EXPECT_EQ(c.accept.max_games, 3);
  EXPECT_EQ(c.accept.min_main_ms, 60'000);
  ASSERT_TRUE(c.challenge);
  EXPECT_EQ(c.challenge->width, 9);
  EXPECT_EQ(c.challenge->height, 9);
  EXPECT_TRUE(c.accept_undo);
  EXPECT_EQ(c.max_think_seconds, 30);
}

TEST(BridgeConfig, NamesWhatIsWrong) {
  const std::string base = R"("username":"gnugo","password":"secret12","engine":["gnugo"])";
  EXPECT_EQ(problem("{"), "the configuration is not valid JSON");
  EXPECT_EQ(problem(R"({"password":"x","engine":["gnugo"]})"),
            "'username' is missing: the bot account's name");
  EXPECT_EQ(problem("{" + base + R"(,"colour":"black"})"), "unknown field 'colour'");
  EXPECT_EQ(problem("{" + base + R"(,"accept":{"board_sizes":[9,30]}})"),
            "'accept.board_sizes' must hold sizes from 2 to 25");
  EXPECT_EQ(problem("{" + base + R"(,"accept":{"rulesets":["klingon"]}})"),
            "'accept.rulesets': unknown ruleset 'klingon'");
  EXPECT_EQ(problem("{" + base + R"(,"accept":{"max_games":0}})"),
            "'accept.max_games' must be from 1 to 1000");
  EXPECT_EQ(problem("{" + base + R"(,"server":"https://go.example.org"})"),
            "'server' must be http://HOST[:PORT] or ws://HOST[:PORT] (TLS is not supported: run "
            "the bridge next to the server)");
  EXPECT_EQ(problem("{" + base + R"(,"challenge":{"width":9,"handicap":3,"color":"nigiri"}})"),
            "'challenge': a handicap game has no nigiri: choose black, white or automatic");
  EXPECT_EQ(problem(R"({"username":"gnugo","engine":["gnugo"]})"),
            "no password: set 'password', or the environment variable TENGEN_BOT_PASSWORD");
  EXPECT_EQ(problem(R"({"username":"gnugo","engine":["gnugo"],"password_env":"GNUGO_PW"})",
                    [](const char* name) {
                      return std::string(name) == "GNUGO_PW" ? "from the environment" : nullptr;
                    }),
            "");
}

TEST(BridgeConfig, RefusesWhatThePolicyExcludes) {
  AcceptPolicy p;
  p.rated = false;
  p.max_handicap = 2;
  p.min_main_ms = 60'000;
  protocol::GameSettings s{.width = 9, .height = 9};
  EXPECT_EQ(refusal(p, s), std::nullopt);
  EXPECT_EQ(refusal(p, {.width = 9, .height = 7}),
            "the board is not square (GTP engines play square boards only)");
  EXPECT_EQ(refusal(p, {.width = 11, .height = 11}), "board size 11 is not one this bot plays");
  EXPECT_EQ(refusal(p, {.width = 9, .height = 9, .rated = true}),
            "this bot plays unrated games only");
  EXPECT_EQ(refusal(p, {.width = 9, .height = 9, .handicap = 3}),
            "handicap 3 is more than this bot's maximum of 2");
  s.time = {.system = System::Absolute, .main_ms = 30'000};
  EXPECT_EQ(refusal(p, s), "main time under 60 s is too fast for this bot");
  p.time_systems = {System::ByoYomi};
  EXPECT_EQ(refusal(p, s), "this bot does not play with absolute time");
  s.time = {.system = System::Correspondence, .per_move_ms = 86'400'000};
  EXPECT_EQ(refusal(p, s), "this bot does not play correspondence games");
}

}  // namespace
