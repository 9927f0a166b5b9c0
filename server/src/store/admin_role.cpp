#include "store/admin_role.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

#include "config.h"
#include "ratings/rating_book.h"
#include "store/migrate.h"
#include "store/postgres.h"
#include "store/postgres_account_store.h"
#include "store/postgres_migrate.h"
#include "store/postgres_moderation_store.h"
#include "store/sqlite_account_store.h"
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

std::string recompute_ratings(const std::string& database,
                              const std::map<std::string, ratings::Rating>& starts) {
  const auto stores = Stores::open(database);
  const auto games = stores->games->games_in_order_of_ending();
  std::map<std::int64_t, ratings::Rating> seeds;
  for (const auto& [name, start] : starts) {
    const auto user = stores->accounts->user_by_name(name);
    if (user && user->is_bot) seeds[user->id] = start;
  }
  auto history = RatingBook::replay(games, seeds);
  std::set<std::int64_t> players;
  for (const auto& row : history) players.insert(row.user_id);
  const auto rows = history.size();
  auto unplayed =
      RatingBook::unplayed_seeds(history, seeds,
                                 std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
  const std::vector<Write> write{RatingsReplaced{std::move(history), std::move(unplayed)}};
  stores->games->write(write);
  return "rebuilt the ratings of " + std::to_string(players.size()) + " players from " +
         std::to_string(rows / 2) + " rated games (" + std::to_string(games.size()) +
         " finished games read)";
}

}  // namespace tengen::store
