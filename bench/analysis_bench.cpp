// What an analysis costs the server (docs/analysis.md, docs/performance.md "Analysis"): a worker's
// result for a 250-move 19x19 game (bench/analysis/gnugo-19x19-250.sgf), each position with a line
// of up to ten moves, read and checked against the game by the rules engine and written as the
// server keeps it (BM_CheckResult: what POST /api/v1/analysis/{game}/result costs before the
// store), and a job's trip through the queue on a real SQLite file (BM_QueueTrip: claimed, then
// finished with that result); and a review board's position after the game's 250 moves, all the
// server does for it (BM_PositionTrip: the board's record read, the line found in it and written
// as a record, queued, claimed, the worker's one-position result checked and kept).
//
//   build/bench/bench/analysis_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/validate.h"
#include "store/analysis_store.h"
#include "store/migrate.h"
#include "store/position_analysis_store.h"
#include "store/sqlite.h"

#ifndef TENGEN_BENCH_DIR
#define TENGEN_BENCH_DIR "bench"
#endif

namespace {

using namespace tengen;
namespace wire = protocol::http;

std::string game_sgf() {
  std::ifstream in(std::string(TENGEN_BENCH_DIR) + "/analysis/gnugo-19x19-250.sgf");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A result as a worker would send it: each position's line is the game's next ten moves.
std::string result_body(const GameRecord& record) {
  const auto geometry = record.geometry();
  wire::AnalysisResult r{"GNU Go 3.8, level 10", {}};
  const auto n = record.moves.size();
  for (std::size_t i = 0; i <= n; ++i) {
    wire::AnalysedPosition p{static_cast<int>(i), 0.1 * static_cast<double>(i) - 12, 0.5, {}};
    for (std::size_t k = i; k < n && k < i + 10; ++k)
      p.line.push_back(geometry.to_gtp(record.moves[k].point));
    r.positions.push_back(std::move(p));
  }
  return wire::encode_analysis_result(r);
}

void BM_CheckResult(benchmark::State& state) {
  const auto record = read_sgf(game_sgf());
  const auto body = result_body(record);
  for (auto _ : state) {
    auto decoded = wire::decode_analysis_result(body);
    const auto& result = std::get<wire::AnalysisResult>(decoded);
    if (analysis::check_result(record, result)) state.SkipWithError("the result was refused");
    benchmark::DoNotOptimize(wire::encode_analysis_result(result));
  }
  state.counters["bytes"] = static_cast<double>(body.size());
}
BENCHMARK(BM_CheckResult)->Unit(benchmark::kMillisecond);

void BM_QueueTrip(benchmark::State& state) {
  const auto path = std::filesystem::temp_directory_path() / "tengen-analysis-bench.sqlite3";
  std::filesystem::remove(path);
  {
    store::Database db(path.string());
    store::migrate(db);
    db.exec(
        "INSERT INTO users(id, username, password_hash, created_at) VALUES (1, 'a', 'h', 1),"
        " (2, 'b', 'h', 1)");
    db.exec(
        "INSERT INTO games(id, settings, first_id, second_id, black_id, white_id, created_at)"
        " VALUES (1, '{}', 1, 2, 1, 2, 1)");
  }
  store::AnalysisStore store(store::sql::sqlite_connection(path.string()));
  store::Database reset(path.string());
  const auto body = result_body(read_sgf(game_sgf()));
  const auto worker = *store.add_worker("w", "hash", 1);
  store.enqueue(1, 1, 251, 1);
  std::int64_t now = 10;
  for (auto _ : state) {
    state.PauseTiming();
    reset.exec("UPDATE analysis_jobs SET state = 'queued', attempts = 0");
    state.ResumeTiming();
    ++now;
    const auto job = store.claim(worker, now, now + 1000, 3);
    if (!job || !store.finish(job->game_id, worker, "GNU Go", body, now))
      state.SkipWithError("the job was not claimed and finished");
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
}
BENCHMARK(BM_QueueTrip)->Unit(benchmark::kMicrosecond);

void BM_PositionTrip(benchmark::State& state) {
  const auto path = std::filesystem::temp_directory_path() / "tengen-position-bench.sqlite3";
  std::filesystem::remove(path);
  {
    store::Database db(path.string());
    store::migrate(db);
    db.exec("INSERT INTO users(id, username, password_hash, created_at) VALUES (1, 'a', 'h', 1)");
    db.exec("INSERT INTO reviews(id, owner_id, title, sgf, created_at) VALUES (1, 1, 'r', '', 1)");
  }
  store::AnalysisStore games(store::sql::sqlite_connection(path.string()));
  store::PositionAnalysisStore positions(store::sql::sqlite_connection(path.string()));
  const auto worker = *games.add_worker("w", "hash", 1);
  const auto board = game_sgf();
  const auto record = read_sgf(board);
  const auto geometry = record.geometry();
  std::vector<std::pair<bool, std::string>> line;
  for (const auto& m : record.moves)
    if (m.is_move()) line.emplace_back(m.color == Color::White, geometry.to_gtp(m.point));
  const int from = static_cast<int>(line.size());
  const auto body =
      wire::encode_analysis_result({"GNU Go 3.8, level 10", {{from, 4.5, std::nullopt, {"pass"}}}});
  std::int64_t now = 10;
  for (auto _ : state) {
    ++now;
    const auto found = analysis::line_of(read_sgf_tree(board), line);
    const auto* asked = std::get_if<GameRecord>(&found);
    if (!asked) {
      state.SkipWithError("the line is not on the board");
      break;
    }
    positions.enqueue(1, now, 1, write_sgf(*asked), from, now);
    const auto job = positions.claim(worker, now, now + 1000, 3);
    auto result = wire::decode_analysis_result(body);
    if (!job ||
        analysis::check_result(read_sgf(job->sgf), std::get<wire::AnalysisResult>(result),
                               job->from_move) ||
        !positions.finish(job->id, worker, "GNU Go", body, now))
      state.SkipWithError("the position was not claimed, checked and kept");
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
}
BENCHMARK(BM_PositionTrip)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
