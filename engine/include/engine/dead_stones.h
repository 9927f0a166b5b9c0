#pragma once

#include <cstdint>
#include <vector>

#include "engine/board.h"

namespace tengen {

struct DeadStoneOptions {
  int playouts = 1000;
  std::uint64_t seed = 1;
};

// A suggestion of dead stones for the scoring phase, for the players to correct:
//  1. Benson's unconditional life: such chains live, and opponent stones inside their vital
//     regions are dead;
//  2. every other chain is judged by Monte Carlo ownership: playouts from the position (half
//     with each player first) that take a chain the last move left in atari, save their own
//     from atari, and otherwise play at random, never filling their own eyes nor self-atari'ing
//     a chain of two or more stones (so that seki survives them); a chain whose points end up
//     owned by the opponent more often than by itself, by a margin (0.1 net: a chain lost about
//     as often as saved is too close to call, and calling a living group dead is the worse
//     mistake), is dead;
//  3. except a chain in mutual atari left standing: one liberty, shared with an adjacent
//     opponent chain that has only that one too and that the playouts do not find safe either.
//     Whoever plays there first captures; the players left it, so neither is called dead;
//  4. and a chain the playouts hold only weakly (less than half the time net, or lose by less than
//     the margin), with no eye of its
//     own or its group's (an area of empty points and dead opponent stones that only its colour
//     borders), touching a wide empty area (10 points or more) the playouts give the opponent,
//     is dead: an invasion in open space that random play lets live about as often as not.
// Returns the dead stones, every stone of each dead chain, in board order.
std::vector<Point> suggest_dead_stones(const Board& board, const DeadStoneOptions& options = {});

}  // namespace tengen
