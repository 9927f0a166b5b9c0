#pragma once

#include <span>

#include "migrations/migrations.h"
#include "store/postgres.h"

namespace tengen::store::pg {

// As store/migrate.h for SQLite: brings the database up to the newest migration this binary knows
// (migrations/postgres/), each in its own transaction with its schema_version row, and refuses
// (throws std::runtime_error) a database whose schema is newer. Several servers starting at once
// on one database take turns (a transaction-scoped advisory lock); each migration is applied
// once. Returns the version.
int migrate(Connection& db, std::span<const migrations::Migration> all = migrations::postgres());

int schema_version(Connection& db);

}  // namespace tengen::store::pg
