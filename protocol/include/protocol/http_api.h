#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/messages.h"

// The JSON bodies of the HTTP API under /api/v1 (accounts and sessions). protocol/README.md, "HTTP
// API (accounts)".
namespace tengen::protocol::http {

struct Credentials {
  std::string username;
  std::string password;
  bool bot = false;  // registration only: the account is a program (docs/bots.md), for good
};
// {"username": "...", "password": "..."}, and for registration optionally "bot": true; the error
// names the problem.
enum class CredentialsFor : std::uint8_t { Login, Registration };
std::variant<Credentials, std::string> decode_credentials(std::string_view body,
                                                          CredentialsFor purpose);

struct SessionInfo {
  std::int64_t id = 0;
  std::string user_agent;
  std::int64_t created_at_ms = 0;
  std::int64_t last_seen_at_ms = 0;
  bool current = false;
};

// One game in a list (protocol/README.md, "HTTP API (games)").
struct GameInfo {
  std::int64_t id = 0;
  UserRef black;
  UserRef white;
  GameSettings settings;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> ended_at_ms;
  std::optional<std::string> result;
  std::optional<std::string> end_reason;
  int move_count = 0;
};
// {"game": {...}}
std::string encode_game(const GameInfo& game);
// {"games": [...], "next_before": id or null}: the page's last id, to ask for the next page.
std::string encode_games(const std::vector<GameInfo>& games,
                         std::optional<std::int64_t> next_before);

// A player with their rating now (docs/ratings.md).
struct PlayerRating {
  UserRef user;
  bool bot = false;
  double rating = 1500, deviation = 350, volatility = 0.06;
  std::string rank;  // "10k", "1d"; "10k?" while provisional
  bool provisional = true;
  int games = 0;  // rated games played
};
// {"user": {"id", "name", "bot", "rating": {...}}}
std::string encode_player(const PlayerRating& player);
// {"ratings": [{"id", "name", "bot", "rating": {...}}, ...]}
std::string encode_ratings(const std::vector<PlayerRating>& players);

struct RatingPoint {
  std::int64_t game = 0;
  std::int64_t at_ms = 0;
  double rating = 0, deviation = 0;
  std::string rank;
};
// {"user": {...}, "history": [{"game", "at_ms", "rating", "deviation", "rank"}, ...]} oldest first
std::string encode_rating_history(const PlayerRating& player,
                                  const std::vector<RatingPoint>& points);

// POST /api/v1/positions: the position a line of play reaches, judged by the rules engine. The
// browser's analysis asks it for every move of a variation (protocol/README.md, "Positions").
inline constexpr std::size_t kMaxPositionMoves = 2000;
struct PositionQuery {
  int width = 19;
  int height = 19;
  Ruleset ruleset = Ruleset::Japanese;
  std::vector<std::string> black, white;  // stones on the board before the first move (GTP)
  std::vector<MoveRecord> moves;          // either colour, in order; "pass" for a pass
};
// {"width", "height", "ruleset", "black": [...], "white": [...], "moves": [{"color", "vertex"}]}
// (every field but "moves" optional); the error names the problem.
std::variant<PositionQuery, std::string> decode_position_query(std::string_view body);
struct PositionAnswer {
  std::string board;  // width*height characters, rows from the top: 'b', 'w', '.'
  Color to_move = Color::Black;
  Captures captures;                  // stones each colour has taken along the line
  std::vector<std::string> captured;  // what the last move took off the board
};
std::string encode_position(const PositionAnswer& answer);

std::string encode_logged_in(const UserRef& user, const std::string& token);
std::string encode_me(const UserRef& user);
std::string encode_sessions(const std::vector<SessionInfo>& sessions);
// {"error": {"code": "...", "message": "..."}}
std::string encode_error(std::string_view code, std::string_view message);

}  // namespace tengen::protocol::http
