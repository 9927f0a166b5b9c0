#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ratings/glicko2.h"

namespace tengen::store {

// tengen-server --make-admin NAME / --remove-admin NAME (docs/moderation.md): gives or takes the
// administrator's role on the database `database` names (a SQLite file or a postgres:// URI),
// logged in the audit log as done from the command line. Safe while a server serves the same
// database: it takes no server's lock, and the server reads the role at each request. Returns what
// was done, for the operator; throws std::runtime_error, saying what to do, on a missing
// database or user.
std::string set_admin_role(const std::string& database, const std::string& username, bool admin,
                           std::int64_t now_ms);

// tengen-server --recompute-ratings (docs/ratings.md): every rating and its history rebuilt from
// the finished games in the order they ended, as the server does after an annulment. Takes the
// database as a server does (refused while one serves it: its ratings are in its memory). What
// was done, for the operator. `starts`: where some bot accounts' ratings start, by name (the house
// bots': docs/bots.md), as the server seeds them.
std::string recompute_ratings(const std::string& database,
                              const std::map<std::string, ratings::Rating>& starts = {});

}  // namespace tengen::store
