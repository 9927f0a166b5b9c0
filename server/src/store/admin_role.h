#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "store/analysis_store.h"

namespace tengen::store {

// tengen-server --make-admin NAME / --remove-admin NAME (docs/moderation.md): gives or takes the
// administrator's role on the database `database` names (a SQLite file or a postgres:// URI),
// logged in the audit log as done from the command line. Safe while a server serves the same
// database: it takes no server's lock, and the server reads the role at each request. Returns what
// was done, for the operator; throws std::runtime_error, saying what to do, on a missing
// database or user.
std::string set_admin_role(const std::string& database, const std::string& username, bool admin,
                           std::int64_t now_ms);

// The analysis workers' store (docs/analysis.md) on the database `database` names, migrated, for
// tengen-server --make-worker-key NAME / --revoke-worker-key NAME; safe while a server serves it.
std::unique_ptr<AnalysisStore> open_analysis_store(const std::string& database);

}  // namespace tengen::store
