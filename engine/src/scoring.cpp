#include "engine/scoring.h"

#include <algorithm>
#include <bitset>
#include <stdexcept>

#include "regions.h"

namespace tengen {
namespace {

using PointSet = std::bitset<kMaxPoints>;
constexpr std::size_t idx(Point p) {
  return static_cast<std::size_t>(p);
}

struct Region {
  std::vector<Point> points;
  unsigned borders = 0;  // bit 1: black, bit 2: white
};

// Empty regions of `board` with `removed` stones taken off, and the colours bordering each.
std::vector<Region> empty_regions(const Board& board, const PointSet& removed,
                                  std::vector<int>& region_of) {
  auto color = [&](Point p) { return removed.test(idx(p)) ? Color::Empty : board.at(p); };
  std::vector<unsigned> borders;
  const auto points = detail::connected_regions(
      board, [&](Point p) { return color(p) == Color::Empty; }, region_of,
      [&](int r, Point q) {
        if (borders.size() <= static_cast<std::size_t>(r))
          borders.resize(static_cast<std::size_t>(r) + 1, 0);
        borders[static_cast<std::size_t>(r)] |= 1u << index_of(color(q));
      });
  std::vector<Region> regions(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    regions[i].points = points[i];
    regions[i].borders = i < borders.size() ? borders[i] : 0;
  }
  return regions;
}

// Liberties a stone of `c` at empty `p` would leave its chain, counted up to 2, on the board with
// `removed` stones off. Returns -1 if the move would capture (so it is no self-atari).
int liberties_after(const Board& board, const PointSet& removed, Point p, Color c) {
  auto color = [&](Point q) { return removed.test(idx(q)) ? Color::Empty : board.at(q); };
  PointSet libs;
  int n = 0;
  auto add = [&](Point q) {
    if (q != p && !libs.test(idx(q))) {
      libs.set(idx(q));
      ++n;
    }
  };
  for (Point q : board.neighbours(p)) {
    const Color qc = color(q);
    if (qc == Color::Empty) {
      add(q);
    } else if (qc == c) {
      for (Point s : board.chain_stones(q)) {
        for (Point l : board.neighbours(s)) {
          if (color(l) == Color::Empty) add(l);
        }
      }
    } else if (qc == opponent(c)) {
      int opp_libs = 0;
      for (Point l : board.liberty_points(q)) opp_libs += l != p;
      if (opp_libs == 0) return -1;
    }
  }
  return n;
}

}  // namespace

double handicap_compensation(const Rules& rules, int handicap_stones) noexcept {
  if (handicap_stones < 2) return 0;
  switch (rules.handicap_compensation) {
    case HandicapCompensation::None:
      return 0;
    case HandicapCompensation::N:
      return handicap_stones;
    case HandicapCompensation::NMinusOne:
      return handicap_stones - 1;
  }
  return 0;
}

Score score_position(const Board& board, const Rules& rules, std::span<const Point> dead,
                     std::array<int, 3> captures, int handicap_stones) {
  const Geometry& g = board.geometry();
  Score s;
  PointSet removed;
  for (Point p : dead) {
    if (!board.on_board(p) || !is_stone(board.at(p))) {
      throw std::invalid_argument("dead stone marked on an empty point " + g.to_gtp(p));
    }
    if (removed.test(idx(p))) continue;
    removed.set(idx(p));
    ++s.dead[static_cast<std::size_t>(index_of(board.at(p)))];
  }
  std::vector<int> region_of;
  const std::vector<Region> regions = empty_regions(board, removed, region_of);

  // Seki: neutral regions where any move by either bordering colour is self-atari.
  std::vector<bool> seki_region(regions.size(), false);
  PointSet seki_stones;
  for (std::size_t i = 0; i < regions.size(); ++i) {
    const Region& r = regions[i];
    if (r.borders != 6) continue;
    bool all_self_atari = true;
    for (Point p : r.points) {
      for (Color c : {Color::Black, Color::White}) {
        bool touches = false;
        for (Point q : board.neighbours(p))
          touches = touches || (board.at(q) == c && !removed.test(idx(q)));
        if (!touches) continue;
        const int libs = liberties_after(board, removed, p, c);
        all_self_atari = all_self_atari && libs >= 0 && libs <= 1;
      }
    }
    if (!all_self_atari) continue;
    seki_region[i] = true;
    for (Point p : r.points) {
      for (Point q : board.neighbours(p)) {
        if (is_stone(board.at(q)) && !removed.test(idx(q))) {
          for (Point stone : board.chain_stones(q)) seki_stones.set(idx(stone));
        }
      }
    }
  }

  s.ownership.assign(static_cast<std::size_t>(g.area()), Color::Empty);
  s.seki.assign(static_cast<std::size_t>(g.area()), false);
  for (std::size_t i = 0; i < regions.size(); ++i) {
    const Region& r = regions[i];
    const Color owner = r.borders == 2   ? Color::Black
                        : r.borders == 4 ? Color::White
                                         : Color::Empty;
    bool eye_of_seki = false;
    if (owner != Color::Empty) {
      for (Point p : r.points) {
        for (Point q : board.neighbours(p)) eye_of_seki = eye_of_seki || seki_stones.test(idx(q));
      }
    }
    const bool counts =
        owner != Color::Empty && !(eye_of_seki && rules.scoring == ScoringRule::Territory);
    for (Point p : r.points) {
      const auto at = static_cast<std::size_t>(g.linear(p));
      s.seki[at] = seki_region[i] || eye_of_seki;
      if (counts) {
        s.ownership[at] = owner;
        ++s.territory[static_cast<std::size_t>(index_of(owner))];
      } else {
        ++s.dame;
      }
    }
  }
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Point p = g.point(x, y);
      if (!is_stone(board.at(p)) || removed.test(idx(p))) continue;
      ++s.stones[static_cast<std::size_t>(index_of(board.at(p)))];
      s.ownership[static_cast<std::size_t>(g.linear(p))] = board.at(p);
      s.seki[static_cast<std::size_t>(g.linear(p))] = seki_stones.test(idx(p));
    }
  }

  s.komi = rules.komi;
  s.handicap_compensation =
      rules.scoring == ScoringRule::Area ? handicap_compensation(rules, handicap_stones) : 0;
  for (std::size_t c : {std::size_t{1}, std::size_t{2}}) {
    s.prisoners[c] = captures[c] + s.dead[3 - c];
    s.total[c] = rules.scoring == ScoringRule::Area ? s.stones[c] + s.territory[c]
                                                    : s.territory[c] + s.prisoners[c];
  }
  s.total[2] += s.komi + s.handicap_compensation;
  return s;
}

Score tromp_taylor_score(const Board& board, double komi) {
  Rules rules;
  rules.scoring = ScoringRule::Area;
  rules.komi = komi;
  Score s = score_position(board, rules, {},
                           {0, board.captures(Color::Black), board.captures(Color::White)}, 0);
  // Tromp-Taylor knows no seki: a point that reaches both colours is simply neutral, which is
  // what area scoring above already does; only the marks differ.
  std::fill(s.seki.begin(), s.seki.end(), false);
  return s;
}

}  // namespace tengen
