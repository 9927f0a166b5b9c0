// What persistence costs (docs/persistence.md), on a real SQLite file with synchronous=FULL:
//
//   build/bench/bench/store_bench [database-dir=.] [games=1000] [seconds=5] [recovery-games=1000]
//                                 [postgres-conninfo]
//
// With a PostgreSQL connection string (an empty database the bench may migrate and fill), both
// parts run on PostgreSQL too, after SQLite.
//
// 1. Group commit at saturation: `games` games each keep one move in flight (a game's next move
//    is submitted the moment its previous one is durable, as a player answering at once would),
//    all through the one journal. Reports durable events per second, events per commit and the
//    submit-to-durable latency (p50/p99/max): what a move's acknowledgement waits for the disk.
// 2. Recovery: `recovery-games` unfinished 19x19 games of 60 random legal moves each, played
//    through real rooms and stored, then rebuilt by a fresh hub as the server does on start
//    (with the users' last command ids).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "centre/centre.h"
#include "clock.h"
#include "protocol/codec.h"
#include "rooms/room.h"
#include "store/journal.h"
#include "store/migrate.h"
#include "store/postgres.h"
#include "store/postgres_migrate.h"
#include "store/sql_game_store.h"
#include "store/sql_postgres.h"

namespace {

using namespace tengen;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

constexpr const char* kUsers =
    "INSERT INTO users(id, username, password_hash, created_at) VALUES (1, 'black', 'x', 0), (2, "
    "'white', 'x', 0)";

// Where a part runs: a fresh, migrated database with users 1 and 2 (who play every game), and a
// store on it.
struct Backend {
  std::string described;
  std::function<void()> fresh;
  std::function<std::unique_ptr<store::GameStore>()> open;
  std::function<void()> remove;
};

Backend sqlite_file(const fs::path& path) {
  const auto remove = [path] {
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path.string() + suffix);
  };
  return {"SQLite, synchronous=FULL, " + path.string(),
          [path, remove] {
            remove();
            store::Database db(path.string());
            store::migrate(db);
            db.exec(kUsers);
          },
          [path]() -> std::unique_ptr<store::GameStore> {
            return std::make_unique<store::SqlGameStore>(
                store::sql::sqlite_connection(path.string()),
                store::sql::sqlite_connection(path.string()));
          },
          remove};
}

Backend postgres(const std::string& conninfo) {
  return {"PostgreSQL",
          [conninfo] {
            store::pg::Connection db(conninfo);
            db.exec("DROP SCHEMA public CASCADE; CREATE SCHEMA public");
            store::pg::migrate(db);
            db.exec(kUsers);
          },
          [conninfo]() -> std::unique_ptr<store::GameStore> {
            return std::make_unique<store::SqlGameStore>(store::sql::postgres_connection(conninfo),
                                                         store::sql::postgres_connection(conninfo));
          },
          [] {}};
}

std::string settings_json(int size) {
  protocol::GameSettings s;
  s.width = s.height = size;
  s.color = protocol::GameSettings::ColorChoice::Black;
  return protocol::encode_settings(s);
}

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

void group_commit(const Backend& backend, int games, double seconds) {
  backend.fresh();
  const auto owned = backend.open();
  store::GameStore& store = *owned;
  {
    std::vector<store::Write> rows;
    for (int g = 1; g <= games; ++g)
      rows.push_back(store::GameCreated{g, std::nullopt, settings_json(19), 1, 2, {}, {}, 0});
    store.write(rows);
  }
  // A move event as the server stores it: the text sent to clients and the recovery record.
  const std::string text =
      R"({"captured":[],"clock":{"black":{"main_ms":598500,"period_ms":30000,"periods":5,"stones":0},"running":"white",)"
      R"("white":{"main_ms":599100,"period_ms":30000,"periods":5,"stones":0}},"color":"black","game":1,"lag_credit_ms":12,)"
      R"("seq":1,"type":"move","v":1,"vertex":"Q16"})";
  const std::string record =
      R"({"c":"black","clock":[[598500,5,30000,0,2000],[599100,5,30000,0,2000]],"v":"Q16"})";

  std::mutex mutex;
  std::vector<double> latencies;
  latencies.reserve(1'000'000);
  std::atomic<bool> stop{false};
  std::atomic<int> running{games};
  std::promise<void> all_done;
  std::vector<std::int64_t> seq(static_cast<std::size_t>(games) + 1, 0);
  std::vector<double> commit_ms;  // the writer thread's only
  commit_ms.reserve(100'000);
  store::Journal journal(store, [&](std::size_t, std::chrono::microseconds took) {
    commit_ms.push_back(static_cast<double>(took.count()) / 1000.0);
  });
  const auto start = Clock::now();
  // Each game's next move goes in when its previous one is durable (on the journal's thread).
  std::function<void(int)> submit = [&](int game) {
    const auto sent = Clock::now();
    const auto n = ++seq[static_cast<std::size_t>(game)];
    journal.submit(
        {store::GameEvent{game, n, "move", false, record, text, 0, std::nullopt, std::nullopt}},
        [&, game, sent] {
          {
            std::lock_guard lock(mutex);
            latencies.push_back(ms_since(sent));
          }
          if (!stop) {
            submit(game);
          } else if (--running == 0) {
            all_done.set_value();
          }
        });
  };
  for (int g = 1; g <= games; ++g) submit(g);
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  all_done.get_future().wait();
  const double elapsed_s = ms_since(start) / 1000;
  const auto stats = journal.stats();
  std::printf("group commit, %d games with one move in flight each, %.1f s, %s\n", games, elapsed_s,
              backend.described.c_str());
  std::printf("  durable events/s     %.0f\n", static_cast<double>(stats.writes) / elapsed_s);
  std::printf("  commits/s            %.0f\n", static_cast<double>(stats.commits) / elapsed_s);
  std::printf("  events per commit    %.1f\n",
              static_cast<double>(stats.writes) /
                  static_cast<double>(std::max<std::uint64_t>(1, stats.commits)));
  std::printf("  mean commit time     %.2f ms\n",
              static_cast<double>(stats.commit_us) / 1000.0 /
                  static_cast<double>(std::max<std::uint64_t>(1, stats.commits)));
  const double c50 = percentile(commit_ms, 0.5), c99 = percentile(commit_ms, 0.99);
  std::printf("  commit time          p50 %.2f ms  p99 %.2f ms\n", c50, c99);
  std::vector<double> l = latencies;
  const double p50 = percentile(l, 0.5), p99 = percentile(l, 0.99);
  std::printf("  submit->durable      p50 %.2f ms  p99 %.2f ms  max %.2f ms\n", p50, p99,
              l.empty() ? 0 : *std::max_element(l.begin(), l.end()));
  backend.remove();
}

class FixedClock final : public tengen::Clock {
 public:
  std::chrono::steady_clock::time_point steady_now() override {
    return std::chrono::steady_clock::now();
  }
  std::int64_t unix_ms() override { return 0; }
};

void recovery(const Backend& backend, int games) {
  backend.fresh();
  {
    const auto owned = backend.open();
    store::GameStore& store = *owned;
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> coordinate(0, 18);
    const Steady now = std::chrono::steady_clock::now();
    const auto settings =
        std::get<protocol::GameSettings>(protocol::decode_settings(settings_json(19)));
    for (int g = 1; g <= games; ++g) {
      Outbox out;
      out.writes.push_back(store::GameCreated{g, std::nullopt, settings_json(19), 1, 2, {}, {}, 0});
      Room room(g, settings, {1, "black"}, {2, "white"}, std::nullopt, now);
      for (int moves = 0; moves < 60;) {
        std::string vertex(1, "ABCDEFGHJKLMNOPQRST"[coordinate(rng)]);
        vertex += std::to_string(coordinate(rng) + 1);
        // Each move's command id is stored with its author, as the hub does.
        const std::string cid = "g" + std::to_string(g) + "m" + std::to_string(moves);
        const auto reply = room.play(moves % 2 == 0 ? 1 : 2, cid, vertex, {now, {}, {}});
        moves += std::holds_alternative<protocol::Ack>(reply);
      }
      room.drain_into(out);
      for (auto& w : out.writes) {
        if (auto* e = std::get_if<store::GameEvent>(&w); e && e->cid)
          e->user_id = e->seq % 2 == 1 ? 1 : 2;
      }
      store.write(out.writes);
    }
  }
  const auto owned = backend.open();
  store::GameStore& store = *owned;
  store::Journal journal(store);
  FixedClock clock;
  Centre centre(
      Centre::Services{.find_user = {},
                       .find_user_by_id = [](std::int64_t id) -> std::optional<protocol::UserRef> {
                         return protocol::UserRef{id, id == 1 ? "black" : "white"};
                       },
                       .journal = &journal,
                       .store = &store,
                       .draw_black = {},
                       .random_hex = {},
                       .clock = &clock,
                       .timers = nullptr,
                       .room = {},
                       .metrics = nullptr});
  const auto start = Clock::now();
  const auto recovered = centre.recover(store);
  const double took = ms_since(start);
  std::printf(
      "recovery: %zu unfinished 19x19 games of 60 moves (%d events) rebuilt in %.0f ms, %s\n",
      recovered.games, games * 60, took, backend.described.c_str());
  backend.remove();
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path dir = argc > 1 ? argv[1] : ".";
  const int games = argc > 2 ? std::atoi(argv[2]) : 1000;
  const double seconds = argc > 3 ? std::atof(argv[3]) : 5;
  const int recovery_games = argc > 4 ? std::atoi(argv[4]) : 1000;
  std::vector<std::pair<Backend, Backend>> backends{
      {sqlite_file(dir / "store-bench-commit.sqlite3"),
       sqlite_file(dir / "store-bench-recovery.sqlite3")}};
  if (argc > 5) backends.emplace_back(postgres(argv[5]), postgres(argv[5]));
  for (const auto& [commit, recover] : backends) {
    group_commit(commit, games, seconds);
    recovery(recover, recovery_games);
  }
}
