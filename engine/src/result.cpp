#include "engine/result.h"

#include <charconv>
#include <cmath>
#include <sstream>

#include "numbers.h"

namespace tengen {

Result Result::score(double black_minus_white) {
  if (black_minus_white == 0) return {Kind::Score, Color::Empty, 0};
  return {Kind::Score, black_minus_white > 0 ? Color::Black : Color::White,
          std::abs(black_minus_white)};
}

std::string Result::to_sgf() const {
  if (kind == Kind::Void) return "Void";
  if (kind == Kind::Unknown) return "?";
  if (kind == Kind::Score && winner == Color::Empty) return "0";
  std::string out = winner == Color::Black ? "B+" : "W+";
  switch (kind) {
    case Kind::Resignation:
      return out + "R";
    case Kind::Time:
      return out + "T";
    case Kind::Forfeit:
      return out + "F";
    default:
      break;
  }
  std::ostringstream margin_text;
  margin_text << margin;
  return out + margin_text.str();
}

std::optional<Result> Result::parse_sgf(std::string_view text) {
  if (text == "0" || text == "Draw" || text == "Jigo") return Result{Kind::Score, Color::Empty, 0};
  if (text == "Void") return void_game();
  if (text == "?") return Result{};
  if (text.size() < 3 || (text[0] != 'B' && text[0] != 'W') || text[1] != '+') return std::nullopt;
  const Color winner = text[0] == 'B' ? Color::Black : Color::White;
  const auto rest = text.substr(2);
  if (rest == "R" || rest == "Resign") return resignation(winner);
  if (rest == "T" || rest == "Time") return time(winner);
  if (rest == "F" || rest == "Forfeit") return forfeit(winner);
  double margin = 0;
  if (!read_real(rest, margin) || !(margin > 0)) return std::nullopt;
  return Result{Kind::Score, winner, margin};
}

}  // namespace tengen
