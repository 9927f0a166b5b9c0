#pragma once

#include <span>
#include <string_view>

namespace tengen::migrations {

struct Migration {
  int version;            // from the file name: 0001_init.sql is version 1
  std::string_view name;  // the file name
  std::string_view sql;
};

// Every migration, in ascending version order: SQLite's (migrations/*.sql), and PostgreSQL's
// (migrations/postgres/*.sql, the same schema version by version in its dialect).
std::span<const Migration> all();
std::span<const Migration> postgres();

}  // namespace tengen::migrations
