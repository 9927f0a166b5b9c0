#include "store/sql_postgres.h"

#include <memory>

#include "store/postgres.h"

namespace tengen::store::sql {
namespace {

std::vector<pg::Param> bound(const std::vector<Value>& params) {
  std::vector<pg::Param> out;
  out.reserve(params.size());
  for (const auto& p : params) {
    if (const auto* n = std::get_if<std::int64_t>(&p))
      out.emplace_back(*n);
    else if (const auto* d = std::get_if<double>(&p))
      out.emplace_back(*d);
    else if (const auto* s = std::get_if<std::string>(&p))
      out.emplace_back(*s);
    else if (const auto* b = std::get_if<Blob>(&p))
      out.push_back(pg::Param::bytes(b->bytes));
    else
      out.emplace_back(std::nullopt);
  }
  return out;
}

// What `send` returns; a broken constraint (SQLSTATE class 23: unique, foreign key, check, not
// null) as ConstraintViolation.
template <typename F>
auto constraints_named(F&& send) {
  try {
    return send();
  } catch (const pg::Error& e) {
    if (e.sqlstate().starts_with("23")) throw ConstraintViolation(e.what());
    throw;
  }
}

class PostgresConnection final : public Connection {
 public:
  explicit PostgresConnection(const std::string& conninfo)
      : own_(std::make_unique<pg::Connection>(conninfo)), db_(*own_) {}
  explicit PostgresConnection(pg::Connection& borrowed) : db_(borrowed) {}
  Dialect dialect() const override { return Dialect::Postgres; }

  Rows run(std::string_view sql, const std::vector<Value>& params) override {
    // Outside a transaction a statement that only reads may be sent again after a reconnect.
    const auto text = numbered_placeholders(sql);
    const auto r = constraints_named([&] { return db_.query(text, bound(params)); });
    Rows out;
    out.changed = r.affected();
    for (int row = 0; row < r.rows(); ++row) {
      std::vector<Value> values;
      for (int c = 0; c < r.columns(); ++c) {
        if (r.is_null(row, c))
          values.emplace_back(std::monostate{});
        else
          values.emplace_back(r.text(row, c));
      }
      out.rows.push_back(std::move(values));
    }
    return out;
  }

  void transaction(const std::function<void()>& work) override {
    pg::Transaction t(db_);
    work();
    t.commit();
  }

  void batch(std::span<const Change> statements) override {
    std::vector<pg::Connection::Statement> sent;
    sent.reserve(statements.size());
    for (const auto& s : statements)
      sent.push_back({numbered_placeholders(s.sql), bound(s.params)});
    constraints_named([&] {
      db_.transaction(sent);
      return 0;
    });
  }

 private:
  std::unique_ptr<pg::Connection> own_;
  pg::Connection& db_;
};

}  // namespace

std::unique_ptr<Connection> postgres_connection(const std::string& conninfo) {
  return std::make_unique<PostgresConnection>(conninfo);
}

std::unique_ptr<Connection> postgres_connection(pg::Connection& borrowed) {
  return std::make_unique<PostgresConnection>(borrowed);
}

}  // namespace tengen::store::sql
