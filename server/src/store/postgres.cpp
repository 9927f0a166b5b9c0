#include "store/postgres.h"

#include <libpq-fe.h>
#include <poll.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <charconv>
#include <cstdlib>
#include <thread>

namespace tengen::store::pg {
namespace {

std::atomic<std::uint64_t> reconnects{0};

std::atomic<std::int64_t> first_backoff_ms{50};
std::atomic<std::int64_t> max_backoff_ms{500};

// What every connection is made with unless its connection string says otherwise (libpq's
// keywords; the string, expanded in dbname's place, overrides what comes before it): give up
// connecting after 5 s, and find a peer that vanished (a machine gone, a cable cut) by TCP
// keepalives within about 15 s instead of the kernel's two hours.
struct Keywords {
  Keywords(const std::string& conninfo, const std::string& application_name) {
    add("connect_timeout", "5");
    add("keepalives", "1");
    add("keepalives_idle", "5");
    add("keepalives_interval", "3");
    add("keepalives_count", "3");
    add("dbname", conninfo.c_str());
    if (!application_name.empty()) add("application_name", application_name.c_str());
    keys.push_back(nullptr);
    values.push_back(nullptr);
  }
  void add(const char* key, const char* value) {
    keys.push_back(key);
    values.push_back(value);
  }
  std::vector<const char*> keys;
  std::vector<const char*> values;
};

// A failure of the connection itself, or the server ending it (a restart, a shutdown,
// pg_terminate_backend), rather than of the statement: SQLSTATE class 08 or 57P0x.
bool ends_connection(const std::string& sqlstate) {
  return sqlstate.starts_with("08") || sqlstate.starts_with("57P");
}

std::string sqlstate_of(const PGresult* r) {
  const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  return state ? state : "";
}

// Parameters as libpq takes them: values, lengths, and formats (0 text, 1 binary).
struct Bound {
  explicit Bound(const std::vector<Param>& params) {
    for (const auto& p : params) {
      values.push_back(p.value() ? p.value()->data() : nullptr);
      lengths.push_back(p.value() ? static_cast<int>(p.value()->size()) : 0);
      formats.push_back(p.binary() ? 1 : 0);
    }
  }
  int count() const { return static_cast<int>(values.size()); }
  std::vector<const char*> values;
  std::vector<int> lengths;
  std::vector<int> formats;
};

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// Throws for a result that is not a success (store::Unreachable when the connection failed:
// `lost` is called); else hands it over.
template <class Lost>
Result checked(PGconn* conn, PGresult* r, std::string_view what, Lost&& lost) {
  const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return Result(r);
  std::string message = trimmed(r ? PQresultErrorMessage(r) : PQerrorMessage(conn));
  std::string state = sqlstate_of(r);
  PQclear(r);
  if (PQstatus(conn) != CONNECTION_OK || ends_connection(state))
    lost(std::string(what.substr(0, 80)) + ": " + message);
  throw Error(std::string(what.substr(0, 80)) + ": " + message, std::move(state));
}

// libpq's notices and warnings (a server shutting down says so on every idle connection) go to
// the log with time and level, not raw to stderr.
void log_notice(void*, const PGresult* r) {
  const char* severity = PQresultErrorField(r, PG_DIAG_SEVERITY_NONLOCALIZED);
  const std::string_view level = severity ? severity : "NOTICE";
  const std::string text = trimmed(PQresultErrorMessage(r));
  const bool chatter =
      level == "NOTICE" || level == "INFO" || level == "LOG" || level.starts_with("DEBUG");
  if (chatter) {
    spdlog::debug("PostgreSQL: {}", text);
  } else {  // WARNING, and the ERROR or FATAL a server sends an idle connection it ends
    spdlog::warn("PostgreSQL: {}", text);
  }
}

}  // namespace

Param::Param(double d) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
  value_ = std::string(buffer, end);
}

Result::~Result() {
  if (result_) PQclear(result_);
}

int Result::rows() const {
  return PQntuples(result_);
}

int Result::columns() const {
  return result_ ? PQnfields(result_) : 0;
}

std::int64_t Result::affected() const {
  const char* n = PQcmdTuples(result_);
  return n && *n ? std::strtoll(n, nullptr, 10) : 0;
}

bool Result::is_null(int row, int column) const {
  return PQgetisnull(result_, row, column) != 0;
}

std::string Result::text(int row, int column) const {
  return std::string(PQgetvalue(result_, row, column),
                     static_cast<std::size_t>(PQgetlength(result_, row, column)));
}

std::int64_t Result::int64(int row, int column) const {
  return std::strtoll(PQgetvalue(result_, row, column), nullptr, 10);
}

double Result::real(int row, int column) const {
  return std::strtod(PQgetvalue(result_, row, column), nullptr);
}

bool Result::boolean(int row, int column) const {
  return PQgetvalue(result_, row, column)[0] == 't';
}

std::optional<std::int64_t> Result::optional_int64(int row, int column) const {
  if (is_null(row, column)) return std::nullopt;
  return int64(row, column);
}

std::optional<std::string> Result::optional_text(int row, int column) const {
  if (is_null(row, column)) return std::nullopt;
  return text(row, column);
}

Connection::Connection(const std::string& conninfo, Options options)
    : conninfo_(conninfo), options_(std::move(options)) {
  connect();
}

Connection::~Connection() {
  if (conn_) PQfinish(conn_);
}

void Connection::set_reconnect_backoff(std::chrono::milliseconds first,
                                       std::chrono::milliseconds most) {
  first_backoff_ms = first.count();
  max_backoff_ms = most.count();
}

std::uint64_t Connection::reconnects_total() {
  return reconnects.load();
}

void Connection::connect() {
  if (conn_) {
    PQfinish(conn_);
    conn_ = nullptr;
  }
  const Keywords k(conninfo_, options_.application_name);
  PGconn* made = PQconnectdbParams(k.keys.data(), k.values.data(), /*expand_dbname=*/1);
  std::string failure;
  if (PQstatus(made) != CONNECTION_OK) {
    failure = trimmed(PQerrorMessage(made));
  } else {
    PQsetNoticeReceiver(made, log_notice, nullptr);
    // No NOTICE chatter.
    PGresult* r = PQexec(made, "SET client_min_messages = warning");
    if (PQresultStatus(r) != PGRES_COMMAND_OK) failure = trimmed(PQerrorMessage(made));
    PQclear(r);
  }
  if (!failure.empty()) {
    PQfinish(made);
    const std::chrono::milliseconds first(first_backoff_ms.load()), most(max_backoff_ms.load());
    backoff_ = std::min(most, backoff_ == backoff_.zero() ? first : backoff_ * 2);
    next_attempt_ = std::chrono::steady_clock::now() + backoff_;
    throw Unreachable("cannot connect to PostgreSQL: " + failure);
  }
  conn_ = made;
  backoff_ = backoff_.zero();
  if (++connects_ > 1) {
    ++reconnects;
    spdlog::info("connected to PostgreSQL again{}",
                 options_.application_name.empty() ? "" : " (" + options_.application_name + ")");
  }
}

bool Connection::alive() {
  if (!conn_ || PQstatus(conn_) != CONNECTION_OK) return false;
  // Something to read on an idle connection: usually the server's goodbye (57P01), then the end
  // of the stream, each read by one PQconsumeInput. Read while there is something, a few times
  // at most, so that libpq notices the connection is gone.
  if (PQtransactionStatus(conn_) == PQTRANS_ACTIVE) return true;
  for (int reads = 0; reads < 4; ++reads) {
    pollfd p{PQsocket(conn_), POLLIN, 0};
    if (poll(&p, 1, 0) != 1) break;
    if (PQconsumeInput(conn_) != 1) break;  // the end: the connection is bad now
    PQisBusy(conn_);                        // parses what came (a notice goes to the log)
  }
  return PQstatus(conn_) == CONNECTION_OK;
}

bool Connection::reconnect_if_broken() {
  if (alive()) return false;
  if (std::chrono::steady_clock::now() < next_attempt_)
    throw Unreachable("PostgreSQL cannot be reached (trying again shortly)");
  connect();
  return true;
}

void Connection::ensure() {
  if (alive()) return;
  // A connection that broke inside a transaction is not made again under it: what the
  // transaction did before is gone, and the caller must know.
  if (in_transaction_) {
    in_transaction_ = false;
    lost("the connection broke inside a transaction");
  }
  reconnect_if_broken();
}

void Connection::settled() {
  const auto state = PQtransactionStatus(conn_);
  in_transaction_ = state == PQTRANS_INTRANS || state == PQTRANS_INERROR;
}

void Connection::lost(std::string_view what) {
  in_transaction_ = false;
  if (conn_) {
    PQfinish(conn_);
    conn_ = nullptr;
  }
  throw Unreachable("PostgreSQL connection lost: " + std::string(what));
}

void Connection::exec(std::string_view sql) {
  ensure();
  const std::string text(sql);
  PGresult* r = PQexec(conn_, text.c_str());
  settled();
  checked(conn_, r, sql, [this](std::string_view w) { lost(w); });
}

Result Connection::query(const std::string& sql, std::initializer_list<Param> params) {
  return query(sql, std::vector<Param>(params));
}

Result Connection::query(const std::string& sql, const std::vector<Param>& params) {
  ensure();
  const Bound b(params);
  PGresult* r = PQexecParams(conn_, sql.c_str(), b.count(), nullptr, b.values.data(),
                             b.lengths.data(), b.formats.data(), 0);
  settled();
  return checked(conn_, r, sql, [this](std::string_view w) { lost(w); });
}

Result Connection::query_idempotent(const std::string& sql, std::initializer_list<Param> params) {
  const std::vector<Param> bound(params);
  try {
    return query(sql, bound);
  } catch (const Unreachable&) {
    return query(sql, bound);  // connects again first
  }
}

void Connection::transaction(const std::vector<Statement>& statements) {
  ensure();
  if (PQenterPipelineMode(conn_) != 1) lost("cannot enter pipeline mode");
  std::optional<Error> failure;
  // What each query sent since the last sync was, for the error message.
  std::vector<const std::string*> sent;
  const std::string begin = "BEGIN", commit = "COMMIT";
  const std::vector<Param> none;
  auto send = [&](const std::string& sql, const std::vector<Param>& params) {
    const Bound b(params);
    sent.push_back(&sql);
    if (PQsendQueryParams(conn_, sql.c_str(), b.count(), nullptr, b.values.data(), b.lengths.data(),
                          b.formats.data(), 0) != 1 &&
        !failure) {
      failure.emplace("cannot send '" + sql.substr(0, 80) + "': " + trimmed(PQerrorMessage(conn_)),
                      "");
    }
  };
  // A sync, then every result up to it. The first failure makes the server skip the rest up to
  // the sync (PGRES_PIPELINE_ABORTED), and later statements fail as the transaction is aborted:
  // only the first failure is kept. Syncing every few hundred statements keeps both sides'
  // buffers small (a blocking connection that only sent could wait for ever on a server that
  // waits for its results to be read); the explicit transaction spans the syncs.
  auto sync = [&] {
    if (PQpipelineSync(conn_) != 1 && !failure) failure.emplace("cannot sync the pipeline", "");
    std::size_t index = 0;
    while (true) {
      PGresult* r = PQgetResult(conn_);
      if (!r) {  // the end of one query's results, or of all of them on a broken connection
        if (PQstatus(conn_) != CONNECTION_OK) break;
        ++index;
        continue;
      }
      const auto status = PQresultStatus(r);
      if (status == PGRES_PIPELINE_SYNC) {
        PQclear(r);
        break;
      }
      if (status == PGRES_FATAL_ERROR && !failure) {
        const std::string what = index < sent.size() ? *sent[index] : std::string("?");
        failure.emplace(what.substr(0, 80) + ": " + trimmed(PQresultErrorMessage(r)),
                        sqlstate_of(r));
      }
      PQclear(r);
    }
    sent.clear();
  };
  constexpr std::size_t kPerSync = 256;
  send(begin, none);
  for (std::size_t i = 0; i < statements.size(); ++i) {
    send(statements[i].sql, statements[i].params);
    if ((i + 1) % kPerSync == 0) sync();
  }
  send(commit, none);
  sync();
  // Broken while the transaction was under way: whether COMMIT was done is unknown.
  if (PQstatus(conn_) != CONNECTION_OK) lost("the transaction's outcome is unknown");
  PQexitPipelineMode(conn_);
  if (failure && ends_connection(failure->sqlstate())) lost(failure->what());
  if (failure) {
    // After a failure COMMIT only rolls back, or was skipped with the transaction left open.
    PQclear(PQexec(conn_, "ROLLBACK"));
    throw *failure;
  }
}

Transaction::~Transaction() {
  if (done_ || !c_.alive()) return;  // a broken connection's server rolled back by itself
  try {
    c_.exec("ROLLBACK");
  } catch (const std::exception&) {  // the connection is gone: the server rolls back by itself
  }
}

bool wait_until_answering(const std::string& conninfo, std::chrono::milliseconds patience,
                          const std::function<void(const std::string& why)>& waiting) {
  const auto start = std::chrono::steady_clock::now();
  auto told = start;
  auto pause = std::chrono::milliseconds(std::max<std::int64_t>(first_backoff_ms.load(), 1));
  for (;;) {
    const Keywords k(conninfo, "");
    switch (PQpingParams(k.keys.data(), k.values.data(), 1)) {
      case PQPING_OK:
      case PQPING_NO_ATTEMPT:  // the string is wrong: connecting says how
        return true;
      case PQPING_REJECT:
      case PQPING_NO_RESPONSE:
        break;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now - start >= patience) return false;
    if (waiting && now - told >= std::chrono::seconds(2)) {
      told = now;
      waiting("PostgreSQL does not accept connections yet (starting, recovering, or stopped)");
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(std::chrono::milliseconds(std::max<std::int64_t>(max_backoff_ms.load(), 1)),
                     pause * 2);
  }
}

}  // namespace tengen::store::pg
