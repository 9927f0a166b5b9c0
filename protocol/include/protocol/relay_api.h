#pragma once

// Relays of games played over the board (docs/events.md, "Relays"): the forms the server reads,
// the JSON it answers, and what the HTTP API asks of the review boards' owner (the hub, over the
// bus in a cluster).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/messages.h"

namespace tengen::protocol::http {

inline constexpr std::size_t kMaxRelayEvent = 100;  // characters
inline constexpr std::size_t kMaxRelayPlayer = 60;  // characters
inline constexpr std::size_t kMaxRelayRank = 10;    // characters
inline constexpr int kMaxRelayRound = 99;
inline constexpr int kMaxRelayTable = 999;
inline constexpr int kMaxRelayDelay = 30;    // moves the spectators' analysis stays behind
inline constexpr int kMaxRelayMoves = 1000;  // moves one relay may have
inline constexpr std::size_t kMaxRelayResult = 12;

// POST /api/v1/relays {"event", "round"?, "table"?, "black", "black_rank"?, "white",
// "white_rank"?, "size"? (19), "komi"? (6.5), "ruleset"? ("japanese"), "handicap"? (0, 2..9),
// "delay"? (0: no analysis for spectators)}: a game played over the board, relayed move by move.
struct RelayForm {
  std::string event;
  int round = 0;  // 0: none given
  int table = 0;
  std::string black, black_rank, white, white_rank;
  int size = 19;
  double komi = 6.5;
  Ruleset ruleset = Ruleset::Japanese;
  int handicap = 0;
  int delay = 0;
};
std::variant<RelayForm, std::string> decode_relay_form(std::string_view body);

// POST /api/v1/relays/{id}/moves {"move": "D4" | "pass", "number"?: n}: the next move of the game
// (its colour follows from the position); `number`, when given, must be the next move's number
// (one already entered with the same move is answered as done: a relay program may send again).
struct RelayMoveForm {
  std::string move;
  std::optional<int> number;
};
std::variant<RelayMoveForm, std::string> decode_relay_move(std::string_view body);
// POST /api/v1/relays/{id}/result {"result": "B+R" | "W+2.5" | "B+T" | "0" | "Void" | "?"}:
// the game is over (SGF's RE).
std::variant<std::string, std::string> decode_relay_result(std::string_view body);

struct RelaySummary {
  std::int64_t id = 0;
  UserRef director;
  std::string event;
  int round = 0, table = 0;
  std::string black, black_rank, white, white_rank;
  int size = 19;
  double komi = 6.5;
  std::string ruleset;
  int handicap = 0;
  int delay = 0;
  ReviewId board = 0;       // the relayed game: a board only its director's moves change
  ReviewId commentary = 0;  // the commentary room: a review board following the game
  int moves = 0;
  std::string last_move;  // "D4", "pass"; empty before the first
  std::string state;      // live, finished, closed
  std::string result;     // once finished
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> finished_at_ms;
};
// {"relays": [summary...]}
std::string encode_relays(const std::vector<RelaySummary>& relays);
// The summary alone, as an object.
std::string encode_relay(const RelaySummary& relay);

// What the HTTP API asks of the review boards' owner for a relay (its boards live there): make
// the two boards, add or take back a move on both, close them. Answered with an HTTP status and
// body: Create {"board", "commentary"}; Move {"moves", "node", "sgf" (the game's record)};
// TakeBack {"moves"}; Close {}.
struct RelayOp {
  enum class Kind : std::uint8_t { Create, Move, TakeBack, Close };
  Kind kind = Kind::Create;
  UserRef director;
  std::string title;   // Create: the boards' title
  std::string sgf;     // Create: the game's start (size, komi, handicap, names)
  ReviewId board = 0;  // the others: the boards
  ReviewId commentary = 0;
  int number = 0;               // Move: the move's number; TakeBack: the move taken back
  std::string vertex;           // Move: "D4" or "pass"
  bool commentary_too = false;  // Close: the commentary room closes as well
};
std::string encode(const RelayOp& op);
std::optional<RelayOp> decode_relay_op(std::string_view text);

}  // namespace tengen::protocol::http
