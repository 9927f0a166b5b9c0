#include "rooms/conditional.h"

#include <algorithm>
#include <sstream>

#include "engine/game.h"
#include "rooms/wording.h"

namespace tengen {
namespace {

std::size_t moves_in(const ConditionalTree& tree) {
  std::size_t n = 0;
  for (const auto& b : tree) n += 2 + moves_in(b.then);
  return n;
}

void collect(const ConditionalTree& tree, const Geometry& g, std::string prefix,
             std::vector<std::string>& out) {
  for (const auto& b : tree) {
    std::string line =
        prefix + (prefix.empty() ? "" : " ") + g.to_gtp(b.expected) + " " + g.to_gtp(b.reply);
    if (b.then.empty()) {
      out.push_back(std::move(line));
    } else {
      collect(b.then, g, std::move(line), out);
    }
  }
}

std::optional<std::string> problem_in(const ConditionalTree& tree, const Game& game, Color owner,
                                      const Geometry& g, const std::string& before) {
  for (const auto& b : tree) {
    Game next = game;
    std::string line = before;
    for (const auto& [color, point] : {std::pair{opponent(owner), b.expected}, {owner, b.reply}}) {
      const std::string where = line.empty() ? "" : "after " + line + ": ";
      if (const MoveError e = next.check({color, point}); e != MoveError::Ok)
        return where + why_illegal(e, g.to_gtp(point));
      next.play({color, point});
      if (next.phase() != Game::Phase::Playing) return where + g.to_gtp(point) + " ends the game";
      if (!line.empty()) line += ' ';  // not `"" + string`: GCC 12's false -Wrestrict
      line += g.to_gtp(point);
    }
    if (auto problem = problem_in(b.then, next, owner, g, line)) return problem;
  }
  return std::nullopt;
}

}  // namespace

std::variant<ConditionalTree, std::string> conditional_tree(const std::vector<std::string>& lines,
                                                            const Geometry& g) {
  ConditionalTree tree;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string which = "line " + std::to_string(i + 1);
    std::istringstream words(lines[i]);
    std::vector<Point> points;
    for (std::string word; words >> word;) {
      const auto p = g.parse_gtp(word);
      if (!p) {
        return which + ": '" + word + "' is not a point on this " + std::to_string(g.width) + "x" +
               std::to_string(g.height) + " board (GTP coordinates such as D4)";
      }
      if (*p == kPass) return which + ": a pass cannot be expected or played by a condition";
      points.push_back(*p);
    }
    if (points.empty()) return which + " is empty";
    if (points.size() % 2 != 0) {
      return which + " ends with " + g.to_gtp(points.back()) +
             ", your opponent's move, without your reply";
    }
    if (points.size() > kMaxConditionalLine) {
      return which + " has " + std::to_string(points.size()) + " moves; a line may have at most " +
             std::to_string(kMaxConditionalLine);
    }
    ConditionalTree* level = &tree;
    for (std::size_t k = 0; k < points.size(); k += 2) {
      auto it = std::find_if(level->begin(), level->end(),
                             [&](const ConditionalBranch& b) { return b.expected == points[k]; });
      if (it == level->end()) {
        level->push_back({points[k], points[k + 1], {}});
        it = std::prev(level->end());
      } else if (it->reply != points[k + 1]) {
        return which + " answers " + g.to_gtp(points[k]) + " with " + g.to_gtp(points[k + 1]) +
               " where an earlier line answers it with " + g.to_gtp(it->reply) +
               ": one reply to each move";
      }
      level = &it->then;
    }
  }
  if (const auto n = moves_in(tree); n > kMaxConditionalMoves) {
    return "these lines hold " + std::to_string(n) + " different moves; at most " +
           std::to_string(kMaxConditionalMoves) + " may be kept";
  }
  return tree;
}

std::vector<std::string> conditional_lines(const ConditionalTree& tree, const Geometry& g) {
  std::vector<std::string> out;
  collect(tree, g, "", out);
  return out;
}

std::optional<std::string> conditional_problem(const ConditionalTree& tree, const Game& game,
                                               Color owner, const Geometry& g) {
  return problem_in(tree, game, owner, g, "");
}

}  // namespace tengen
