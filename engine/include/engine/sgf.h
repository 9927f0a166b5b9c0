#pragma once

#include <cstdint>
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

// Markup on a node (TR SQ CR MA LB): a shape on a point, or a label's text.
enum class MarkShape : std::uint8_t { Triangle, Square, Circle, Cross, Label };
struct Mark {
  Point point = kPass;
  MarkShape shape = MarkShape::Triangle;
  std::string label;  // LB's text; empty for the shapes
  friend bool operator==(const Mark&, const Mark&) = default;
};

// One node of a game tree. Its move (if any), clocks, setup and comment are a RecordedMove; the
// root's setup and comment are the tree's record's (setup_black, setup_white, comment).
struct TreeNode {
  int parent = -1;            // -1 for the root
  std::vector<int> children;  // in order; the first continues the main line
  RecordedMove move;
  std::vector<Mark> marks;
  // Other properties of a node below the root (N, V, GB, BM...), kept in order and written back.
  std::vector<std::pair<std::string, std::vector<std::string>>> extra{};
  friend bool operator==(const TreeNode&, const TreeNode&) = default;
};

// A whole SGF game tree with its variations. `record` holds the root's properties (its `moves`
// stay empty); `nodes[0]` is the root and every other node is reachable from it. Nodes are never
// renumbered: a node cut off by `remove` stays in the vector, unreachable, and is not written.
struct GameTree {
  GameRecord record;
  std::vector<TreeNode> nodes{1};

  // The main line (first child at every branch) as a record: setup-only nodes before the first
  // move join the record's setup, as the main-line reader has it.
  GameRecord main_line() const;
  static GameTree of(const GameRecord& record);  // the record's moves as one line
  // Appends `move` as the last child of `parent` and returns its index.
  int add(int parent, RecordedMove move);
  // Cuts `node` (not the root) and everything below it off its parent.
  void remove(int node);
  // The nodes from the root to `node`, both included.
  std::vector<int> path_to(int node) const;
  // The nodes reachable from the root, depth first: each after its parent, the main line first.
  std::vector<int> preorder() const;
  // The number of nodes reachable from the root.
  std::size_t reachable() const { return preorder().size(); }
  friend bool operator==(const GameTree&, const GameTree&) = default;
};

std::string write_sgf(const GameRecord& record);
// Every variation and mark; unreachable nodes are left out.
std::string write_sgf(const GameTree& tree);
// Reads the first game of a collection, following the first variation at every branch. What
// the field's readers (GNU Go, Sabaki) accept is accepted with a warning in `warnings`: a byte
// order mark or text before the game tree, spaces around numbers, KM[7,5], empty KM[] HA[] TM[],
// PL[b], a property repeated in a node (values joined; not B or W); upper-case points on boards
// up to 25 are read as lower case without a word. What has no sensible reading (two moves in a
// node, setup stones after the first move, which a record here cannot hold) throws SgfError
// naming the byte offset of the problem.
GameRecord read_sgf(std::string_view text);
// The whole first game tree of a collection, every variation and mark (TR SQ CR MA LB), with the
// same leniency as read_sgf. Throws SgfError for more than `max_nodes` nodes (a bound for what a
// client may upload). Neither reading nor writing recurses: any depth of variations is safe.
GameTree read_sgf_tree(std::string_view text, std::size_t max_nodes = 100000);

}  // namespace tengen
