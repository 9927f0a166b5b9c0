#include "protocol/tournament.h"

#include <charconv>

#include "protocol/wire.h"

namespace tengen::protocol {
namespace {

using tournament::System;

constexpr std::int64_t kWeekMs = 7LL * 24 * 3600 * 1000;

bool is_elimination(System s) {
  return s == System::SingleElimination || s == System::DoubleElimination;
}

}  // namespace

std::optional<int> parse_rank(std::string_view text) {
  if (text.size() < 2) return std::nullopt;
  int n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size() - 1, n);
  if (ec != std::errc{} || end != text.data() + text.size() - 1) return std::nullopt;
  const char unit = text.back();
  if ((unit == 'k' || unit == 'K') && n >= 1 && n <= 30) return 30 - n;
  if ((unit == 'd' || unit == 'D') && n >= 1 && n <= 9) return 29 + n;
  return std::nullopt;
}

std::string rank_text(int rank) {
  if (rank < 30) return std::to_string(30 - rank) + "k";
  return std::to_string(rank - 29) + "d";
}

std::vector<tournament::TieBreak> tie_breaks_of(const TournamentSettings& s) {
  using T = tournament::TieBreak;
  if (!s.tie_breaks.empty()) return s.tie_breaks;
  if (s.system == System::McMahon) return {T::Score, T::Sos, T::Sosos};
  if (is_elimination(s.system)) return {T::Wins, T::Sos};
  return {T::Wins, T::Sos, T::Sodos};
}

std::optional<std::string> validate(const TournamentSettings& s) {
  if (s.name.empty() || s.name.size() > 80) return "name must be 1 to 80 bytes";
  const bool counted = s.system == System::Swiss || s.system == System::McMahon;
  if (counted && (s.rounds < 1 || s.rounds > 30))
    return "rounds must be between 1 and 30 for Swiss and McMahon";
  if (!counted && s.rounds != 0)
    return "rounds follow from the players in this system: leave it out";
  auto game = s.game;
  game.handicap = 0;
  game.automatic_handicap = false;
  game.color = GameSettings::ColorChoice::Black;
  if (auto problem = validate(game)) return "game." + *problem;
  if (s.game.automatic_handicap || s.game.handicap != 0)
    return "game.handicap is set by the pairing: leave it out";
  // Its page shows every pairing and result to anyone: its games are as public as it is.
  if (s.game.is_private) return "game.private: a tournament's games are public, as its page is";
  if (!s.vacations && s.game.time.system != TimeControl::System::Correspondence)
    return "vacations: a pause policy is for correspondence tournaments only";
  if (s.all_rounds_at_once &&
      (s.game.time.system != TimeControl::System::Correspondence ||
       (s.system != System::RoundRobin && s.system != System::DoubleRoundRobin) ||
       s.round_start != TournamentSettings::RoundStart::AfterPrevious)) {
    return "all_rounds_at_once is for round robin leagues by correspondence, their rounds "
           "starting after_previous";
  }
  if (s.floor < 0 || s.bar > kMaxRank || s.floor > s.bar)
    return "mcmahon: the floor must be at or below the bar";
  if (s.handicap.by_score_gap && s.system != System::McMahon)
    return "handicap.by_score_gap is for McMahon only";
  if (s.handicap.correction < 0 || s.handicap.correction > 9)
    return "handicap.correction must be between 0 and 9";
  if (s.handicap.ceiling < 0 || s.handicap.ceiling > 9)
    return "handicap.ceiling must be between 0 and 9";
  if (s.min_players < 2 || s.min_players > 1000) return "min_players must be between 2 and 1000";
  if (s.max_players != 0 && (s.max_players < s.min_players || s.max_players > 1000)) {
    return "max_players must be 0 (no limit) or between min_players and 1000";
  }
  if (s.start_when_full && s.max_players == 0) return "start_when_full needs max_players";
  if (s.round_gap_ms < 0 || s.round_gap_ms > kWeekMs)
    return "round_start.gap_ms must be between 0 and a week";
  if (s.round_start == TournamentSettings::RoundStart::Scheduled) {
    if (s.round_times_ms.empty()) return "round_start.times_ms must list the rounds' start times";
    for (std::size_t i = 1; i < s.round_times_ms.size(); ++i) {
      if (s.round_times_ms[i] <= s.round_times_ms[i - 1])
        return "round_start.times_ms must increase";
    }
    if (counted && static_cast<int>(s.round_times_ms.size()) < s.rounds)
      return "round_start.times_ms needs a time for every round";
  }
  if (s.no_show_ms < 1000 || s.no_show_ms > kWeekMs)
    return "no_show_ms must be between 1000 and a week";
  if (s.registration_closes_ms && s.starts_at_ms && *s.registration_closes_ms > *s.starts_at_ms) {
    return "registration_closes_ms must not be after starts_at_ms";
  }
  if (s.tie_breaks.size() > 5) return "tie_breaks lists at most 5";
  if (!s.country.empty() && !wire::country_code(s.country).empty())
    return "country must be a two-letter code like \"NL\" (ISO 3166), or left out";
  if (s.city.size() > 60) return "city is longer than 60 bytes";
  if (!wire::printable_text(s.city).empty()) return "city holds control characters";
  if (s.over_the_board) {
    if (s.all_rounds_at_once)
      return "over_the_board: its rounds are published one by one by the director";
    if (s.round_start == TournamentSettings::RoundStart::Scheduled)
      return "over_the_board: its rounds start when the director publishes them, not on a "
             "schedule";
    if (s.game.time.system == TimeControl::System::Correspondence)
      return "over_the_board: a game on a physical board is not played by correspondence";
    if (s.game.group)
      return "over_the_board: it is open to players without accounts, not a group's";
  }
  return std::nullopt;
}

}  // namespace tengen::protocol
