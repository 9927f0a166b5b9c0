#include "tally.h"

#include <algorithm>

namespace tengen::tournament {

std::optional<PlayerId> winner(const Game& g) {
  if (g.outcome == Outcome::BlackWins) return g.black;
  if (g.outcome == Outcome::WhiteWins) return g.white;
  return std::nullopt;
}

Tally::Tally(const std::vector<Entrant>& players, const std::vector<Round>& rounds) {
  for (const auto& p : players) lines[p.id];
  for (const auto& round : rounds) {
    std::map<PlayerId, bool> seen;  // present in this round, decided or not
    for (const auto& g : round.games) {
      meetings[std::minmax(g.black, g.white)]++;
      seen[g.black] = seen[g.white] = true;
      if (!g.outcome) continue;
      auto& b = lines[g.black];
      auto& w = lines[g.white];
      b.opponents.push_back(g.white);
      w.opponents.push_back(g.black);
      if (g.handicap == 0) {
        --b.colour_balance;
        ++w.colour_balance;
      }
      const auto won = winner(g);
      if (*g.outcome == Outcome::Jigo) {
        b.points += 0.5;
        w.points += 0.5;
        b.beaten.emplace_back(g.white, 0.5);
        w.beaten.emplace_back(g.black, 0.5);
      } else if (*g.outcome == Outcome::BothLose) {
        ++b.losses;
        ++w.losses;
      } else {
        auto& win = *won == g.black ? b : w;
        auto& lose = *won == g.black ? w : b;
        win.points += 1;
        win.beaten.emplace_back(*won == g.black ? g.white : g.black, 1);
        ++lose.losses;
      }
    }
    for (const auto id : round.byes) {
      seen[id] = true;
      auto& line = lines[id];
      line.points += 1;
      ++line.byes;
      line.opponents.push_back(std::nullopt);
    }
    for (auto& [id, line] : lines) {
      if (!seen.contains(id)) line.opponents.push_back(std::nullopt);  // did not play this round
    }
  }
}

int Tally::met(PlayerId a, PlayerId b) const {
  const auto it = meetings.find(std::minmax(a, b));
  return it == meetings.end() ? 0 : it->second;
}

}  // namespace tengen::tournament
