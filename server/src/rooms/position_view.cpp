#include "rooms/position_view.h"

namespace tengen {

protocol::PositionView position_view(const Variation& line, const std::vector<Point>& captured) {
  const Board& b = line.board();
  const Geometry& g = b.geometry();
  protocol::PositionView v;
  v.board.reserve(static_cast<std::size_t>(g.area()));
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Color c = b.at(g.point(x, y));
      v.board += c == Color::Black ? 'b' : c == Color::White ? 'w' : '.';
    }
  }
  v.to_move = line.to_move();
  v.captures = {b.captures(Color::Black), b.captures(Color::White)};
  for (Point p : captured) v.captured.push_back(g.to_gtp(p));
  return v;
}

}  // namespace tengen
