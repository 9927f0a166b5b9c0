#include "engine/dead_stones.h"

#include <algorithm>

#include "engine/benson.h"
#include "engine/random.h"
#include "regions.h"

namespace tengen {
namespace {

constexpr std::size_t idx(Point p) {
  return static_cast<std::size_t>(p);
}

// True if a stone of `c` at `p` leaves its chain of two or more stones with a single liberty
// without capturing anything.
bool is_group_self_atari(const Board& b, Point p, Color c) {
  std::array<Point, 8> libs{};
  int n_libs = 0;
  bool joins = false;
  auto add = [&](Point q) {
    if (q == p) return;
    for (int i = 0; i < n_libs; ++i) {
      if (libs[static_cast<std::size_t>(i)] == q) return;
    }
    if (n_libs < 8) libs[static_cast<std::size_t>(n_libs++)] = q;
  };
  for (Point q : b.neighbours(p)) {
    const Color qc = b.at(q);
    if (qc == Color::Empty) {
      add(q);
    } else if (qc == c) {
      joins = true;
      for (Point l : b.liberty_points(q)) add(l);
    } else if (qc == opponent(c) && b.liberties(q) == 1) {
      return false;  // captures
    }
    if (n_libs >= 2) return false;
  }
  return joins && n_libs <= 1;
}

bool playable(const Board& b, Point p, Color c) {
  return p != kPass && b.check(p, c, false) == MoveError::Ok &&
         !(b.empty_neighbours(p) < 2 && is_group_self_atari(b, p, c));
}

// Near the opponent's last move: take a chain it left in atari, or save one of ours from atari.
// These make loose stones in the opponent's sphere die as they would between real players.
Point tactical_move(const Board& b, Color c, Point last) {
  if (last == kPass) return kPass;
  Point escape = kPass;
  const auto nbrs = b.neighbours(last);
  for (Point q : {last, nbrs[0], nbrs[1], nbrs[2], nbrs[3]}) {
    if (!is_stone(b.at(q))) continue;
    const Point lib = b.single_liberty(q);
    if (lib == kPass) continue;
    if (b.at(q) == opponent(c) && playable(b, lib, c)) return lib;
    if (b.at(q) == c && escape == kPass && b.empty_neighbours(lib) >= 2 && playable(b, lib, c)) {
      escape = lib;
    }
  }
  return escape;
}

Point scoring_playout_move(const Board& b, Color c, Rng& rng, Point last) {
  if (const Point p = tactical_move(b, c, last); p != kPass) return p;
  const int n = b.empty_count();
  if (n == 0) return kPass;
  const int start = static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
  for (int i = 0, k = start; i < n; ++i, k = (k + 1 == n) ? 0 : k + 1) {
    const Point p = b.empty_at(k);
    if (!b.is_eye(p, c) && playable(b, p, c)) return p;
  }
  return kPass;
}

// Adds +1 for Black and -1 for White at each point owned at the end of a playout.
void add_ownership(const Board& b, std::vector<int>& own) {
  const Geometry& g = b.geometry();
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Point p = g.point(x, y);
      Color owner = b.at(p);
      if (owner == Color::Empty) {
        if (b.is_surrounded_by(p, Color::Black))
          owner = Color::Black;
        else if (b.is_surrounded_by(p, Color::White))
          owner = Color::White;
      }
      own[idx(p)] += owner == Color::Black ? 1 : owner == Color::White ? -1 : 0;
    }
  }
}

// How safe the playouts found the chain at `p`: the mean over its stones and the playouts of
// +1 where its own colour owned the point at the end, -1 where the opponent did.
double held(const Board& b, const std::vector<int>& own, Point p, int playouts) {
  long sum = 0;
  for (Point s : b.chain_stones(p)) sum += own[idx(s)];
  const double mean = static_cast<double>(sum) / b.chain_size(p) / std::max(playouts, 1);
  return b.at(p) == Color::Black ? mean : -mean;
}

// Mutual atari left on the board: the chain at `p` has one liberty, and so has an adjacent
// opponent chain, the same one, which the playouts do not find safe either (held below 0.9).
// Whoever plays there first captures; the players, passing, left it standing, and calling
// either side dead would be guessing who moves first, so neither is. Where the partner is safe
// (it is saved or connects out in practically every playout), the chain in atari is just dead.
bool in_mutual_atari(const Board& b, const std::vector<int>& own, Point p, int playouts) {
  constexpr double kSafe = 0.9;
  const Point lib = b.single_liberty(p);
  if (lib == kPass) return false;
  for (Point s : b.chain_stones(p)) {
    for (Point q : b.neighbours(s)) {
      if (b.at(q) == opponent(b.at(p)) && b.single_liberty(q) == lib &&
          held(b, own, q, playouts) < kSafe) {
        return true;
      }
    }
  }
  return false;
}

// Chains (by id) that touch an eye of their own colour: a region of points empty or held by the
// opponent's lost chains that no other stone borders (territory counts: it is room for eyes).
// Chains linked through an empty point no living opponent stone touches share their eyes, as the
// chains of one group do.
std::vector<char> chains_with_eyes(const Board& board, const std::vector<char>& lost) {
  std::vector<char> has_eye(kMaxPoints, 0);
  auto lost_stone = [&](Point q) { return is_stone(board.at(q)) && lost[idx(board.chain_id(q))]; };
  for (Color c : {Color::Black, Color::White}) {
    std::vector<int> region_of;
    std::vector<char> mixed(kMaxPoints, 0);  // by region: bordered by a living opponent stone
    detail::connected_regions(
        board,
        [&](Point q) {
          return board.at(q) == Color::Empty || (board.at(q) == opponent(c) && lost_stone(q));
        },
        region_of, [&](int r, Point q) { mixed[static_cast<std::size_t>(r)] |= board.at(q) != c; });
    for (int i = 0; i < board.geometry().area(); ++i) {
      const Point p = board.geometry().point(i % board.width(), i / board.width());
      if (board.at(p) != c) continue;
      for (Point q : board.neighbours(p)) {
        const int r = region_of[idx(q)];
        if (r >= 0 && !mixed[static_cast<std::size_t>(r)]) has_eye[idx(board.chain_id(p))] = 1;
      }
    }
  }
  // Groups: union-find over chain ids, joined through clean empty points.
  std::vector<Point> parent(kMaxPoints);
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<Point>(i);
  auto root = [&](Point a) {
    while (parent[idx(a)] != a) a = parent[idx(a)] = parent[idx(parent[idx(a)])];
    return a;
  };
  for (int i = 0; i < board.empty_count(); ++i) {
    const Point q = board.empty_at(i);
    for (Color c : {Color::Black, Color::White}) {
      const auto nbrs = board.neighbours(q);
      if (std::any_of(nbrs.begin(), nbrs.end(),
                      [&](Point r) { return board.at(r) == opponent(c) && !lost_stone(r); })) {
        continue;
      }
      Point first = kPass;
      for (Point r : nbrs) {
        if (board.at(r) != c) continue;
        const Point a = root(board.chain_id(r));
        if (first == kPass) first = a;
        if (a == first) continue;
        has_eye[idx(first)] |= has_eye[idx(a)];
        parent[idx(a)] = first;
      }
    }
  }
  for (int i = 0; i < board.geometry().area(); ++i) {
    const Point p = board.geometry().point(i % board.width(), i / board.width());
    if (is_stone(board.at(p)))
      has_eye[idx(board.chain_id(p))] = has_eye[idx(root(board.chain_id(p)))];
  }
  return has_eye;
}

// The empty areas of the board (connected empty points), each with its size and the playouts'
// ownership summed over it, for the room around a chain.
struct EmptyAreas {
  std::vector<int> area_of;  // by point; -1 for a stone
  std::vector<int> size;
  std::vector<long> owned;
};
EmptyAreas empty_areas(const Board& b, const std::vector<int>& own) {
  EmptyAreas areas;
  const auto regions = detail::connected_regions(
      b, [&](Point q) { return b.at(q) == Color::Empty; }, areas.area_of, [](int, Point) {});
  for (const auto& r : regions) {
    areas.size.push_back(static_cast<int>(r.size()));
    long sum = 0;
    for (Point q : r) sum += own[idx(q)];
    areas.owned.push_back(sum);
  }
  return areas;
}

// The room around the chain at `p`: the empty areas it touches, their points and how much of
// them the playouts gave the chain's colour (-1 … +1, as held()).
struct Room {
  int points = 0;
  double held = 0;
};
Room room_of(const Board& b, const EmptyAreas& areas, Point p, int playouts) {
  std::vector<int> touched;
  for (Point s : b.chain_stones(p)) {
    for (Point q : b.neighbours(s)) {
      const int a = areas.area_of[idx(q)];
      if (a >= 0 && std::find(touched.begin(), touched.end(), a) == touched.end()) {
        touched.push_back(a);
      }
    }
  }
  Room room;
  long sum = 0;
  for (int a : touched) {
    room.points += areas.size[static_cast<std::size_t>(a)];
    sum += areas.owned[static_cast<std::size_t>(a)];
  }
  if (room.points > 0) {
    room.held = static_cast<double>(sum) / room.points / std::max(playouts, 1);
    if (b.at(p) == Color::White) room.held = -room.held;
  }
  return room;
}

}  // namespace

std::vector<Point> suggest_dead_stones(const Board& board, const DeadStoneOptions& options) {
  const Geometry& g = board.geometry();
  const UnconditionalLife black = unconditional_life(board, Color::Black);
  const UnconditionalLife white = unconditional_life(board, Color::White);

  std::vector<int> own(kMaxPoints, 0);
  Rng rng(options.seed);
  const int max_moves = 3 * g.area();
  for (int i = 0; i < options.playouts; ++i) {
    Board b = board;
    b.clear_ko();
    Color c = i % 2 == 0 ? Color::Black : Color::White;
    Point last = kPass;
    for (int passes = 0, moves = 0; passes < 2 && moves < max_moves; ++moves) {
      const Point p = scoring_playout_move(b, c, rng, last);
      b.play(p, c);
      last = p;
      passes = p == kPass ? passes + 1 : 0;
      c = opponent(c);
    }
    add_ownership(b, own);
  }

  // The playouts' verdict, chain by chain (indexed by chain id). A chain they lose barely (about
  // as often as they save it) is left alive: calling a living group dead is the worse mistake,
  // and the players mark a dead one with a click.
  constexpr double kUncertain = 0.1;
  std::vector<char> lost(kMaxPoints, 0);
  std::vector<double> held_by(kMaxPoints, 1.0);
  std::vector<Point> heads;
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Point p = g.point(x, y);
      const Color c = board.at(p);
      if (!is_stone(c) || board.chain_id(p) != p) continue;
      heads.push_back(p);
      const UnconditionalLife& mine = c == Color::Black ? black : white;
      const UnconditionalLife& theirs = c == Color::Black ? white : black;
      if (mine.alive.test(idx(p))) continue;
      held_by[idx(p)] = held(board, own, p, options.playouts);
      lost[idx(p)] =
          theirs.territory.test(idx(p)) ||
          (held_by[idx(p)] < -kUncertain && !in_mutual_atari(board, own, p, options.playouts));
    }
  }
  // Random play lets an invasion in open space live about as often as not. At the end of a game
  // a group that lives has an eye or the room for one: a chain the playouts hold only weakly (or
  // lose barely), with no eye of its own (nor its group's), touching a wide empty area the
  // playouts give the opponent, is dead. Small rooms (corners, seki, ko) keep the verdict above.
  constexpr double kWeaklyHeld = 0.5;
  constexpr int kWideRoom = 10;
  constexpr double kTheirRoom = -0.2;
  const std::vector<char> has_eye = chains_with_eyes(board, lost);
  const EmptyAreas areas = empty_areas(board, own);
  std::vector<Point> eyeless;
  for (Point p : heads) {
    const double h = held_by[idx(p)];
    if (lost[idx(p)] || has_eye[idx(p)] || h >= kWeaklyHeld) continue;
    if (h < -kUncertain) continue;  // lost by the playouts, left standing in mutual atari
    const Room room = room_of(board, areas, p, options.playouts);
    if (room.points >= kWideRoom && room.held < kTheirRoom) eyeless.push_back(p);
  }
  for (Point p : eyeless) lost[idx(p)] = 1;

  std::vector<Point> dead;
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Point p = g.point(x, y);
      if (is_stone(board.at(p)) && lost[idx(board.chain_id(p))]) dead.push_back(p);
    }
  }
  return dead;
}

}  // namespace tengen
