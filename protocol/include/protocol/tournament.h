#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/tournament/tournament.h"
#include "protocol/settings.h"

namespace tengen::protocol {

// Ranks as indices: 0 for 30 kyu ... 29 for 1 kyu, 30 for 1 dan ... 38 for 9 dan (as the
// ratings' rank_index). "5k" and "2d" on the wire.
inline constexpr int kMaxRank = 38;
std::optional<int> parse_rank(std::string_view text);
std::string rank_text(int rank);

// Everything a director fixes when creating a tournament (docs/tournaments.md).
struct TournamentSettings {
  enum class RoundStart : std::uint8_t { AfterPrevious, Scheduled };

  std::string name;
  tournament::System system = tournament::System::McMahon;
  int rounds = 0;  // Swiss and McMahon; the other systems' follow from the players
  // Every game's settings; colours and handicap come from the pairing, so "color" and
  // "handicap" are ignored.
  GameSettings game;
  int bar = 30;                         // McMahon: ranks at or above the bar start level (1d)
  int floor = 10;                       // ranks at or below the floor start at 0 (20k)
  tournament::HandicapPolicy handicap;  // McMahon only
  std::optional<std::int64_t> registration_closes_ms;  // Unix ms; default: open until the start
  std::optional<std::int64_t> starts_at_ms;            // start at this time, or by the director
  int min_players = 2;
  int max_players = 0;  // 0: no limit
  bool start_when_full = false;
  RoundStart round_start = RoundStart::AfterPrevious;
  std::int64_t round_gap_ms = 0;  // after the previous round ends
  std::vector<std::int64_t>
      round_times_ms;  // scheduled: round r at the r-th time (at the earliest)
  std::vector<tournament::TieBreak> tie_breaks;  // empty: the system's usual
  std::int64_t no_show_ms = 300'000;  // a player who has not moved by then loses by forfeit
  // Correspondence tournaments' pause policy (docs/correspondence.md): whether the players'
  // vacations stop their clocks in the tournament's games (weekends: game.time.weekends_off).
  bool vacations = true;
  // A league (round robin by correspondence): every round starts at once, so that each player
  // plays all their games together, over weeks, rather than round after round.
  bool all_rounds_at_once = false;
  // Played on physical boards (docs/tournaments.md, "Over the board"): each round is published
  // by the director once paired, no game is created on the server, the pairing's board numbers
  // are the tables, and results are entered by the director. Players without accounts may be
  // registered by the director (tournament_add_player).
  bool over_the_board = false;
  // Where it is held, for the federation files (EGD's PC[country,city]): an ISO 3166 two-letter
  // code ("NL") or empty, and a city of at most 60 bytes or empty.
  std::string country;
  std::string city;

  friend bool operator==(const TournamentSettings&, const TournamentSettings&) = default;
};

// Why these settings cannot run a tournament, naming the field; nullopt when they can.
std::optional<std::string> validate(const TournamentSettings& settings);

// The tie-breaks in force: the settings' own, or the system's usual.
std::vector<tournament::TieBreak> tie_breaks_of(const TournamentSettings& settings);

// The JSON form, as in create_tournament (for the store).
std::string encode_tournament_settings(const TournamentSettings& settings);
std::variant<TournamentSettings, std::string> decode_tournament_settings(std::string_view text);

}  // namespace tengen::protocol
