#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

// Analysis after the game over HTTP (docs/analysis.md; protocol/README.md, "Analysis"): what a
// worker is given, what it sends back, and what a page is shown. The shapes and their bounds are
// checked here; whether the moves are legal in the game is the server's (analysis/validate.h).
namespace tengen::protocol::http {

inline constexpr std::size_t kMaxAnalysisLine = 20;  // moves of an engine's line
inline constexpr std::size_t kMaxEngineName = 80;    // characters
inline constexpr double kMaxAnalysisScore = 1000;    // points, either way
inline constexpr std::size_t kMaxAnalysisPositions = 1001;
inline constexpr std::size_t kMaxAnalysisBody = 256 * 1024;  // a result's JSON, bytes

// POST /api/v1/analysis/acquire's answer: a finished game to analyse, as its SGF record (main
// line only), and how many positions the result must have (its moves and the start); or, for a
// worker that said it takes them, a review board's position: the line from the board's start to
// it as an SGF record, of which only the last position (`from`, the number of its moves) is
// analysed, so `positions` is 1.
struct AnalysisJob {
  std::int64_t game = 0;      // a game's job: {"game", "sgf", "positions"}
  std::int64_t position = 0;  // a position's job: {"position", "sgf", "positions", "from"}
  std::string sgf;
  int positions = 0;
  int from = 0;  // the first position analysed (0 for a game)
};
std::string encode_analysis_job(const AnalysisJob& job);
std::variant<AnalysisJob, std::string> decode_analysis_job(std::string_view body);
// POST /api/v1/analysis/acquire's body: {"positions": true} from a worker that takes review
// boards' positions too; anything else (a worker written before them sends {}): games only.
bool acquires_positions(std::string_view body);

// One position of the game: the one after `move` moves (0: before the first), as the engine saw
// it with the player to move there to play.
// An engine that gives no score (Leela Zero's lz-analyze) gives win rates only: a result has a
// score at every position or at none, and each position a score or a win rate.
struct AnalysedPosition {
  int move = 0;
  std::optional<double> score;    // Black's lead in points, komi included (White ahead: < 0)
  std::optional<double> winrate;  // Black's chance to win, 0 to 1, if the engine says
  // The engine's line for the player to move: its best move first ("D4", "pass"); may be empty.
  std::vector<std::string> line;
  friend bool operator==(const AnalysedPosition&, const AnalysedPosition&) = default;
};
struct AnalysisResult {
  std::string engine;  // in words: "GNU Go 3.8, level 10", "KataGo 1.15, 400 visits"
  std::vector<AnalysedPosition> positions;
  friend bool operator==(const AnalysisResult&, const AnalysisResult&) = default;
};
// {"engine": "...", "positions": [{"move": 0, "score": 6.5, "winrate": 0.31, "line": ["D4"]},
// ...]}: scores written to a tenth of a point, win rates to a thousandth.
std::string encode_analysis_result(const AnalysisResult& result);
// Refuses, saying why: a body over kMaxAnalysisBody (256 KiB), unknown fields, an engine name that
// is empty, too long or holds anything but printable characters, scores or win rates out of range,
// a position with neither, scores at some positions only, a line too long, positions not numbered
// in order (n, n + 1, ...: from 0 for a game, the position's own number for a position's job).
std::variant<AnalysisResult, std::string> decode_analysis_result(std::string_view body);

// POST /api/v1/analysis/{game}/progress: {"done": N}, the positions analysed so far.
std::variant<int, std::string> decode_analysis_progress(std::string_view body);

// GET /api/v1/games/{id}/analysis: {"game", "state": "none"|"queued"|"running"|"done"|"failed",
// "done", "total", "ahead" (jobs waiting before it), "engine", "error", "positions" (when done)}.
struct AnalysisView {
  std::int64_t game = 0;
  std::string state;
  int done = 0;
  int total = 0;
  int ahead = 0;
  std::string engine;
  std::string error;
  std::optional<AnalysisResult> result;
};
std::string encode_analysis_view(const AnalysisView& view);

// POST /api/v1/reviews/{id}/analysis: {"node": N, "line": [{"color": "black", "vertex": "D4"},
// ...]}, the review board's node and the moves from the board's start to it (at most 1,000).
struct PositionRequest {
  std::int64_t node = 0;
  std::vector<std::pair<bool, std::string>> line;  // (white?, vertex as written)
};
std::variant<PositionRequest, std::string> decode_position_request(std::string_view body);

// Its answer, and GET /api/v1/reviews/{id}/analysis/{job}'s: {"id", "review", "node", "state":
// "queued"|"running"|"done"|"failed", "ahead", "engine", "error", "position" (when done: one
// AnalysedPosition, its "move" the line's length)}.
struct PositionAnalysisView {
  std::int64_t id = 0;
  std::int64_t review = 0;
  std::int64_t node = 0;
  std::string state;
  int ahead = 0;
  std::string engine;
  std::string error;
  std::optional<AnalysedPosition> position;
};
std::string encode_position_view(const PositionAnalysisView& view);

// GET /api/v1/admin/analysis-workers: {"workers": [{"name", "created_at_ms", "last_seen_at_ms",
// "revoked_at_ms"}]} (the times null when there are none); POST it {"name": "..."} answers
// {"name", "key"}, the key shown this once.
struct WorkerView {
  std::string name;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> last_seen_at_ms, revoked_at_ms;
};
std::string encode_workers(const std::vector<WorkerView>& workers);
std::variant<std::string, std::string> decode_worker_name(std::string_view body);  // name | why
std::string encode_worker_key(std::string_view name, std::string_view key);

// GET /api/v1/admin/analysis-jobs: {"jobs": [{"game", "state", "requested_by", "requested_at_ms",
// "worker", "attempts", "moves_done", "moves_total", "engine", "error", "finished_at_ms"}]}: the
// jobs waiting or running, oldest first, then the latest that ended. `requested_by` is null for
// a game the server queued itself (--analyse-every-game), `worker` while none has claimed it,
// `finished_at_ms` until it ends.
struct JobView {
  std::int64_t game = 0;
  std::string state;  // queued, running, done, failed
  std::optional<std::string> requested_by;
  std::int64_t requested_at_ms = 0;
  std::optional<std::string> worker;
  int attempts = 0, moves_done = 0, moves_total = 0;
  std::string engine, error;
  std::optional<std::int64_t> finished_at_ms;
};
std::string encode_jobs(const std::vector<JobView>& jobs);

}  // namespace tengen::protocol::http
