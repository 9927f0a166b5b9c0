#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// A thin RAII layer over libpq, as store/sqlite.h is over SQLite: one connection, statements with
// parameters, results read by row and column. Only the store's PostgreSQL files include it.
typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

namespace tengen::store::pg {

// A failure PostgreSQL reported, with its SQLSTATE ("23505" unique_violation, ...), or "" for a
// failure of the connection itself.
class Error : public std::runtime_error {
 public:
  Error(const std::string& what, std::string sqlstate)
      : std::runtime_error(what), sqlstate_(std::move(sqlstate)) {}
  const std::string& sqlstate() const noexcept { return sqlstate_; }
  bool unique_violation() const noexcept { return sqlstate_ == "23505"; }

 private:
  std::string sqlstate_;
};

// A statement's parameter: text (PostgreSQL converts it to the column's type), bytes (bytea,
// sent as binary), or NULL.
class Param {
 public:
  // Implicit on purpose: a statement's parameters are written as a list of plain values.
  Param(std::nullopt_t) {}  // NULL
  Param(std::string_view text) : value_(text) {}
  Param(const std::string& text) : value_(text) {}
  Param(const char* text) : value_(text) {}
  Param(std::int64_t n) : value_(std::to_string(n)) {}
  Param(int n) : value_(std::to_string(n)) {}
  Param(bool b) : value_(b ? "t" : "f") {}
  Param(double d);  // exactly: the shortest form that reads back to the same double
  template <class T>
  Param(const std::optional<T>& value) {
    if (value) *this = Param(*value);
  }
  static Param bytes(std::span<const unsigned char> data) {
    Param p;
    p.value_ = std::string(reinterpret_cast<const char*>(data.data()), data.size());
    p.binary_ = true;
    return p;
  }

  const std::optional<std::string>& value() const noexcept { return value_; }
  bool binary() const noexcept { return binary_; }

 private:
  Param() = default;
  std::optional<std::string> value_;
  bool binary_ = false;
};

// A query's rows, in text form.
class Result {
 public:
  explicit Result(PGresult* result) : result_(result) {}
  ~Result();
  Result(Result&& other) noexcept : result_(other.result_) { other.result_ = nullptr; }
  Result& operator=(Result&&) = delete;
  Result(const Result&) = delete;

  int rows() const;
  std::int64_t affected() const;  // rows an INSERT, UPDATE or DELETE touched
  bool is_null(int row, int column) const;
  std::string text(int row, int column) const;
  std::int64_t int64(int row, int column) const;
  double real(int row, int column) const;
  bool boolean(int row, int column) const;
  std::optional<std::int64_t> optional_int64(int row, int column) const;
  std::optional<std::string> optional_text(int row, int column) const;

 private:
  PGresult* result_;
};

class Connection {
 public:
  // A libpq connection string or URI ("postgres://user@host/db", "host=/tmp dbname=x"); throws
  // Error if it cannot connect.
  explicit Connection(const std::string& conninfo);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Statements without parameters or results (several, separated by semicolons).
  void exec(std::string_view sql);
  // One statement with $1, $2, ... parameters.
  Result query(const std::string& sql, std::initializer_list<Param> params = {});
  Result query(const std::string& sql, const std::vector<Param>& params);

  // Statements that change rows, all in one transaction sent in one go (libpq's pipeline mode:
  // no round trip per statement). Either all are committed or, if one fails, none (throws Error).
  struct Statement {
    std::string sql;
    std::vector<Param> params;
  };
  void transaction(const std::vector<Statement>& statements);

 private:
  PGconn* conn_;
};

// BEGIN ... COMMIT, rolled back if destroyed uncommitted.
class Transaction {
 public:
  explicit Transaction(Connection& c) : c_(c) { c_.exec("BEGIN"); }
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    c_.exec("COMMIT");
    done_ = true;
  }

 private:
  Connection& c_;
  bool done_ = false;
};

}  // namespace tengen::store::pg
