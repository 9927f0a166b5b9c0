// What rebuilding every rating costs (docs/ratings.md, docs/moderation.md): after an annulment,
// or with tengen-server --recompute-ratings, every finished game is read in the order it ended
// and rated again from scratch.
//
//   build/bench/bench/ratings_bench [--benchmark_filter=...]
//
// BM_Replay: RatingBook::replay over N rated 19x19 games among 1,000 players (the computation
// alone). BM_Rebuild: the whole rebuild on a real SQLite file holding N finished games: reading
// them back, replaying them and replacing the ratings and their history in one transaction.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "protocol/codec.h"
#include "ratings/rating_book.h"
#include "store/account_store.h"
#include "store/migrate.h"
#include "store/sql_game_store.h"
#include "store/sqlite.h"

namespace {

using namespace tengen;

constexpr int kPlayers = 1000;

std::string rated_settings() {
  protocol::GameSettings s;
  s.rated = true;
  return protocol::encode_settings(s);
}

// N finished rated games between random players, an hour apart, with random results.
std::vector<store::GameSummary> games(int n) {
  std::mt19937_64 random(20261125);
  std::uniform_int_distribution<std::int64_t> player(1, kPlayers);
  const auto settings = rated_settings();
  const char* results[] = {"B+R", "W+R", "B+3.5", "W+0.5", "B+T"};
  std::vector<store::GameSummary> out;
  for (int i = 1; i <= n; ++i) {
    store::GameSummary g;
    g.id = i;
    g.settings = settings;
    g.black_id = player(random);
    do g.white_id = player(random);
    while (g.white_id == g.black_id);
    g.ended_at_ms = 1'795'000'000'000 + std::int64_t{i} * 3'600'000;
    g.result = results[random() % 5];
    out.push_back(std::move(g));
  }
  return out;
}

void BM_Replay(benchmark::State& state) {
  const auto finished = games(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(RatingBook::replay(finished));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Replay)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

void BM_Rebuild(benchmark::State& state) {
  const auto path = std::filesystem::temp_directory_path() / "tengen-ratings-bench.sqlite3";
  std::filesystem::remove(path);
  const int n = static_cast<int>(state.range(0));
  {
    store::Database db(path.string());
    store::migrate(db);
    store::AccountStore accounts(store::sql::sqlite_connection(db));
    for (int p = 1; p <= kPlayers; ++p)
      accounts.create_user("player" + std::to_string(p), "h", false, 0);
  }
  store::SqlGameStore store(store::sql::sqlite_connection(path.string()),
                            store::sql::sqlite_connection(path.string()));
  std::vector<store::Write> rows;
  for (const auto& g : games(n)) {
    rows.push_back(store::GameCreated{g.id, std::nullopt, g.settings, g.black_id, g.white_id,
                                      std::nullopt, std::nullopt, g.id});
    rows.push_back(store::GameFinished{g.id, *g.result, "resignation", 100, "(;)", *g.ended_at_ms});
  }
  store.write(rows);
  for (auto _ : state) {
    auto history = RatingBook::replay(store.games_in_order_of_ending());
    const std::vector<store::Write> replaced{store::RatingsReplaced{std::move(history)}};
    store.write(replaced);
  }
  state.SetItemsProcessed(state.iterations() * n);
  std::filesystem::remove(path);
}
BENCHMARK(BM_Rebuild)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
