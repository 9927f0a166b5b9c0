#include "engine/review.h"

#include <algorithm>
#include <utility>

namespace tengen {

Rules ReviewTree::rules_of(const GameRecord& record) {
  Rules rules = Rules::preset(parse_ruleset(record.rules).value_or(Ruleset::Japanese));
  if (Rules::valid_komi(record.komi)) rules.komi = record.komi;
  return rules;
}

ReviewTree::ReviewTree(GameTree tree) : tree_(std::move(tree)), rules_(rules_of(tree_.record)) {
  // Every line replayed once: depth first, a copy of the line at each branch.
  struct Todo {
    int node;
    Variation line;
  };
  std::vector<Todo> todo;
  todo.push_back({0, start()});
  while (!todo.empty()) {
    Todo t = std::move(todo.back());
    todo.pop_back();
    if (t.node != 0) {
      const MoveError e = step(t.line, at(t.node), nullptr);
      if (e != MoveError::Ok) {
        throw SgfError(0, "the move " + tree_.record.geometry().to_gtp(at(t.node).move.point) +
                              " at depth " + std::to_string(tree_.path_to(t.node).size() - 1) +
                              " cannot be played there under these rules");
      }
    }
    const auto& kids = at(t.node).children;
    for (std::size_t i = kids.size(); i-- > 0;) {
      if (i == 0) {
        todo.push_back({kids[0], std::move(t.line)});
      } else {
        todo.push_back({kids[i], t.line});
      }
    }
  }
}

bool ReviewTree::contains(int node) const {
  if (node < 0 || static_cast<std::size_t>(node) >= tree_.nodes.size()) return false;
  for (int n = node; n != 0; n = at(n).parent) {
    const auto& siblings = at(at(n).parent).children;
    if (std::find(siblings.begin(), siblings.end(), n) == siblings.end()) return false;
  }
  return true;
}

Color ReviewTree::first_to_move() const {
  const auto& r = tree_.record;
  if (r.player_to_move != Color::Empty) return r.player_to_move;
  if (!r.setup_black.empty() && r.setup_white.empty()) return Color::White;
  return Color::Black;
}

Variation ReviewTree::start() const {
  Board board(tree_.record.geometry());
  for (Point p : tree_.record.setup_black) board.set_stone(p, Color::Black);
  for (Point p : tree_.record.setup_white) board.set_stone(p, Color::White);
  return Variation(std::move(board), rules_, first_to_move());
}

MoveError ReviewTree::step(Variation& line, const TreeNode& node, std::vector<Point>* captured) {
  const auto& m = node.move;
  if (!m.add_black.empty() || !m.add_white.empty() || !m.add_empty.empty())
    line.set_up(m.add_black, m.add_white, m.add_empty);
  if (!m.is_move()) return MoveError::Ok;
  return line.play({m.color, m.point}, captured);
}

Variation ReviewTree::position_at(int node, std::vector<Point>* captured) const {
  Variation line = start();
  for (int n : tree_.path_to(node)) {
    if (n == 0) continue;
    if (captured) captured->clear();
    step(line, at(n), captured);  // judged when it was added: Ok
  }
  return line;
}

int ReviewTree::child_with(Move m) const {
  for (int child : at(current_).children) {
    const auto& cm = at(child).move;
    if (cm.color == m.color && cm.point == m.point && cm.add_black.empty() &&
        cm.add_white.empty() && cm.add_empty.empty())
      return child;
  }
  return -1;
}

ReviewTree::Played ReviewTree::play(Move m) {
  if (const int child = child_with(m); child >= 0) {
    current_ = child;
    return {MoveError::Ok, child, false};
  }
  Variation line = position();
  const MoveError e = line.play(m);
  if (e != MoveError::Ok) return {e, current_, false};
  current_ = tree_.add(current_, RecordedMove::of(m));
  return {MoveError::Ok, current_, true};
}

bool ReviewTree::go_to(int node) {
  if (!contains(node)) return false;
  current_ = node;
  return true;
}

bool ReviewTree::remove(int node) {
  if (node == 0 || !contains(node)) return false;
  for (int n = current_; n != 0; n = at(n).parent) {
    if (n == node) {
      current_ = at(node).parent;
      break;
    }
  }
  tree_.remove(node);
  return true;
}

void ReviewTree::set_mark(Point p, std::optional<Mark> mark) {
  auto& marks = at(current_).marks;
  std::erase_if(marks, [p](const Mark& k) { return k.point == p; });
  if (mark) {
    mark->point = p;
    marks.push_back(std::move(*mark));
  }
}

void ReviewTree::set_comment(std::string text) {
  if (current_ == 0) {
    tree_.record.comment = std::move(text);
  } else {
    at(current_).move.comment = std::move(text);
  }
}

const std::string& ReviewTree::comment(int node) const {
  return node == 0 ? tree_.record.comment : at(node).move.comment;
}

}  // namespace tengen
