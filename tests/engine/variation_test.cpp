#include "engine/variation.h"

#include <gtest/gtest.h>

namespace tengen {
namespace {

// A ko on 5x5, set up as stones: Black takes at (2,1), capturing the White stone at (1,1).
//   . B W . .
//   B W . W .
//   . B W . .
Variation ko(const Rules& rules) {
  const Geometry g{5, 5};
  Variation v{Board(g), rules};
  const Point b[] = {g.point(1, 0), g.point(0, 1), g.point(1, 2)};
  const Point w[] = {g.point(2, 0), g.point(1, 1), g.point(3, 1), g.point(2, 2)};
  v.set_up(b, w, {});
  return v;
}

TEST(Variation, EitherColourMovesAndPassesEndNothing) {
  const Geometry g{9, 9};
  Variation v{Board(g)};
  EXPECT_EQ(v.play({Color::Black, g.point(2, 2)}), MoveError::Ok);
  EXPECT_EQ(v.play({Color::Black, g.point(6, 6)}), MoveError::Ok) << "a teacher's second move";
  EXPECT_EQ(v.to_move(), Color::White);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(v.play({i % 2 ? Color::Black : Color::White, kPass}), MoveError::Ok);
  EXPECT_EQ(v.play({Color::White, g.point(4, 4)}), MoveError::Ok) << "passes end nothing";
  EXPECT_EQ(v.moves(), 7);
  EXPECT_EQ(v.play({Color::White, g.point(4, 4)}), MoveError::Occupied);
  EXPECT_EQ(v.play({Color::Empty, g.point(5, 5)}), MoveError::WrongTurn);
  EXPECT_EQ(v.moves(), 7) << "a refused move changes nothing";
}

TEST(Variation, CapturesAreReportedAndKoIsTheGamesKo) {
  const Geometry g{5, 5};
  Variation v = ko(*Rules::preset("japanese"));
  std::vector<Point> removed;
  ASSERT_EQ(v.play({Color::Black, g.point(2, 1)}, &removed), MoveError::Ok);
  EXPECT_EQ(removed, std::vector<Point>{g.point(1, 1)});
  EXPECT_EQ(v.board().captures(Color::Black), 1);
  EXPECT_EQ(v.play({Color::White, g.point(1, 1)}), MoveError::Ko) << "the immediate retake";
  ASSERT_EQ(v.play({Color::White, g.point(4, 4)}), MoveError::Ok);  // a threat
  ASSERT_EQ(v.play({Color::Black, g.point(4, 3)}), MoveError::Ok);  // answered
  EXPECT_EQ(v.play({Color::White, g.point(1, 1)}, &removed), MoveError::Ok);
  EXPECT_EQ(removed, std::vector<Point>{g.point(2, 1)});
}

TEST(Variation, SuperkoFollowsTheRules) {
  // Under positional superko the retake after a pass each repeats the whole board: refused;
  // under simple ko it is allowed.
  const Geometry g{5, 5};
  Variation v = ko(*Rules::preset("chinese"));
  ASSERT_EQ(v.play({Color::Black, g.point(2, 1)}), MoveError::Ok);
  ASSERT_EQ(v.play({Color::White, kPass}), MoveError::Ok);
  ASSERT_EQ(v.play({Color::Black, kPass}), MoveError::Ok);
  EXPECT_EQ(v.play({Color::White, g.point(1, 1)}), MoveError::PositionalSuperko);
  Variation japanese = ko(*Rules::preset("japanese"));
  ASSERT_EQ(japanese.play({Color::Black, g.point(2, 1)}), MoveError::Ok);
  ASSERT_EQ(japanese.play({Color::White, kPass}), MoveError::Ok);
  ASSERT_EQ(japanese.play({Color::Black, kPass}), MoveError::Ok);
  EXPECT_EQ(japanese.play({Color::White, g.point(1, 1)}), MoveError::Ok) << "simple ko only";
}

}  // namespace
}  // namespace tengen
