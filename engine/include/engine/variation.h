#pragma once

#include <span>
#include <vector>

#include "engine/board.h"
#include "engine/game.h"
#include "engine/position_set.h"
#include "engine/rules.h"

namespace tengen {

// A line of play as an analysis or a review walks it: from a starting position, moves of either
// colour (a teacher may show two moves in a row by one side), passes that end nothing, and setup
// stones between moves (SGF's AB AW AE). Each stone is judged by judge_stone, with this line's
// own positions and situations, exactly as a game under the same rules judges it. Nothing here
// knows of trees: a review replays the path from its root to a node.
class Variation {
 public:
  explicit Variation(Board start, Rules rules = {}, Color first_to_move = Color::Black);

  // Plays `m` (any colour), or leaves everything as it was and says why not. `removed`, if given,
  // gets the stones the move took off the board (the opponent's, or its own in a suicide).
  MoveError play(Move m, std::vector<Point>* removed = nullptr);
  // Puts stones on points or clears them (Color::Empty); a new position, remembered as one.
  void set_up(std::span<const Point> black, std::span<const Point> white,
              std::span<const Point> empty);

  const Board& board() const noexcept { return board_; }
  const Rules& rules() const noexcept { return rules_; }
  // The opponent of the last mover; the first to move before any move.
  Color to_move() const noexcept { return to_move_; }
  int moves() const noexcept { return moves_; }

 private:
  Board board_;
  Rules rules_;
  Color to_move_;
  int moves_ = 0;
  PositionSet seen_;
  PositionSet situations_;
};

}  // namespace tengen
