#include "engine/geometry.h"

#include <cctype>
#include <charconv>

namespace tengen {
namespace {

constexpr std::string_view kGtpColumns = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

}  // namespace

std::string Geometry::to_gtp(Point p) const {
  if (p == kPass) return "pass";
  if (!contains(p)) return "?";
  std::string vertex(1, kGtpColumns[static_cast<std::size_t>(x(p))]);
  vertex += std::to_string(height - y(p));
  return vertex;
}

std::optional<Point> Geometry::parse_gtp(std::string_view s) const {
  if (s.size() == 4) {
    std::string lower;
    for (char ch : s) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (lower == "pass") return kPass;
  }
  if (s.size() < 2 || s.size() > 3) return std::nullopt;
  const char letter = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  const auto column = kGtpColumns.find(letter);
  if (column == std::string_view::npos) return std::nullopt;
  int row = 0;
  const auto digits = s.substr(1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), row);
  if (ec != std::errc{} || end != digits.data() + digits.size() || digits[0] == '0') {
    return std::nullopt;
  }
  const int xx = static_cast<int>(column);
  const int yy = height - row;
  if (!contains(xx, yy)) return std::nullopt;
  return point(xx, yy);
}

std::string Geometry::to_sgf(Point p) const {
  if (p == kPass || !contains(p)) return "";
  return {static_cast<char>('a' + x(p)), static_cast<char>('a' + y(p))};
}

std::optional<Point> Geometry::parse_sgf(std::string_view s) const {
  if (s.empty()) return kPass;
  if (s == "tt" && width <= 19 && height <= 19) return kPass;
  if (s.size() != 2) return std::nullopt;
  auto coord = [](char ch) -> int {
    if (ch >= 'a' && ch <= 'z') return ch - 'a';
    if (ch >= 'A' && ch <= 'Z') return ch - 'A' + 26;
    return -1;
  };
  const int xx = coord(s[0]);
  const int yy = coord(s[1]);
  if (!contains(xx, yy)) return std::nullopt;
  return point(xx, yy);
}

}  // namespace tengen
