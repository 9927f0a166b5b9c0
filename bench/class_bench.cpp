// What classes cost the server (docs/classes.md, docs/performance.md "Classes"), on a real SQLite
// file: a class of 30 made in one step (30 accounts, each password hashed with the server's own
// Argon2id cost), a teacher's dashboard of 60 students with their lessons and games, and the
// check every challenge, pairing and chat line makes (rooms/blocks.h) with 100 protected classes
// of 30 in memory, against none.
//
//   build/dev/bench/class_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <sodium.h>

#include <filesystem>

#include "accounts/accounts.h"
#include "groups/classes.h"
#include "rooms/blocks.h"
#include "store/account_store.h"
#include "store/class_store.h"
#include "store/group_store.h"
#include "store/migrate.h"
#include "store/sql.h"
#include "store/sqlite.h"

namespace {

using namespace tengen;

std::filesystem::path fresh(const char* name) {
  const auto path = std::filesystem::temp_directory_path() / name;
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
  store::Database db(path.string());
  store::migrate(db);
  return path;
}

struct School {
  explicit School(const std::filesystem::path& path)
      : db(path.string()),
        account_store(store::sql::sqlite_connection(db)),
        groups(store::sql::sqlite_connection(path.string())),
        classes_store(store::sql::sqlite_connection(path.string())),
        accounts(account_store, clock, Accounts::Options::interactive()),
        classes({.store = classes_store,
                 .groups = groups,
                 .accounts = accounts,
                 .clock = clock,
                 .anyone_may_teach = true,
                 .changed = {},
                 .round_robin = {},
                 .random = [](std::uint32_t bound) { return randombytes_uniform(bound); }},
                Classes::Limits{}) {
    teacher = std::get<store::UserRecord>(accounts.create_account("teacher", "a fine password"));
  }
  store::Database db;
  store::AccountStore account_store;
  store::GroupStore groups;
  store::ClassStore classes_store;
  SystemClock clock;
  Accounts accounts;
  Classes classes;
  store::UserRecord teacher;
};

void BM_MakeAClassOf30(benchmark::State& state) {
  if (sodium_init() < 0) state.SkipWithError("libsodium");
  School school(fresh("tengen-class-bench.sqlite3"));
  int n = 0;
  for (auto _ : state) {
    ++n;
    protocol::http::ClassForm form{"Class " + std::to_string(n), "", {}};
    for (int i = 0; i < 30; ++i)
      form.students.push_back("Pupil " + std::to_string(n) + "-" + std::to_string(i));
    auto made = school.classes.create(school.teacher, form, Groups::Limits{});
    if (!std::holds_alternative<Classes::Made>(made) ||
        std::get<Classes::Made>(made).cards.size() != 30)
      state.SkipWithError("the class was not made");
  }
}
BENCHMARK(BM_MakeAClassOf30)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_DashboardOf60Students(benchmark::State& state) {
  const auto path = fresh("tengen-class-bench2.sqlite3");
  {
    store::Database db(path.string());
    db.exec("BEGIN");
    for (int i = 1; i <= 61; ++i)
      db.exec("INSERT INTO users(id, username, password_hash, created_at) VALUES (" +
              std::to_string(i) + ", 'u" + std::to_string(i) + "', 'h', 1)");
    for (int g = 1; g <= 1200; ++g) {
      const int b = 2 + g % 60, w = 2 + (g * 7 + 3) % 60;
      db.exec(
          "INSERT INTO games(id, settings, first_id, second_id, black_id, white_id, created_at,"
          " ended_at, result) VALUES (" +
          std::to_string(g) + ", '{}', " + std::to_string(b) + ", " + std::to_string(w) + ", " +
          std::to_string(b) + ", " + std::to_string(w) + ", 1, " + std::to_string(g) + ", 'B+R')");
    }
    db.exec("COMMIT");
  }
  store::GroupStore groups(store::sql::sqlite_connection(path.string()));
  store::ClassStore classes(store::sql::sqlite_connection(path.string()));
  const auto id = *groups.create({"Group 6B", "", "invite", 1}, 1);
  classes.add_class(id, 1);
  for (int i = 2; i <= 61; ++i) {
    classes.add_student(id, i, "Pupil " + std::to_string(i), 1);
    for (const char* lesson : {"liberties", "capture", "suicide", "ko", "eyes"})
      classes.finish_lesson(i, lesson, 2, 64);
  }
  for (auto _ : state) benchmark::DoNotOptimize(classes.students(id));
}
BENCHMARK(BM_DashboardOf60Students)->Unit(benchmark::kMicrosecond);

// Blocks::blocks between a student and an outsider, between classmates, and between two
// outsiders, with 100 protected classes of 30 loaded (Arg 1) or none (Arg 0).
void BM_BlocksCheck(benchmark::State& state) {
  Blocks blocks;
  if (state.range(0) == 1) {
    Blocks::Pairs students, members;
    for (std::int64_t c = 1; c <= 100; ++c) {
      members.emplace_back(c, 100'000 + c);  // the teacher
      for (std::int64_t s = 0; s < 30; ++s) {
        students.emplace_back(c, c * 100 + s);
        members.emplace_back(c, c * 100 + s);
      }
    }
    blocks.load_classes(students, members, {7});
  }
  std::int64_t i = 0;
  for (auto _ : state) {
    ++i;
    benchmark::DoNotOptimize(blocks.blocks(100 + i % 30, 50'000 + i));  // a student, an outsider
    benchmark::DoNotOptimize(blocks.blocks(100 + i % 30, 100 + (i + 1) % 30));  // classmates
    benchmark::DoNotOptimize(blocks.blocks(60'000 + i, 50'000 + i));            // two outsiders
  }
  state.SetItemsProcessed(state.iterations() * 3);
}
BENCHMARK(BM_BlocksCheck)->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
