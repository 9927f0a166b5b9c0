#pragma once

#include <cstdint>
#include <string>

namespace tengen::store {

// tengen-server --make-admin NAME / --remove-admin NAME (docs/moderation.md): gives or takes the
// administrator's role on the database `database` names (a SQLite file or a postgres:// URI),
// logged in the audit log as done from the command line. Safe while a server serves the same
// database: it takes no server's lock, and the server reads the role at each request. Returns what
// was done, for the operator; throws std::runtime_error, saying what to do, on a missing
// database or user.
std::string set_admin_role(const std::string& database, const std::string& username, bool admin,
                           std::int64_t now_ms);

}  // namespace tengen::store
