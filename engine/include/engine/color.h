#pragma once

#include <cstdint>
#include <string_view>

namespace tengen {

// The contents of one point. Wall marks the padding around the playing area.
enum class Color : std::uint8_t { Empty = 0, Black = 1, White = 2, Wall = 3 };

constexpr bool is_stone(Color c) noexcept {
  return c == Color::Black || c == Color::White;
}

// Black <-> White. Only meaningful for stones.
constexpr Color opponent(Color c) noexcept {
  return static_cast<Color>(3 - static_cast<std::uint8_t>(c));
}

constexpr int index_of(Color c) noexcept {
  return static_cast<int>(c);
}

constexpr std::string_view to_string(Color c) noexcept {
  switch (c) {
    case Color::Empty:
      return "empty";
    case Color::Black:
      return "black";
    case Color::White:
      return "white";
    case Color::Wall:
      return "wall";
  }
  return "?";
}

}  // namespace tengen
