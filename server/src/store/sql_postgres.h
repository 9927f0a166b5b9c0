#pragma once

#include "store/sql.h"

namespace tengen::store::sql {

// A connection to a migrated PostgreSQL database (in the PostgreSQL store's library, with libpq).
std::unique_ptr<Connection> postgres_connection(const std::string& conninfo);

}  // namespace tengen::store::sql
