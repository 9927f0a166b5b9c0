#include "engine/sgf.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tengen
