#pragma once

#include <functional>

#include "clock.h"
#include "rooms/outbox.h"
#include "store/journal.h"

namespace tengen {

// The last step of every operation (docs/persistence.md): what it produced goes to the journal,
// its rows stamped with the time, its messages grouped by connection (each connection's in the
// order they were produced, handed over at once). The messages leave only once the rows are
// durable, and operations are released in the order they were submitted, so that replies and
// events leave in order per connection and per game.
class CommitPath {
 public:
  CommitPath(store::Journal& journal, Clock& clock) : journal_(journal), clock_(clock) {}

  // Submits the outbox's rows and messages and empties it (its ended games are the caller's
  // affair, told before this).
  void submit(Outbox& out);
  // Runs `then` once everything submitted before is durable and handed to its connections.
  void after_everything(std::function<void()> then) { journal_.submit({}, std::move(then)); }

 private:
  store::Journal& journal_;
  Clock& clock_;
};

}  // namespace tengen
