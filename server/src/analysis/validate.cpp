#include "analysis/validate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/review.h"
#include "engine/variation.h"

namespace tengen::analysis {
namespace {

// The engine's line stands beside the moves that lost the most (at least a point, or five points
// of win rate with an engine that gives no score), as many as the game page lists.
constexpr double kMistake = 1;
constexpr double kMistakePercent = 5;
constexpr std::size_t kMistakesShown = 5;

std::string points(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f", v);
  return text;
}

}  // namespace

std::variant<GameRecord, std::string> line_of(
    const GameTree& tree, const std::vector<std::pair<bool, std::string>>& moves) {
  GameRecord record;
  record.width = tree.record.width;
  record.height = tree.record.height;
  record.komi = tree.record.komi;
  record.handicap = tree.record.handicap;
  record.rules = tree.record.rules;
  record.player_to_move = tree.record.player_to_move;
  record.setup_black = tree.record.setup_black;
  record.setup_white = tree.record.setup_white;
  const auto geometry = record.geometry();
  int node = 0;
  for (std::size_t k = 0; k < moves.size(); ++k) {
    const auto& [white, vertex] = moves[k];
    const auto point = geometry.parse_gtp(vertex);
    const Color colour = white ? Color::White : Color::Black;
    const std::string where = "move " + std::to_string(k + 1) + " of the line (" + vertex + ")";
    if (!point) return where + " is not on the board";
    int next = -1;
    for (const int child : tree.nodes[static_cast<std::size_t>(node)].children) {
      const auto& m = tree.nodes[static_cast<std::size_t>(child)].move;
      if (!m.is_move() && (!m.add_black.empty() || !m.add_white.empty() || !m.add_empty.empty()))
        continue;
      if (m.color == colour && m.point == *point) next = child;
    }
    if (next < 0) return where + " is not on the board's tree (it may have been deleted)";
    const auto& m = tree.nodes[static_cast<std::size_t>(next)].move;
    if (!m.add_black.empty() || !m.add_white.empty() || !m.add_empty.empty())
      return "stones are set up on the line after the start: its positions cannot be analysed";
    record.moves.push_back(RecordedMove::of(Move{colour, *point}));
    node = next;
  }
  return record;
}

int positions_of(const GameRecord& record) {
  int moves = 0;
  for (const auto& m : record.moves) moves += m.is_move() ? 1 : 0;
  return moves + 1;
}

std::optional<std::string> check_result(const GameRecord& record,
                                        const protocol::http::AnalysisResult& result, int from) {
  const int expected = positions_of(record) - from;
  if (from == 0 && static_cast<int>(result.positions.size()) != expected)
    return "the game has " + std::to_string(expected) + " positions (its moves and the start), " +
           "the result " + std::to_string(result.positions.size());
  if (from > 0 && static_cast<int>(result.positions.size()) != expected)
    return "the job asked for " + std::to_string(expected) + " position(s), the result has " +
           std::to_string(result.positions.size());
  if (result.positions.front().move != from)
    return "the first position must be number " + std::to_string(from) + ", not " +
           std::to_string(result.positions.front().move);
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
    Variation here = tree.position_at(nodes[i + static_cast<std::size_t>(from)]);
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
    // The mover's gain or loss by this move, in points (Black's lead turned to the mover's
    // side), or in points of win rate when the engine gives no score.
    const double sign = n.move.color == Color::Black ? 1 : -1;
    const bool scored = after.score && before.score;
    const double swing =
        scored ? (*after.score - *before.score) * sign
               : (after.winrate.value_or(0.5) - before.winrate.value_or(0.5)) * 100 * sign;
    std::string comment = result.engine + ": ";
    if (scored) {
      comment += std::string(*after.score >= 0 ? "B" : "W") + " " +
                 points(std::fabs(*after.score)).substr(1) + " ahead; this move " + points(swing);
    } else {
      char rate[64];
      std::snprintf(rate, sizeof rate, "B %.0f%% to win; this move %+.0f%%",
                    after.winrate.value_or(0.5) * 100, swing);
      comment += rate;
    }
    if (!before.line.empty()) {
      const auto best = geometry.parse_gtp(before.line.front());
      if (best && *best != n.move.point) {
        comment += "; better: " + before.line.front();
        if (swing <= -(scored ? kMistake : kMistakePercent))
          mistakes.push_back({swing, parent, position - 1});
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
