#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/rules.h"

namespace tengen::protocol {

// Time controls (docs/clocks.md). Times in milliseconds.
struct TimeControl {
  enum class System : std::uint8_t {
    None,
    Absolute,
    Simple,
    Fischer,
    ByoYomi,
    Canadian,
    Correspondence
  };

  System system = System::None;
  std::int64_t main_ms = 0;       // absolute, fischer (initial), byo-yomi and canadian main time
  std::int64_t per_move_ms = 0;   // simple; correspondence: the time added by each move
  std::int64_t increment_ms = 0;  // fischer
  std::int64_t max_ms = 0;        // fischer, correspondence: cap on the banked time, 0 for none
  int periods = 0;                // byo-yomi
  std::int64_t period_ms = 0;     // byo-yomi period; canadian block time
  int stones = 0;                 // canadian stones per block
  // Correspondence: each player's clock stops from Saturday 00:00 to Monday 00:00 in their own
  // time zone (docs/correspondence.md).
  bool weekends_off = false;

  friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

// Pair Go and rengo (docs/events.md): each colour is a team whose members move in turn, in the
// order listed (pair Go's B1 W1 B2 W2). Set only by the server (a pair Go game's start); no
// client form or message may give it.
struct TeamMember {
  std::int64_t id = 0;
  std::string name;
  friend bool operator==(const TeamMember&, const TeamMember&) = default;
};
struct Teams {
  std::vector<TeamMember> black, white;
  friend bool operator==(const Teams&, const Teams&) = default;
};

// Everything a challenge fixes about the game it will start (docs/games.md).
struct GameSettings {
  enum class Placement : std::uint8_t { Ruleset, Fixed, Free };
  // The challenger's colour; Automatic gives Black to the weaker player by rating.
  enum class ColorChoice : std::uint8_t { Nigiri, Black, White, Automatic };

  int width = 19;
  int height = 19;
  Ruleset ruleset = Ruleset::Japanese;  // its name on the wire; any spelling the engine accepts
  std::optional<double> komi;           // default: the ruleset's (0.5 in handicap games)
  int handicap = 0;                     // 0, or 2..9 stones
  // A challenge may leave the handicap to the players' ranks ("handicap": "automatic"): when it
  // is accepted the weaker player takes Black with as many stones as ranks between them (and
  // komi 0.5 from one rank up). A game's settings always have it resolved.
  bool automatic_handicap = false;
  Placement placement = Placement::Ruleset;
  ColorChoice color = ColorChoice::Nigiri;
  TimeControl time;
  bool rated = false;
  bool is_private = false;
  // A group's challenge (docs/groups.md): seen and accepted by the group's members only.
  std::optional<std::int64_t> group;
  std::optional<Teams> teams{};  // a pair Go or rengo game's (above)

  friend bool operator==(const GameSettings&, const GameSettings&) = default;
};

// Why the settings cannot start a game, naming the field; nullopt when they can.
std::optional<std::string> validate(const GameSettings& settings);

// Gives the settings `stones` handicap stones, or as many fewer as the board and placement
// allow; one stone is no stones (the caller sets komi 0.5 for any handicap).
void fit_handicap(GameSettings& settings, int stones);

// The rules a game with these (valid) settings is played under: the ruleset's preset with the
// game's komi, which defaults to the ruleset's, or 0.5 in a handicap game.
Rules rules_of(const GameSettings& settings);

}  // namespace tengen::protocol
