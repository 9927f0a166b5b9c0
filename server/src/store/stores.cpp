#include "store/stores.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <stdexcept>

#include "config.h"
#include "store/hub_lock.h"
#include "store/migrate.h"
#include "store/postgres_leases.h"
#include "store/postgres_migrate.h"
#include "store/sql_game_store.h"
#include "store/sql_postgres.h"

namespace tengen::store {

std::string without_password(const std::string& uri) {
  const auto scheme = uri.find("://");
  const auto at = uri.find('@');
  if (scheme == std::string::npos || at == std::string::npos || at < scheme) return uri;
  const auto colon = uri.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return uri;
  return uri.substr(0, colon) + ":***" + uri.substr(at);
}

void Stores::written_once(const std::function<std::unique_ptr<sql::Connection>()>& connect) {
  accounts = std::make_unique<AccountStore>(connect());
  moderation = std::make_unique<ModerationStore>(connect());
  mail = std::make_unique<MailStore>(connect());
  push = std::make_unique<PushStore>(connect());
  analysis = std::make_unique<AnalysisStore>(connect());
  groups = std::make_unique<GroupStore>(connect());
  ladders = std::make_unique<LadderStore>(connect());
  simuls = std::make_unique<SimulStore>(connect());
  pairs = std::make_unique<PairStore>(connect());
  relays = std::make_unique<RelayStore>(connect());
  classes = std::make_unique<ClassStore>(connect());
  positions = std::make_unique<PositionAnalysisStore>(connect());
}

std::unique_ptr<Stores> Stores::open(const std::string& database, const Node& node) {
  auto s = std::make_unique<Stores>();
  if (tengen::is_postgres(database)) {
    s->described = without_password(database);
    // PostgreSQL may be starting, recovering or restarting (a cluster's services start together):
    // wait for it, saying so.
    if (!pg::wait_until_answering(database, node.wait, [&](const std::string& why) {
          spdlog::warn("waiting for the database {}: {}", s->described, why);
        })) {
      throw Unreachable("the database " + s->described + " did not accept connections within " +
                        std::to_string(node.wait.count()) + " ms");
    }
    // Without a bus, one server per database: it holds the hub lock (store/hub_lock.h) for its
    // life. A server killed a moment ago still holds it until PostgreSQL notices: wait a little.
    if (!node.clustered) {
      s->hub_lock = std::make_unique<HubLock>(database, "tengen-server", node.ttl);
      if (!s->hub_lock->take_waiting(std::chrono::seconds(3))) {
        throw std::runtime_error(
            "another tengen-server is already serving the PostgreSQL database " + s->described +
            ": stop it first, give this one its own database with --database, or run both as "
            "nodes of a cluster with --bus (docs/cluster.md)");
      }
    }
    s->postgres.emplace(database);
    s->schema = pg::migrate(*s->postgres);
    s->games = std::make_unique<SqlGameStore>(sql::postgres_connection(database),
                                              sql::postgres_connection(database));
    s->written_once([&] { return sql::postgres_connection(database); });
    // Holding the one-server lock, it is the only node: every other's games are its own at once.
    s->leases = std::make_unique<PostgresLeases>(
        database, PostgresLeases::Options{node.name, node.ttl, /*sole=*/!node.clustered});
    return s;
  }
  // A file name, not ":memory:" or a "file:" URI: locked, and logged as an absolute path.
  const bool named_file = !database.starts_with(':') && !database.starts_with("file:");
  s->described =
      named_file ? std::filesystem::absolute(database).lexically_normal().string() : database;
  // Before SQLite opens it: a second server on the same file stops here, touching nothing.
  if (named_file) s->lock.emplace(database);
  s->sqlite.emplace(database);
  s->schema = migrate(*s->sqlite);
  s->games = std::make_unique<SqlGameStore>(sql::sqlite_connection(database),
                                            sql::sqlite_connection(database));
  s->written_once([&] { return sql::sqlite_connection(database); });
  s->leases = std::make_unique<SoleNode>();
  return s;
}

}  // namespace tengen::store
