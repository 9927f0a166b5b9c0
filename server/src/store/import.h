#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tengen::store {

// Moving a server from SQLite to PostgreSQL (docs/cluster.md): every account with its sessions,
// every challenge, game with all its events, rating with its history, and tournament with its
// events, copied row for row (numbers kept, so links, records and ratings stay as they were) from
// a SQLite file at this server's newest schema into an empty PostgreSQL database, in one
// transaction: all of it or nothing. The file is only read; the server on it should be stopped
// first, so that nothing is written after the copy begins. Throws std::runtime_error saying what
// to do when the file or the database is not as it must be.
struct Imported {
  std::vector<std::pair<std::string, std::int64_t>> rows;  // table, rows copied, in order
};
Imported import_sqlite(const std::string& sqlite_file, const std::string& postgres_uri);

}  // namespace tengen::store
