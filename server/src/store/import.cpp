#include "store/import.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "migrations/migrations.h"
#include "store/postgres.h"
#include "store/postgres_migrate.h"
#include "store/sqlite.h"

namespace tengen::store {
namespace {

// In an order that keeps every foreign key satisfied. schema_version is each database's own;
// the cluster's tables (nodes, leases) start empty.
constexpr const char* kTables[] = {"users",
                                   "sessions",
                                   "challenges",
                                   "games",
                                   "game_events",
                                   "ratings",
                                   "rating_history",
                                   "tournaments",
                                   "tournament_events",
                                   "reviews",
                                   "review_events",
                                   "invites",
                                   "audit_log",
                                   "reports",
                                   "blocks",
                                   "vacation_balances",
                                   "vacations",
                                   "mail_settings",
                                   "mail_tokens",
                                   "mail_queue",
                                   "mail_game_notices",
                                   "server_keys",
                                   "push_subscriptions",
                                   "push_queue",
                                   "analysis_workers",
                                   "analysis_jobs",
                                   "position_analyses",
                                   "player_groups",
                                   "group_members",
                                   "group_chat",
                                   "ladders",
                                   "ladder_players",
                                   "ladder_challenges",
                                   "ladder_events",
                                   "teachers",
                                   "classes",
                                   "class_students",
                                   "course_progress",
                                   "simuls",
                                   "simul_players",
                                   "pair_games",
                                   "pair_players",
                                   "relays",
                                   "relay_moves"};

// A table's columns in SQLite, in order.
std::vector<std::string> sqlite_columns(Database& db, const std::string& table) {
  Statement q(db, "SELECT name FROM pragma_table_info(?) ORDER BY cid");
  q.bind(1, std::string_view(table));
  std::vector<std::string> out;
  while (q.step()) out.push_back(q.column_text(0));
  return out;
}

std::vector<std::string> postgres_columns(pg::Connection& db, const std::string& table) {
  // An identity column PostgreSQL always generates (game_events.id) is left to it.
  const auto r = db.query(
      "SELECT column_name FROM information_schema.columns"
      " WHERE table_schema = current_schema() AND table_name = $1"
      " AND (is_identity = 'NO' OR identity_generation = 'BY DEFAULT')"
      " ORDER BY ordinal_position",
      {table});
  std::vector<std::string> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(r.text(i, 0));
  return out;
}

pg::Param value_at(sqlite3_stmt* row, int column) {
  switch (sqlite3_column_type(row, column)) {
    case SQLITE_INTEGER:
      return pg::Param(static_cast<std::int64_t>(sqlite3_column_int64(row, column)));
    case SQLITE_FLOAT:
      return pg::Param(sqlite3_column_double(row, column));  // exactly (a rating)
    case SQLITE_TEXT:
      return pg::Param(
          std::string_view(reinterpret_cast<const char*>(sqlite3_column_text(row, column)),
                           static_cast<std::size_t>(sqlite3_column_bytes(row, column))));
    case SQLITE_BLOB: {
      const auto* bytes = static_cast<const unsigned char*>(sqlite3_column_blob(row, column));
      return pg::Param::bytes({bytes, static_cast<std::size_t>(sqlite3_column_bytes(row, column))});
    }
    default:
      return pg::Param(std::nullopt);
  }
}

}  // namespace

Imported import_sqlite(const std::string& sqlite_file, const std::string& postgres_uri) {
  if (!std::filesystem::exists(sqlite_file))
    throw std::runtime_error("there is no SQLite database " + sqlite_file);
  Database source(sqlite_file);
  {
    Statement version(source, "SELECT coalesce(max(version), 0) FROM schema_version");
    version.step();
    const auto newest = migrations::all().back().version;
    if (version.column_int(0) != newest) {
      throw std::runtime_error(sqlite_file + " has schema version " +
                               std::to_string(version.column_int(0)) + ", not " +
                               std::to_string(newest) +
                               ": start this server on it once (which migrates it), stop it, "
                               "then import");
    }
  }
  pg::Connection target(postgres_uri);
  pg::migrate(target);
  for (const char* table : {"users", "games", "tournaments", "reviews"}) {
    const auto n = target.query(std::string("SELECT count(*) FROM ") + table).int64(0, 0);
    if (n > 0) {
      throw std::runtime_error("the PostgreSQL database already holds " + std::to_string(n) +
                               " rows in " + table +
                               ": import only into a new, empty database (createdb)");
    }
  }

  Imported imported;
  std::vector<pg::Connection::Statement> statements;
  // One read transaction: a consistent copy even if something else reads the file meanwhile.
  source.exec("BEGIN");
  for (const std::string table : kTables) {
    const auto from = sqlite_columns(source, table);
    const auto to = postgres_columns(target, table);
    std::vector<std::string> columns;
    for (const auto& c : from) {
      if (std::find(to.begin(), to.end(), c) != to.end()) columns.push_back(c);
    }
    std::string list, placeholders;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      list += (i ? ", " : "") + columns[i];
      placeholders += (i ? ", $" : "$") + std::to_string(i + 1);
    }
    const std::string insert =
        "INSERT INTO " + table + " (" + list + ") VALUES (" + placeholders + ")";
    std::int64_t count = 0;
    // Not store::Statement, which reads columns as the caller types them: a copy takes each
    // value as SQLite typed it.
    const std::string select = "SELECT " + list + " FROM " + table + " ORDER BY rowid";
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(source.handle(), select.c_str(), -1, &raw, nullptr) != SQLITE_OK)
      source.fail(sqlite3_errcode(source.handle()), "reading " + table);
    while (sqlite3_step(raw) == SQLITE_ROW) {
      pg::Connection::Statement s{insert, {}};
      for (int c = 0; c < static_cast<int>(columns.size()); ++c)
        s.params.push_back(value_at(raw, c));
      statements.push_back(std::move(s));
      ++count;
    }
    sqlite3_finalize(raw);
    imported.rows.emplace_back(table, count);
  }
  source.exec("COMMIT");
  // Numbers PostgreSQL hands out next follow the copied ones.
  for (const char* table :
       {"users", "sessions", "rating_history", "invites", "audit_log", "reports", "mail_queue",
        "push_subscriptions", "push_queue", "analysis_workers", "position_analyses",
        "player_groups", "group_chat", "ladders", "ladder_challenges", "ladder_events", "simuls",
        "pair_games", "relays"}) {
    statements.push_back({std::string("SELECT setval(pg_get_serial_sequence('") + table +
                              "', 'id'), coalesce((SELECT max(id) FROM " + table +
                              "), 0) + 1, false)",
                          {}});
  }
  target.transaction(statements);
  return imported;
}

}  // namespace tengen::store
