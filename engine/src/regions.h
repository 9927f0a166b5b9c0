#pragma once

#include <vector>

#include "engine/board.h"

namespace tengen::detail {

// The connected regions of points for which `inside(p)` holds, in board order. `region_of` maps
// each point to its region's index (-1 outside every region). For every region `r` and every
// on-board neighbour `q` outside it, `border(r, q)` is called (repeatedly for a shared border).
template <typename Inside, typename Border>
std::vector<std::vector<Point>> connected_regions(const Board& board, Inside&& inside,
                                                  std::vector<int>& region_of, Border&& border) {
  const Geometry& g = board.geometry();
  std::vector<std::vector<Point>> regions;
  region_of.assign(kMaxPoints, -1);
  auto at = [](Point p) { return static_cast<std::size_t>(p); };
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Point start = g.point(x, y);
      if (!inside(start) || region_of[at(start)] >= 0) continue;
      const int id = static_cast<int>(regions.size());
      std::vector<Point> points;
      std::vector<Point> stack{start};
      region_of[at(start)] = id;
      while (!stack.empty()) {
        const Point p = stack.back();
        stack.pop_back();
        points.push_back(p);
        for (Point q : board.neighbours(p)) {
          if (board.at(q) == Color::Wall) continue;
          if (!inside(q)) {
            border(id, q);
          } else if (region_of[at(q)] < 0) {
            region_of[at(q)] = id;
            stack.push_back(q);
          }
        }
      }
      regions.push_back(std::move(points));
    }
  }
  return regions;
}

}  // namespace tengen::detail
