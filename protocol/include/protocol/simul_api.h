#pragma once

// Simuls over HTTP (docs/events.md, "Simuls"): the forms the server reads and the JSON it answers.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/messages.h"

namespace tengen::protocol::http {

inline constexpr std::size_t kMaxSimulName = 60;  // characters
inline constexpr int kMinSimulBoards = 2;
inline constexpr int kMaxSimulBoards = 30;

// POST /api/v1/simuls {"name", "settings": {game settings}, "boards": 2..30}. The host plays White
// on every board; the settings' handicap is 0 (even games, the players with Black and the komi
// given), 2..9 stones on every board, or "automatic" (each player given as many stones as ranks
// below the host, komi 0.5 from one rank). The games are public and unrated; `color`, `private`,
// `rated` and `group` are not for a simul.
struct SimulForm {
  std::string name;
  GameSettings settings;
  int boards = 10;
};
std::variant<SimulForm, std::string> decode_simul_form(std::string_view body);

struct SimulSummary {
  std::int64_t id = 0;
  UserRef host;
  std::string name;
  GameSettings settings;
  int boards = 0;      // at most this many players
  int players = 0;     // joined
  std::string state;   // open, playing, finished, cancelled
  int games_over = 0;  // of those started
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> started_at_ms;
};
// One player of a simul and, once it started, their board.
struct SimulBoard {
  UserRef player;
  std::string rank;  // "5k", "1d?"
  std::int64_t joined_at_ms = 0;
  int handicap = 0;  // the stones they get (as the start gives them, or gave them)
  std::optional<std::int64_t> game;
  std::string result;  // the game's, once it ended (SGF RE[] form)
};
struct SimulPage {
  SimulSummary simul;
  std::vector<SimulBoard> boards;  // in the order the players joined
};
// {"simuls": [summary...]}
std::string encode_simuls(const std::vector<SimulSummary>& simuls);
// {"simul": summary, "boards": [{"player", "rank", "joined_at_ms", "handicap", "game"?,
// "result"?}]}
std::string encode_simul_page(const SimulPage& page);

}  // namespace tengen::protocol::http
