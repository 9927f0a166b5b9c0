#include <algorithm>
#include <cmath>
#include <map>

#include "engine/tournament/matching.h"
#include "engine/tournament/tournament.h"
#include "tally.h"

namespace tengen::tournament {
namespace {

// The tiers of a pairing's cost, each larger than any sum of the ones below over a whole round
// (up to 1,000 boards): a repeat, then the score gap, then colour and seeding.
constexpr Weight kBase = Weight{1'000'000'000'000'000'000} * 1'000'000'000'000'000'000;    // 1e36
constexpr Weight kRepeat = Weight{1'000'000'000'000'000'000} * 1'000'000'000'000'000;      // 1e33
constexpr Weight kGapUnit = 1'000'000'000;                                                 // 1e9
constexpr Weight kGapTierTotal = Weight{1'000'000'000'000'000'000} * 100'000'000'000'000;  // 1e32
constexpr Weight kColour = 1000;

struct Candidate {
  PlayerId id = 0;
  int seed = 0;         // index in seed order
  int half_points = 0;  // score in half points
  int balance = 0;
};

// A gap of g half points costs (boards + 1)^g units, so one larger gap outweighs any number of
// smaller ones; the exponent stops where the tier's total would overflow it.
std::vector<Weight> gap_costs(int boards, int largest_gap) {
  std::vector<Weight> costs;
  Weight cost = kGapUnit;
  for (int g = 0; g <= largest_gap; ++g) {
    costs.push_back(cost);
    if ((cost * (boards + 1)) * boards < kGapTierTotal) cost *= boards + 1;
  }
  return costs;
}

PlayerId choose_bye(std::vector<Candidate>& players, const Tally& tally) {
  auto it =
      std::min_element(players.begin(), players.end(), [&](const Candidate& a, const Candidate& b) {
        const int byes_a = tally.lines.at(a.id).byes, byes_b = tally.lines.at(b.id).byes;
        if (byes_a != byes_b) return byes_a < byes_b;
        if (a.half_points != b.half_points) return a.half_points < b.half_points;
        return a.seed > b.seed;
      });
  const PlayerId id = it->id;
  players.erase(it);
  return id;
}

Game seat(const Candidate& a, const Candidate& b, HandicapPolicy policy) {
  const Candidate& weaker_score =
      a.half_points < b.half_points || (a.half_points == b.half_points && a.seed > b.seed) ? a : b;
  const Candidate& stronger_score = &weaker_score == &a ? b : a;
  if (policy.by_score_gap) {
    const int gap = (stronger_score.half_points - weaker_score.half_points) / 2;
    const int stones = std::min(policy.ceiling, gap - policy.correction);
    if (stones >= 1) return {weaker_score.id, stronger_score.id, stones, std::nullopt, false};
  }
  // Even game: Black to whoever has had White more often; on a tie, to the lower seed.
  const Candidate* black =
      a.balance != b.balance ? (a.balance > b.balance ? &a : &b) : (a.seed > b.seed ? &a : &b);
  const Candidate* white = black == &a ? &b : &a;
  return {black->id, white->id, 0, std::nullopt, false};
}

}  // namespace

Round pair_swiss(const std::vector<Entrant>& active, const std::vector<Round>& rounds,
                 HandicapPolicy handicap) {
  const Tally tally(active, rounds);
  std::vector<Candidate> players;
  for (std::size_t i = 0; i < active.size(); ++i) {
    const auto& line = tally.lines.at(active[i].id);
    players.push_back({active[i].id, static_cast<int>(i),
                       static_cast<int>(std::lround(2 * (active[i].start_score + line.points))),
                       line.colour_balance});
  }
  Round round;
  if (players.size() % 2 == 1) round.byes.push_back(choose_bye(players, tally));
  if (players.empty()) return round;

  // Each score group's members by seed, for split and slip.
  std::map<int, std::vector<int>> groups;  // half points -> indices into players
  for (std::size_t i = 0; i < players.size(); ++i)
    groups[players[i].half_points].push_back(static_cast<int>(i));
  std::vector<int> place(players.size()), group_size(players.size());
  for (const auto& [score, members] : groups) {
    for (std::size_t k = 0; k < members.size(); ++k) {
      place[members[k]] = static_cast<int>(k);
      group_size[members[k]] = static_cast<int>(members.size());
    }
  }
  const int boards = static_cast<int>(players.size() / 2);
  const int largest_gap = groups.rbegin()->first - groups.begin()->first;
  const auto gap_cost = gap_costs(boards, largest_gap);

  std::vector<WeightedEdge> edges;
  for (std::size_t i = 0; i < players.size(); ++i) {
    for (std::size_t j = i + 1; j < players.size(); ++j) {
      const Candidate& a = players[i];
      const Candidate& b = players[j];
      Weight cost = kRepeat * tally.met(a.id, b.id);
      cost += gap_cost[std::abs(a.half_points - b.half_points)];
      if (a.half_points == b.half_points)
        cost += std::abs(std::abs(place[i] - place[j]) - group_size[i] / 2);
      if (!handicap.by_score_gap && a.balance * b.balance > 0)
        cost += kColour * std::min(std::abs(a.balance), std::abs(b.balance));
      edges.push_back({static_cast<int>(i), static_cast<int>(j), kBase - cost});
    }
  }
  const auto mate = maximum_weight_matching(static_cast<int>(players.size()), edges, true);
  std::vector<std::pair<const Candidate*, const Candidate*>> pairs;
  for (std::size_t i = 0; i < players.size(); ++i) {
    if (mate[i] > static_cast<int>(i)) pairs.emplace_back(&players[i], &players[mate[i]]);
  }
  // Boards: the highest scores first, then the best seed.
  std::sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
    const auto key = [](const auto& p) {
      return std::pair{-std::max(p.first->half_points, p.second->half_points),
                       std::min(p.first->seed, p.second->seed)};
    };
    return key(x) < key(y);
  });
  for (const auto& [a, b] : pairs) round.games.push_back(seat(*a, *b, handicap));
  return round;
}

}  // namespace tengen::tournament
