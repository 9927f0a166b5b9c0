#include "rooms/position_view.h"

namespace tengen {

protocol::PositionView position_view(const Variation& line, const std::vector<Point>& captured) {
  return position_view(line.board(), line.to_move(), captured);
}

protocol::PositionView position_view(const Board& b, Color to_move,
                                     const std::vector<Point>& captured) {
  const Geometry& g = b.geometry();
  protocol::PositionView v;
  v.board.reserve(static_cast<std::size_t>(g.area()));
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Color c = b.at(g.point(x, y));
      v.board += c == Color::Black ? 'b' : c == Color::White ? 'w' : '.';
    }
  }
  v.to_move = to_move;
  v.captures = {b.captures(Color::Black), b.captures(Color::White)};
  for (Point p : captured) v.captured.push_back(g.to_gtp(p));
  if (b.ko_point() != kPass && b.ko_color() == to_move) v.ko = g.to_gtp(b.ko_point());
  return v;
}

protocol::ScoreView score_view(const Score& score, const Geometry& g, const Rules& rules) {
  protocol::ScoreView v{score.total[1], score.total[2], score.result(), {}, {}};
  const auto parts = [&](std::size_t c) {
    return protocol::ScoreParts{score.stones[c], score.territory[c], score.prisoners[c]};
  };
  v.breakdown = protocol::ScoreBreakdown{rules.scoring == ScoringRule::Area, parts(1), parts(2),
                                         score.komi, score.handicap_compensation};
  v.ownership.reserve(static_cast<std::size_t>(g.area()));
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Color owner = score.ownership[static_cast<std::size_t>(x + y * g.width)];
      v.ownership.push_back(owner == Color::Black ? 'b' : owner == Color::White ? 'w' : '.');
    }
  }
  return v;
}

}  // namespace tengen
