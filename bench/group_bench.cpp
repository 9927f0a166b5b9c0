// What groups and ladders cost the server (docs/groups.md, docs/performance.md "Groups"), on a real
// SQLite file: a chat line said in a group whose chat is full (stored, the oldest line deleted, the
// line read back: what POST /api/v1/groups/{id}/chat costs before it is told), a group's page read
// for a group of 500 members with 2,000 games between them (members and recent games), and the
// ladders' sweep with nothing due over 50 ladders of 40 players with a challenge in play each.
//
//   build/bench/bench/group_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <filesystem>

#include "store/group_store.h"
#include "store/ladder_store.h"
#include "store/migrate.h"
#include "store/sql.h"
#include "store/sqlite.h"

namespace {

using namespace tengen;

constexpr int kMembers = 500;

// A migrated file with users 1..kMembers, group 1 holding all of them, 2,000 finished games
// between them and a full chat.
std::filesystem::path prepared() {
  const auto path = std::filesystem::temp_directory_path() / "tengen-group-bench.sqlite3";
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
  store::Database db(path.string());
  store::migrate(db);
  db.exec("BEGIN");
  for (int i = 1; i <= kMembers; ++i)
    db.exec("INSERT INTO users(id, username, password_hash, created_at) VALUES (" +
            std::to_string(i) + ", 'player" + std::to_string(i) + "', 'h', 1)");
  for (int g = 1; g <= 2000; ++g) {
    const int b = 1 + g % kMembers, w = 1 + (g * 7 + 3) % kMembers;
    db.exec(
        "INSERT INTO games(id, settings, first_id, second_id, black_id, white_id, created_at,"
        " ended_at, result) VALUES (" +
        std::to_string(g) + ", '{}', " + std::to_string(b) + ", " + std::to_string(w) + ", " +
        std::to_string(b) + ", " + std::to_string(w) + ", 1, " + std::to_string(g) + ", 'B+R')");
  }
  db.exec("COMMIT");
  store::GroupStore groups(store::sql::sqlite_connection(path.string()));
  const auto id = *groups.create({"Club", "", "open", 1}, 1);
  for (int i = 2; i <= kMembers; ++i) groups.set_role(id, i, "member", 1);
  for (int i = 0; i < 500; ++i) groups.add_chat(id, 1 + i % kMembers, "a line of chat", i, 500);
  return path;
}

void BM_ChatLineInAFullChat(benchmark::State& state) {
  const auto path = prepared();
  store::GroupStore groups(store::sql::sqlite_connection(path.string()));
  std::int64_t at = 1000;
  for (auto _ : state) benchmark::DoNotOptimize(groups.add_chat(1, 2, "hello", ++at, 500));
}
BENCHMARK(BM_ChatLineInAFullChat)->Unit(benchmark::kMicrosecond);

void BM_GroupPageOf500Members(benchmark::State& state) {
  const auto path = prepared();
  store::GroupStore groups(store::sql::sqlite_connection(path.string()));
  for (auto _ : state) {
    benchmark::DoNotOptimize(groups.group(1));
    benchmark::DoNotOptimize(groups.members(1));
    benchmark::DoNotOptimize(groups.games(1, 40));
  }
}
BENCHMARK(BM_GroupPageOf500Members)->Unit(benchmark::kMicrosecond);

void BM_LadderSweepNothingDue(benchmark::State& state) {
  const auto path = prepared();
  store::LadderStore ladders(store::sql::sqlite_connection(path.string()));
  for (int l = 0; l < 50; ++l) {
    const auto id = ladders.create({0, 1, "L", "{}", 3, 7, "swap", 0, std::nullopt}, 1);
    for (int p = 1; p <= 40; ++p) ladders.join(id, 1 + (l * 40 + p) % kMembers, 1);
    const auto c = ladders.add_challenge(id, 2, 1, 1, 1LL << 50);
    ladders.move(c, "open", "playing", 100000 + l, 2);  // a game in play (no such row: not over)
  }
  for (auto _ : state) benchmark::DoNotOptimize(ladders.due(1000));
}
BENCHMARK(BM_LadderSweepNothingDue)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
