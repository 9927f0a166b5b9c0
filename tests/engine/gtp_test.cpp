#include "engine/gtp.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tengen {
namespace {

GtpResponse run(GtpEngine& e, std::string_view line) {
  return e.execute(*parse_gtp_line(line));
}

TEST(GtpParse, PreprocessesLikeTheStandardSays) {
  EXPECT_FALSE(parse_gtp_line("   # only a comment"));
  EXPECT_FALSE(parse_gtp_line(""));
  const auto c = parse_gtp_line("12\tplay  black\x01 D4 # comment");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->id, 12);
  EXPECT_EQ(c->name, "play");
  EXPECT_EQ(c->args, (std::vector<std::string>{"black", "D4"}));
  EXPECT_EQ(format_gtp_response(12, {true, "ok"}), "=12 ok\n\n");
  EXPECT_EQ(format_gtp_response(std::nullopt, {false, "illegal move"}), "? illegal move\n\n");
}

TEST(Gtp, RunLoopAnswersEachCommandAndStopsAtQuit) {
  GtpEngine e;
  std::istringstream in("1 protocol_version\n\n2 frobnicate\nquit\nname\n");
  std::ostringstream out;
  e.run(in, out);
  EXPECT_EQ(out.str(), "=1 2\n\n?2 unknown command\n\n=\n\n");
}

TEST(Gtp, RectangularBoardsAndBadSizes) {
  GtpEngine e;
  EXPECT_TRUE(run(e, "rectangular_boardsize 13 7").ok);
  EXPECT_EQ(e.board().width(), 13);
  EXPECT_EQ(e.board().height(), 7);
  EXPECT_TRUE(run(e, "play b N7").ok);
  EXPECT_FALSE(run(e, "play b A8").ok);
  EXPECT_EQ(run(e, "boardsize 26").text, "unacceptable size");
  EXPECT_EQ(run(e, "boardsize nine").text, "boardsize not an integer");
}

// A command missing its arguments is answered with GNU Go 3.8's words (compared by hand with
// /usr/games/gnugo --mode gtp); extra arguments, which GNU Go ignores, stay a syntax error here.
TEST(Gtp, MissingArgumentsAreAnsweredInGnuGosWords) {
  GtpEngine e;
  const std::pair<const char*, const char*> cases[] = {
      {"play black", "invalid color or coordinate"},
      {"play", "invalid color or coordinate"},
      {"is_legal black", "invalid color or coordinate"},
      {"boardsize", "boardsize not an integer"},
      {"boardsize abc", "boardsize not an integer"},
      {"komi", "komi not a float"},
      {"fixed_handicap", "handicap not an integer"},
      {"list_stones", "invalid color"},
      {"captures", "invalid color"},
      {"loadsgf", "missing filename"},
      {"final_status_list", "missing status"},
      {"play black A1 extra", "syntax error"},
  };
  for (const auto& [command, text] : cases) {
    const auto answer = run(e, command);
    EXPECT_FALSE(answer.ok) << command;
    EXPECT_EQ(answer.text, text) << command;
  }
  const auto known = run(e, "known_command");
  EXPECT_TRUE(known.ok) << "no command named is no known command, as GNU Go answers";
  EXPECT_EQ(known.text, "false");
}

// loadsgf does a record's setup during the game where it stands. GNU Go 3.8 gives the same
// stones except that it ignores AE there (it keeps A9); AE clears points, as the SGF standard says.
TEST(Gtp, LoadsgfDoesSetupDuringTheGame) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("tengen-gtp-setup-" + std::to_string(::getpid()) + ".sgf");
  std::ofstream(path) << "(;GM[1]FF[4]SZ[9];B[aa];W[bb];AB[cc]AW[dd];AE[aa]B[ff];W[gg])";
  GtpEngine e;
  const auto loaded = run(e, "loadsgf " + path.string());
  ASSERT_TRUE(loaded.ok) << loaded.text;
  EXPECT_EQ(loaded.text, "black");
  EXPECT_EQ(run(e, "list_stones black").text, "C7 F4");
  EXPECT_EQ(run(e, "list_stones white").text, "B8 D6 G3");
  // Stopped before move 3 (B F4): the setup after move 2 is done, the next mover is Black.
  const auto part = run(e, "loadsgf " + path.string() + " 3");
  EXPECT_EQ(part.text, "black");
  EXPECT_EQ(run(e, "list_stones black").text, "A9 C7");
  std::filesystem::remove(path);
}

TEST(Gtp, RulesSelectionChangesLegality) {
  GtpEngine e;
  run(e, "boardsize 5");
  for (const char* m : {"play w B5", "play w A4"}) ASSERT_TRUE(run(e, m).ok);
  EXPECT_EQ(run(e, "is_legal b A5").text, "0");  // suicide, forbidden by default
  EXPECT_TRUE(run(e, "kgs-rules new_zealand").ok);
  EXPECT_EQ(run(e, "is_legal b A5").text, "1");
  EXPECT_TRUE(run(e, "kgs-rules tromp-taylor").ok);
  EXPECT_EQ(run(e, "is_legal b A5").text, "0");  // allowed, but repeats the position
  EXPECT_FALSE(run(e, "kgs-rules backgammon").ok);
  EXPECT_TRUE(run(e, "tengen-rules japanese komi=0.5").ok);
  EXPECT_EQ(run(e, "tengen-rules").text,
            "ko=simple suicide=forbidden scoring=territory handicap-compensation=0 pass-stones=no "
            "free-handicap=no resume=requester komi=0.5");
  EXPECT_EQ(run(e, "tengen-rules ko=never").text, "bad value 'never' for ko");
}

// The referee once rebuilt its superko history after an undo, relabelling each position with the
// colour that moved from it: the same sequence was then legal or not depending on an unrelated
// pass and undo. It now takes back exactly what the undone move added.
TEST(Gtp, SituationalSuperkoDoesNotDependOnAnUndoneMove) {
  auto answer = [](bool with_pass_and_undo) {
    GtpEngine e;
    run(e, "boardsize 2");
    EXPECT_TRUE(run(e, "tengen-rules ko=situational suicide=allowed").ok);
    for (const char* m : {"play white A1", "play black pass", "play white B1", "play black pass",
                          "play white A2", "play black pass"}) {
      EXPECT_TRUE(run(e, m).ok) << m;
    }
    if (with_pass_and_undo) {
      EXPECT_TRUE(run(e, "play white pass").ok);
      EXPECT_TRUE(run(e, "undo").ok);
    }
    return run(e, "is_legal white B2").text;
  };
  EXPECT_EQ(answer(true), answer(false));
  EXPECT_EQ(answer(false), "0");  // the board empties: the start, Black to move, again
}

// Under superko the simple-ko point once refused an immediate retake even when the situation it
// made was new (the capturer had moved twice in a row, which GTP allows). Only a repetition is
// refused; in alternating play every immediate retake is one, and is still called ko. Here the
// retake makes the position that followed Black's A4 again: a repetition of the position
// (positional superko refuses it), but with Black to move instead of White, so a new situation
// (situational superko allows it).
TEST(Gtp, UnderSuperkoARetakeIsJudgedByTheWholeBoard) {
  for (const auto& [rules, legal] : {std::pair{"tengen-rules ko=positional", "0"},
                                     std::pair{"tengen-rules ko=situational", "1"}}) {
    GtpEngine e;
    run(e, "boardsize 4");
    ASSERT_TRUE(run(e, rules).ok);
    for (const char* m :
         {"play black A2", "play white C1", "play black B3", "play white C3", "play black B1",
          "play white D2", "play black pass", "play white B2", "play black A4", "play black C2"}) {
      ASSERT_TRUE(run(e, m).ok) << rules << ": " << m;
    }
    EXPECT_EQ(run(e, "is_legal white B2").text, legal) << rules;
  }
  GtpEngine simple;
  run(simple, "boardsize 4");
  ASSERT_TRUE(run(simple, "tengen-rules ko=simple").ok);
  for (const char* m :
       {"play black A2", "play white C1", "play black B3", "play white C3", "play black B1",
        "play white D2", "play black pass", "play white B2", "play black A4", "play black C2"}) {
    ASSERT_TRUE(run(simple, m).ok) << m;
  }
  EXPECT_EQ(run(simple, "is_legal white B2").text, "0") << "simple ko: the ko point decides";
}

TEST(Gtp, FinalScoreIsTrompTaylor) {
  GtpEngine e;
  run(e, "boardsize 5");
  run(e, "komi 0.5");
  for (const char* m : {"play b B1", "play b B2", "play b B3", "play b B4", "play b B5",
                        "play w C1", "play w C2", "play w C3", "play w C4", "play w C5"}) {
    ASSERT_TRUE(run(e, m).ok);
  }
  EXPECT_EQ(run(e, "final_score").text, "W+5.5");
}

TEST(Gtp, FinalStatusListGroupsTheDeadStonesByChain) {
  GtpEngine e;
  run(e, "boardsize 7");
  for (const char* m :
       {"play b C1", "play b C2", "play b C3", "play b C4", "play b C5", "play b C6", "play b C7",
        "play w D1", "play w D2", "play w D3", "play w D4", "play w D5", "play w D6", "play w D7",
        "play w A4", "play w A5", "play b F2"}) {
    ASSERT_TRUE(run(e, m).ok) << m;
  }
  EXPECT_EQ(run(e, "final_status_list dead").text, "A5 A4\nF2");
  EXPECT_EQ(run(e, "final_status_list seki").text, "");
  EXPECT_FALSE(run(e, "final_status_list undead").ok);
}

TEST(Gtp, LoadsgfReplaysToTheGivenMove) {
  const auto path = std::filesystem::temp_directory_path() / "tengen-gtp-test.sgf";
  std::ofstream(path) << "(;GM[1]FF[4]SZ[9]KM[5.5]AB[cc]AW[gg];W[ee];B[dd];W[ff])";
  GtpEngine e;
  EXPECT_EQ(run(e, "loadsgf " + path.string()).text, "black");
  EXPECT_EQ(run(e, "list_stones white").text, "E5 F4 G3");
  EXPECT_EQ(run(e, "get_komi").text, "5.5");
  EXPECT_EQ(run(e, "loadsgf " + path.string() + " 2").text, "black");
  EXPECT_EQ(run(e, "list_stones white").text, "E5 G3");
  EXPECT_TRUE(run(e, "undo").ok);
  EXPECT_EQ(run(e, "list_stones white").text, "G3");
  EXPECT_FALSE(run(e, "undo").ok);  // setup stones are not moves

  std::ofstream(path) << "(;GM[1]SZ[9];B[ee];W[ee])";
  const auto illegal = run(e, "loadsgf " + path.string());
  EXPECT_FALSE(illegal.ok);
  EXPECT_EQ(illegal.text, "illegal move E5 at move 2 of the SGF");
  EXPECT_EQ(run(e, "list_stones white").text, "G3");  // unchanged by the failed load
  std::ofstream(path) << "(;GM[1]SZ[9];B[ee]";
  EXPECT_NE(run(e, "loadsgf " + path.string()).text.find("SGF error at offset"), std::string::npos);

  // As GNU Go: 0 is the whole game, and the answer is the colour of the record's next move.
  std::ofstream(path) << "(;GM[1]SZ[9];B[aa];B[bb];W[cc])";
  EXPECT_EQ(run(e, "loadsgf " + path.string() + " 0").text, "black");
  EXPECT_EQ(run(e, "list_stones black").text, "A9 B8");
  EXPECT_EQ(run(e, "loadsgf " + path.string() + " 2").text, "black") << "B[bb] comes next";
  EXPECT_EQ(run(e, "list_stones black").text, "A9");
  EXPECT_EQ(run(e, "loadsgf " + path.string() + " 3").text, "white");
  std::filesystem::remove(path);
  EXPECT_FALSE(run(e, "loadsgf /no/such/file.sgf").ok);
}

// printsgf writes the game so far, so that records can be checked by a round trip from outside.
TEST(Gtp, PrintsgfWritesTheGameThatLoadsgfReadsBack) {
  GtpEngine e;
  run(e, "boardsize 9");
  run(e, "komi 6.5");
  ASSERT_TRUE(run(e, "fixed_handicap 2").ok);
  for (const char* m : {"play white E5", "play black D4", "play white pass", "play black F6"})
    ASSERT_TRUE(run(e, m).ok) << m;
  const auto printed = run(e, "printsgf");
  ASSERT_TRUE(printed.ok);
  EXPECT_EQ(printed.text.find("\n\n"), std::string::npos) << "no blank line inside a GTP answer";
  EXPECT_NE(printed.text.find("AB[gc][cg]"), std::string::npos) << printed.text;
  EXPECT_NE(printed.text.find(";W[ee];B[df];W[];B[fd]"), std::string::npos) << printed.text;
  const auto path = std::filesystem::temp_directory_path() / "tengen-printsgf-test.sgf";
  ASSERT_TRUE(run(e, "printsgf " + path.string()).ok);
  GtpEngine back;
  EXPECT_EQ(run(back, "loadsgf " + path.string()).text, "white");
  for (const char* c : {"list_stones black", "list_stones white", "get_komi"})
    EXPECT_EQ(run(back, c).text, run(e, c).text) << c;
  std::filesystem::remove(path);
}

// GTP details that once went through: komi that is not a number, rules that dropped the komi, and
// ids that are not ids.
TEST(Gtp, KomiRulesAndIdsAreCheckedLikeGnuGo) {
  GtpEngine e;
  EXPECT_EQ(run(e, "komi nan").text, "komi not a float");
  EXPECT_EQ(run(e, "komi inf").text, "komi not a float");
  ASSERT_TRUE(run(e, "komi 7.5").ok);
  ASSERT_TRUE(run(e, "tengen-rules ko=situational").ok);
  EXPECT_EQ(run(e, "get_komi").text, "7.5") << "options alone keep the komi";
  ASSERT_TRUE(run(e, "tengen-rules suicide=allowed").ok);
  EXPECT_NE(run(e, "tengen-rules").text.find("ko=situational-superko suicide=allowed"),
            std::string::npos)
      << "and the other options: " << run(e, "tengen-rules").text;
  ASSERT_TRUE(run(e, "tengen-rules japanese").ok);
  EXPECT_EQ(run(e, "get_komi").text, "7.5") << "a preset keeps it too, as kgs-rules does";
  ASSERT_TRUE(run(e, "tengen-rules chinese komi=5.5").ok);
  EXPECT_EQ(run(e, "get_komi").text, "5.5");
  for (const char* line : {"99999999999 name", "1a name"}) {
    const auto c = parse_gtp_line(line);
    ASSERT_TRUE(c);
    EXPECT_FALSE(c->id);
    const auto answer = e.execute(*c);
    EXPECT_FALSE(answer.ok) << line;
    EXPECT_EQ(answer.text, "syntax error: a command id is a number from 0 to 2147483647");
  }
}

TEST(Gtp, HandicapCommandsNeedAnEmptyBoard) {
  GtpEngine e;
  run(e, "boardsize 19");
  EXPECT_EQ(run(e, "fixed_handicap 4").text, "D16 Q16 D4 Q4");
  EXPECT_EQ(run(e, "fixed_handicap 2").text, "board not empty");
  run(e, "clear_board");
  EXPECT_EQ(run(e, "set_free_handicap A1 A1").text, "bad vertex list");
  EXPECT_TRUE(run(e, "set_free_handicap A1 T19 K10").ok);
  EXPECT_EQ(run(e, "list_stones black").text, "T19 K10 A1");
}

}  // namespace
}  // namespace tengen
