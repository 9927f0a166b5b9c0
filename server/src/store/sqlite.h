#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace tengen::store {

class SqliteError : public std::runtime_error {
 public:
  SqliteError(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

// One connection. WAL, synchronous=FULL and foreign keys are set on open; a busy database is
// waited on by SQLite's busy timeout, the one place busy handling lives.
class Database {
 public:
  explicit Database(const std::string& path);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void exec(std::string_view sql);  // statements without results or parameters
  // Copies the database into the file at `path` with SQLite's online backup API: one
  // consistent moment, while other connections go on writing (a file copy of a WAL database is
  // not).
  void backup_into(const std::string& path);
  sqlite3* handle() const noexcept { return db_; }
  [[noreturn]] void fail(int code, std::string_view context) const;

 private:
  sqlite3* db_ = nullptr;
};

// A prepared statement, reset after each use. Bind by 1-based index.
class Statement {
 public:
  Statement(Database& db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, std::int64_t value);
  Statement& bind_real(int index,
                       double value);  // not an overload of bind: an int would be ambiguous
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, std::span<const unsigned char> blob);
  Statement& bind_null(int index);
  template <typename T>
  Statement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind_null(index);
  }
  // Steps once; true while a row is available.
  bool step();
  // Runs a statement that returns no rows, then resets it.
  void run();
  void reset();

  std::int64_t column_int(int index) const;
  double column_double(int index) const;
  std::string column_text(int index) const;
  std::vector<unsigned char> column_blob(int index) const;
  bool column_is_null(int index) const;
  std::optional<std::int64_t> column_optional_int(int index) const;
  std::optional<std::string> column_optional_text(int index) const;
  // Rows changed by the last INSERT, UPDATE or DELETE on this connection.
  int changes() const;
  std::int64_t last_insert_rowid() const;
  sqlite3_stmt* handle() const noexcept { return stmt_; }  // for reading columns by their type

 private:
  Database& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT; rolls back unless commit() was called.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Database& db_;
  bool done_ = false;
};

}  // namespace tengen::store
