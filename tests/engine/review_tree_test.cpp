#include <gtest/gtest.h>

#include "engine/review.h"

namespace tengen {
namespace {

GameTree empty_tree(int size = 9) {
  GameTree t;
  t.record.width = t.record.height = size;
  t.record.rules = "japanese";
  t.record.komi = 6.5;
  return t;
}

Point at(const char* gtp, int size = 9) {
  return *Geometry{size, size}.parse_gtp(gtp);
}

TEST(ReviewTree, MovesBranchAndAnExistingMoveIsFollowedNotAddedTwice) {
  ReviewTree r(empty_tree());
  const auto d4 = r.play({Color::Black, at("D4")});
  ASSERT_EQ(d4.error, MoveError::Ok);
  EXPECT_TRUE(d4.added);
  const auto f6 = r.play({Color::White, at("F6")});
  ASSERT_TRUE(f6.added);
  ASSERT_TRUE(r.go_to(d4.node));
  const auto c6 = r.play({Color::White, at("C6")});  // a variation beside F6
  ASSERT_TRUE(c6.added);
  EXPECT_EQ(r.tree().nodes[static_cast<std::size_t>(d4.node)].children,
            (std::vector<int>{f6.node, c6.node}));
  ASSERT_TRUE(r.go_to(d4.node));
  const auto again = r.play({Color::White, at("F6")});
  EXPECT_FALSE(again.added);
  EXPECT_EQ(again.node, f6.node);
  EXPECT_EQ(r.tree().nodes.size(), 4U);
  EXPECT_EQ(r.position().board().at(at("F6")), Color::White);
  EXPECT_EQ(r.position().board().at(at("C6")), Color::Empty) << "the other line's stone";
  EXPECT_EQ(r.position().to_move(), Color::Black);
}

TEST(ReviewTree, AnIllegalMoveChangesNothing) {
  ReviewTree r(empty_tree());
  ASSERT_EQ(r.play({Color::Black, at("E5")}).error, MoveError::Ok);
  const auto before = r.tree();
  const auto refused = r.play({Color::White, at("E5")});
  EXPECT_EQ(refused.error, MoveError::Occupied);
  EXPECT_EQ(r.tree(), before);
  EXPECT_EQ(r.current(), 1);
}

TEST(ReviewTree, KoIsJudgedAlongTheLineFromTheRoot) {
  // . B W .      Black takes at C3 (capturing B3), White may not retake at once.
  // B W . W
  // . B W .
  GameTree t = empty_tree(5);
  const Geometry g{5, 5};
  t.record.setup_black = {g.point(1, 0), g.point(0, 1), g.point(1, 2)};
  t.record.setup_white = {g.point(2, 0), g.point(1, 1), g.point(3, 1), g.point(2, 2)};
  t.record.player_to_move = Color::Black;
  ReviewTree r(std::move(t));
  std::vector<Point> captured;
  ASSERT_EQ(r.play({Color::Black, g.point(2, 1)}).error, MoveError::Ok);
  r.position(&captured);
  EXPECT_EQ(captured, (std::vector<Point>{g.point(1, 1)}));
  EXPECT_EQ(r.play({Color::White, g.point(1, 1)}).error, MoveError::Ko);
  ASSERT_EQ(r.play({Color::White, kPass}).error, MoveError::Ok);
  ASSERT_EQ(r.play({Color::Black, kPass}).error, MoveError::Ok);
  EXPECT_EQ(r.play({Color::White, g.point(1, 1)}).error, MoveError::Ok) << "after a ko threat";
}

TEST(ReviewTree, RemovingALineTakesItsNodesAndMovesTheCurrentNodeUp) {
  ReviewTree r(empty_tree());
  const int a = r.play({Color::Black, at("D4")}).node;
  const int b = r.play({Color::White, at("F6")}).node;
  const int c = r.play({Color::Black, at("F4")}).node;
  EXPECT_FALSE(r.remove(0)) << "the root stays";
  ASSERT_TRUE(r.remove(b));
  EXPECT_EQ(r.current(), a);
  EXPECT_FALSE(r.contains(b));
  EXPECT_FALSE(r.contains(c));
  EXPECT_FALSE(r.go_to(c));
  EXPECT_FALSE(r.remove(c)) << "already gone with its parent";
  EXPECT_EQ(r.tree().reachable(), 2U);
  EXPECT_EQ(r.position().board().at(at("F6")), Color::Empty);
}

TEST(ReviewTree, MarksAndCommentsBelongToTheCurrentNodeAndSurviveSgf) {
  ReviewTree r(empty_tree());
  r.set_comment("the opening");
  r.play({Color::Black, at("C3")});
  r.set_mark(at("C3"), Mark{kPass, MarkShape::Triangle, ""});
  r.set_mark(at("E5"), Mark{kPass, MarkShape::Label, "A"});
  r.set_mark(at("C3"), Mark{kPass, MarkShape::Circle, ""});  // replaces the triangle
  r.set_comment("a 3-3 invasion");
  r.set_mark(at("E5"), std::nullopt);
  EXPECT_EQ(r.marks(1), (std::vector<Mark>{{at("C3"), MarkShape::Circle, ""}}));
  EXPECT_EQ(r.comment(0), "the opening");
  EXPECT_EQ(r.comment(1), "a 3-3 invasion");
  const GameTree back = read_sgf_tree(write_sgf(r.tree()));
  EXPECT_EQ(back.record.comment, "the opening");
  EXPECT_EQ(back.nodes[1].marks, r.marks(1));
  EXPECT_EQ(back.nodes[1].move.comment, "a 3-3 invasion");
}

TEST(ReviewTree, HandicapStonesLetWhiteMoveFirstAndTheRulesComeFromTheRoot) {
  GameTree t = empty_tree();
  t.record.setup_black = {at("C3"), at("G7")};
  t.record.rules = "Chinese";
  t.record.komi = 0.5;
  ReviewTree r(std::move(t));
  EXPECT_EQ(r.first_to_move(), Color::White);
  EXPECT_EQ(r.position().to_move(), Color::White);
  EXPECT_EQ(r.rules().scoring, ScoringRule::Area);
  EXPECT_EQ(r.rules().komi, 0.5);
}

TEST(ReviewTree, ATreeWithAnImpossibleMoveIsRefusedWhole) {
  GameTree t = empty_tree();
  const int a = t.add(0, RecordedMove::of({Color::Black, at("D4")}));
  t.add(0, RecordedMove::of({Color::White, at("E5")}));
  t.add(a, RecordedMove::of({Color::White, at("D4")}));  // on Black's stone, in a side line
  EXPECT_THROW(ReviewTree{t}, SgfError);
}

}  // namespace
}  // namespace tengen
