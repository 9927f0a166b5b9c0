#include <sodium.h>
#include <spdlog/spdlog.h>
#ifdef TENGEN_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "accounts/accounts.h"
#include "clock.h"
#include "config.h"
#include "http/api.h"
#include "http/http_server.h"
#include "lobby/hub.h"
#include "ops.h"
#include "protocol/health.h"
#include "rooms/timers.h"
#include "store/database_lock.h"
#include "store/journal.h"
#include "store/migrate.h"
#include "store/postgres.h"
#include "store/postgres_account_store.h"
#include "store/postgres_game_store.h"
#include "store/postgres_migrate.h"
#include "store/sqlite_account_store.h"
#include "store/sqlite_game_store.h"

extern char** environ;

namespace {

std::vector<std::string> environment() {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) env.emplace_back(*e);
  return env;
}

// Which allocator this process uses, for the start-up log (server/CMakeLists.txt,
// TENGEN_ALLOCATOR). Debian builds jemalloc unprefixed: linked, it is the whole process's malloc,
// and its mallctl answers with the version.
std::string allocator() {
#ifdef TENGEN_JEMALLOC
  const char* version = nullptr;
  std::size_t size = sizeof version;
  if (mallctl("version", &version, &size, nullptr, 0) == 0 && version)
    return std::string("jemalloc ") + version;
#endif
  return "the C library's malloc";
}

// The stores the server runs on: a SQLite file (the default, locked against a second server), or
// a PostgreSQL database named by a postgres:// URI (docs/cluster.md). Migrated before use.
struct Stores {
  std::optional<tengen::store::DatabaseLock> lock;
  // PostgreSQL: a connection of its own holding an advisory lock for the server's life (released
  // by PostgreSQL when the process ends, however it ends).
  std::optional<tengen::store::pg::Connection> postgres_lock;
  std::optional<tengen::store::Database> sqlite;
  std::optional<tengen::store::pg::Connection> postgres;
  std::unique_ptr<tengen::store::AccountStore> accounts;
  std::unique_ptr<tengen::store::GameStore> games;
  int schema = 0;
};

// A URI as it may be logged: without its password.
std::string without_password(const std::string& uri) {
  const auto scheme = uri.find("://");
  const auto at = uri.find('@');
  if (scheme == std::string::npos || at == std::string::npos || at < scheme) return uri;
  const auto colon = uri.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return uri;
  return uri.substr(0, colon) + ":***" + uri.substr(at);
}

void open_stores(const std::string& database, Stores& s) {
  using namespace tengen;
  if (is_postgres(database)) {
    // One server per database until games have owners (docs/cluster.md). A server killed a moment
    // ago still holds the lock until PostgreSQL notices: wait a little for it.
    s.postgres_lock.emplace(database);
    try {
      s.postgres_lock->exec("SET lock_timeout = '3s'");
      s.postgres_lock->query("SELECT pg_advisory_lock(7365696741637736)");
    } catch (const store::pg::Error& e) {
      if (e.sqlstate() != "55P03") throw;  // lock_not_available
      throw std::runtime_error(
          "another tengen-server is already serving the PostgreSQL database " +
          without_password(database) +
          ": stop it first, or give this one its own database with --database");
    }
    s.postgres.emplace(database);
    s.schema = store::pg::migrate(*s.postgres);
    s.accounts = std::make_unique<store::PostgresAccountStore>(*s.postgres);
    s.games = std::make_unique<store::PostgresGameStore>(database);
    spdlog::info("PostgreSQL database {} at schema version {}; memory from {}",
                 without_password(database), s.schema, allocator());
    return;
  }
  // A file name, not ":memory:" or a "file:" URI: locked, and logged as an absolute path.
  const bool named_file = !database.starts_with(':') && !database.starts_with("file:");
  // Before SQLite opens it: a second server on the same file stops here, touching nothing.
  if (named_file) s.lock.emplace(database);
  s.sqlite.emplace(database);
  s.schema = store::migrate(*s.sqlite);
  s.accounts = std::make_unique<store::SqliteAccountStore>(*s.sqlite);
  s.games = std::make_unique<store::SqliteGameStore>(database);
  spdlog::info(
      "database {} at schema version {}; memory from {}",
      named_file ? std::filesystem::absolute(database).lexically_normal().string() : database,
      s.schema, allocator());
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tengen;
  const auto parsed = parse_config(std::vector<std::string>(argv + 1, argv + argc), environment());
  if (parsed.help) {
    std::cout << usage();
    return 0;
  }
  if (!parsed.config) {
    std::cerr << "tengen-server: " << parsed.error << "\n\n" << usage();
    return 2;
  }
  Config config = *parsed.config;
  if (config.command == Config::Command::HealthCheck) return health_check(config);
  if (config.command == Config::Command::Backup) return backup(config, config.backup_to);
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  if (config.web_root.empty()) {
    std::error_code ec;
    config.web_root =
        default_web_root(std::filesystem::read_symlink("/proc/self/exe", ec).string());
  }

  try {
    Stores stores;
    open_stores(config.database, stores);
    const int schema = stores.schema;
    store::GameStore& game_store = *stores.games;

    SystemClock clock;
    Accounts accounts(*stores.accounts, clock,
                      config.fast_password_hashing ? Accounts::Options::fastest_for_tests()
                                                   : Accounts::Options::interactive());
    store::Journal journal(game_store);
    Metrics metrics;
    auto timers = make_asio_timers();
    auto connection_timers = make_asio_timers();  // pings and idle checks: the server's own
    auto worker = make_thread_worker();
    auto user_ref =
        [](const std::optional<store::UserRecord>& user) -> std::optional<protocol::UserRef> {
      if (!user) return std::nullopt;
      return protocol::UserRef{user->id, user->username};
    };
    Hub hub(Hub::Services{
        .find_user = [&](const std::string& name) { return user_ref(accounts.find_user(name)); },
        .find_user_by_id = [&](std::int64_t id) { return user_ref(accounts.find_user(id)); },
        .journal = &journal,
        .store = &game_store,
        // "automatic" colours between equal ratings: a coin toss.
        .draw_black = [] { return randombytes_uniform(2) == 0; },
        .random_hex =
            [](std::size_t bytes) {
              std::vector<unsigned char> raw(bytes);
              randombytes_buf(raw.data(), raw.size());
              std::string hex(bytes * 2 + 1, '\0');
              sodium_bin2hex(hex.data(), hex.size(), raw.data(), raw.size());
              hex.pop_back();
              return hex;
            },
        .clock = &clock,
        .timers = timers.get(),
        .worker = worker.get(),
        .room = {},
        .metrics = &metrics});
    Api api(accounts,
            GameArchive{&game_store, [&hub](std::int64_t game) { return hub.sgf(game); }, &clock,
                        [&hub](const store::Page& page) { return hub.tournaments_json(page); },
                        [&hub](std::int64_t id) { return hub.tournament_json(id); }},
            config.public_url.starts_with("https://"));
    const auto started = std::chrono::steady_clock::now();
    HttpServer server(
        config,
        {.health_json =
             [&] {
               const auto up = std::chrono::steady_clock::now() - started;
               return protocol::encode(protocol::Health{
                   TENGEN_VERSION, schema,
                   std::chrono::duration_cast<std::chrono::milliseconds>(up).count()});
             },
         .api = &api,
         .accounts = &accounts,
         .dispatcher = &hub,
         .clock = &clock,
         .connection_timers = connection_timers.get(),
         .metrics_text =
             [&] {
               const std::chrono::duration<double> up = std::chrono::steady_clock::now() - started;
               auto gauges = hub.gauges();
               const auto journaled = journal.stats();
               gauges.journal_commits = journaled.commits;
               gauges.journal_rows = journaled.writes;
               gauges.journal_commit_seconds = static_cast<double>(journaled.commit_us) / 1e6;
               return metrics.render(gauges, up.count());
             },
         .metrics = &metrics});
    // Recovery after the port is bound: a busy port fails at once, not after replaying every
    // game; connections wait in the backlog until run().
    const auto recovery_start = std::chrono::steady_clock::now();
    const auto recovered = hub.recover(game_store);
    journal.barrier().wait();
    spdlog::info("recovered {} unfinished games and {} open challenges in {} ms", recovered.games,
                 recovered.challenges,
                 std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - recovery_start)
                     .count());
    if (!std::filesystem::exists(std::filesystem::path(config.web_root) / "index.html")) {
      spdlog::warn(
          "no web client in {} (no index.html there): pages will answer 404; set --web-root",
          config.web_root);
    } else {
      spdlog::info("serving the web client from {}", config.web_root);
    }
    const auto url = listen_url(config.address, server.port());
    if (url.every_interface) {
      spdlog::info("listening on every interface ({}), port {}: open {}", config.address,
                   server.port(), url.url);
    } else {
      spdlog::info("listening on {} only, port {}: open {}", config.address, server.port(),
                   url.url);
    }
    if (!config.public_url.empty()) {
      spdlog::info(
          "players come through {}{}", config.public_url,
          config.public_url.starts_with("https://") ? " (session cookies are Secure)" : "");
    }
    if (!config.port_file.empty()) std::ofstream(config.port_file) << server.port() << '\n';
    server.run();
    timers.reset();  // before the hub they call
    worker.reset();
    journal.barrier().wait();  // the last replies go out while their connections' executor lives
    spdlog::info("stopped cleanly");
    return 0;
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
}
