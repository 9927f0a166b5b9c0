#include <algorithm>
#include <map>
#include <stdexcept>

#include "engine/tournament/tournament.h"
#include "tally.h"

namespace tengen::tournament {
namespace {

using Slots = std::vector<std::optional<PlayerId>>;

bool contains(const std::vector<PlayerId>& ids, PlayerId id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

const Game* game_between(const Round& round, PlayerId a, PlayerId b) {
  for (const auto& g : round.games) {
    if ((g.black == a && g.white == b) || (g.black == b && g.white == a)) return &g;
  }
  return nullptr;
}

// The winners' bracket after `rounds`: each pair of slots sends on its winner (or its only
// player); a jigo sends on the higher seed, a double loss nobody.
Slots advance(Slots slots, const std::vector<Round>& rounds, const std::map<PlayerId, int>& seed) {
  for (const auto& round : rounds) {
    if (slots.size() <= 1) break;
    Slots next(slots.size() / 2);
    for (std::size_t i = 0; i < next.size(); ++i) {
      const auto& a = slots[2 * i];
      const auto& b = slots[2 * i + 1];
      if (a && b) {
        const Game* g = game_between(round, *a, *b);
        if (!g || !g->outcome) throw std::logic_error("an elimination round is not finished");
        if (*g->outcome == Outcome::Jigo)
          next[i] = seed.at(*a) < seed.at(*b) ? a : b;
        else
          next[i] = winner(*g);
      } else {
        next[i] = a ? a : b;
      }
    }
    slots = std::move(next);
  }
  return slots;
}

Game elimination_game(PlayerId a, PlayerId b, const std::map<PlayerId, int>& seed) {
  // The higher seed takes White.
  return seed.at(a) < seed.at(b) ? Game{b, a, 0, std::nullopt, false}
                                 : Game{a, b, 0, std::nullopt, false};
}

}  // namespace

std::vector<int> bracket_order(int size) {
  std::vector<int> order{1};
  while (static_cast<int>(order.size()) < size) {
    const int next_size = static_cast<int>(order.size()) * 2;
    std::vector<int> next;
    for (const int s : order) {
      next.push_back(s);
      next.push_back(next_size + 1 - s);
    }
    order = std::move(next);
  }
  return order;
}

std::optional<Round> pair_elimination(const std::vector<Entrant>& seeded,
                                      const std::vector<PlayerId>& withdrawn,
                                      const std::vector<Round>& rounds, bool double_elimination) {
  std::map<PlayerId, int> seed;
  for (std::size_t i = 0; i < seeded.size(); ++i) seed[seeded[i].id] = static_cast<int>(i);
  int size = 2;
  while (size < static_cast<int>(seeded.size())) size *= 2;
  Slots slots;
  for (const int s : bracket_order(size)) {
    slots.push_back(s <= static_cast<int>(seeded.size()) ? std::optional(seeded[s - 1].id)
                                                         : std::nullopt);
  }
  slots = advance(std::move(slots), rounds, seed);
  const Tally tally(seeded, rounds);
  for (auto& s : slots) {  // a bracket of one is not advanced by its final: losses tell
    if (s && (contains(withdrawn, *s) || tally.lines.at(*s).losses > 0)) s.reset();
  }
  // Double elimination: the players beaten once (and not in the bracket any more).
  std::vector<Entrant> once_beaten;
  if (double_elimination) {
    for (const auto& p : seeded) {
      if (tally.lines.at(p.id).losses == 1 && !contains(withdrawn, p.id)) once_beaten.push_back(p);
    }
  }
  const auto undefeated = static_cast<std::size_t>(
      std::count_if(slots.begin(), slots.end(), [](const auto& s) { return s.has_value(); }));
  if (undefeated + once_beaten.size() <= 1) return std::nullopt;

  Round round;
  if (undefeated == 1 && once_beaten.size() == 1) {  // the final (or its replay)
    const auto champion =
        *std::find_if(slots.begin(), slots.end(), [](const auto& s) { return s.has_value(); });
    round.games.push_back(elimination_game(*champion, once_beaten.front().id, seed));
    return round;
  }
  for (std::size_t i = 0; i + 1 < slots.size(); i += 2) {
    const auto& a = slots[i];
    const auto& b = slots[i + 1];
    if (a && b)
      round.games.push_back(elimination_game(*a, *b, seed));
    else if (a || b)
      round.byes.push_back(a ? *a : *b);
  }
  if (slots.size() == 1 && slots[0]) round.byes.push_back(*slots[0]);  // waits for the final
  if (once_beaten.size() >= 2) {
    // Everyone in this pool has the same score for pairing purposes: avoid repeats, pair by seed.
    std::vector<Entrant> pool;
    for (const auto& p : once_beaten) pool.push_back({p.id, -tally.lines.at(p.id).points});
    Round losers = pair_swiss(pool, rounds, {});
    for (auto& g : losers.games) g = elimination_game(g.black, g.white, seed);
    round.games.insert(round.games.end(), losers.games.begin(), losers.games.end());
    round.byes.insert(round.byes.end(), losers.byes.begin(), losers.byes.end());
  } else if (once_beaten.size() == 1) {
    round.byes.push_back(once_beaten.front().id);
  }
  return round;
}

}  // namespace tengen::tournament
