#include "store/admin_role.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>

#include "config.h"
#include "store/migrate.h"
#include "store/postgres.h"
#include "store/postgres_account_store.h"
#include "store/postgres_analysis_store.h"
#include "store/postgres_migrate.h"
#include "store/postgres_moderation_store.h"
#include "store/sqlite_account_store.h"
#include "store/sqlite_analysis_store.h"
#include "store/sqlite_moderation_store.h"
#include "store/stores.h"

namespace tengen::store {

std::string set_admin_role(const std::string& database, const std::string& username, bool admin,
                           std::int64_t now_ms) {
  std::optional<Database> sqlite;
  std::optional<pg::Connection> postgres;
  std::unique_ptr<AccountStore> accounts;
  std::unique_ptr<ModerationStore> moderation;
  if (tengen::is_postgres(database)) {
    postgres.emplace(database);
    pg::migrate(*postgres);  // nodes starting meanwhile take turns
    accounts = std::make_unique<PostgresAccountStore>(*postgres);
    moderation = std::make_unique<PostgresModerationStore>(database);
  } else {
    if (!std::filesystem::exists(database)) {
      throw std::runtime_error("there is no database " + database +
                               ": start the server once (it creates it), register the account in "
                               "the web client, then run this again");
    }
    sqlite.emplace(database);
    migrate(*sqlite);  // nothing to do when a server of this version has opened it
    accounts = std::make_unique<SqliteAccountStore>(*sqlite);
    moderation = std::make_unique<SqliteModerationStore>(database);
  }
  const auto user = accounts->user_by_name(username);
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
  moderation->set_admin(user->id, admin, audit);
  return user->username +
         (admin ? " is now an administrator: the Admin page is in the web client's bar"
                : " is no longer an administrator");
}

std::unique_ptr<AnalysisStore> open_analysis_store(const std::string& database) {
  if (tengen::is_postgres(database)) {
    pg::Connection db(database);
    pg::migrate(db);  // nodes starting meanwhile take turns
    return std::make_unique<PostgresAnalysisStore>(database);
  }
  if (!std::filesystem::exists(database))
    throw std::runtime_error("there is no database " + database +
                             ": start the server once (it creates it), then run this again");
  Database db(database);
  migrate(db);  // nothing to do when a server of this version has opened it
  return std::make_unique<SqliteAnalysisStore>(database);
}

}  // namespace tengen::store
