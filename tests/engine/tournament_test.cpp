#include "engine/tournament/tournament.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "engine/tournament/matching.h"

namespace tengen::tournament {
namespace {

// ---- maximum weight matching, against exhaustive search ----

struct Best {
  Weight weight = -1;
  int edges = -1;
};

// Every matching of the graph (each vertex matched to a neighbour or left alone).
void enumerate(int n, const std::vector<std::vector<Weight>>& w, std::vector<bool>& used, int from,
               Weight weight, int edges, bool max_cardinality, Best& best) {
  while (from < n && used[from]) ++from;
  if (from == n) {
    const bool better = max_cardinality
                            ? (edges > best.edges || (edges == best.edges && weight > best.weight))
                            : weight > best.weight;
    if (better) best = {weight, edges};
    return;
  }
  used[from] = true;
  enumerate(n, w, used, from + 1, weight, edges, max_cardinality, best);  // left alone
  for (int v = from + 1; v < n; ++v) {
    if (used[v] || w[from][v] < 0) continue;
    used[v] = true;
    enumerate(n, w, used, from + 1, weight + w[from][v], edges + 1, max_cardinality, best);
    used[v] = false;
  }
  used[from] = false;
}

TEST(Matching, EqualsExhaustiveSearchOnRandomGraphs) {
  std::mt19937 rng(20261122);
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 9);
    const int density = 30 + static_cast<int>(rng() % 71);
    const int range = trial % 3 == 0 ? 3 : 100;  // small ranges make many ties
    std::vector<std::vector<Weight>> w(n, std::vector<Weight>(n, -1));
    std::vector<WeightedEdge> edges;
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        if (static_cast<int>(rng() % 100) >= density) continue;
        const Weight weight = rng() % range;
        w[a][b] = w[b][a] = weight;
        edges.push_back({a, b, weight});
      }
    }
    for (const bool max_cardinality : {false, true}) {
      Best best;
      std::vector<bool> used(n, false);
      enumerate(n, w, used, 0, 0, 0, max_cardinality, best);
      const auto mate = maximum_weight_matching(n, edges, max_cardinality);
      Weight total = 0;
      int count = 0;
      for (int v = 0; v < n; ++v) {
        if (mate[v] < 0) continue;
        ASSERT_EQ(mate[mate[v]], v) << "trial " << trial;
        ASSERT_GE(w[v][mate[v]], 0) << "trial " << trial << ": not an edge";
        if (v < mate[v]) {
          total += w[v][mate[v]];
          ++count;
        }
      }
      ASSERT_EQ(static_cast<long long>(total), static_cast<long long>(best.weight))
          << "trial " << trial << " max_cardinality " << max_cardinality;
      if (max_cardinality) {
        ASSERT_EQ(count, best.edges) << "trial " << trial;
      }
    }
  }
}

TEST(Matching, HandlesHugeWeightsExactly) {
  const Weight big = Weight{1'000'000'000'000'000'000} * 1'000'000'000'000'000'000;
  const auto mate = maximum_weight_matching(
      4, {{0, 1, big - 1}, {2, 3, big - 1}, {0, 2, big}, {1, 3, big - 3}}, true);
  EXPECT_EQ(mate, (std::vector<int>{1, 0, 3, 2}));  // 2·big − 2 beats 2·big − 3
}

// ---- Berger tables ----

using Table = std::vector<std::vector<std::pair<int, int>>>;

// The FIDE Handbook's Berger tables (C.05 annex 1), first-named player first.
const std::map<int, Table> kPublished = {
    {4, {{{1, 4}, {2, 3}}, {{4, 3}, {1, 2}}, {{2, 4}, {3, 1}}}},
    {6,
     {{{1, 6}, {2, 5}, {3, 4}},
      {{6, 4}, {5, 3}, {1, 2}},
      {{2, 6}, {3, 1}, {4, 5}},
      {{6, 5}, {1, 4}, {2, 3}},
      {{3, 6}, {4, 2}, {5, 1}}}},
    {8,
     {{{1, 8}, {2, 7}, {3, 6}, {4, 5}},
      {{8, 5}, {6, 4}, {7, 3}, {1, 2}},
      {{2, 8}, {3, 1}, {4, 7}, {5, 6}},
      {{8, 6}, {7, 5}, {1, 4}, {2, 3}},
      {{3, 8}, {4, 2}, {5, 1}, {6, 7}},
      {{8, 7}, {1, 6}, {2, 5}, {3, 4}},
      {{4, 8}, {5, 3}, {6, 2}, {7, 1}}}},
    {10,
     {{{1, 10}, {2, 9}, {3, 8}, {4, 7}, {5, 6}},
      {{10, 6}, {7, 5}, {8, 4}, {9, 3}, {1, 2}},
      {{2, 10}, {3, 1}, {4, 9}, {5, 8}, {6, 7}},
      {{10, 7}, {8, 6}, {9, 5}, {1, 4}, {2, 3}},
      {{3, 10}, {4, 2}, {5, 1}, {6, 9}, {7, 8}},
      {{10, 8}, {9, 7}, {1, 6}, {2, 5}, {3, 4}},
      {{4, 10}, {5, 3}, {6, 2}, {7, 1}, {8, 9}},
      {{10, 9}, {1, 8}, {2, 7}, {3, 6}, {4, 5}},
      {{5, 10}, {6, 4}, {7, 3}, {8, 2}, {9, 1}}}},
};

TEST(Berger, MatchesThePublishedTablesFor4To10Players) {
  for (int n = 4; n <= 10; ++n) {
    const int even = n % 2 == 0 ? n : n + 1;  // an odd count plays the table of n+1, n+1 the bye
    const Table& table = kPublished.at(even);
    ASSERT_EQ(berger_rounds(n), static_cast<int>(table.size())) << n;
    for (int r = 1; r <= berger_rounds(n); ++r) {
      auto got = berger_round(n, r);
      auto want = table[r - 1];
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
      EXPECT_EQ(got, want) << n << " players, round " << r;
    }
  }
}

TEST(RoundRobin, EveryoneMeetsEveryoneOnceAndOddCountsRotateTheBye) {
  for (int n = 2; n <= 13; ++n) {
    std::vector<Entrant> players;
    for (int i = 1; i <= n; ++i) players.push_back({i * 10, 0});
    std::map<std::pair<PlayerId, PlayerId>, int> met;
    std::map<PlayerId, int> byes, blacks;
    for (int r = 0; r < round_robin_rounds(n, true); ++r) {
      const Round round = pair_round_robin(players, {}, r, true);
      for (const auto& g : round.games) {
        ++met[std::minmax(g.black, g.white)];
        ++blacks[g.black];
      }
      for (const auto id : round.byes) ++byes[id];
    }
    EXPECT_EQ(met.size(), static_cast<std::size_t>(n * (n - 1) / 2)) << n;
    for (const auto& [pair, times] : met) EXPECT_EQ(times, 2) << n;
    for (const auto& p : players) {
      EXPECT_EQ(blacks[p.id], n - 1) << n << ": the double cycle swaps colours";
      EXPECT_EQ(byes[p.id], n % 2 == 1 ? 2 : 0) << n;
    }
  }
}

TEST(RoundRobin, AWithdrawnPlayersGamesBecomeByes) {
  const std::vector<Entrant> players{{1, 0}, {2, 0}, {3, 0}, {4, 0}};
  const Round r = pair_round_robin(players, {4}, 0, false);  // 1-4, 2-3
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].black, 2);
  EXPECT_EQ(r.byes, std::vector<PlayerId>{1});
}

// ---- Swiss and McMahon, checked against exhaustive search on many random tournaments ----

struct Judge {
  std::map<std::pair<PlayerId, PlayerId>, int> met;
  std::map<PlayerId, int> half_points;
  int repeats(PlayerId a, PlayerId b) const {
    const auto it = met.find(std::minmax(a, b));
    return it == met.end() ? 0 : it->second;
  }
  int gap(PlayerId a, PlayerId b) const { return std::abs(half_points.at(a) - half_points.at(b)); }
};

// The least (repeats, largest gap) over every perfect matching of `ids`.
std::pair<int, int> best_possible(const std::vector<PlayerId>& ids, const Judge& judge) {
  std::pair<int, int> best{1 << 30, 1 << 30};
  std::vector<bool> used(ids.size(), false);
  std::function<void(std::size_t, int, int)> go = [&](std::size_t from, int repeats, int largest) {
    while (from < ids.size() && used[from]) ++from;
    if (from == ids.size()) {
      best = std::min(best, {repeats, largest});
      return;
    }
    used[from] = true;
    for (std::size_t j = from + 1; j < ids.size(); ++j) {
      if (used[j]) continue;
      used[j] = true;
      go(from + 1, repeats + judge.repeats(ids[from], ids[j]),
         std::max(largest, judge.gap(ids[from], ids[j])));
      used[j] = false;
    }
    used[from] = false;
  };
  go(0, 0, 0);
  return best;
}

TEST(Swiss, PairingsAreAsGoodAsExhaustiveSearchOnSeededRandomTournaments) {
  std::mt19937 rng(7);
  for (int t = 0; t < 150; ++t) {
    const int n = 4 + static_cast<int>(rng() % 8);  // 4..11 players
    const bool mcmahon = t % 2 == 1;
    std::vector<Entrant> players;
    for (int i = 0; i < n; ++i)
      players.push_back({100 + i, mcmahon ? static_cast<double>(std::max(0, 3 - i / 3)) : 0});
    std::vector<Round> rounds;
    std::map<PlayerId, int> byes;
    const int total_rounds = 3 + static_cast<int>(rng() % 4);
    for (int r = 0; r < total_rounds; ++r) {
      Round round = pair_swiss(players, rounds, {});
      // Who sits out, and the pairing quality, judged on the scores before this round.
      Judge judge;
      for (const auto& p : players) judge.half_points[p.id] = static_cast<int>(2 * p.start_score);
      for (const auto& past : rounds) {
        for (const auto& g : past.games) {
          ++judge.met[std::minmax(g.black, g.white)];
          if (g.outcome == Outcome::BlackWins) judge.half_points[g.black] += 2;
          if (g.outcome == Outcome::WhiteWins) judge.half_points[g.white] += 2;
          if (g.outcome == Outcome::Jigo)
            ++judge.half_points[g.black], ++judge.half_points[g.white];
        }
        for (const auto id : past.byes) judge.half_points[id] += 2;
      }
      ASSERT_EQ(round.byes.size(), static_cast<std::size_t>(n % 2)) << "tournament " << t;
      if (n % 2 == 1) {
        const PlayerId bye = round.byes[0];
        const int fewest =
            std::min_element(players.begin(), players.end(), [&](const auto& a, const auto& b) {
              return byes[a.id] < byes[b.id];
            })->id;
        EXPECT_EQ(byes[bye], byes[fewest])
            << "tournament " << t << " round " << r << ": a second bye while others have none";
        ++byes[bye];
      }
      std::vector<PlayerId> paired;
      int repeats = 0, largest = 0;
      for (const auto& g : round.games) {
        paired.push_back(g.black);
        paired.push_back(g.white);
        repeats += judge.repeats(g.black, g.white);
        largest = std::max(largest, judge.gap(g.black, g.white));
      }
      ASSERT_EQ(paired.size() + round.byes.size(), static_cast<std::size_t>(n));
      const auto best = best_possible(paired, judge);
      EXPECT_EQ(repeats, best.first)
          << "tournament " << t << " round " << r << ": an avoidable repeat";
      if (repeats == best.first) {
        EXPECT_EQ(largest, best.second)
            << "tournament " << t << " round " << r << ": a larger gap than necessary";
      }
      for (auto& g : round.games) {
        const int roll = static_cast<int>(rng() % 20);
        g.outcome = roll == 0 ? Outcome::Jigo : roll < 10 ? Outcome::BlackWins : Outcome::WhiteWins;
      }
      rounds.push_back(round);
    }
  }
}

TEST(Swiss, FirstRoundSplitsTheFieldTopHalfAgainstBottomHalf) {
  std::vector<Entrant> players;
  for (int i = 1; i <= 8; ++i) players.push_back({i, 0});
  const Round r = pair_swiss(players, {}, {});
  std::set<std::pair<PlayerId, PlayerId>> got;
  for (const auto& g : r.games) got.insert(std::minmax(g.black, g.white));
  EXPECT_EQ(got, (std::set<std::pair<PlayerId, PlayerId>>{{1, 5}, {2, 6}, {3, 7}, {4, 8}}));
  for (const auto& g : r.games) EXPECT_GT(g.black, g.white) << "the lower seed takes Black";
}

TEST(Swiss, ColoursAlternateWherePossible) {
  // Round 1: 3 (Black) loses to 1, 4 (Black) beats 2. Round 2 pairs 1–4 and 2–3, and whoever
  // had White now takes Black.
  const std::vector<Entrant> players{{1, 0}, {2, 0}, {3, 0}, {4, 0}};
  const Round first{{{3, 1, 0, Outcome::WhiteWins, false}, {4, 2, 0, Outcome::BlackWins, false}},
                    {}};
  const Round second = pair_swiss(players, {first}, {});
  std::set<PlayerId> blacks;
  for (const auto& g : second.games) blacks.insert(g.black);
  EXPECT_EQ(blacks, (std::set<PlayerId>{1, 2}));
}

TEST(McMahon, HandicapByScoreGapGivesTheLowerScoreBlackAndStones) {
  // Two bars apart: 3 points vs 0 points; correction 1 → 2 stones.
  const std::vector<Entrant> players{{1, 3}, {2, 0}};
  const Round r = pair_swiss(players, {}, {true, 1, 9});
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].black, 2);
  EXPECT_EQ(r.games[0].handicap, 2);
  const Round even = pair_swiss({{1, 1}, {2, 0}}, {}, {true, 1, 9});
  EXPECT_EQ(even.games[0].handicap, 0);
}

// ---- elimination ----

TEST(Elimination, BracketOrderKeepsTheTopSeedsApart) {
  EXPECT_EQ(bracket_order(4), (std::vector<int>{1, 4, 2, 3}));
  EXPECT_EQ(bracket_order(8), (std::vector<int>{1, 8, 4, 5, 2, 7, 3, 6}));
}

// Plays an elimination to the end, the better seed (lower id) winning unless `upset` says.
std::vector<Round> play_out(
    const std::vector<Entrant>& players, bool double_elimination,
    const std::function<bool(const Game&)>& upset = [](const Game&) { return false; }) {
  std::vector<Round> rounds;
  while (auto next = pair_elimination(players, {}, rounds, double_elimination)) {
    for (auto& g : next->games) {
      const bool black_better = g.black < g.white;
      g.outcome = black_better != upset(g) ? Outcome::BlackWins : Outcome::WhiteWins;
    }
    rounds.push_back(*next);
    if (rounds.size() > 40) break;
  }
  return rounds;
}

TEST(Elimination, SingleBracketWithByesForTheTopSeeds) {
  std::vector<Entrant> players;
  for (int i = 1; i <= 6; ++i) players.push_back({i, 0});
  const auto rounds = play_out(players, false);
  ASSERT_EQ(rounds.size(), 3u);
  EXPECT_EQ(rounds[0].byes, (std::vector<PlayerId>{1, 2}));
  std::set<std::pair<PlayerId, PlayerId>> first;
  for (const auto& g : rounds[0].games) first.insert(std::minmax(g.black, g.white));
  EXPECT_EQ(first, (std::set<std::pair<PlayerId, PlayerId>>{{4, 5}, {3, 6}}));
  ASSERT_EQ(rounds[2].games.size(), 1u);
  EXPECT_EQ(std::minmax(rounds[2].games[0].black, rounds[2].games[0].white),
            std::minmax<PlayerId>(1, 2));
  const auto table = standings(players, {}, rounds, {TieBreak::Wins}, true, 1);
  EXPECT_EQ(table[0].id, 1);
  EXPECT_FALSE(table[0].eliminated);
  EXPECT_TRUE(table[1].eliminated);
}

TEST(Elimination, DoubleEliminationEndsWithOneUnbeatenOrOnceBeatenPlayerAndAReplayedFinal) {
  for (int n = 2; n <= 12; ++n) {
    std::vector<Entrant> players;
    for (int i = 1; i <= n; ++i) players.push_back({i, 0});
    // Seed 2 beats seed 1 whenever they meet: 1 loses the final from the winners' side... or the
    // replay.
    const auto rounds = play_out(players, true, [](const Game& g) {
      return std::minmax(g.black, g.white) == std::minmax<PlayerId>(1, 2);
    });
    ASSERT_LE(rounds.size(), 40u) << n;
    const auto table = standings(players, {}, rounds, {TieBreak::Wins}, true, 2);
    int alive = 0;
    for (const auto& s : table) alive += !s.eliminated;
    EXPECT_EQ(alive, 1) << n;
    for (const auto& s : table) {
      if (s.eliminated) {
        EXPECT_EQ(s.losses, 2) << n;
      }
    }
    EXPECT_EQ(table[0].id, 2) << n;
  }
}

// ---- standings ----

TEST(Standings, TieBreaksAsComputedByHand) {
  // Four players, two rounds: 1 beats 2, 3 beats 4; then 1 beats 3, 4 beats 2.
  const std::vector<Entrant> players{{1, 0}, {2, 0}, {3, 0}, {4, 0}};
  Round r1{{{1, 2, 0, Outcome::BlackWins, false}, {3, 4, 0, Outcome::BlackWins, false}}, {}};
  Round r2{{{3, 1, 0, Outcome::WhiteWins, false}, {2, 4, 0, Outcome::WhiteWins, false}}, {}};
  const auto table = standings(players, {}, {r1, r2},
                               {TieBreak::Wins, TieBreak::Sos, TieBreak::Sosos, TieBreak::Sodos});
  // Points: 1→2, 2→0, 3→1, 4→1. SOS: 1: 0+1=1, 2: 2+1=3, 3: 1+2=3, 4: 1+0=1.
  // SOSOS: 1: 3+3=6, 3: 1+1=2, 4: 3+3=6. SODOS: 3: beat 4 (1) = 1; 4: beat 2 (0) = 0.
  ASSERT_EQ(table.size(), 4u);
  EXPECT_EQ(table[0].id, 1);
  EXPECT_EQ(table[1].id, 3);
  EXPECT_DOUBLE_EQ(table[1].sos, 3);
  EXPECT_DOUBLE_EQ(table[1].sosos, 2);
  EXPECT_DOUBLE_EQ(table[1].sodos, 1);
  EXPECT_EQ(table[2].id, 4);
  EXPECT_DOUBLE_EQ(table[2].sosos, 6);
  EXPECT_EQ(table[3].id, 2);
  EXPECT_EQ(table[1].place, 2);
  EXPECT_EQ(table[2].place, 3);
}

TEST(Standings, ByesScoreAWinAndCountTheirOwnScoreInSos) {
  const std::vector<Entrant> players{{1, 2}, {2, 0}, {3, 0}};
  Round r1{{{2, 3, 0, Outcome::BlackWins, false}}, {1}};
  const auto table = standings(players, {3}, {r1}, {TieBreak::Score, TieBreak::Sos});
  EXPECT_EQ(table[0].id, 1);
  EXPECT_DOUBLE_EQ(table[0].score, 3);
  EXPECT_DOUBLE_EQ(table[0].sos, 3);
  EXPECT_TRUE(table[2].withdrawn);
  EXPECT_EQ(table[1].id, 2);
  EXPECT_DOUBLE_EQ(table[1].sos, 0);
}

TEST(Standings, EqualRowsShareAPlace) {
  const std::vector<Entrant> players{{1, 0}, {2, 0}};
  Round r1{{{1, 2, 0, Outcome::Jigo, false}}, {}};
  const auto table = standings(players, {}, {r1}, {TieBreak::Wins, TieBreak::Sos});
  EXPECT_EQ(table[0].place, 1);
  EXPECT_EQ(table[1].place, 1);
}

TEST(Names, RoundTrip) {
  for (const auto s : {System::RoundRobin, System::DoubleRoundRobin, System::Swiss, System::McMahon,
                       System::SingleElimination, System::DoubleElimination}) {
    EXPECT_EQ(parse_system(to_string(s)), s);
  }
  EXPECT_FALSE(parse_system("knockout"));
  EXPECT_EQ(parse_tie_break("sodos"), TieBreak::Sodos);
}

}  // namespace
}  // namespace tengen::tournament
