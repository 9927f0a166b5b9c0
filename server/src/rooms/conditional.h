#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/color.h"
#include "engine/geometry.h"

namespace tengen {

class Game;

// Conditional moves (docs/correspondence.md): a player's replies to their opponent's expected
// moves, as a tree. Each branch: the opponent plays `expected`, the server answers `reply` at
// once, and `then` waits for the opponent's next move. Siblings expect different moves.
struct ConditionalBranch {
  Point expected = kPass;
  Point reply = kPass;
  std::vector<ConditionalBranch> then{};
};
using ConditionalTree = std::vector<ConditionalBranch>;

// The most a tree may hold: moves over all lines (each shared start counted once), and moves in
// one line.
inline constexpr std::size_t kMaxConditionalMoves = 200;
inline constexpr std::size_t kMaxConditionalLine = 40;

// The tree of `lines` ("D4 C3 E5 F5": expected, reply, expected, reply ...; GTP vertices, no
// passes), lines that begin alike sharing their start; or what is wrong with them, in words.
std::variant<ConditionalTree, std::string> conditional_tree(const std::vector<std::string>& lines,
                                                            const Geometry& g);
// The tree as lines, one for each leaf, in the tree's order (conditional_tree reads them back).
std::vector<std::string> conditional_lines(const ConditionalTree& tree, const Geometry& g);
// Whether every line can be played from `game` (the opponent of `owner` to move): what is
// illegal, and where, if one cannot.
std::optional<std::string> conditional_problem(const ConditionalTree& tree, const Game& game,
                                               Color owner, const Geometry& g);

}  // namespace tengen
