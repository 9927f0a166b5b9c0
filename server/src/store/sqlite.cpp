#include "store/sqlite.h"

#include <sqlite3.h>

namespace tengen::store {
namespace {

constexpr int kBusyTimeoutMs = 5000;

}  // namespace

Database::Database(const std::string& path) {
  const int rc =
      sqlite3_open_v2(path.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw SqliteError(rc, "cannot open database " + path + ": " + message);
  }
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  exec("PRAGMA journal_mode=WAL");
  exec("PRAGMA synchronous=FULL");
  exec("PRAGMA foreign_keys=ON");
}

Database::~Database() {
  sqlite3_close_v2(db_);
}

void Database::fail(int code, std::string_view context) const {
  throw SqliteError(code, std::string(context) + ": " + sqlite3_errmsg(db_));
}

void Database::exec(std::string_view sql) {
  char* error = nullptr;
  const std::string text(sql);
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  if (rc != SQLITE_OK) {
    const std::string message = error ? error : sqlite3_errstr(rc);
    sqlite3_free(error);
    throw SqliteError(rc, message);
  }
}

void Database::backup_into(const std::string& path) {
  Database target(path);
  sqlite3_backup* copy = sqlite3_backup_init(target.db_, "main", db_, "main");
  if (!copy) target.fail(sqlite3_errcode(target.db_), "backup");
  // A few hundred pages a step; a write by another connection in between restarts the copy.
  int rc = SQLITE_OK;
  while ((rc = sqlite3_backup_step(copy, 256)) == SQLITE_OK || rc == SQLITE_BUSY ||
         rc == SQLITE_LOCKED) {
    if (rc != SQLITE_OK) sqlite3_sleep(20);
  }
  sqlite3_backup_finish(copy);
  if (rc != SQLITE_DONE)
    throw SqliteError(rc, std::string("backup into ") + path + ": " + sqlite3_errstr(rc));
}

Statement::Statement(Database& db, std::string_view sql) : db_(db) {
  const int rc = sqlite3_prepare_v3(db.handle(), sql.data(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
  if (rc != SQLITE_OK) db.fail(rc, "prepare");
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int index, std::int64_t value) {
  const int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK) db_.fail(rc, "bind");
  return *this;
}

Statement& Statement::bind_real(int index, double value) {
  const int rc = sqlite3_bind_double(stmt_, index, value);
  if (rc != SQLITE_OK) db_.fail(rc, "bind");
  return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
  const int rc =
      sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) db_.fail(rc, "bind");
  return *this;
}

Statement& Statement::bind(int index, std::span<const unsigned char> blob) {
  const int rc =
      sqlite3_bind_blob(stmt_, index, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) db_.fail(rc, "bind");
  return *this;
}

Statement& Statement::bind_null(int index) {
  const int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK) db_.fail(rc, "bind");
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  sqlite3_reset(stmt_);
  db_.fail(rc, "step");
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::column_int(int index) const {
  return sqlite3_column_int64(stmt_, index);
}

double Statement::column_double(int index) const {
  return sqlite3_column_double(stmt_, index);
}

std::string Statement::column_text(int index) const {
  const auto* text = sqlite3_column_text(stmt_, index);
  return text ? std::string(reinterpret_cast<const char*>(text)) : std::string();
}

std::vector<unsigned char> Statement::column_blob(int index) const {
  const auto* data = static_cast<const unsigned char*>(sqlite3_column_blob(stmt_, index));
  const int size = sqlite3_column_bytes(stmt_, index);
  return data ? std::vector<unsigned char>(data, data + size) : std::vector<unsigned char>();
}

bool Statement::column_is_null(int index) const {
  return sqlite3_column_type(stmt_, index) == SQLITE_NULL;
}

std::optional<std::int64_t> Statement::column_optional_int(int index) const {
  if (column_is_null(index)) return std::nullopt;
  return column_int(index);
}

std::optional<std::string> Statement::column_optional_text(int index) const {
  if (column_is_null(index)) return std::nullopt;
  return column_text(index);
}

int Statement::changes() const {
  return sqlite3_changes(db_.handle());
}

std::int64_t Statement::last_insert_rowid() const {
  return sqlite3_last_insert_rowid(db_.handle());
}

Transaction::Transaction(Database& db) : db_(db) {
  db_.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
  if (!done_) {
    try {
      db_.exec("ROLLBACK");
    } catch (const SqliteError&) {
      // Nothing better to do in a destructor; the connection rolls back on close anyway.
    }
  }
}

void Transaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

}  // namespace tengen::store
