#include "engine/board.h"

#include <bitset>
#include <stdexcept>

namespace tengen {
namespace {

using PointSet = std::bitset<kMaxPoints>;

char diagram_char(Color c) {
  switch (c) {
    case Color::Black:
      return 'X';
    case Color::White:
      return 'O';
    default:
      return '.';
  }
}

}  // namespace

Board::Board(Geometry geometry) : geo_(geometry) {
  if (!Geometry::valid(geo_.width, geo_.height)) {
    throw std::invalid_argument("board size must be between 2 and 25 on each side, not " +
                                std::to_string(geo_.width) + "x" + std::to_string(geo_.height));
  }
  color_.fill(Color::Wall);
  for (int y = 0; y < geo_.height; ++y) {
    for (int x = 0; x < geo_.width; ++x) color_[idx(point(x, y))] = Color::Empty;
  }
  rebuild();
}

int Board::stone_count(Color c) const noexcept {
  int n = 0;
  for (int y = 0; y < geo_.height; ++y) {
    for (int x = 0; x < geo_.width; ++x) n += at(point(x, y)) == c;
  }
  return n;
}

void Board::put_stone(Point p, Color c) {
  color_[idx(p)] = c;
  const auto delta = static_cast<std::uint16_t>((1u << count_shift(c)) - 1u);
  for (Point q : neighbours(p)) nbr_[idx(q)] = static_cast<std::uint16_t>(nbr_[idx(q)] + delta);
  const int pos = empty_pos_[idx(p)];
  const Point last = empty_list_[idx(--empty_count_)];
  empty_list_[idx(static_cast<Point>(pos))] = last;
  empty_pos_[idx(last)] = static_cast<std::int16_t>(pos);
  hash_ ^= zobrist::stone(p, c);
}

void Board::lift_stone(Point p) {
  const Color c = at(p);
  color_[idx(p)] = Color::Empty;
  const auto delta = static_cast<std::uint16_t>((1u << count_shift(c)) - 1u);
  for (Point q : neighbours(p)) nbr_[idx(q)] = static_cast<std::uint16_t>(nbr_[idx(q)] - delta);
  empty_pos_[idx(p)] = static_cast<std::int16_t>(empty_count_);
  empty_list_[idx(static_cast<Point>(empty_count_++))] = p;
  hash_ ^= zobrist::stone(p, c);
}

void Board::merge(Point a, Point b) {
  if (size_[idx(a)] < size_[idx(b)]) std::swap(a, b);
  Point s = b;
  do {
    chain_[idx(s)] = a;
    s = next_[idx(s)];
  } while (s != b);
  std::swap(next_[idx(a)], next_[idx(b)]);
  size_[idx(a)] = static_cast<std::int16_t>(size_[idx(a)] + size_[idx(b)]);
  libs_[idx(a)] = static_cast<std::int16_t>(libs_[idx(a)] + libs_[idx(b)]);
}

void Board::remove_chain(Point head) {
  Point s = head;
  do {
    lift_stone(s);
    s = next_[idx(s)];
  } while (s != head);
  // Only now, with every stone of the chain gone, hand liberties to the neighbouring chains.
  do {
    for (Point q : neighbours(s)) {
      if (is_stone(at(q))) ++libs_[idx(chain_[idx(q)])];
    }
    s = next_[idx(s)];
  } while (s != head);
}

void Board::play(Point p, Color c) {
  ko_point_ = kPass;
  if (p == kPass) return;
  const Color opp = opponent(c);
  put_stone(p, c);
  chain_[idx(p)] = p;
  next_[idx(p)] = p;
  size_[idx(p)] = 1;
  libs_[idx(p)] = static_cast<std::int16_t>(empty_neighbours(p));
  const auto nbrs = neighbours(p);
  for (Point q : nbrs) {
    if (is_stone(at(q))) --libs_[idx(chain_[idx(q)])];
  }
  for (Point q : nbrs) {
    if (at(q) == c && chain_[idx(q)] != chain_[idx(p)]) merge(chain_[idx(p)], chain_[idx(q)]);
  }
  int captured = 0;
  Point captured_at = kPass;
  for (Point q : nbrs) {
    if (at(q) == opp && libs_[idx(chain_[idx(q)])] == 0) {
      captured += size_[idx(chain_[idx(q)])];
      captured_at = q;
      remove_chain(chain_[idx(q)]);
    }
  }
  captures_[static_cast<std::size_t>(index_of(c))] += captured;
  const Point own = chain_[idx(p)];
  if (libs_[idx(own)] == 0) {  // suicide, when the rules allow it
    captures_[static_cast<std::size_t>(index_of(opp))] += size_[idx(own)];
    remove_chain(own);
    return;
  }
  if (captured == 1 && size_[idx(own)] == 1 && libs_[idx(own)] == 1) {
    ko_point_ = captured_at;
    ko_color_ = opp;
  }
}

Hash128 Board::hash_after(Point p, Color c) const noexcept {
  const Color opp = opponent(c);
  Hash128 h = hash_ ^ zobrist::stone(p, c);
  std::array<Point, 4> seen{};
  int n_seen = 0;
  auto first_visit = [&](Point chain) {
    for (int i = 0; i < n_seen; ++i) {
      if (seen[static_cast<std::size_t>(i)] == chain) return false;
    }
    seen[static_cast<std::size_t>(n_seen++)] = chain;
    return true;
  };
  auto xor_chain = [&](Point chain, Color color) {
    Point s = chain;
    do {
      h ^= zobrist::stone(s, color);
      s = next_[idx(s)];
    } while (s != chain);
  };
  bool captures_any = false;
  for (Point q : neighbours(p)) {
    if (at(q) != opp) continue;
    const Point chain = chain_[idx(q)];
    if (libs_[idx(chain)] == adjacency(p, chain) && first_visit(chain)) {
      xor_chain(chain, opp);
      captures_any = true;
    }
  }
  if (captures_any || empty_neighbours(p) > 0 || would_capture_or_breathe(p, c)) return h;
  // Suicide: the new stone and every friendly chain it joins leave the board.
  h = hash_;
  n_seen = 0;
  for (Point q : neighbours(p)) {
    if (at(q) == c && first_visit(chain_[idx(q)])) xor_chain(chain_[idx(q)], c);
  }
  return h;
}

std::vector<Point> Board::chain_stones(Point p) const {
  std::vector<Point> stones;
  const Point head = chain_id(p);
  Point s = head;
  do {
    stones.push_back(s);
    s = next_[idx(s)];
  } while (s != head);
  return stones;
}

std::vector<Point> Board::liberty_points(Point p) const {
  PointSet seen;
  std::vector<Point> libs;
  for (Point s : chain_stones(p)) {
    for (Point q : neighbours(s)) {
      if (at(q) == Color::Empty && !seen.test(idx(q))) {
        seen.set(idx(q));
        libs.push_back(q);
      }
    }
  }
  return libs;
}

int Board::liberties(Point p) const {
  return static_cast<int>(liberty_points(p).size());
}

Point Board::single_liberty(Point p) const noexcept {
  const Point head = chain_id(p);
  Point found = kPass;
  Point s = head;
  do {
    for (Point q : neighbours(s)) {
      if (at(q) != Color::Empty || q == found) continue;
      if (found != kPass) return kPass;
      found = q;
    }
    s = next_[idx(s)];
  } while (s != head);
  return found;
}

void Board::rebuild() {
  nbr_.fill(0);
  empty_count_ = 0;
  hash_ = {};
  for (int i = 0; i < kMaxPoints; ++i) {
    const auto p = static_cast<Point>(i);
    chain_[idx(p)] = p;
    next_[idx(p)] = p;
    size_[idx(p)] = 1;
    libs_[idx(p)] = 0;
    if (at(p) == Color::Wall) continue;
    for (Point q : neighbours(p)) {
      nbr_[idx(p)] = static_cast<std::uint16_t>(nbr_[idx(p)] + (1u << count_shift(at(q))));
    }
    if (at(p) == Color::Empty) {
      empty_pos_[idx(p)] = static_cast<std::int16_t>(empty_count_);
      empty_list_[idx(static_cast<Point>(empty_count_++))] = p;
    } else {
      hash_ ^= zobrist::stone(p, at(p));
      libs_[idx(p)] = static_cast<std::int16_t>(empty_neighbours(p));
    }
  }
  for (int i = 0; i < kMaxPoints; ++i) {
    const auto p = static_cast<Point>(i);
    if (!is_stone(at(p))) continue;
    for (Point q : neighbours(p)) {
      if (at(q) == at(p) && chain_[idx(q)] != chain_[idx(p)]) merge(chain_[idx(p)], chain_[idx(q)]);
    }
  }
  ko_point_ = kPass;
}

void Board::set_stone(Point p, Color c) {
  if (!on_board(p)) throw std::invalid_argument("setup point is off the board");
  if (c == Color::Wall) throw std::invalid_argument("cannot place a wall");
  const Color before = at(p);
  color_[idx(p)] = c;
  rebuild();
  auto starving = [this](Point q) { return is_stone(at(q)) && libs_[idx(chain_[idx(q)])] == 0; };
  bool starved = starving(p);
  for (Point q : neighbours(p)) starved = starved || starving(q);
  if (starved) {
    color_[idx(p)] = before;
    rebuild();
    throw std::invalid_argument("setup at " + geo_.to_gtp(p) +
                                " would leave a chain without liberties");
  }
}

void Board::check_consistency() const {
  auto fail = [this](const std::string& what, Point p) {
    throw std::logic_error("board inconsistent: " + what + " at " + geo_.to_gtp(p) + "\n" +
                           to_diagram());
  };
  Hash128 hash{};
  int empties = 0;
  PointSet visited;
  for (int i = 0; i < kMaxPoints; ++i) {
    const auto p = static_cast<Point>(i);
    const Color c = at(p);
    if (c == Color::Wall) {
      if (geo_.contains(p)) fail("wall on the board", p);
      continue;
    }
    if (!geo_.contains(p)) fail("playable point off the board", p);
    std::uint16_t nbr = 0;
    for (Point q : neighbours(p))
      nbr = static_cast<std::uint16_t>(nbr + (1u << count_shift(at(q))));
    if (nbr != nbr_[idx(p)]) fail("neighbour counts", p);
    if (c == Color::Empty) {
      ++empties;
      const int pos = empty_pos_[idx(p)];
      if (pos < 0 || pos >= empty_count_ || empty_list_[idx(static_cast<Point>(pos))] != p) {
        fail("empty list", p);
      }
      continue;
    }
    hash ^= zobrist::stone(p, c);
    if (visited.test(idx(p))) continue;
    // Flood the chain from p and compare with the linked structures.
    std::vector<Point> stack{p};
    PointSet in_chain;
    in_chain.set(idx(p));
    int stones = 0;
    int pseudo = 0;
    while (!stack.empty()) {
      const Point s = stack.back();
      stack.pop_back();
      ++stones;
      if (chain_[idx(s)] != chain_[idx(p)]) fail("chain id", s);
      for (Point q : neighbours(s)) {
        pseudo += at(q) == Color::Empty;
        if (at(q) == c && !in_chain.test(idx(q))) {
          in_chain.set(idx(q));
          stack.push_back(q);
        }
      }
    }
    visited |= in_chain;
    const Point head = chain_[idx(p)];
    if (at(head) != c || chain_[idx(head)] != head) fail("chain head", p);
    int listed = 0;
    Point s = head;
    do {
      if (!in_chain.test(idx(s))) fail("chain list holds a stranger", s);
      s = next_[idx(s)];
    } while (s != head && ++listed <= kMaxPoints);
    if (listed + 1 != stones) fail("chain list length", p);
    if (size_[idx(head)] != stones) fail("chain size", p);
    if (libs_[idx(head)] != pseudo) fail("pseudo-liberties", p);
    if (pseudo == 0) fail("chain without liberties", p);
  }
  if (empties != empty_count_) fail("empty count", kPass);
  if (!(hash == hash_)) fail("hash", kPass);
  if (ko_point_ != kPass && at(ko_point_) != Color::Empty) fail("ko point occupied", ko_point_);
}

std::string Board::to_diagram() const {
  std::string out;
  for (int y = 0; y < geo_.height; ++y) {
    for (int x = 0; x < geo_.width; ++x) out += diagram_char(at(point(x, y)));
    out += '\n';
  }
  return out;
}

Board Board::from_diagram(std::string_view text) {
  std::vector<std::string> rows;
  std::string row;
  auto flush = [&] {
    if (!row.empty()) rows.push_back(row);
    row.clear();
  };
  for (char ch : text) {
    if (ch == '\n') {
      flush();
    } else if (ch == 'X' || ch == 'x' || ch == '#') {
      row += 'X';
    } else if (ch == 'O' || ch == 'o') {
      row += 'O';
    } else if (ch == '.' || ch == '+' || ch == ',') {
      row += '.';
    } else if (ch != ' ' && ch != '\t' && ch != '\r') {
      throw std::invalid_argument(std::string("unexpected character in diagram: ") + ch);
    }
  }
  flush();
  if (rows.empty()) throw std::invalid_argument("empty diagram");
  for (const auto& r : rows) {
    if (r.size() != rows[0].size()) throw std::invalid_argument("diagram rows differ in length");
  }
  Board b(static_cast<int>(rows[0].size()), static_cast<int>(rows.size()));
  for (int y = 0; y < b.height(); ++y) {
    for (int x = 0; x < b.width(); ++x) {
      const char ch = rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)];
      b.color_[idx(b.point(x, y))] = ch == 'X'   ? Color::Black
                                     : ch == 'O' ? Color::White
                                                 : Color::Empty;
    }
  }
  b.rebuild();
  for (int y = 0; y < b.height(); ++y) {
    for (int x = 0; x < b.width(); ++x) {
      const Point p = b.point(x, y);
      if (is_stone(b.at(p)) && b.libs_[idx(b.chain_id(p))] == 0) {
        throw std::invalid_argument("diagram has a chain without liberties at " + b.geo_.to_gtp(p));
      }
    }
  }
  return b;
}

bool operator==(const Board& a, const Board& b) noexcept {
  return a.geo_ == b.geo_ && a.hash_ == b.hash_ && a.color_ == b.color_ &&
         a.ko_point_ == b.ko_point_ && a.captures_ == b.captures_;
}

}  // namespace tengen
