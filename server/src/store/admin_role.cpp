#include "store/admin_role.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>

#include "config.h"
#include "store/migrate.h"
#include "store/postgres.h"
#include "store/postgres_migrate.h"
#include "store/sql_postgres.h"
#include "store/stores.h"

namespace tengen::store {
namespace {

// A connection to the database, migrated first (nodes starting meanwhile take turns; nothing to
// do when a server of this version has opened it). A SQLite file must exist: `missing` says what
// to do first.
std::function<std::unique_ptr<sql::Connection>()> migrated(const std::string& database,
                                                           const std::string& missing) {
  if (tengen::is_postgres(database)) {
    pg::Connection db(database);
    pg::migrate(db);
    return [database] { return sql::postgres_connection(database); };
  }
  if (!std::filesystem::exists(database))
    throw std::runtime_error("there is no database " + database + ": " + missing);
  Database db(database);
  migrate(db);
  return [database] { return sql::sqlite_connection(database); };
}

}  // namespace

std::string set_admin_role(const std::string& database, const std::string& username, bool admin,
                           std::int64_t now_ms) {
  const auto connect = migrated(database,
                                "start the server once (it creates it), register the account in "
                                "the web client, then run this again");
  AccountStore accounts(connect());
  ModerationStore moderation(connect());
  const auto user = accounts.user_by_name(username);
  if (!user) {
    throw std::runtime_error("there is no user named '" + username +
                             "': register the account in the web client first");
  }
  if (user->is_admin == admin) {
    return user->username + (admin ? " is already an administrator" : " is not an administrator");
  }
  AuditEntry audit;
  audit.at_ms = now_ms;
  audit.action = admin ? "make_admin" : "remove_admin";
  audit.target_user_id = user->id;  // no actor: the command line
  moderation.set_admin(user->id, admin, audit);
  return user->username +
         (admin ? " is now an administrator: the Admin page is in the web client's bar"
                : " is no longer an administrator");
}

std::unique_ptr<AnalysisStore> open_analysis_store(const std::string& database) {
  return std::make_unique<AnalysisStore>(
      migrated(database, "start the server once (it creates it), then run this again")());
}

}  // namespace tengen::store
