// Light random playouts on one core: the measure of the board's raw speed.
//   cmake --preset bench && cmake --build --preset bench && build/bench/bench/engine_bench
#include <benchmark/benchmark.h>

#include "engine/playout.h"

namespace tengen {
namespace {

void playouts(benchmark::State& state, bool superko) {
  const int size = static_cast<int>(state.range(0));
  const Board empty(size, size);
  Rng rng(20261122);
  PositionSet history(8 * static_cast<std::size_t>(size * size));
  std::int64_t moves = 0;
  std::int64_t games = 0;
  for (auto _ : state) {
    Board board = empty;
    PositionSet* h = nullptr;
    if (superko) {
      history.clear();
      history.add(board.hash());
      h = &history;
    }
    moves += play_random_game(board, Color::Black, rng, h).moves;
    ++games;
    benchmark::DoNotOptimize(board.hash());
  }
  state.counters["playouts/s"] =
      benchmark::Counter(static_cast<double>(games), benchmark::Counter::kIsRate);
  state.counters["moves/s"] =
      benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate);
  state.counters["moves/playout"] = static_cast<double>(moves) / static_cast<double>(games);
}

void BM_Playout_SimpleKo(benchmark::State& state) {
  playouts(state, false);
}
void BM_Playout_PositionalSuperko(benchmark::State& state) {
  playouts(state, true);
}

BENCHMARK(BM_Playout_SimpleKo)->Arg(9)->Arg(19);
BENCHMARK(BM_Playout_PositionalSuperko)->Arg(9)->Arg(19);

}  // namespace
}  // namespace tengen

BENCHMARK_MAIN();
