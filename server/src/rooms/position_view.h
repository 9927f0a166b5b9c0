#pragma once

#include <vector>

#include "engine/variation.h"
#include "protocol/messages.h"

namespace tengen {

// The position a line of play reached, as the protocol shows it: the answer of
// POST /api/v1/positions and a review board's node. `captured`: what the line's last move took.
protocol::PositionView position_view(const Variation& line, const std::vector<Point>& captured);

}  // namespace tengen
