#include "store/migrate.h"

#include <stdexcept>
#include <string>

namespace tengen::store {

int schema_version(Database& db) {
  db.exec(
      "CREATE TABLE IF NOT EXISTS schema_version ("
      " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT");
  Statement query(db, "SELECT coalesce(max(version), 0) FROM schema_version");
  query.step();
  const auto version = static_cast<int>(query.column_int(0));
  query.reset();
  return version;
}

int migrate(Database& db, std::span<const migrations::Migration> all) {
  const int newest_known = all.empty() ? 0 : all.back().version;
  int current = schema_version(db);
  if (current > newest_known) {
    throw std::runtime_error("the database has schema version " + std::to_string(current) +
                             " but this server knows only up to " + std::to_string(newest_known) +
                             "; run a newer server or restore a backup");
  }
  for (const auto& migration : all) {
    if (migration.version <= current) continue;
    Transaction tx(db);
    try {
      db.exec(migration.sql);
    } catch (const SqliteError& e) {
      throw std::runtime_error("migration " + std::string(migration.name) + " failed: " + e.what());
    }
    Statement record(db,
                     "INSERT INTO schema_version(version, name, applied_at)"
                     " VALUES (?, ?, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))");
    record.bind(1, migration.version).bind(2, migration.name).run();
    tx.commit();
    current = migration.version;
  }
  return current;
}

}  // namespace tengen::store
