#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/game.h"

namespace tengen {

// One move of a record, with what the clocks said after it: the mover's (BL and OB after a
// Black move, WL and OW after a White one) and, when the record gives it, the opponent's.
struct RecordedMove {
  Color color = Color::Empty;
  Point point = kPass;
  std::optional<double> time_left;   // the mover's BL / WL, seconds
  std::optional<int> overtime_left;  // the mover's OB / OW: byo-yomi periods or Canadian stones
  std::string comment;               // C
  std::optional<double> opponent_time_left;   // the other colour's BL / WL in the same node
  std::optional<int> opponent_overtime_left;  // the other colour's OB / OW
  // Setup in this node after the game began (AB AW AE), done before its move. A node with only
  // setup has no move: `color` Empty. (Setup before the first move is the record's setup.)
  std::vector<Point> add_black{}, add_white{}, add_empty{};
  bool is_move() const noexcept { return color != Color::Empty; }
  static RecordedMove of(const Move& m);  // the move alone, no clock or comment
  friend bool operator==(const RecordedMove&, const RecordedMove&) = default;
};

// A game record: the main line of an SGF FF[4] file (GM[1]).
struct GameRecord {
  int width = 19;
  int height = 19;
  double komi = 0;
  int handicap = 0;
  std::string rules;                                           // RU
  std::string black_name, white_name, black_rank, white_rank;  // PB PW BR WR
  std::string date, event, round, place;                       // DT EV RO PC
  std::string result;                                          // RE
  std::optional<double> time_limit;                            // TM, seconds
  std::string overtime;                                        // OT
  std::string game_comment;                                    // GC
  std::string comment;                                         // C on the root
  std::string application = "tengen";                          // AP
  Color player_to_move = Color::Empty;                         // PL, if given
  std::vector<Point> setup_black, setup_white;                 // AB AW
  std::vector<RecordedMove> moves;
  // Other root properties, kept in order so that nothing is lost on a round trip.
  std::vector<std::pair<std::string, std::vector<std::string>>> extra;
  // What the reader accepted although the file breaks the standard (a comma in KM, a repeated
  // property, text before the game tree...), each with its offset; empty for a clean file.
  std::vector<std::string> warnings;

  Geometry geometry() const { return {width, height}; }
  friend bool operator==(const GameRecord&, const GameRecord&) = default;

  // Size, komi, handicap, setup stones and moves of a game (names and clocks are the caller's).
  static GameRecord from_game(const Game& game);
  // The size and the setup stones (AB AW) of a starting position.
  void set_up(const Board& start);
};

class SgfError : public std::runtime_error {
 public:
  SgfError(std::size_t offset, const std::string& message)
      : std::runtime_error("SGF error at offset " + std::to_string(offset) + ": " + message),
        offset_(offset) {}
  std::size_t offset() const noexcept { return offset_; }

 private:
  std::size_t offset_;
};

std::string write_sgf(const GameRecord& record);
// Reads the first game of a collection, following the first variation at every branch. What
// the field's readers (GNU Go, Sabaki) accept is accepted with a warning in `warnings`: a byte
// order mark or text before the game tree, spaces around numbers, KM[7,5], empty KM[] HA[] TM[],
// PL[b], a property repeated in a node (values joined; not B or W); upper-case points on boards
// up to 25 are read as lower case without a word. What has no sensible reading (two moves in a
// node, setup stones after the first move, which a record here cannot hold) throws SgfError
// naming the byte offset of the problem.
GameRecord read_sgf(std::string_view text);

}  // namespace tengen
