#pragma once

#include <array>
#include <cstdint>

#include "engine/color.h"
#include "engine/geometry.h"

namespace tengen {

// A 128-bit Zobrist hash. At this width an accidental collision among the positions of even
// billions of games is out of the question (about 2^-64 for 2^32 positions), so superko checks
// compare hashes without confirming the position stone by stone.
struct Hash128 {
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;

  constexpr Hash128& operator^=(const Hash128& o) noexcept {
    hi ^= o.hi;
    lo ^= o.lo;
    return *this;
  }
  friend constexpr Hash128 operator^(Hash128 a, const Hash128& b) noexcept { return a ^= b; }
  friend constexpr bool operator==(const Hash128&, const Hash128&) = default;
};

namespace zobrist {

constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

struct Table {
  std::array<std::array<Hash128, kMaxPoints>, 2> stone{};
  Hash128 white_to_move{};
};

constexpr Table make_table() noexcept {
  Table t{};
  std::uint64_t state = 0x7465'6E67'656E'2121ULL;  // fixed: hashes are stable across runs
  for (auto& per_color : t.stone) {
    for (auto& h : per_color) {
      h.hi = splitmix64(state);
      h.lo = splitmix64(state);
    }
  }
  t.white_to_move.hi = splitmix64(state);
  t.white_to_move.lo = splitmix64(state);
  return t;
}

inline constexpr Table kTable = make_table();

constexpr const Hash128& stone(Point p, Color c) noexcept {
  return kTable.stone[c == Color::Black ? 0 : 1][static_cast<std::size_t>(p)];
}

// Situational superko distinguishes the same board with a different player to move.
constexpr Hash128 with_side(Hash128 h, Color to_move) noexcept {
  return to_move == Color::White ? h ^ kTable.white_to_move : h;
}

}  // namespace zobrist
}  // namespace tengen
