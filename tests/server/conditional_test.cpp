// Conditional moves' trees (docs/correspondence.md, rooms/conditional.h): lines read into a tree
// whose shared starts are one, written back as lines, bounded, and checked against a position.
#include "rooms/conditional.h"

#include <gtest/gtest.h>

#include "engine/game.h"

namespace tengen {
namespace {

const Geometry k9{9, 9};

ConditionalTree tree_of(const std::vector<std::string>& lines) {
  auto read = conditional_tree(lines, k9);
  EXPECT_TRUE(std::holds_alternative<ConditionalTree>(read)) << std::get<std::string>(read);
  return std::get<ConditionalTree>(read);
}

std::string problem_of(const std::vector<std::string>& lines) {
  auto read = conditional_tree(lines, k9);
  return std::holds_alternative<std::string>(read) ? std::get<std::string>(read) : "";
}

TEST(ConditionalMoves, LinesThatBeginAlikeShareTheirStart) {
  const auto tree = tree_of({"c7 d7 c6 d6", "G3 G4", "C7 D7 B7 B8", "C7 D7"});
  ASSERT_EQ(tree.size(), 2u);
  EXPECT_EQ(tree[0].expected, *k9.parse_gtp("C7"));
  EXPECT_EQ(tree[0].reply, *k9.parse_gtp("D7"));
  ASSERT_EQ(tree[0].then.size(), 2u) << "C6 and B7 after C7 D7";
  EXPECT_TRUE(tree[1].then.empty());
  EXPECT_EQ(conditional_lines(tree, k9),
            (std::vector<std::string>{"C7 D7 C6 D6", "C7 D7 B7 B8", "G3 G4"}));
  EXPECT_TRUE(conditional_lines({}, k9).empty());
  EXPECT_EQ(conditional_lines(tree_of(conditional_lines(tree, k9)), k9),
            conditional_lines(tree, k9))
      << "written and read back alike (how they are stored)";
}

TEST(ConditionalMoves, WhatCannotBeReadIsSaidWithItsLine) {
  EXPECT_EQ(problem_of({"C7 D7", "  "}), "line 2 is empty");
  EXPECT_EQ(problem_of({"C7 D7 E5"}),
            "line 1 ends with E5, your opponent's move, without your reply");
  EXPECT_EQ(problem_of({"C7 I7"}),
            "line 1: 'I7' is not a point on this 9x9 board (GTP coordinates such as D4)");
  EXPECT_EQ(problem_of({"C7 K1"}),
            "line 1: 'K1' is not a point on this 9x9 board (GTP coordinates such as D4)");
  // A line of 42 moves, and 202 moves in all.
  std::string long_line;
  for (int i = 0; i < 21; ++i) long_line += "A1 B1 ";
  EXPECT_EQ(problem_of({long_line}), "line 1 has 42 moves; a line may have at most 40");
  std::vector<std::string> many;
  const Geometry g19{19, 19};
  for (int i = 0; i < 101; ++i) {
    many.push_back(g19.to_gtp(g19.from_linear(2 * i)) + " " +
                   g19.to_gtp(g19.from_linear(2 * i + 1)));
  }
  auto read = conditional_tree(many, g19);
  ASSERT_TRUE(std::holds_alternative<std::string>(read));
  EXPECT_EQ(std::get<std::string>(read),
            "these lines hold 202 different moves; at most 200 may be kept");
  many.pop_back();
  EXPECT_TRUE(std::holds_alternative<ConditionalTree>(conditional_tree(many, g19)));
}

TEST(ConditionalMoves, EveryLineMustBePlayableFromThePosition) {
  Game game(Board(k9), Rules::preset(Ruleset::Japanese));
  ASSERT_EQ(game.play({Color::Black, *k9.parse_gtp("E5")}), MoveError::Ok);
  // White to move; Black's replies.
  EXPECT_EQ(conditional_problem(tree_of({"C3 D3", "E5 D5"}), game, Color::Black, k9),
            "occupied: there is already a stone on E5");
  EXPECT_EQ(conditional_problem(tree_of({"C3 D3 D3 C4"}), game, Color::Black, k9),
            "after C3 D3: occupied: there is already a stone on D3");
  EXPECT_EQ(conditional_problem(tree_of({"C3 D3 C4 D4", "G7 G6"}), game, Color::Black, k9),
            std::nullopt);
}

}  // namespace
}  // namespace tengen
