#pragma once

#include "engine/board.h"
#include "engine/position_set.h"
#include "engine/random.h"

namespace tengen {

// Light random playouts: uniformly random legal moves that never fill the mover's own one-point
// eye (with the diagonal false-eye test, so playouts end instead of cycling).

// A random such move for `c`, or kPass when there is none. With `history`, moves that would
// recreate a position in it (positional superko) are skipped as well.
Point random_move(const Board& board, Color c, Rng& rng, const PositionSet* history = nullptr);

struct PlayoutResult {
  int moves = 0;         // stones played (passes not counted)
  bool finished = true;  // false if the move cap stopped it
};

// Plays from `board` with `to_move` first until both pass or `max_moves` (default 3 x area)
// have been played. With `history`, positional superko over it is enforced and every new
// position is added to it.
PlayoutResult play_random_game(Board& board, Color to_move, Rng& rng,
                               PositionSet* history = nullptr, int max_moves = 0);

}  // namespace tengen
