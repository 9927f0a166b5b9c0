#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "store/unreachable.h"

// A thin RAII layer over libpq, as store/sqlite.h is over SQLite: one connection, statements with
// parameters, results read by row and column. Only the store's PostgreSQL files include it.
//
// A connection survives the database's restarts (docs/operations.md): one found broken before a
// statement is sent — PostgreSQL restarted, or ended it — is made again first, so the statement
// runs as if nothing happened; one that breaks while a statement is under way throws
// store::Unreachable (what it did is then unknown: the caller reads back before repeating a
// write), and the next call connects again. While the database cannot be reached, calls throw
// store::Unreachable at once, and a new connection is tried at most every few hundred
// milliseconds. libpq's notices go to the log, with time and level.
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
  int columns() const;
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
  struct Options {
    // Names the connection in pg_stat_activity, on every connection made (store::HubLock tells
    // a live node's session by it).
    std::string application_name;
  };

  // A libpq connection string or URI ("postgres://user@host/db", "host=/tmp dbname=x"); throws
  // store::Unreachable if it cannot connect. Unless the string says otherwise, connecting gives
  // up after 5 s, and TCP keepalives find a dead peer within about 15 s.
  explicit Connection(const std::string& conninfo) : Connection(conninfo, Options{}) {}
  Connection(const std::string& conninfo, Options options);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Statements without parameters or results (several, separated by semicolons).
  void exec(std::string_view sql);
  // One statement with $1, $2, ... parameters.
  Result query(const std::string& sql, std::initializer_list<Param> params = {});
  Result query(const std::string& sql, const std::vector<Param>& params);
  // A statement that may be run twice with the same effect (a read, a renewal): if the connection
  // breaks under it, it is run once more on a new connection.
  Result query_idempotent(const std::string& sql, std::initializer_list<Param> params = {});

  // Statements that change rows, all in one transaction sent in one go (libpq's pipeline mode:
  // no round trip per statement). Either all are committed or, if one fails, none (throws Error).
  struct Statement {
    std::string sql;
    std::vector<Param> params;
  };
  void transaction(const std::vector<Statement>& statements);

  // Whether the connection is up, as far as can be told without a round trip: a connection the
  // server has closed (a restart, pg_terminate_backend) is found out here. Never throws.
  bool alive();
  // Connects again now if the connection is not alive (throws store::Unreachable if it cannot).
  // True when a new connection was made.
  bool reconnect_if_broken();
  // How many times this connection was made (1 after the constructor).
  std::uint64_t connects() const noexcept { return connects_; }

  // Connections made again after a loss, by every Connection of this process (for /metrics).
  static std::uint64_t reconnects_total();
  // After a failed attempt to connect, the wait before the next: `first`, doubling up to `most`
  // (50 and 500 ms). For every Connection of the process; tests set 0 to try at every call.
  static void set_reconnect_backoff(std::chrono::milliseconds first,
                                    std::chrono::milliseconds most);

 private:
  void connect();  // throws store::Unreachable
  void ensure();   // before sending: a broken connection is made again
  [[noreturn]] void lost(std::string_view what);  // drops the connection; throws Unreachable
  void settled();  // after a statement: whether it left a transaction open

  bool in_transaction_ = false;
  std::string conninfo_;
  Options options_;
  PGconn* conn_ = nullptr;
  std::uint64_t connects_ = 0;
  // After a failed attempt to connect, the next is not made before this; the wait doubles (see
  // set_reconnect_backoff) and starts afresh once connected.
  std::chrono::steady_clock::time_point next_attempt_{};
  std::chrono::milliseconds backoff_{0};
};

// Waits until the PostgreSQL server named by `conninfo` accepts connections (it may be starting,
// recovering, or restarting), for at most `patience`; `waiting` is told each few seconds. True
// when it answers; false when it did not within `patience`. A server that answers but refuses
// this client (a wrong password) is "answering": connecting then says why.
bool wait_until_answering(const std::string& conninfo, std::chrono::milliseconds patience,
                          const std::function<void(const std::string& why)>& waiting);

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
