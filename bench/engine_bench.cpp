// Light random playouts on one core, the measure of the board's raw speed; the dead-stone
// suggestion of the scoring phase, which is built on them; and a game replayed through
// Game::play, the engine's part of every live move (docs/performance.md).
//   cmake --preset bench && cmake --build --preset bench --target engine_bench &&
//   build/bench/bench/engine_bench
#include <benchmark/benchmark.h>

#include "engine/dead_stones.h"
#include "engine/game.h"
#include "engine/playout.h"
#include "engine/review.h"
#include "engine/variation.h"

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

// The suggestion for a position in the middle of its life: `range(0)` × `range(0)`, with as many
// random moves played as the board has points × 0.6 (about 215 on 19×19), the stones and empty
// regions of a game near its end. 1,000 playouts, as the server asks for.
void BM_DeadStoneSuggestion(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  Board board(size, size);
  Rng rng(20261123);
  Color turn = Color::Black;
  for (int i = 0; i < size * size * 6 / 10; ++i) {
    const Point p = random_move(board, turn, rng);
    if (p != kPass) board.play(p, turn);
    turn = opponent(turn);
  }
  std::size_t dead = 0;
  for (auto _ : state) {
    dead = suggest_dead_stones(board, {.playouts = 1000, .seed = 1}).size();
    benchmark::DoNotOptimize(dead);
  }
  state.counters["dead stones"] = static_cast<double>(dead);
  state.counters["stones"] =
      static_cast<double>(board.stone_count(Color::Black) + board.stone_count(Color::White));
}
BENCHMARK(BM_DeadStoneSuggestion)->Arg(9)->Arg(13)->Arg(19)->Unit(benchmark::kMillisecond);

// Up to 250 random legal moves on 19x19 under `rules` (about 60% of the board filled, with
// captures), stopping at the first pass.
std::vector<Move> random_game(const Rules& rules, std::uint64_t seed) {
  std::vector<Move> moves;
  Game game(Board(19, 19), rules);
  Rng rng(seed);
  PositionSet seen;
  seen.add(game.board().hash());
  for (int i = 0; i < 250; ++i) {
    const Color c = game.to_move();
    const Point p = random_move(game.board(), c, rng, &seen);
    if (p == kPass || game.play({c, p}) != MoveError::Ok) break;
    seen.add(game.board().hash());
    moves.push_back({c, p});
  }
  return moves;
}

// A 19×19 game of random legal moves (about 60% of the board filled, with captures), replayed
// move by move through Game::play with the stones each move removed, as a room plays live moves,
// under positional superko.
void BM_GamePlay(benchmark::State& state) {
  const Rules rules = Rules::preset(Ruleset::Chinese);
  const std::vector<Move> moves = random_game(rules, 20261124);
  std::vector<Point> removed;
  std::int64_t captured = 0;
  for (auto _ : state) {
    Game game(Board(19, 19), rules);
    captured = 0;
    for (const Move& m : moves) {
      if (game.play(m, removed) != MoveError::Ok) state.SkipWithError("an illegal move");
      captured += static_cast<std::int64_t>(removed.size());
    }
    benchmark::DoNotOptimize(game.board().hash());
  }
  state.counters["moves/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * moves.size()), benchmark::Counter::kIsRate);
  state.counters["moves"] = static_cast<double>(moves.size());
  state.counters["stones removed"] = static_cast<double>(captured);
}
BENCHMARK(BM_GamePlay);

// What POST /api/v1/positions does for one analysis move: the whole line replayed through a
// Variation (engine/variation.h), the last move's removed stones read off. The line: the same
// kind of 19x19 game of random legal moves, 250 moves.
void BM_VariationReplay(benchmark::State& state) {
  const Rules rules = Rules::preset(Ruleset::Japanese);
  const std::vector<Move> moves = random_game(rules, 20261125);
  std::vector<Point> removed;
  for (auto _ : state) {
    Variation line(Board(19, 19), rules);
    for (std::size_t i = 0; i < moves.size(); ++i) {
      if (line.play(moves[i], i + 1 == moves.size() ? &removed : nullptr) != MoveError::Ok)
        state.SkipWithError("an illegal move");
    }
    benchmark::DoNotOptimize(line.board().hash());
  }
  state.counters["moves/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * moves.size()), benchmark::Counter::kIsRate);
  state.counters["moves"] = static_cast<double>(moves.size());
}
BENCHMARK(BM_VariationReplay)->Unit(benchmark::kMicrosecond);

// What a review board (engine/review.h) does for each change that moves its current node: the
// position at a node 250 moves deep, replayed from the root with what that node's move took. A
// review room does this once or twice a change (server/src/reviews), under its one lock.
void BM_ReviewPositionAtDepth250(benchmark::State& state) {
  const Rules rules = Rules::preset(Ruleset::Japanese);
  const std::vector<Move> moves = random_game(rules, 20261125);
  GameTree tree;
  tree.record.rules = "japanese";
  tree.record.komi = rules.komi;
  int at = 0;
  for (const Move& m : moves) at = tree.add(at, RecordedMove::of(m));
  ReviewTree review(std::move(tree));
  std::vector<Point> captured;
  for (auto _ : state) {
    review.go_to(0);
    review.go_to(at);
    const Variation line = review.position(&captured);
    benchmark::DoNotOptimize(line.board().hash());
  }
  state.counters["depth"] = static_cast<double>(moves.size());
}
BENCHMARK(BM_ReviewPositionAtDepth250)->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_Playout_SimpleKo)->Arg(9)->Arg(19);
BENCHMARK(BM_Playout_PositionalSuperko)->Arg(9)->Arg(19);

}  // namespace
}  // namespace tengen

BENCHMARK_MAIN();
