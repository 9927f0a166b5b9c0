#pragma once

// A real database for a store test, on either backend (docs/testing.md): a migrated SQLite file in
// a temporary directory, or a new migrated database of the tests' PostgreSQL 15. `exec` writes
// rows by hand (users, games ended as the server would end them); `connect` opens the connection
// a store written once over sql::Connection takes.
#include <memory>
#include <string>

#include "store/migrate.h"
#include "store/postgres.h"
#include "store/postgres_migrate.h"
#include "store/sql_postgres.h"
#include "store/sqlite.h"
#include "support/temp_database.h"
#include "support/temp_postgres.h"

namespace tengen::testing {

class SqlBackend {
 public:
  virtual ~SqlBackend() = default;
  virtual void exec(const std::string& sql) = 0;
  virtual std::unique_ptr<store::sql::Connection> connect() = 0;
  // "sqlite" or "postgres": the tests' parameter.
  static std::unique_ptr<SqlBackend> open(const std::string& which);
};

class SqliteBackend final : public SqlBackend {
 public:
  SqliteBackend() : db_(temp_.path()) { store::migrate(db_); }
  void exec(const std::string& sql) override { db_.exec(sql); }
  std::unique_ptr<store::sql::Connection> connect() override {
    return store::sql::sqlite_connection(temp_.path());
  }

 private:
  TempDatabase temp_;
  store::Database db_;
};

class PostgresBackend final : public SqlBackend {
 public:
  PostgresBackend() : conninfo_(TempPostgres::instance().new_database()), db_(conninfo_) {
    store::pg::migrate(db_);
  }
  void exec(const std::string& sql) override { db_.exec(sql); }
  std::unique_ptr<store::sql::Connection> connect() override {
    return store::sql::postgres_connection(conninfo_);
  }

 private:
  std::string conninfo_;
  store::pg::Connection db_;
};

inline std::unique_ptr<SqlBackend> SqlBackend::open(const std::string& which) {
  if (which == "sqlite") return std::make_unique<SqliteBackend>();
  return std::make_unique<PostgresBackend>();
}

}  // namespace tengen::testing
