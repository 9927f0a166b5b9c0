#pragma once

#include <optional>
#include <vector>

#include "engine/geometry.h"

namespace tengen {

// Fixed handicap placement on the star points, as GNU Go places them on any board:
//  - the corner points sit on the 4th line when that side is longer than 11, else the 3rd;
//  - up to 9 stones when both sides are odd and at least 9, up to 4 when both are at least 7,
//    none on smaller boards;
//  - 2 and 3: opposite corners then a third corner; 4: all corners; 5, 7 and 9 add the centre to
//    4, 6 and 8; 6 adds the middles of the left and right sides; 8 also top and bottom.
// On 9x9, 13x13 and 19x19 these are the standard points. Returned in board order (top row
// first); nullopt when `stones` is not 2..max.
std::optional<std::vector<Point>> fixed_handicap(const Geometry& g, int stones);

int max_fixed_handicap(const Geometry& g);

}  // namespace tengen
