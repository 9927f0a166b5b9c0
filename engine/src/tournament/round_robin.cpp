#include <algorithm>
#include <stdexcept>

#include "engine/tournament/tournament.h"

namespace tengen::tournament {

int berger_rounds(int n) {
  return n % 2 == 0 ? n - 1 : n;
}

// In round r of a table for N (even) players, with m = N − 1: players i and j of 1..m meet when
// i + j ≡ r + 1 (mod m); the one left over meets N, taking the first seat in odd rounds. Of
// two players i and j, the first seat goes to the one from whom the other is an odd number of
// steps ahead (mod m). This reproduces the FIDE handbook's tables.
std::vector<std::pair<int, int>> berger_round(int n, int round) {
  const int big = n % 2 == 0 ? n : n + 1;
  const int m = big - 1;
  if (n < 2 || round < 1 || round > m) throw std::invalid_argument("berger_round: no such round");
  const int target = (round + 1) % m;
  std::vector<std::pair<int, int>> pairs;
  for (int i = 1; i <= m; ++i) {
    int j = ((target - i) % m + m) % m;
    if (j == 0) j = m;
    if (j == i) {
      pairs.emplace_back(round % 2 == 1 ? std::pair{i, big} : std::pair{big, i});
    } else if (i < j) {
      pairs.emplace_back(((j - i) % m + m) % m % 2 == 1 ? std::pair{i, j} : std::pair{j, i});
    }
  }
  return pairs;
}

int round_robin_rounds(std::size_t players, bool double_cycle) {
  if (players < 2) return 0;
  return berger_rounds(static_cast<int>(players)) * (double_cycle ? 2 : 1);
}

Round pair_round_robin(const std::vector<Entrant>& seeded, const std::vector<PlayerId>& withdrawn,
                       int round, bool double_cycle) {
  const int n = static_cast<int>(seeded.size());
  const int per_cycle = berger_rounds(n);
  if (round < 0 || round >= per_cycle * (double_cycle ? 2 : 1))
    throw std::invalid_argument("no such round");
  const bool second_cycle = round >= per_cycle;
  auto out = [&](int number) {
    return number > n ||
           std::find(withdrawn.begin(), withdrawn.end(), seeded[number - 1].id) != withdrawn.end();
  };
  Round r;
  for (auto [first, second] : berger_round(n, round % per_cycle + 1)) {
    if (second_cycle) std::swap(first, second);
    if (out(first) && out(second)) continue;
    if (out(first) || out(second)) {
      r.byes.push_back(seeded[(out(first) ? second : first) - 1].id);
      continue;
    }
    r.games.push_back({seeded[first - 1].id, seeded[second - 1].id, 0, std::nullopt, false});
  }
  return r;
}

}  // namespace tengen::tournament
