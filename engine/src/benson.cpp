#include "engine/benson.h"

#include <algorithm>
#include <vector>

namespace tengen {
namespace {

constexpr std::size_t idx(Point p) { return static_cast<std::size_t>(p); }

struct Region {
  std::vector<Point> points;
  std::vector<Point> chains;  // ids of the bordering chains of colour c
  std::vector<Point> vital_to;  // chains every empty point of the region is a liberty of
  bool active = true;
};

}  // namespace

UnconditionalLife unconditional_life(const Board& board, Color c) {
  const Geometry& g = board.geometry();
  // Regions: connected sets of points not of colour c.
  std::vector<int> region_of(kMaxPoints, -1);
  std::vector<Region> regions;
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Point start = g.point(x, y);
      if (board.at(start) == c || region_of[idx(start)] >= 0) continue;
      Region r;
      const int id = static_cast<int>(regions.size());
      std::vector<Point> stack{start};
      region_of[idx(start)] = id;
      while (!stack.empty()) {
        const Point p = stack.back();
        stack.pop_back();
        r.points.push_back(p);
        for (Point q : board.neighbours(p)) {
          const Color qc = board.at(q);
          if (qc == Color::Wall) continue;
          if (qc == c) {
            const Point chain = board.chain_id(q);
            if (std::find(r.chains.begin(), r.chains.end(), chain) == r.chains.end()) {
              r.chains.push_back(chain);
            }
          } else if (region_of[idx(q)] < 0) {
            region_of[idx(q)] = id;
            stack.push_back(q);
          }
        }
      }
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
      regions.push_back(std::move(r));
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
        if (r.active && std::find(r.vital_to.begin(), r.vital_to.end(), chain) != r.vital_to.end()) {
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
