#include "engine/handicap.h"

#include <algorithm>

namespace tengen {

int max_fixed_handicap(const Geometry& g) {
  const int shorter = std::min(g.width, g.height);
  if (g.width % 2 == 1 && g.height % 2 == 1 && shorter >= 9) return 9;
  if (shorter >= 7) return 4;
  return 0;
}

std::optional<std::vector<Point>> fixed_handicap(const Geometry& g, int stones) {
  if (stones < 2 || stones > max_fixed_handicap(g)) return std::nullopt;
  const int dx = g.width > 11 ? 3 : 2;
  const int dy = g.height > 11 ? 3 : 2;
  const int left = dx;
  const int right = g.width - 1 - dx;
  const int top = dy;
  const int bottom = g.height - 1 - dy;
  const int mid_x = g.width / 2;
  const int mid_y = g.height / 2;
  // Lower-left and upper-right, then upper-left for the third stone, as GNU Go places them.
  const Point placement[] = {
      g.point(left, bottom), g.point(right, top),   g.point(left, top),  g.point(right, bottom),
      g.point(left, mid_y),  g.point(right, mid_y), g.point(mid_x, top), g.point(mid_x, bottom),
  };
  std::vector<Point> points;
  points.reserve(static_cast<std::size_t>(stones));
  const bool centre = stones % 2 == 1 && stones >= 5;
  const int around = centre ? stones - 1 : stones;
  for (int i = 0; i < around; ++i) points.push_back(placement[i]);
  if (centre) points.push_back(g.point(mid_x, mid_y));
  std::sort(points.begin(), points.end());  // board order, top row first, as GNU Go lists them
  return points;
}

}  // namespace tengen
