#pragma once

#include <string>

namespace tengen {

// How tengen-server ends (docs/operations.md, "Exit codes"): what a supervisor sees. A stop of
// its own is a clean exit with one of these codes after a critical log line saying why, never a
// signal or a core dump: a supervisor restarts it, and nothing it had not stored was
// acknowledged, so the restart loses nothing.
enum class ExitCode : int {
  Ok = 0,
  Failure = 1,              // could not start (a busy port, a bad --database, ...)
  Usage = 2,                // a wrong command line
  DatabaseUnreachable = 3,  // PostgreSQL did not answer within --database-wait at start
  Superseded = 4,           // another node took this node's games, or its place (the hub lock)
  StoreFailed = 5,          // the database refused a write for a reason other than its absence
};

// Logs `why` as critical, flushes the log, and ends the process at once with `code`.
[[noreturn]] void stop_process(ExitCode code, const std::string& why);

}  // namespace tengen
