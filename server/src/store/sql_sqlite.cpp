#include <sqlite3.h>

#include <charconv>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>

#include "store/sql.h"
#include "store/sqlite.h"

namespace tengen::store::sql {

bool Rows::is_null(std::size_t row, std::size_t column) const {
  return std::holds_alternative<std::monostate>(rows.at(row).at(column));
}

std::int64_t Rows::integer(std::size_t row, std::size_t column) const {
  const auto& v = rows.at(row).at(column);
  if (const auto* n = std::get_if<std::int64_t>(&v)) return *n;
  if (const auto* d = std::get_if<double>(&v)) return static_cast<std::int64_t>(*d);
  if (const auto* s = std::get_if<std::string>(&v)) {
    if (*s == "t") return 1;  // PostgreSQL's booleans, as text
    if (*s == "f") return 0;
    return std::stoll(*s);
  }
  return 0;
}

double Rows::real(std::size_t row, std::size_t column) const {
  const auto& v = rows.at(row).at(column);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* n = std::get_if<std::int64_t>(&v)) return static_cast<double>(*n);
  // PostgreSQL's text: its shortest exact form (extra_float_digits 1, the default), read back
  // exactly.
  if (const auto* s = std::get_if<std::string>(&v)) return std::stod(*s);
  return 0;
}

std::string Rows::text(std::size_t row, std::size_t column) const {
  const auto& v = rows.at(row).at(column);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* n = std::get_if<std::int64_t>(&v)) return std::to_string(*n);
  if (const auto* d = std::get_if<double>(&v)) {
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, *d).ptr;
    return std::string(buffer, end);
  }
  return "";
}

std::optional<std::string> Rows::optional_text(std::size_t row, std::size_t column) const {
  if (is_null(row, column)) return std::nullopt;
  return text(row, column);
}

std::string Rows::take_text(std::size_t row, std::size_t column) {
  auto& v = rows.at(row).at(column);
  if (auto* s = std::get_if<std::string>(&v)) return std::move(*s);
  return text(row, column);
}

std::optional<std::int64_t> Rows::optional_integer(std::size_t row, std::size_t column) const {
  if (is_null(row, column)) return std::nullopt;
  return integer(row, column);
}

std::string numbered_placeholders(std::string_view sql) {
  std::string out;
  out.reserve(sql.size() + 16);
  int n = 0;
  for (const char c : sql) {
    if (c == '?') {
      out += '$';
      out += std::to_string(++n);
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

class SqliteConnection final : public Connection {
 public:
  explicit SqliteConnection(const std::string& path)
      : own_(std::make_unique<Database>(path)), db_(*own_) {}
  explicit SqliteConnection(Database& borrowed) : db_(borrowed) {}
  Dialect dialect() const override { return Dialect::Sqlite; }

  Rows run(std::string_view sql, const std::vector<Value>& params) override {
    // Each text is prepared once and kept: a store has a few dozen statements, run again and
    // again (a session looked up on every request).
    auto found = prepared_.find(sql);
    if (found == prepared_.end())
      found = prepared_.emplace(std::string(sql), std::make_unique<Statement>(db_, sql)).first;
    Statement& q = *found->second;
    struct Reset {
      Statement& q;
      ~Reset() { q.reset(); }
    } reset{q};
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int at = static_cast<int>(i) + 1;
      if (const auto* n = std::get_if<std::int64_t>(&params[i]))
        q.bind(at, *n);
      else if (const auto* d = std::get_if<double>(&params[i]))
        q.bind_real(at, *d);
      else if (const auto* s = std::get_if<std::string>(&params[i]))
        q.bind(at, std::string_view(*s));
      else if (const auto* b = std::get_if<Blob>(&params[i]))
        q.bind(at, std::span<const unsigned char>(b->bytes));
      else
        q.bind_null(at);
    }
    Rows out;
    try {
      while (q.step()) {
        auto* raw = q.handle();
        const int columns = sqlite3_column_count(raw);
        std::vector<Value> row;
        row.reserve(static_cast<std::size_t>(columns));
        for (int c = 0; c < columns; ++c) {
          switch (sqlite3_column_type(raw, c)) {
            case SQLITE_NULL:
              row.emplace_back(std::monostate{});
              break;
            case SQLITE_INTEGER:
              row.emplace_back(static_cast<std::int64_t>(sqlite3_column_int64(raw, c)));
              break;
            case SQLITE_FLOAT:
              row.emplace_back(sqlite3_column_double(raw, c));
              break;
            default:
              row.emplace_back(q.column_text(c));
          }
        }
        out.rows.push_back(std::move(row));
      }
    } catch (const SqliteError& e) {
      if ((e.code() & 0xff) == SQLITE_CONSTRAINT) throw ConstraintViolation(e.what());
      throw;
    }
    out.changed = q.changes();
    return out;
  }

  void transaction(const std::function<void()>& work) override {
    Transaction t(db_);
    work();
    t.commit();
  }

  // One writer at a time on the file, no round trips: the statements run one after another.
  void batch(std::span<const Change> statements) override {
    Transaction t(db_);
    for (const auto& s : statements) run(s.sql, s.params);
    t.commit();
  }

 private:
  std::unique_ptr<Database> own_;  // before the statements, which go first
  Database& db_;
  std::map<std::string, std::unique_ptr<Statement>, std::less<>> prepared_;
};

}  // namespace

std::unique_ptr<Connection> sqlite_connection(const std::string& path) {
  return std::make_unique<SqliteConnection>(path);
}

std::unique_ptr<Connection> sqlite_connection(Database& borrowed) {
  return std::make_unique<SqliteConnection>(borrowed);
}

}  // namespace tengen::store::sql
