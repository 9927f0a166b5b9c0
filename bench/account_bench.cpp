// What the account store costs now that it is written once for both databases (docs/persistence.md,
// "One set of statements"; docs/performance.md "Stores"), on a real SQLite file: a session looked
// up by its token's hash (every HTTP request with a cookie, every WebSocket that opens), touched
// or, seen less than a minute ago, not, a user found by name (every login), and, as the baseline,
// the same lookup and touch as the SQLite-only store made them before (two statements prepared
// once, stepped by hand).
//
//   build/dev/bench/account_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <filesystem>

#include "store/account_store.h"
#include "store/migrate.h"
#include "store/sql.h"
#include "store/sqlite.h"

namespace {

using namespace tengen;

constexpr int kUsers = 10'000;

store::TokenHash token(int i) {
  store::TokenHash h{};
  for (std::size_t b = 0; b < 4; ++b) h[b] = static_cast<unsigned char>(i >> (8 * b));
  return h;
}

// A migrated file with kUsers users, each with a session.
std::filesystem::path prepared() {
  const auto path = std::filesystem::temp_directory_path() / "tengen-account-bench.sqlite3";
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
  store::Database db(path.string());
  store::migrate(db);
  store::AccountStore accounts(store::sql::sqlite_connection(db));
  db.exec("BEGIN");
  for (int i = 1; i <= kUsers; ++i) {
    const auto user = accounts.create_user("player" + std::to_string(i), "hash", false, 1);
    accounts.create_session(user->id, token(i), "Firefox", 1);
  }
  db.exec("COMMIT");
  return path;
}

// The argument: ms between one lookup and the next. A minute: every lookup touches its session
// (a durable write); 0: none does (a session seen less than a minute ago is not written again).
void BM_SessionByToken(benchmark::State& state) {
  const auto path = prepared();
  store::AccountStore accounts(store::sql::sqlite_connection(path.string()));
  int i = 0;
  std::int64_t now = 2;
  for (auto _ : state) {
    i = i % kUsers + 1;
    now += state.range(0);
    benchmark::DoNotOptimize(accounts.session_by_token(token(i), now));
  }
}
BENCHMARK(BM_SessionByToken)->Arg(60'000)->Arg(0)->Unit(benchmark::kMicrosecond);

void BM_UserByName(benchmark::State& state) {
  const auto path = prepared();
  store::AccountStore accounts(store::sql::sqlite_connection(path.string()));
  int i = 0;
  for (auto _ : state) {
    i = i % kUsers + 1;
    benchmark::DoNotOptimize(accounts.user_by_name("Player" + std::to_string(i)));
  }
}
BENCHMARK(BM_UserByName)->Unit(benchmark::kMicrosecond);

// The baseline: what the SQLite-only store did for a session, statements prepared once.
void BM_SessionByTokenPreparedByHand(benchmark::State& state) {
  const auto path = prepared();
  store::Database db(path.string());
  store::Statement find(db,
                        "SELECT s.id, s.user_id, s.user_agent, s.created_at, s.last_seen_at,"
                        " u.id, u.username, u.password_hash, u.is_bot, u.created_at, u.is_admin,"
                        " u.banned, u.suspended_until, u.moderation_reason, u.time_zone"
                        " FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?");
  store::Statement touch(db, "UPDATE sessions SET last_seen_at = ? WHERE id = ?");
  int i = 0;
  std::int64_t now = 2;
  for (auto _ : state) {
    i = i % kUsers + 1;
    const auto hash = token(i);
    find.bind(1, std::span<const unsigned char>(hash));
    std::optional<std::pair<store::UserRecord, store::SessionRecord>> found;
    if (find.step()) {
      store::SessionRecord s{find.column_int(0), find.column_int(1), find.column_text(2),
                             find.column_int(3), now};
      store::UserRecord u{find.column_int(5), find.column_text(6), find.column_text(7),
                          find.column_int(8) != 0, find.column_int(9)};
      u.is_admin = find.column_int(10) != 0;
      u.banned = find.column_int(11) != 0;
      u.suspended_until_ms = find.column_optional_int(12);
      u.moderation_reason = find.column_text(13);
      u.time_zone = find.column_text(14);
      found.emplace(std::move(u), std::move(s));
    }
    find.reset();
    if (found) touch.bind(1, ++now).bind(2, found->second.id).run();
    benchmark::DoNotOptimize(found);
  }
}
BENCHMARK(BM_SessionByTokenPreparedByHand)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
