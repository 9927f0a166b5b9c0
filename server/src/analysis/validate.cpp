#include "analysis/validate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/review.h"
#include "engine/variation.h"

namespace tengen::analysis {
namespace {

// The engine's line stands beside the moves that lost the most (at least a point), as many as the
// game page lists.
constexpr double kMistake = 1;
constexpr std::size_t kMistakesShown = 5;

std::string points(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f", v);
  return text;
}

}  // namespace

int positions_of(const GameRecord& record) {
  int moves = 0;
  for (const auto& m : record.moves) moves += m.is_move() ? 1 : 0;
  return moves + 1;
}

std::optional<std::string> check_result(const GameRecord& record,
                                        const protocol::http::AnalysisResult& result) {
  const int expected = positions_of(record);
  if (static_cast<int>(result.positions.size()) != expected)
    return "the game has " + std::to_string(expected) + " positions (its moves and the start), " +
           "the result " + std::to_string(result.positions.size());
  const auto geometry = record.geometry();
  // The position before each move, replayed by the rules engine as the review boards do.
  ReviewTree tree(GameTree::of(record));
  std::vector<int> nodes;  // the node after each move (0: the root)
  nodes.push_back(0);
  int node = 0;
  while (!tree.tree().nodes[static_cast<std::size_t>(node)].children.empty()) {
    node = tree.tree().nodes[static_cast<std::size_t>(node)].children.front();
    if (tree.tree().nodes[static_cast<std::size_t>(node)].move.is_move())
      nodes.push_back(node);
    else
      nodes.back() = node;  // setup after a move belongs to the position after it
  }
  for (std::size_t i = 0; i < result.positions.size(); ++i) {
    const auto& p = result.positions[i];
    Variation here = tree.position_at(nodes[i]);
    for (std::size_t k = 0; k < p.line.size(); ++k) {
      const auto point = geometry.parse_gtp(p.line[k]);
      const std::string where = "position " + std::to_string(i) + ": move " +
                                std::to_string(k + 1) + " of the line (" + p.line[k] + ")";
      if (!point) return where + " is not on the board";
      if (here.play(Move{here.to_move(), *point}) != MoveError::Ok)
        return where + " is not legal there";
    }
  }
  return std::nullopt;
}

std::string annotated_sgf(const std::string& sgf, const protocol::http::AnalysisResult& result) {
  GameTree tree = read_sgf_tree(sgf);
  const auto geometry = tree.record.geometry();
  std::size_t position = 0;
  int node = 0;
  struct Mistake {
    double swing;
    int parent;      // the node before the move
    std::size_t at;  // its position
  };
  std::vector<Mistake> mistakes;
  while (!tree.nodes[static_cast<std::size_t>(node)].children.empty()) {
    const int parent = node;
    node = tree.nodes[static_cast<std::size_t>(node)].children.front();
    auto& n = tree.nodes[static_cast<std::size_t>(node)];
    if (!n.move.is_move()) continue;
    ++position;
    if (position >= result.positions.size()) break;
    const auto& after = result.positions[position];
    const auto& before = result.positions[position - 1];
    if (after.winrate) {
      char rate[16];
      std::snprintf(rate, sizeof rate, "%.1f", *after.winrate * 100);
      n.extra.emplace_back("SBKV", std::vector<std::string>{rate});
    }
    // The mover's gain or loss by this move, in points (Black's lead turned to the mover's side).
    const double swing = (after.score - before.score) * (n.move.color == Color::Black ? 1 : -1);
    std::string comment = result.engine + ": " + (after.score >= 0 ? "B" : "W") + " " +
                          points(std::fabs(after.score)).substr(1) + " ahead; this move " +
                          points(swing);
    if (!before.line.empty()) {
      const auto best = geometry.parse_gtp(before.line.front());
      if (best && *best != n.move.point) {
        comment += "; better: " + before.line.front();
        if (swing <= -kMistake) mistakes.push_back({swing, parent, position - 1});
      }
    }
    if (!n.move.comment.empty()) n.move.comment += "\n\n";
    n.move.comment += comment;
  }
  // Beside the moves that lost the most, the engine's line as a variation (the lines were checked
  // legal when the result was kept).
  std::stable_sort(mistakes.begin(), mistakes.end(),
                   [](const Mistake& a, const Mistake& b) { return a.swing < b.swing; });
  if (mistakes.size() > kMistakesShown) mistakes.resize(kMistakesShown);
  for (const auto& [swing, parent, at] : mistakes) {
    const auto& line = result.positions[at].line;
    const Color first =
        tree.nodes[static_cast<std::size_t>(
                       tree.nodes[static_cast<std::size_t>(parent)].children.front())]
            .move.color;
    Color colour = first;
    int from = parent;
    for (std::size_t k = 0; k < line.size(); ++k) {
      RecordedMove m;
      m.color = colour;
      m.point = geometry.parse_gtp(line[k]).value_or(kPass);
      if (k == 0) m.comment = "The engine's line (" + result.engine + ")";
      from = tree.add(from, std::move(m));
      colour = colour == Color::Black ? Color::White : Color::Black;
    }
  }
  return write_sgf(tree);
}

}  // namespace tengen::analysis
