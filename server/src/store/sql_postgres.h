#pragma once

#include "store/sql.h"

namespace tengen::store::pg {
class Connection;
}

namespace tengen::store::sql {

// A connection to a migrated PostgreSQL database (in the PostgreSQL store's library, with libpq).
std::unique_ptr<Connection> postgres_connection(const std::string& conninfo);
// A connection over one already open (migrated), which must outlive it and which nobody else
// uses meanwhile.
std::unique_ptr<Connection> postgres_connection(pg::Connection& borrowed);

}  // namespace tengen::store::sql
