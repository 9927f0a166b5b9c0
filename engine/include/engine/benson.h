#pragma once

#include <bitset>

#include "engine/board.h"

namespace tengen {

struct UnconditionalLife {
  std::bitset<kMaxPoints> alive;      // stones of the colour that can never be captured
  std::bitset<kMaxPoints> territory;  // points of regions vital to those stones: the opponent
                                      // can never live there, so its stones there are dead
};

// Benson's algorithm for `c`: chains that stay alive even if `c` passes forever.
UnconditionalLife unconditional_life(const Board& board, Color c);

}  // namespace tengen
