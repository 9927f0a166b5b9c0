#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/board.h"
#include "engine/position_set.h"
#include "engine/rules.h"

namespace tengen {

inline constexpr std::string_view kEngineVersion = "0.1.0";

// One command after GTP 2 preprocessing: control characters dropped, tabs made spaces,
// comments (from '#') removed. nullopt for a line that is then empty.
struct GtpCommand {
  std::optional<int> id;
  std::string name;
  std::vector<std::string> args;
  // The line began with something like an id that is not one (`1a`, or past 2^31 - 1): it is
  // answered with an error, not run as if the id were absent.
  bool bad_id = false;
};
std::optional<GtpCommand> parse_gtp_line(std::string_view line);

struct GtpResponse {
  bool ok = true;
  std::string text;
};
// "=id text\n\n" or "?id text\n\n".
std::string format_gtp_response(const std::optional<int>& id, const GtpResponse& response);

// The engine as a GTP referee: it keeps the position, checks legality under its rules and
// scores, but does not play (no genmove). Like GNU Go, `play` accepts either colour in any
// order. Rules default to simple ko and no suicide; `kgs-rules` picks a preset and
// `tengen-rules` takes any option text (see Rules::parse).
class GtpEngine {
 public:
  GtpEngine();

  GtpResponse execute(const GtpCommand& command);
  bool quit_requested() const noexcept { return quit_; }
  // Reads commands until `quit` or end of input, writing one response for each.
  void run(std::istream& in, std::ostream& out);

  const Board& board() const noexcept { return board_; }

 private:
  using Handler = GtpResponse (GtpEngine::*)(const std::vector<std::string>&);
  struct Entry {
    std::string_view name;
    Handler handler;
  };
  static const std::vector<Entry>& commands();

  GtpResponse protocol_version(const std::vector<std::string>&);
  GtpResponse name(const std::vector<std::string>&);
  GtpResponse version(const std::vector<std::string>&);
  GtpResponse known_command(const std::vector<std::string>&);
  GtpResponse list_commands(const std::vector<std::string>&);
  GtpResponse quit(const std::vector<std::string>&);
  GtpResponse boardsize(const std::vector<std::string>&);
  GtpResponse clear_board(const std::vector<std::string>&);
  GtpResponse komi(const std::vector<std::string>&);
  GtpResponse get_komi(const std::vector<std::string>&);
  GtpResponse play(const std::vector<std::string>&);
  GtpResponse is_legal(const std::vector<std::string>&);
  GtpResponse undo(const std::vector<std::string>&);
  GtpResponse showboard(const std::vector<std::string>&);
  GtpResponse list_stones(const std::vector<std::string>&);
  GtpResponse captures(const std::vector<std::string>&);
  GtpResponse fixed_handicap(const std::vector<std::string>&);
  GtpResponse set_free_handicap(const std::vector<std::string>&);
  GtpResponse loadsgf(const std::vector<std::string>&);
  GtpResponse printsgf(const std::vector<std::string>&);
  GtpResponse final_score(const std::vector<std::string>&);
  GtpResponse final_status_list(const std::vector<std::string>&);
  GtpResponse kgs_rules(const std::vector<std::string>&);
  GtpResponse tengen_rules(const std::vector<std::string>&);

  void reset(Geometry geometry);
  MoveError legality(Point p, Color c) const;
  void record(Point p, Color c);
  void rebuild_history_sets();
  void position_changed();

  Board board_;
  Rules rules_;
  // What a position added to seen_ and situations_ when it was reached.
  struct Reached {
    Hash128 position;
    Hash128 situation;
  };
  struct Played {
    Board before;
    Color mover;
    Point point;  // kPass for a pass
    Reached after;
  };
  Reached start_;                // the position before the first move
  std::vector<Played> history_;  // every move, with what it added: undo takes exactly that back
  PositionSet seen_;
  PositionSet situations_;
  Color last_mover_ = Color::Empty;
  bool quit_ = false;
};

}  // namespace tengen
