#include "store/postgres_migrate.h"

#include <stdexcept>
#include <string>

namespace tengen::store::pg {
namespace {

// The advisory lock the migrating servers take turns on ("tengen" in ASCII, as a number).
constexpr const char* kLock = "SELECT pg_advisory_xact_lock(116101110103101110)";

int current_version(Connection& db) {
  return static_cast<int>(
      db.query("SELECT coalesce(max(version), 0) FROM schema_version").int64(0, 0));
}

void refuse_if_newer(int current, int newest_known) {
  if (current <= newest_known) return;
  throw std::runtime_error("the database has schema version " + std::to_string(current) +
                           " but this server knows only up to " + std::to_string(newest_known) +
                           "; run a newer server or restore a backup");
}

}  // namespace

int schema_version(Connection& db) {
  db.exec(
      "CREATE TABLE IF NOT EXISTS schema_version ("
      " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
  return current_version(db);
}

int migrate(Connection& db, std::span<const migrations::Migration> all) {
  const int newest_known = all.empty() ? 0 : all.back().version;
  int current = 0;
  {
    Transaction tx(db);
    db.query(kLock);  // CREATE TABLE IF NOT EXISTS is not safe from two sessions at once
    current = schema_version(db);
    tx.commit();
  }
  refuse_if_newer(current, newest_known);
  for (const auto& migration : all) {
    Transaction tx(db);
    db.query(kLock);
    current = current_version(db);
    refuse_if_newer(current, newest_known);
    if (migration.version <= current) continue;  // another server applied it meanwhile
    try {
      db.exec(migration.sql);
    } catch (const Error& e) {
      throw std::runtime_error("migration " + std::string(migration.name) + " failed: " + e.what());
    }
    db.query(
        "INSERT INTO schema_version(version, name, applied_at)"
        " VALUES ($1, $2, (extract(epoch from clock_timestamp()) * 1000)::bigint)",
        {migration.version, migration.name});
    tx.commit();
    current = migration.version;
  }
  return current;
}

}  // namespace tengen::store::pg
