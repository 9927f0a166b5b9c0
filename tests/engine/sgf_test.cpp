#include "engine/sgf.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace tengen {
namespace {

GameRecord sample() {
  GameRecord r;
  r.width = 19;
  r.height = 19;
  r.komi = 6.5;
  r.handicap = 2;
  r.rules = "japanese";
  r.black_name = "Shusaku";
  r.white_name = "Gennan [Inseki]";
  r.black_rank = "4d";
  r.white_rank = "8d";
  r.date = "1846-09-11";
  r.event = "Castle game";
  r.round = "1";
  r.result = "B+2";
  r.time_limit = 600;
  r.overtime = "5x30 byo-yomi";
  r.game_comment = "The ear-reddening game \\o/";
  const Geometry g = r.geometry();
  r.setup_black = {g.point(3, 15), g.point(15, 3)};
  r.moves = {
      {Color::White, g.point(16, 16), 598.5, {}, "first move", {}, {}},
      {Color::Black, g.point(2, 3), 590, {}, "", 1200, {}},
      {Color::White, kPass, 580.25, 5, "", {}, 3},
      {Color::Black, g.point(18, 18), {}, {}, "corner ]tricky[", {}, {}},
  };
  r.extra = {{"XN", {"nigiri proof 1f2e", "second value"}}};
  return r;
}

TEST(Sgf, RoundTripsEveryProperty) {
  const GameRecord r = sample();
  const std::string text = write_sgf(r);
  EXPECT_TRUE(text.starts_with("(;GM[1]FF[4]CA[UTF-8]AP[tengen]SZ[19]RU[japanese]KM[6.5]HA[2]"))
      << text;
  EXPECT_NE(text.find("PW[Gennan [Inseki\\]]"), std::string::npos) << text;
  EXPECT_NE(text.find(";W[]WL[580.25]OW[5]"), std::string::npos) << text;
  EXPECT_EQ(read_sgf(text), r);
}

// The reader once kept whichever of BL and WL came last as the mover's time: ;B[qc]BL[1727]WL[1788]
// came back as ;B[qc]BL[1788], Black with White's clock (93 of 7,259 records of a public corpus
// have both in one node). Each time now stays with its colour, in any order.
TEST(Sgf, EachClockPropertyStaysWithItsColour) {
  for (const char* text : {"(;GM[1]SZ[19];B[qc]BL[1727]WL[1788]OB[3]OW[5])",
                           "(;GM[1]SZ[19];WL[1788]OW[5]B[qc]OB[3]BL[1727])"}) {
    const GameRecord r = read_sgf(text);
    ASSERT_EQ(r.moves.size(), 1u) << text;
    EXPECT_EQ(r.moves[0].time_left, 1727) << text;
    EXPECT_EQ(r.moves[0].overtime_left, 3) << text;
    EXPECT_EQ(r.moves[0].opponent_time_left, 1788) << text;
    EXPECT_EQ(r.moves[0].opponent_overtime_left, 5) << text;
    const std::string written = write_sgf(r);
    EXPECT_NE(written.find(";B[qc]BL[1727]OB[3]WL[1788]OW[5]"), std::string::npos) << written;
    EXPECT_EQ(read_sgf(written), r);
  }
  const GameRecord white = read_sgf("(;GM[1]SZ[9];B[ee];W[cc]BL[30])");
  EXPECT_FALSE(white.moves[1].time_left) << "BL is not White's clock";
  EXPECT_EQ(white.moves[1].opponent_time_left, 30);
}

TEST(Sgf, RectangularBoardsUseTheComposedSize) {
  GameRecord r;
  r.width = 13;
  r.height = 7;
  r.moves = {{Color::Black, r.geometry().point(12, 6), {}, {}, {}, {}, {}}};
  const std::string text = write_sgf(r);
  EXPECT_NE(text.find("SZ[13:7]"), std::string::npos);
  EXPECT_NE(text.find(";B[mg]"), std::string::npos);
  EXPECT_EQ(read_sgf(text), r);
}

TEST(Sgf, ReadsTheMainLineOfARecordWithVariations) {
  const GameRecord r = read_sgf(R"(
    (;FF[4]GM[1]SZ[9]KM[7]AB[cc][gg]AW[ca:cb]PL[W]
      C[root \
comment]
      ;W[ee]BL[30]
      (;B[dd]C[main];W[tt]  ;B[]  )
      (;B[ff]C[variation];W[gf])
    )
    (;GM[1]SZ[19];B[aa])
  )");
  EXPECT_EQ(r.width, 9);
  EXPECT_EQ(r.komi, 7);
  const Geometry g = r.geometry();
  EXPECT_EQ(r.setup_black, (std::vector<Point>{g.point(2, 2), g.point(6, 6)}));
  EXPECT_EQ(r.setup_white, (std::vector<Point>{g.point(2, 0), g.point(2, 1)}));
  EXPECT_EQ(r.player_to_move, Color::White);
  EXPECT_EQ(r.comment, "root comment");
  ASSERT_EQ(r.moves.size(), 4u);
  EXPECT_EQ(r.moves[0].point, g.point(4, 4));
  EXPECT_EQ(r.moves[1].comment, "main");
  EXPECT_EQ(r.moves[2].point, kPass);  // tt on a small board
  EXPECT_EQ(r.moves[3].point, kPass);
}

TEST(Sgf, MalformedInputNamesTheOffset) {
  auto error_of = [](std::string_view text) -> std::string {
    try {
      read_sgf(text);
    } catch (const SgfError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error_of(""), "SGF error at offset 0: expected '(' to start a game tree");
  EXPECT_EQ(error_of("(;SZ[19];B[dd]"),
            "SGF error at offset 14: unterminated game tree: expected ')'");
  EXPECT_EQ(error_of("(;SZ[19];B[dd)"), "SGF error at offset 10: unterminated property value");
  EXPECT_EQ(error_of("(;SZ[30])"), "SGF error at offset 4: board size 30 is outside 2..25");
  EXPECT_EQ(error_of("(;SZ[9];B[zz])"), "SGF error at offset 9: bad point 'zz'");
  EXPECT_EQ(error_of("(;SZ[9]KM[six])"), "SGF error at offset 9: KM must be a number, not 'six'");
  EXPECT_EQ(error_of("(;GM[2])"), "SGF error at offset 4: not a Go record (GM[2])");
  EXPECT_EQ(error_of("(;SZ[9];B[aa]W[bb])"), "SGF error at offset 7: a node with both B and W");
  EXPECT_EQ(error_of("(;SZ[9]B)"), "SGF error at offset 8: property B has no value");
  EXPECT_EQ(error_of("(;B[aa]B[bb])"),
            "SGF error at offset 7: property B appears twice in one node");
  EXPECT_EQ(error_of("(;SZ[9]KM[7,5,5])"),
            "SGF error at offset 9: KM must be a number, not '7.5,5'");
  EXPECT_EQ(error_of("(;SZ[9]) junk"),
            "no error");  // trailing text after the collection is ignored
}

// The reader once refused what GNU Go and Sabaki read. Where the meaning is clear it now reads it
// and says what it accepted; a clean file has no warnings.
TEST(Sgf, ReadsWhatTheFieldsReadersReadWithWarnings) {
  const GameRecord r = read_sgf(
      "\xEF\xBB\xBF"
      "From: a club mailing list\n\n"
      "( ;GM[1]FF[4]SZ[ 13 ]KM[6,5]HA[]TM[]PL[w]AB[dd]AB[jj]C[one]C[two]"
      ";W[GG];B[dj])");
  EXPECT_EQ(r.width, 13);
  EXPECT_EQ(r.komi, 6.5);
  EXPECT_EQ(r.handicap, 0);
  EXPECT_FALSE(r.time_limit);
  EXPECT_EQ(r.player_to_move, Color::White);
  const Geometry g = r.geometry();
  EXPECT_EQ(r.setup_black, (std::vector<Point>{g.point(3, 3), g.point(9, 9)}));
  ASSERT_EQ(r.moves.size(), 2u);
  EXPECT_EQ(r.moves[0].point, g.point(6, 6)) << "GG read as gg";
  EXPECT_EQ(r.warnings, (std::vector<std::string>{
                            "offset 3: 27 bytes before the game tree ignored",
                            "offset 77: property AB repeated in one node; its values are joined",
                            "offset 89: property C repeated in one node; its values are joined",
                            "offset 45: SZ[ 13 ] read as 13", "offset 53: KM[6,5] read as 6.5",
                            "offset 60: empty HA[] ignored", "offset 64: empty TM[] ignored"}));
  EXPECT_TRUE(read_sgf(write_sgf(r)).warnings.empty());
}

// Setup during the game (AB AW AE after the first move, as problem and teaching records have):
// kept in the node where it stands, alone or before that node's move, and written back.
TEST(Sgf, SetupAfterTheFirstMoveIsKeptWhereItStands) {
  const auto r = read_sgf("(;GM[1]FF[4]SZ[9];B[aa];W[bb];AB[cc]AW[dd][ee]C[set up];AE[aa]B[ff])");
  const Geometry g{9, 9};
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.moves.size(), 4u);
  EXPECT_TRUE(r.moves[1].is_move());
  EXPECT_FALSE(r.moves[2].is_move()) << "a setup node has no move";
  EXPECT_EQ(r.moves[2].add_black, std::vector<Point>{g.point(2, 2)});
  EXPECT_EQ(r.moves[2].add_white, (std::vector<Point>{g.point(3, 3), g.point(4, 4)}));
  EXPECT_EQ(r.moves[2].comment, "set up");
  EXPECT_EQ(r.moves[3].add_empty, std::vector<Point>{g.point(0, 0)});
  EXPECT_EQ(r.moves[3].color, Color::Black);
  EXPECT_EQ(r.moves[3].point, g.point(5, 5));
  EXPECT_EQ(read_sgf(write_sgf(r)), r) << write_sgf(r);
}

TEST(Sgf, FromGameRecordsSetupAndMoves) {
  Game g = Game::with_fixed_handicap({9, 9}, *Rules::preset("japanese"), 2);
  ASSERT_EQ(g.play({Color::White, g.board().point(4, 4)}), MoveError::Ok);
  ASSERT_EQ(g.play({Color::Black, kPass}), MoveError::Ok);
  g.resign(Color::White);
  const GameRecord r = GameRecord::from_game(g);
  EXPECT_EQ(r.handicap, 2);
  EXPECT_EQ(r.komi, 6.5);
  EXPECT_EQ(r.rules, "japanese");
  EXPECT_EQ(r.setup_black.size(), 2u);
  ASSERT_EQ(r.moves.size(), 2u);
  EXPECT_EQ(r.moves[1].point, kPass);
  EXPECT_EQ(r.result, "B+R");
  EXPECT_EQ(read_sgf(write_sgf(r)), r);
}

// ---- game trees: variations and marks ----

TEST(SgfTree, ReadsEveryVariationAndMark) {
  const GameTree t = read_sgf_tree(
      "(;GM[1]SZ[9]TR[aa]C[root]"
      "(;B[cc]LB[dd:A][ee:two words]SQ[ff:gg](;W[dd]C[main])(;W[ee]CR[aa]MA[bb]))"
      "(;B[dd];AB[ee]AE[cc]C[setup]))");
  const Geometry g{9, 9};
  ASSERT_EQ(t.nodes.size(), 6u);
  EXPECT_EQ(t.record.comment, "root");
  EXPECT_EQ(t.nodes[0].marks, (std::vector<Mark>{{g.point(0, 0), MarkShape::Triangle, ""}}));
  EXPECT_EQ(t.nodes[0].children, (std::vector<int>{1, 4}));
  EXPECT_EQ(t.nodes[1].move.point, g.point(2, 2));
  EXPECT_EQ(t.nodes[1].children, (std::vector<int>{2, 3}));
  EXPECT_EQ(t.nodes[1].marks, (std::vector<Mark>{{g.point(3, 3), MarkShape::Label, "A"},
                                                 {g.point(4, 4), MarkShape::Label, "two words"},
                                                 {g.point(5, 5), MarkShape::Square, ""},
                                                 {g.point(6, 5), MarkShape::Square, ""},
                                                 {g.point(5, 6), MarkShape::Square, ""},
                                                 {g.point(6, 6), MarkShape::Square, ""}}));
  EXPECT_EQ(t.nodes[2].move.comment, "main");
  EXPECT_EQ(t.nodes[3].marks, (std::vector<Mark>{{g.point(0, 0), MarkShape::Circle, ""},
                                                 {g.point(1, 1), MarkShape::Cross, ""}}));
  EXPECT_EQ(t.nodes[5].parent, 4);
  EXPECT_FALSE(t.nodes[5].move.is_move());
  EXPECT_EQ(t.nodes[5].move.add_black, std::vector<Point>{g.point(4, 4)});
  EXPECT_EQ(t.nodes[5].move.add_empty, std::vector<Point>{g.point(2, 2)});
  EXPECT_EQ(t.path_to(3), (std::vector<int>{0, 1, 3}));

  // The main line is what the main-line reader reads.
  const std::string text = write_sgf(t);
  EXPECT_EQ(t.main_line().moves, read_sgf(text).moves);
  EXPECT_EQ(t.main_line().moves.size(), 2u);
  // Written and read back: the same tree (marks grouped by shape, as SGF writes them).
  const GameTree again = read_sgf_tree(text);
  ASSERT_EQ(again.nodes.size(), t.nodes.size()) << text;
  for (std::size_t i = 0; i < t.nodes.size(); ++i) {
    EXPECT_EQ(again.nodes[i].children, t.nodes[i].children) << i;
    EXPECT_EQ(again.nodes[i].move, t.nodes[i].move) << i;
    EXPECT_TRUE(std::is_permutation(again.nodes[i].marks.begin(), again.nodes[i].marks.end(),
                                    t.nodes[i].marks.begin(), t.nodes[i].marks.end()))
        << i;
  }
  EXPECT_EQ(write_sgf(again), text);
  EXPECT_NE(text.find("(;B[cc]SQ[ff][gf][fg][gg]LB[dd:A][ee:two words]"), std::string::npos)
      << text;
}

TEST(SgfTree, ARecordIsATreeOfOneLineWrittenAsBefore) {
  GameRecord r;
  r.width = r.height = 9;
  const Geometry g = r.geometry();
  for (int i = 0; i < 10; ++i)
    r.moves.push_back(
        RecordedMove::of({i % 2 ? Color::White : Color::Black, g.point(i % 9, i / 9)}));
  const GameTree t = GameTree::of(r);
  EXPECT_EQ(t.reachable(), 11u);
  EXPECT_EQ(write_sgf(t), write_sgf(r));
  EXPECT_EQ(t.main_line().moves, r.moves);
  EXPECT_EQ(read_sgf_tree(write_sgf(r)).nodes, t.nodes);
}

TEST(SgfTree, AddAndRemoveKeepIndices) {
  GameTree t;
  const Geometry g = t.record.geometry();
  const int a = t.add(0, RecordedMove::of({Color::Black, g.point(3, 3)}));
  const int b = t.add(a, RecordedMove::of({Color::White, g.point(15, 15)}));
  const int c = t.add(a, RecordedMove::of({Color::White, g.point(15, 3)}));
  const int d = t.add(c, RecordedMove::of({Color::Black, g.point(3, 15)}));
  EXPECT_EQ(t.reachable(), 5u);
  t.remove(c);
  EXPECT_EQ(t.reachable(), 3u);
  EXPECT_EQ(t.nodes[static_cast<std::size_t>(a)].children, std::vector<int>{b});
  EXPECT_EQ(t.path_to(d), (std::vector<int>{0, a, c, d})) << "a cut node keeps its index";
  const std::string text = write_sgf(t);
  EXPECT_EQ(text.find("W[pd]"), std::string::npos) << text;
  EXPECT_EQ(read_sgf_tree(text).reachable(), 3u);
  t.remove(0);  // the root stays
  EXPECT_EQ(t.reachable(), 3u);
}

// A variation inside a variation inside a variation... any depth: neither reading nor writing
// recurses, so a hostile upload cannot exhaust the stack.
TEST(SgfTree, AnyNestingDepthIsSafe) {
  constexpr int kDepth = 200000;
  std::string text = "(;GM[1]SZ[19]";
  for (int i = 0; i < kDepth; ++i) text += i % 2 ? "(;W[aa]" : "(;B[bb]";
  text += std::string(kDepth + 1, ')');
  const GameTree t = read_sgf_tree(text, kDepth + 1);
  EXPECT_EQ(t.reachable(), static_cast<std::size_t>(kDepth + 1));
  EXPECT_EQ(read_sgf(text).moves.size(), static_cast<std::size_t>(kDepth));
  EXPECT_EQ(read_sgf_tree(write_sgf(t), kDepth + 1).nodes.size(), t.nodes.size());
  // Wide, too: a branch at every node.
  GameTree wide;
  int at = 0;
  for (int i = 0; i < 50000; ++i) {
    wide.add(at, RecordedMove::of({Color::Black, kPass}));
    at = wide.add(at, RecordedMove::of({Color::White, kPass}));
  }
  EXPECT_EQ(read_sgf_tree(write_sgf(wide), wide.nodes.size()).nodes, wide.nodes);
}

TEST(SgfTree, RefusesMoreNodesThanAllowedAndBadMarks) {
  try {
    read_sgf_tree("(;GM[1];B[aa];W[bb];B[cc])", 3);
    FAIL() << "four nodes read with a bound of three";
  } catch (const SgfError& e) {
    EXPECT_EQ(e.offset(), 19u) << e.what();
    EXPECT_NE(std::string(e.what()).find("more than 3 nodes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_sgf_tree("(;GM[1]SZ[9];B[aa]LB[zz:x])"), SgfError);
  EXPECT_THROW(read_sgf_tree("(;GM[1]SZ[9];B[aa]LB[x])"), SgfError);
  EXPECT_THROW(read_sgf_tree("(;GM[1]SZ[9];B[aa](;W[bb])"), SgfError);
  EXPECT_THROW(read_sgf_tree("(;GM[1]SZ[9](;B[aa]);W[bb])"), SgfError);
}

}  // namespace
}  // namespace tengen
