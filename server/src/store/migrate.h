#pragma once

#include <span>

#include "migrations/migrations.h"
#include "store/sqlite.h"

namespace tengen::store {

// Brings the database up to the newest migration this binary knows, each migration in its own
// BEGIN IMMEDIATE transaction together with its schema_version row. Refuses (throws
// std::runtime_error) a database whose schema is newer than this binary. Returns the version.
int migrate(Database& db, std::span<const migrations::Migration> all = migrations::all());

int schema_version(Database& db);

}  // namespace tengen::store
