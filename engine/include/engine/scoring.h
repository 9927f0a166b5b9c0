#pragma once

#include <array>
#include <span>
#include <vector>

#include "engine/board.h"
#include "engine/result.h"
#include "engine/rules.h"

namespace tengen {

// A scored position. Arrays are indexed by index_of(Color): [1] Black, [2] White.
struct Score {
  std::array<int, 3> stones{};  // live stones on the board (area scoring counts them)
  std::array<int, 3>
      territory{};  // empty points, and dead stones' points, surrounded by one colour
  std::array<int, 3> prisoners{};  // captures, AGA pass stones and dead stones taken
  std::array<int, 3> dead{};       // stones of this colour marked dead
  int dame = 0;                    // empty points owned by nobody (including seki)
  double komi = 0;
  double handicap_compensation = 0;  // points given to White for handicap stones
  std::array<double, 3> total{};
  // Per point, row-major (x + y * width): the owner, or Empty for neutral points and seki.
  std::vector<Color> ownership;
  // Per point, row-major: true for stones and eye points of groups in seki.
  std::vector<bool> seki;

  double black_minus_white() const noexcept { return total[1] - total[2]; }
  Result result() const { return Result::score(black_minus_white()); }
};

// Scores a finished position with the stones the players agreed are dead.
//  - area: live stones + empty points surrounded by one colour (seki eyes included) + komi +
//    handicap compensation for White;
//  - territory: empty points surrounded by one colour, not counting the eyes of groups in seki,
//    + prisoners (captures, pass stones, dead stones) + komi.
// A group is in seki when it shares a region of neutral points in which every move by either
// side would be self-atari without capturing. `captures` are the prisoners each side took
// during play (Game::prisoners). Throws std::invalid_argument if a dead point holds no stone.
Score score_position(const Board& board, const Rules& rules, std::span<const Point> dead,
                     std::array<int, 3> captures, int handicap_stones);

// Tromp-Taylor: the position as it stands, by area; a point scores for a colour if it is that
// colour or reaches only that colour.
Score tromp_taylor_score(const Board& board, double komi);

double handicap_compensation(const Rules& rules, int handicap_stones) noexcept;

}  // namespace tengen
