#include "engine/benson.h"

#include <algorithm>
#include <vector>

#include "regions.h"

namespace tengen {
namespace {

constexpr std::size_t idx(Point p) {
  return static_cast<std::size_t>(p);
}

struct Region {
  std::vector<Point> points;
  std::vector<Point> chains;    // ids of the bordering chains of colour c
  std::vector<Point> vital_to;  // chains every empty point of the region is a liberty of
  bool active = true;
};

}  // namespace

UnconditionalLife unconditional_life(const Board& board, Color c) {
  const Geometry& g = board.geometry();
  // Regions: connected sets of points not of colour c, with the chains of colour c around them.
  std::vector<int> region_of;
  std::vector<std::vector<Point>> bordering;
  const auto points = detail::connected_regions(
      board, [&](Point p) { return board.at(p) != c; }, region_of,
      [&](int r, Point q) {
        if (bordering.size() <= static_cast<std::size_t>(r))
          bordering.resize(static_cast<std::size_t>(r) + 1);
        auto& chains = bordering[static_cast<std::size_t>(r)];
        const Point chain = board.chain_id(q);
        if (std::find(chains.begin(), chains.end(), chain) == chains.end()) chains.push_back(chain);
      });
  std::vector<Region> regions(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    Region& r = regions[i];
    r.points = points[i];
    if (i < bordering.size()) r.chains = bordering[i];
    for (Point chain : r.chains) {
      bool vital = true;
      for (Point p : r.points) {
        if (board.at(p) != Color::Empty) continue;
        bool liberty = false;
        for (Point q : board.neighbours(p)) {
          liberty = liberty || (board.at(q) == c && board.chain_id(q) == chain);
        }
        if (!liberty) {
          vital = false;
          break;
        }
      }
      if (vital) r.vital_to.push_back(chain);
    }
  }

  std::vector<Point> chains;
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Point p = g.point(x, y);
      if (board.at(p) == c && board.chain_id(p) == p) chains.push_back(p);
    }
  }
  std::bitset<kMaxPoints> alive_chain;
  for (Point chain : chains) alive_chain.set(idx(chain));

  for (bool changed = true; changed;) {
    changed = false;
    for (Point chain : chains) {
      if (!alive_chain.test(idx(chain))) continue;
      int vital = 0;
      for (const Region& r : regions) {
        if (r.active &&
            std::find(r.vital_to.begin(), r.vital_to.end(), chain) != r.vital_to.end()) {
          ++vital;
        }
      }
      if (vital < 2) {
        alive_chain.reset(idx(chain));
        changed = true;
      }
    }
    for (Region& r : regions) {
      if (!r.active) continue;
      for (Point chain : r.chains) {
        if (!alive_chain.test(idx(chain))) {
          r.active = false;
          changed = true;
          break;
        }
      }
    }
  }

  UnconditionalLife result;
  for (Point chain : chains) {
    if (!alive_chain.test(idx(chain))) continue;
    for (Point s : board.chain_stones(chain)) result.alive.set(idx(s));
  }
  for (const Region& r : regions) {
    if (!r.active || r.vital_to.empty()) continue;
    for (Point p : r.points) result.territory.set(idx(p));
  }
  return result;
}

}  // namespace tengen
