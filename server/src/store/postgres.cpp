#include "store/postgres.h"

#include <libpq-fe.h>

#include <charconv>
#include <cstdlib>

namespace tengen::store::pg {
namespace {

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

// Throws for a result that is not a success; else hands it over.
Result checked(PGconn* conn, PGresult* r, std::string_view what) {
  const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return Result(r);
  std::string message = trimmed(r ? PQresultErrorMessage(r) : PQerrorMessage(conn));
  std::string state = sqlstate_of(r);
  PQclear(r);
  throw Error(std::string(what.substr(0, 80)) + ": " + message, std::move(state));
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

Connection::Connection(const std::string& conninfo) : conn_(PQconnectdb(conninfo.c_str())) {
  if (PQstatus(conn_) != CONNECTION_OK) {
    std::string message = trimmed(PQerrorMessage(conn_));
    PQfinish(conn_);
    throw Error("cannot connect to PostgreSQL: " + message, "");
  }
  // Errors and notices in English whatever the server's locale, and no NOTICE chatter.
  exec("SET client_min_messages = warning");
}

Connection::~Connection() {
  PQfinish(conn_);
}

void Connection::exec(std::string_view sql) {
  const std::string text(sql);
  checked(conn_, PQexec(conn_, text.c_str()), sql);
}

Result Connection::query(const std::string& sql, std::initializer_list<Param> params) {
  return query(sql, std::vector<Param>(params));
}

Result Connection::query(const std::string& sql, const std::vector<Param>& params) {
  const Bound b(params);
  return checked(conn_,
                 PQexecParams(conn_, sql.c_str(), b.count(), nullptr, b.values.data(),
                              b.lengths.data(), b.formats.data(), 0),
                 sql);
}

void Connection::transaction(const std::vector<Statement>& statements) {
  if (PQenterPipelineMode(conn_) != 1) throw Error("cannot enter pipeline mode", "");
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
      if (!r) {  // the end of one query's results
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
  PQexitPipelineMode(conn_);
  if (failure) {
    // After a failure COMMIT only rolls back, or was skipped with the transaction left open.
    PQclear(PQexec(conn_, "ROLLBACK"));
    throw *failure;
  }
}

Transaction::~Transaction() {
  if (done_) return;
  try {
    c_.exec("ROLLBACK");
  } catch (const Error&) {  // the connection is gone: the server rolls back by itself
  }
}

}  // namespace tengen::store::pg
