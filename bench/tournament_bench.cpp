// How long pairing a round takes (Google Benchmark): McMahon/Swiss by maximum weight matching
// after four rounds of random results, for fields from a club evening to a national congress.
#include <benchmark/benchmark.h>

#include <random>

#include "engine/tournament/tournament.h"

namespace {

using namespace tengen::tournament;

void BM_PairMcMahonRoundFive(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::vector<Entrant> players;
  for (int i = 0; i < n; ++i)
    players.push_back({i + 1, static_cast<double>(std::max(0, 12 - i * 12 / n))});
  std::mt19937 rng(11);
  std::vector<Round> rounds;
  for (int r = 0; r < 4; ++r) {
    Round round = pair_swiss(players, rounds, {true, 1, 9});
    for (auto& g : round.games) g.outcome = rng() % 2 ? Outcome::BlackWins : Outcome::WhiteWins;
    rounds.push_back(round);
  }
  for (auto _ : state) benchmark::DoNotOptimize(pair_swiss(players, rounds, {true, 1, 9}));
  state.SetLabel(std::to_string(n) + " players");
}
BENCHMARK(BM_PairMcMahonRoundFive)
    ->Arg(16)
    ->Arg(64)
    ->Arg(128)
    ->Arg(256)
    ->Arg(512)
    ->Unit(benchmark::kMillisecond);

void BM_Standings(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::vector<Entrant> players;
  for (int i = 0; i < n; ++i) players.push_back({i + 1, 0});
  std::mt19937 rng(5);
  std::vector<Round> rounds;
  for (int r = 0; r < 6; ++r) {
    Round round = pair_swiss(players, rounds, {});
    for (auto& g : round.games) g.outcome = rng() % 2 ? Outcome::BlackWins : Outcome::WhiteWins;
    rounds.push_back(round);
  }
  for (auto _ : state)
    benchmark::DoNotOptimize(
        standings(players, {}, rounds, {TieBreak::Wins, TieBreak::Sos, TieBreak::Sosos}));
}
BENCHMARK(BM_Standings)->Arg(64)->Arg(512)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
