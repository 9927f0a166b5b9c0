#include <array>
#include <utility>

#include "engine/tournament/tournament.h"

namespace tengen::tournament {
namespace {

constexpr std::array<std::pair<System, std::string_view>, 6> kSystems{{
    {System::RoundRobin, "round_robin"},
    {System::DoubleRoundRobin, "double_round_robin"},
    {System::Swiss, "swiss"},
    {System::McMahon, "mcmahon"},
    {System::SingleElimination, "single_elimination"},
    {System::DoubleElimination, "double_elimination"},
}};

constexpr std::array<std::pair<TieBreak, std::string_view>, 5> kTieBreaks{{
    {TieBreak::Score, "score"},
    {TieBreak::Wins, "wins"},
    {TieBreak::Sos, "sos"},
    {TieBreak::Sosos, "sosos"},
    {TieBreak::Sodos, "sodos"},
}};

template <typename E, std::size_t N>
std::optional<E> parse(const std::array<std::pair<E, std::string_view>, N>& names,
                       std::string_view text) {
  for (const auto& [value, name] : names) {
    if (name == text) return value;
  }
  return std::nullopt;
}

template <typename E, std::size_t N>
std::string_view name_of(const std::array<std::pair<E, std::string_view>, N>& names, E value) {
  for (const auto& [v, name] : names) {
    if (v == value) return name;
  }
  return "?";
}

}  // namespace

std::string_view to_string(System s) {
  return name_of(kSystems, s);
}
std::optional<System> parse_system(std::string_view text) {
  return parse(kSystems, text);
}
std::string_view to_string(TieBreak t) {
  return name_of(kTieBreaks, t);
}
std::optional<TieBreak> parse_tie_break(std::string_view text) {
  return parse(kTieBreaks, text);
}

}  // namespace tengen::tournament
