#pragma once

#include <string>

namespace tengen::store {

// An exclusive advisory lock (flock) on the database file, held for the server's life, so that a
// second server started on the same file refuses to start with a clear message, instead of
// serving the same games from stale memory and dying later on a UNIQUE error. flock locks are
// apart from SQLite's own (POSIX fcntl) locks, so online backups and readers are unaffected.
class DatabaseLock {
 public:
  // Creates the file if there is none; throws std::runtime_error, saying what to do, when
  // another process holds the lock.
  explicit DatabaseLock(const std::string& path);
  ~DatabaseLock();
  DatabaseLock(const DatabaseLock&) = delete;
  DatabaseLock& operator=(const DatabaseLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace tengen::store
