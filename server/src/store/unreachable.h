#pragma once

#include <stdexcept>

namespace tengen::store {

// The database cannot be reached now: PostgreSQL restarting, stopped, or the network to it down
// (docs/operations.md, "When the database goes away"). A store call that throws it did nothing
// it reports as done; a write whose outcome it could not learn is resolved by reading back
// before it is repeated (SqlGameStore::write). Callers answer 503 with Retry-After, or wait
// and try again; the connection is made again by the next call once the database answers.
class Unreachable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace tengen::store
