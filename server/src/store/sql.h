#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

// One connection interface for both databases (docs/persistence.md, "One set of statements"): a
// store written against it has its SQL once, with `?` placeholders, and runs on SQLite
// (sqlite_connection) or PostgreSQL (postgres_connection, where `?` becomes `$n`). Both accept the
// same dialect for what the stores here need: INSERT ... ON CONFLICT, RETURNING, lower(). A
// statement that cannot be written once asks dialect() which to run.
namespace tengen::store {
class Database;
}

namespace tengen::store::sql {

// Bytes (a BLOB in SQLite, a bytea in PostgreSQL), as a parameter only: no store reads bytes back.
struct Blob {
  std::vector<unsigned char> bytes;
};

using Value = std::variant<std::monostate, std::int64_t, double, std::string, Blob>;

// A parameter from what the stores hold: NULL for an empty optional, 1 or 0 for a boolean (both
// databases take those for a BOOLEAN column: PostgreSQL reads '1' and '0' as true and false).
inline Value value(bool b) {
  return std::int64_t{b ? 1 : 0};
}
// (Exact overloads, so that no number or text ever reaches value(bool) by conversion.)
inline Value value(std::int64_t n) {
  return n;
}
inline Value value(int n) {
  return std::int64_t{n};
}
// Exactly: PostgreSQL is sent the shortest text that reads back as the same double.
inline Value value(double d) {
  return d;
}
inline Value value(const std::string& s) {
  return s;
}
inline Value value(std::span<const unsigned char> bytes) {
  return Blob{{bytes.begin(), bytes.end()}};
}
template <typename T>
Value value(const std::optional<T>& v) {
  if (!v) return std::monostate{};
  return value(*v);
}

// What a statement gave back: its rows (every value as the database gave it) and how many rows
// it changed.
class Rows {
 public:
  std::vector<std::vector<Value>> rows;
  std::int64_t changed = 0;

  std::size_t size() const { return rows.size(); }
  bool empty() const { return rows.empty(); }
  bool is_null(std::size_t row, std::size_t column) const;
  std::int64_t integer(std::size_t row, std::size_t column) const;  // 0 for NULL
  bool boolean(std::size_t row, std::size_t column) const { return integer(row, column) != 0; }
  double real(std::size_t row, std::size_t column) const;       // 0 for NULL
  std::string text(std::size_t row, std::size_t column) const;  // "" for NULL
  std::optional<std::int64_t> optional_integer(std::size_t row, std::size_t column) const;
  std::optional<std::string> optional_text(std::size_t row, std::size_t column) const;
  // The text of a column, moved out of these rows (which then hold "" there): for the long texts
  // a store reads many of (a game's events at recovery).
  std::string take_text(std::size_t row, std::size_t column);
};

// A statement that changes rows and its parameters, for batch(). The text is a store's constant,
// not copied.
struct Change {
  std::string_view sql;
  std::vector<Value> params;
};

enum class Dialect { Sqlite, Postgres };

class Connection {
 public:
  virtual ~Connection() = default;
  virtual Dialect dialect() const = 0;
  // Runs one statement with `?` placeholders bound in order.
  virtual Rows run(std::string_view sql, const std::vector<Value>& params = {}) = 0;
  // Runs `work` as one transaction: committed when it returns, rolled back when it throws. Only
  // this connection's run() calls may happen inside.
  virtual void transaction(const std::function<void()>& work) = 0;
  // Statements that change rows, all in one transaction: committed when it returns, none of them
  // when it throws. Sent in one go where the database can (PostgreSQL's pipeline mode: one round
  // trip for the whole batch, not one per statement); what the journal's group commit is.
  virtual void batch(std::span<const Change> statements) = 0;

  // The few words the two dialects spell differently, to be put into a statement's text:
  // claiming a row that another node's connection may be claiming at the same moment
  // (PostgreSQL's row lock, skipping rows others hold; nothing on SQLite, whose writers take
  // turns on the whole file).
  const char* skip_locked() const {
    return dialect() == Dialect::Postgres ? " FOR UPDATE SKIP LOCKED" : "";
  }
  // `column = ?` without regard to case, as each database answers it from its index: SQLite's
  // names are declared COLLATE NOCASE, PostgreSQL's have a unique index on lower(name).
  std::string equals_without_case(std::string_view column) const {
    const std::string c(column);
    return dialect() == Dialect::Sqlite ? c + " = ?" : "lower(" + c + ") = lower(?)";
  }
};

// A statement broke one of the table's constraints (a UNIQUE key, a foreign key, a CHECK): what
// a store turns into "taken" or "no such row". Any other failure is another exception.
class ConstraintViolation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A connection to a SQLite file (migrated already); write transactions begin IMMEDIATE.
std::unique_ptr<Connection> sqlite_connection(const std::string& path);
// A connection over one already open (migrated), which must outlive it and which nobody else
// uses meanwhile (a test's file, a tool's one connection).
std::unique_ptr<Connection> sqlite_connection(Database& borrowed);
// `?` numbered as `$1`, `$2`, ... (no `?` may appear inside a literal).
std::string numbered_placeholders(std::string_view sql);

}  // namespace tengen::store::sql
