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
  bool bot = false;    // registration only: the account is a program (docs/bots.md), for good
  std::string invite;  // registration only: an invite code (docs/moderation.md), at most 64 bytes
};
// {"username": "...", "password": "..."}, and for registration optionally "bot": true and
// "invite": "CODE"; the error names the problem.
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
  std::optional<double> komi;             // the ruleset's unless given
  int handicap = 0;  // handicap stones among `black`, for the count's compensation
  // Given (even empty): the answer counts the position with these stones dead.
  std::optional<std::vector<std::string>> dead;
};
// {"width", "height", "ruleset", "komi", "handicap", "black": [...], "white": [...],
//  "moves": [{"color", "vertex"}], "dead": [...]}
// (every field but "moves" optional); the error names the problem.
std::variant<PositionQuery, std::string> decode_position_query(std::string_view body);
std::string encode_position(const PositionView& answer);

// The local board (the web client's, offline too): a game between two people on one device, the
// query of POST /api/v1/positions read as a game from an empty board (or `handicap` stones placed
// as the ruleset places them): each move must be the colour to move, two passes (or three, as the
// rules say) end play, and the count waits for `dead`. The engine compiled to WebAssembly answers
// it in the browser (wasm/, docs/web-client.md "Offline"); the server answers nothing of it.
struct LocalGameQuery {
  PositionQuery position;         // "black"/"white" setup stones are refused: a game starts empty
  bool suggest_dead = false;      // in the scoring phase: the engine's guess at the dead stones
  std::optional<Color> resigned;  // the player who resigned after the moves
};
// The fields of the positions query, and {"suggest_dead": true, "resigned": "black"}.
std::variant<LocalGameQuery, std::string> decode_local_game(std::string_view body);
struct LocalGameView {
  PositionView position;  // its score when the query named dead stones in the scoring phase
  std::string phase;      // "playing", "scoring" or "over"
  std::optional<std::string> result;  // SGF form ("B+R"), once resigned
  std::optional<std::vector<std::string>> suggested_dead;
};
// {"position": {...as POST /api/v1/positions...}, "phase", "result"?, "suggested_dead"?}
std::string encode_local_game(const LocalGameView& answer);

// GET /shell.json: {"version": "<hash>", "files": ["js/app.js", ...]}, what the web client's
// service worker keeps (web/sw.js), each file under /v/<version>/.
std::string encode_shell(std::string_view version, const std::vector<std::string>& files);

// GET /locales/index.json: {"languages":["de","en","nl"]}, the web client's catalogs.
std::string encode_languages(const std::vector<std::string>& codes);

// POST /api/v1/reviews (protocol/README.md, "Reviews"): where a review starts from, one of a
// finished game, an SGF file (text, at most kMaxReviewSgfBytes) or an empty board; a title is
// optional (1 to 100 bytes).
inline constexpr std::size_t kMaxReviewSgfBytes = std::size_t{200} * 1024;
inline constexpr std::size_t kMaxReviewTitleBytes = 100;
inline constexpr std::size_t kMaxReviewSgfNodes = 3000;  // an uploaded tree's nodes
struct ReviewSource {
  std::optional<std::int64_t> game;
  std::optional<std::string> sgf;
  int size = 19;  // an empty board's
  double komi = 6.5;
  Ruleset ruleset = Ruleset::Japanese;
  std::string title;
};
std::variant<ReviewSource, std::string> decode_review_source(std::string_view body);
// What the API hands the hub to open a review (the bus carries it from a front node).
struct ReviewRequest {
  UserRef owner;
  std::string title;
  std::optional<std::int64_t> game;
  std::string sgf;  // read and judged playable already
  // A private game's review: its two players (who, administrators and whom they invite see it);
  // empty for a public one.
  std::vector<UserRef> players{};
};
std::string encode(const ReviewRequest& r);
std::optional<ReviewRequest> decode_review_request(std::string_view text);
// Who reads a review (its list, its SGF): a private game's review is seen by its players,
// administrators and those invited only. No user: a guest.
struct Viewer {
  std::optional<std::int64_t> user;
  bool admin = false;
};
// One line of GET /api/v1/reviews.
struct ReviewSummary {
  std::int64_t id = 0;
  std::string title;
  UserRef owner, controller;
  std::optional<std::int64_t> game;
  int width = 19, height = 19;
  int nodes = 0;
  int followers = 0;
  std::int64_t created_at_ms = 0;
  bool is_private = false;        // of a private game: listed to those who may see it only
  std::int64_t active_at_ms = 0;  // when it last changed
};
std::string encode_reviews(const std::vector<ReviewSummary>& reviews);
std::string encode_review_created(std::int64_t id);

// {"user": {"id", "name", "admin", "time_zone"}, "token"}
std::string encode_logged_in(const UserRef& user, const std::string& token, bool admin = false,
                             std::string_view time_zone = "UTC");
// One's vacation days (docs/correspondence.md): those left, and while away, when it ends (the
// days left then being those until it ends).
struct VacationInfo {
  std::int64_t left_ms = 0;
  std::optional<std::int64_t> until_ms{};
};
// {"user": {"id", "name", "admin", "time_zone", "vacation": {"left_ms", "until_ms"}}}; until_ms
// is null when not on vacation.
std::string encode_me(const UserRef& user, bool admin = false, std::string_view time_zone = "UTC",
                      const VacationInfo& vacation = {});
// PATCH /api/v1/me: {"time_zone": "Europe/Amsterdam", "vacation": true} (each field optional;
// vacation true starts one, false ends it).
struct MeUpdate {
  std::optional<std::string> time_zone;
  std::optional<bool> vacation{};
};
std::variant<MeUpdate, std::string> decode_me_update(std::string_view body);
std::string encode_sessions(const std::vector<SessionInfo>& sessions);
// {"error": {"code": "...", "message": "..."}}
std::string encode_error(std::string_view code, std::string_view message);
// The same with the rules' reason for an illegal_move ("ko", as the WebSocket's `reason`).
std::string encode_error(std::string_view code, std::string_view message, Refusal reason);

}  // namespace tengen::protocol::http
