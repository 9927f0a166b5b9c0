#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/color.h"
#include "engine/geometry.h"
#include "engine/hash.h"
#include "engine/move_error.h"

namespace tengen {

// Stones, chains and liberties, with nothing of turns or history (that is Game's job).
//
// Chains are circular linked lists of stones sharing one id (the index of one of their stones).
// Each chain keeps a pseudo-liberty count: the number of (stone, empty neighbour) pairs. It is
// zero exactly when the chain has no liberty, and a chain's only liberty is p exactly when its
// count equals the number of p's neighbours in that chain; both are all that play and legality
// need. Exact liberty counts are computed on demand. Each point also keeps packed counts of its
// neighbours by colour, so the empty-neighbour and one-point-eye tests are a mask each.
class Board {
 public:
  explicit Board(Geometry geometry = {});
  Board(int width, int height) : Board(Geometry{width, height}) {}

  const Geometry& geometry() const noexcept { return geo_; }
  int width() const noexcept { return geo_.width; }
  int height() const noexcept { return geo_.height; }
  Point point(int x, int y) const noexcept { return geo_.point(x, y); }

  Color at(Point p) const noexcept { return color_[static_cast<std::size_t>(p)]; }
  bool on_board(Point p) const noexcept { return p > 0 && p < kMaxPoints && at(p) != Color::Wall; }

  std::array<Point, 4> neighbours(Point p) const noexcept {
    const auto s = static_cast<Point>(geo_.stride());
    return {static_cast<Point>(p - s), static_cast<Point>(p - 1), static_cast<Point>(p + 1),
            static_cast<Point>(p + s)};
  }

  // Legality under simple ko, for a move by `c` at `p` (not a pass). Superko is Game's concern.
  MoveError check(Point p, Color c, bool suicide_allowed) const noexcept;
  // Plays a move that check() accepted (a suicide only if it was allowed). kPass just clears ko.
  void play(Point p, Color c);

  // The hash the board would have after `c` plays the legal move `p`, captures and suicide
  // included, computed without playing it.
  Hash128 hash_after(Point p, Color c) const noexcept;
  const Hash128& hash() const noexcept { return hash_; }

  // The point where the player `ko_color()` may not play on the next move (kPass if none).
  Point ko_point() const noexcept { return ko_point_; }
  Color ko_color() const noexcept { return ko_color_; }

  // Stones captured by `c` (suicided stones count for the opponent).
  int captures(Color c) const noexcept { return captures_[static_cast<std::size_t>(index_of(c))]; }

  int empty_count() const noexcept { return empty_count_; }
  Point empty_at(int i) const noexcept { return empty_list_[static_cast<std::size_t>(i)]; }
  int stone_count(Color c) const noexcept;

  // Chain queries for a point holding a stone.
  Point chain_id(Point p) const noexcept { return chain_[static_cast<std::size_t>(p)]; }
  int chain_size(Point p) const noexcept { return size_[idx(chain_id(p))]; }
  Point next_in_chain(Point p) const noexcept { return next_[idx(p)]; }
  std::vector<Point> chain_stones(Point p) const;
  int liberties(Point p) const;  // exact count of distinct liberties
  // The only liberty of the chain at p, or kPass if it has two or more (stops at the second).
  Point single_liberty(Point p) const noexcept;
  std::vector<Point> liberty_points(Point p) const;

  // True when `p` is empty and all its neighbours are `c` (or the edge).
  bool is_surrounded_by(Point p, Color c) const noexcept {
    return (nbr_[idx(p)] & (count_mask(Color::Empty) | count_mask(opponent(c)))) == 0;
  }
  // A one-point eye of `c` that is not false: surrounded by `c`, and the opponent holds fewer
  // than two diagonals (fewer than one on the edge). Random playouts never fill these.
  bool is_eye(Point p, Color c) const noexcept;
  int empty_neighbours(Point p) const noexcept { return count(p, Color::Empty); }

  // Setup outside play (handicap, SGF AB/AW/AE, diagrams): no captures, chains rebuilt.
  // Throws std::invalid_argument if it would leave a chain without liberties.
  void set_stone(Point p, Color c);
  void set_captures(Color c, int n) noexcept {
    captures_[static_cast<std::size_t>(index_of(c))] = n;
  }
  void clear_ko() noexcept { ko_point_ = kPass; }

  // Recomputes every derived structure from the stones alone and throws std::logic_error naming
  // the first difference. Tests call it after every move.
  void check_consistency() const;

  // Diagram form: one row per line, top row first, 'X' black, 'O' white, '.' empty.
  std::string to_diagram() const;
  static Board from_diagram(std::string_view text);

  friend bool operator==(const Board& a, const Board& b) noexcept;

 private:
  static constexpr std::size_t idx(Point p) noexcept { return static_cast<std::size_t>(p); }
  static constexpr int count_shift(Color c) noexcept { return 4 * index_of(c); }
  static constexpr std::uint16_t count_mask(Color c) noexcept {
    return static_cast<std::uint16_t>(0xF << count_shift(c));
  }
  int count(Point p, Color c) const noexcept { return (nbr_[idx(p)] >> count_shift(c)) & 0xF; }
  int adjacency(Point p, Point chain) const noexcept;
  bool would_capture_or_breathe(Point p, Color c) const noexcept;

  void put_stone(Point p, Color c);
  void lift_stone(Point p);
  void merge(Point a, Point b);
  void remove_chain(Point head);
  void rebuild();

  Geometry geo_;
  std::array<Color, kMaxPoints> color_{};
  std::array<Point, kMaxPoints> chain_{};
  std::array<Point, kMaxPoints> next_{};
  std::array<std::int16_t, kMaxPoints> libs_{};  // pseudo-liberties, by chain id
  std::array<std::int16_t, kMaxPoints> size_{};  // stones, by chain id
  std::array<std::uint16_t, kMaxPoints> nbr_{};  // neighbour counts, 4 bits per Color
  std::array<Point, kMaxPoints> empty_list_{};
  std::array<std::int16_t, kMaxPoints> empty_pos_{};
  int empty_count_ = 0;
  Hash128 hash_;
  Point ko_point_ = kPass;
  Color ko_color_ = Color::Empty;
  std::array<int, 4> captures_{};
};

inline int Board::adjacency(Point p, Point chain) const noexcept {
  int n = 0;
  for (Point q : neighbours(p)) n += is_stone(at(q)) && chain_[idx(q)] == chain;
  return n;
}

// True if a stone of `c` at `p` would have a liberty: it captures, or joins a chain that keeps
// another liberty. Called only when p has no empty neighbour.
inline bool Board::would_capture_or_breathe(Point p, Color c) const noexcept {
  for (Point q : neighbours(p)) {
    const Color qc = at(q);
    if (!is_stone(qc)) continue;
    const Point chain = chain_[idx(q)];
    const bool only_liberty_is_p = libs_[idx(chain)] == adjacency(p, chain);
    if (qc == c ? !only_liberty_is_p : only_liberty_is_p) return true;
  }
  return false;
}

inline MoveError Board::check(Point p, Color c, bool suicide_allowed) const noexcept {
  if (p <= 0 || p >= kMaxPoints || at(p) == Color::Wall) return MoveError::OffBoard;
  if (at(p) != Color::Empty) return MoveError::Occupied;
  if (p == ko_point_ && c == ko_color_) return MoveError::Ko;
  if (empty_neighbours(p) > 0 || suicide_allowed) return MoveError::Ok;
  return would_capture_or_breathe(p, c) ? MoveError::Ok : MoveError::Suicide;
}

inline bool Board::is_eye(Point p, Color c) const noexcept {
  if (!is_surrounded_by(p, c)) return false;
  const int s = geo_.stride();
  const Color opp = opponent(c);
  int opp_diagonals = 0;
  bool edge = count(p, Color::Wall) > 0;
  for (int d : {-s - 1, -s + 1, s - 1, s + 1}) {
    const Color dc = at(static_cast<Point>(p + d));
    opp_diagonals += dc == opp;
  }
  return opp_diagonals < (edge ? 1 : 2);
}

}  // namespace tengen
