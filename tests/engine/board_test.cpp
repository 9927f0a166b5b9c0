#include "engine/board.h"

#include <gtest/gtest.h>

namespace tengen {
namespace {

Point at(const Board& b, std::string_view gtp) {
  return *b.geometry().parse_gtp(gtp);
}

void play(Board& b, std::string_view gtp, Color c) {
  const Point p = at(b, gtp);
  ASSERT_EQ(b.check(p, c, false), MoveError::Ok) << gtp;
  b.play(p, c);
  b.check_consistency();
}

TEST(Board, RejectsSizesOutsideTwoToTwentyFive) {
  EXPECT_THROW(Board(1, 9), std::invalid_argument);
  EXPECT_THROW(Board(26, 9), std::invalid_argument);
  EXPECT_NO_THROW(Board(2, 2));
  EXPECT_NO_THROW(Board(25, 25));
  EXPECT_NO_THROW(Board(25, 2));
}

TEST(Board, EmptyBoardIsConsistent) {
  for (int w = 2; w <= 25; w += 23) {
    for (int h = 2; h <= 25; h += 23) {
      Board b(w, h);
      b.check_consistency();
      EXPECT_EQ(b.empty_count(), w * h);
    }
  }
}

TEST(Board, CoordinatesRoundTrip) {
  Board b(19, 19);
  EXPECT_EQ(b.geometry().to_gtp(b.point(0, 18)), "A1");
  EXPECT_EQ(b.geometry().to_gtp(b.point(8, 0)), "J19");  // no letter I
  EXPECT_EQ(b.geometry().to_sgf(b.point(3, 3)), "dd");
  EXPECT_EQ(at(b, "d4"), b.point(3, 15));
  EXPECT_FALSE(b.geometry().parse_gtp("I5"));
  EXPECT_FALSE(b.geometry().parse_gtp("A20"));
  EXPECT_FALSE(b.geometry().parse_gtp("A0"));
  EXPECT_EQ(b.geometry().parse_sgf("tt"), kPass);
  Board big(25, 25);
  EXPECT_EQ(big.geometry().parse_sgf("yy"), big.point(24, 24));
  EXPECT_NE(big.geometry().parse_sgf("tt"), kPass);
}

TEST(Board, CapturesASingleStone) {
  Board b = Board::from_diagram(R"(
    . X . .
    X O . .
    . X . .
    . . . .
  )");
  const Point c3 = at(b, "C3");
  EXPECT_EQ(b.liberties(at(b, "B3")), 1);
  b.play(c3, Color::Black);
  b.check_consistency();
  EXPECT_EQ(b.to_diagram(), ".X..\nX.X.\n.X..\n....\n");
  EXPECT_EQ(b.captures(Color::Black), 1);
}

TEST(Board, KoForbidsOnlyTheImmediateRecapture) {
  Board b = Board::from_diagram(R"(
    . X O .
    X O . O
    . X O .
    . . . .
  )");
  play(b, "C3", Color::Black);  // captures B3
  EXPECT_EQ(b.ko_point(), at(b, "B3"));
  EXPECT_EQ(b.check(at(b, "B3"), Color::White, false), MoveError::Ko);
  EXPECT_EQ(b.check(at(b, "B3"), Color::Black, false), MoveError::Ok);  // filling is fine
  play(b, "D1", Color::White);  // a ko threat elsewhere clears the ban
  EXPECT_EQ(b.check(at(b, "B3"), Color::White, false), MoveError::Ok);
}

TEST(Board, SuicideIsRefusedOrPlayedAsTheRulesSay) {
  Board b = Board::from_diagram(R"(
    . O . .
    O . . .
    . . . .
    . . . .
  )");
  const Point a4 = at(b, "A4");
  EXPECT_EQ(b.check(a4, Color::Black, false), MoveError::Suicide);
  EXPECT_EQ(b.check(a4, Color::Black, true), MoveError::Ok);
  const Hash128 before = b.hash();
  EXPECT_EQ(b.hash_after(a4, Color::Black), before);
  b.play(a4, Color::Black);
  b.check_consistency();
  EXPECT_EQ(b.hash(), before);
  EXPECT_EQ(b.captures(Color::White), 1);
}

TEST(Board, MultiStoneSuicideRemovesTheWholeChain) {
  Board b = Board::from_diagram(R"(
    X . O .
    O O . .
    . . . .
  )");
  const Point b3 = at(b, "B3");
  EXPECT_EQ(b.check(b3, Color::Black, false), MoveError::Suicide);
  const Hash128 expected = b.hash() ^ zobrist::stone(at(b, "A3"), Color::Black);
  EXPECT_EQ(b.hash_after(b3, Color::Black), expected);
  b.play(b3, Color::Black);
  b.check_consistency();
  EXPECT_EQ(b.to_diagram(), "..O.\nOO..\n....\n");
  EXPECT_EQ(b.captures(Color::White), 2);
}

TEST(Board, CaptureThatSavesASelfAtariIsLegal) {
  // Black at B1 has no liberty of its own but captures A1... the white stone at A2 is in atari.
  Board b = Board::from_diagram(R"(
    . . . .
    X . . .
    O X . .
    . O X .
  )");
  const Point a1 = at(b, "A1");
  ASSERT_EQ(b.check(a1, Color::Black, false), MoveError::Ok);
  const Hash128 predicted = b.hash_after(a1, Color::Black);
  b.play(a1, Color::Black);
  b.check_consistency();
  EXPECT_EQ(b.hash(), predicted);
  EXPECT_EQ(b.to_diagram(), "....\nX...\n.X..\nX.X.\n");
}

TEST(Board, SnapbackCapturesMoreThanWasGiven) {
  Board b = Board::from_diagram(R"(
    . . . . .
    O O O . .
    X X X O .
    . . X O .
  )");
  play(b, "B1", Color::White);  // throw-in
  EXPECT_EQ(b.liberties(at(b, "B1")), 1);
  play(b, "A1", Color::Black);     // black takes the stone...
  EXPECT_EQ(b.ko_point(), kPass);  // ...which is no ko: the taker has joined a larger chain
  EXPECT_EQ(b.captures(Color::Black), 1);
  play(b, "B1", Color::White);  // ...and white snaps back five stones
  EXPECT_EQ(b.captures(Color::White), 5);
  EXPECT_EQ(b.to_diagram(), ".....\nOOO..\n...O.\n.O.O.\n");
}

TEST(Board, EyeTestKnowsFalseEyes) {
  Board b = Board::from_diagram(R"(
    . X . X .
    X . X O .
    . X O . .
    X X . . .
    . . . . .
  )");
  EXPECT_TRUE(b.is_eye(at(b, "B4"), Color::Black));   // one white diagonal in the middle: real
  EXPECT_FALSE(b.is_eye(at(b, "C5"), Color::Black));  // on the edge with a white diagonal: false
  EXPECT_TRUE(b.is_eye(at(b, "A5"), Color::Black));   // corner
  EXPECT_FALSE(b.is_eye(at(b, "B4"), Color::White));
  EXPECT_FALSE(b.is_eye(at(b, "D2"), Color::Black));  // not surrounded
}

TEST(Board, SetupRejectsStarvedChains) {
  Board b = Board::from_diagram(R"(
    . O .
    O . .
    . . .
  )");
  EXPECT_THROW(b.set_stone(at(b, "A3"), Color::Black), std::invalid_argument);
  b.check_consistency();
  EXPECT_EQ(b.at(at(b, "A3")), Color::Empty);
  b.set_stone(at(b, "C1"), Color::Black);
  b.set_stone(at(b, "B3"), Color::Empty);
  b.check_consistency();
  EXPECT_EQ(b.to_diagram(), "...\nO..\n..X\n");
}

}  // namespace
}  // namespace tengen
