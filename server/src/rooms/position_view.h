#pragma once

#include <vector>

#include "engine/rules.h"
#include "engine/scoring.h"
#include "engine/variation.h"
#include "protocol/messages.h"

namespace tengen {

// The position a line of play reached, as the protocol shows it: the answer of
// POST /api/v1/positions and a review board's node. `captured`: what the line's last move took.
protocol::PositionView position_view(const Variation& line, const std::vector<Point>& captured);
// The same for a board and the player to move (a game's).
protocol::PositionView position_view(const Board& board, Color to_move,
                                     const std::vector<Point>& captured);

// A count as the protocol shows it: totals, result, ownership per point and the breakdown in the
// rules' own terms (area: stones and territory; territory: territory and prisoners).
protocol::ScoreView score_view(const Score& score, const Geometry& g, const Rules& rules);

}  // namespace tengen
