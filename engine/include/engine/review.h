#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/rules.h"
#include "engine/sgf.h"
#include "engine/variation.h"

namespace tengen {

// A review's tree of variations and the node it shows: what a teacher edits on a shared board
// (SPEC §16; the server's review rooms, docs/reviews.md, drive one each). Every move is judged by
// Variation along the path from the root, under the tree's own rules (RU and KM of its root);
// nothing here knows who may edit, nor how edits are stored or sent.
class ReviewTree {
 public:
  // Throws SgfError (offset 0) naming the first move no line of `tree` may play, so that a tree
  // that is accepted can always be replayed.
  explicit ReviewTree(GameTree tree);

  const GameTree& tree() const noexcept { return tree_; }
  const Rules& rules() const noexcept { return rules_; }
  int current() const noexcept { return current_; }
  // Whether `node` is in the tree (not cut off by remove()).
  bool contains(int node) const;

  // Plays `m` after the current node: a child that already has this move becomes the current
  // node; otherwise the move is judged and, if legal, added as the last child. `added` says
  // which; nothing changes when the error is not Ok.
  struct Played {
    MoveError error = MoveError::Ok;
    int node = 0;
    bool added = false;
  };
  Played play(Move m);
  // The current node's child with exactly this move (no setup), or -1: where play() would go
  // without adding a node.
  int child_with(Move m) const;
  bool go_to(int node);  // false (nothing changes) for a node not in the tree
  // Cuts `node` and everything below it off (not the root); the current node, if it was among
  // them, becomes `node`'s parent. False for the root or a node not in the tree.
  bool remove(int node);
  // On the current node: the mark on `p` replaced by `mark` (none: cleared).
  void set_mark(Point p, std::optional<Mark> mark);
  void set_comment(std::string text);
  const std::string& comment(int node) const;
  const std::vector<Mark>& marks(int node) const { return at(node).marks; }

  // The position at the current node (or any node in the tree): the line from the root replayed.
  // `captured` gets what that node's move took off the board.
  Variation position(std::vector<Point>* captured = nullptr) const {
    return position_at(current_, captured);
  }
  Variation position_at(int node, std::vector<Point>* captured = nullptr) const;
  // Who moves first from the root: PL if the record says, else White after handicap stones
  // (Black setup stones alone), else Black.
  Color first_to_move() const;

  // The rules a record's RU and KM describe: the preset RU names (Japanese when it names none).
  static Rules rules_of(const GameRecord& record);

 private:
  const TreeNode& at(int node) const { return tree_.nodes[static_cast<std::size_t>(node)]; }
  TreeNode& at(int node) { return tree_.nodes[static_cast<std::size_t>(node)]; }
  Variation start() const;
  static MoveError step(Variation& line, const TreeNode& node, std::vector<Point>* captured);

  GameTree tree_;
  Rules rules_;
  int current_ = 0;
};

}  // namespace tengen
