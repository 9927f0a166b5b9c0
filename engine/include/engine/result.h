#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/color.h"

namespace tengen {

// How a game ended, in SGF RE[] terms: "B+R", "W+T", "B+3.5", "0" (jigo), "B+F", "Void", "?".
struct Result {
  enum class Kind : std::uint8_t { Score, Resignation, Time, Forfeit, Void, Unknown };

  Kind kind = Kind::Unknown;
  Color winner = Color::Empty;  // Empty for jigo, Void and Unknown
  double margin = 0;            // for Score

  static Result score(double black_minus_white);
  static Result resignation(Color winner) { return {Kind::Resignation, winner, 0}; }
  static Result time(Color winner) { return {Kind::Time, winner, 0}; }
  static Result forfeit(Color winner) { return {Kind::Forfeit, winner, 0}; }
  static Result void_game() { return {Kind::Void, Color::Empty, 0}; }

  std::string to_sgf() const;
  static std::optional<Result> parse_sgf(std::string_view text);
  friend bool operator==(const Result&, const Result&) = default;
};

}  // namespace tengen
