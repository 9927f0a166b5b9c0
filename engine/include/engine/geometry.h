#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tengen {

// An index into the padded board array. 0 is always off the board and doubles as "pass".
using Point = std::int16_t;
inline constexpr Point kPass = 0;

inline constexpr int kMinSide = 2;
inline constexpr int kMaxSide = 25;
// Rows 0 and height+1 are walls; column 0 of each row is a wall shared by both edges.
inline constexpr int kMaxPoints = (kMaxSide + 2) * (kMaxSide + 1) + 1;

// Board dimensions and the mapping between (x, y) and Point, where x counts columns from the
// left and y rows from the top (SGF order). External forms: SGF "dd", GTP "D4" (no letter I).
struct Geometry {
  int width = 19;
  int height = 19;

  constexpr int stride() const noexcept { return width + 1; }
  constexpr int area() const noexcept { return width * height; }
  constexpr Point point(int x, int y) const noexcept {
    return static_cast<Point>((y + 1) * stride() + x + 1);
  }
  constexpr int x(Point p) const noexcept { return p % stride() - 1; }
  constexpr int y(Point p) const noexcept { return p / stride() - 1; }
  constexpr bool contains(int x, int y) const noexcept {
    return x >= 0 && y >= 0 && x < width && y < height;
  }
  constexpr bool contains(Point p) const noexcept {
    return p > 0 && p < (height + 1) * stride() && x(p) >= 0 && y(p) >= 0;
  }
  // Row-major index 0 .. area()-1, for per-point maps handed outside the engine.
  constexpr int linear(Point p) const noexcept { return y(p) * width + x(p); }
  constexpr Point from_linear(int i) const noexcept { return point(i % width, i / width); }

  static constexpr bool valid(int w, int h) noexcept {
    return w >= kMinSide && h >= kMinSide && w <= kMaxSide && h <= kMaxSide;
  }
  bool operator==(const Geometry&) const = default;

  // "D4"-style vertex; "pass" for kPass.
  std::string to_gtp(Point p) const;
  // Accepts upper or lower case and "pass". Returns nullopt when malformed or off the board.
  std::optional<Point> parse_gtp(std::string_view s) const;
  // "dd"-style; "" for kPass.
  std::string to_sgf(Point p) const;
  // "" (and "tt" on boards up to 19x19) is a pass. nullopt when malformed or off the board.
  std::optional<Point> parse_sgf(std::string_view s) const;
};

}  // namespace tengen
