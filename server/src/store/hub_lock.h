#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace tengen::store {
namespace pg {
class Connection;
}

// The one node of a PostgreSQL database that runs the hub (docs/cluster.md): whoever holds this
// advisory lock, on a connection of its own for its life. A single server takes it at start
// (store::Stores) and refuses to start without it; in a cluster the other nodes serve as front
// nodes and wait for it. PostgreSQL lets go of it the moment the holder's session ends, however
// the process ended; a holder that stops answering while its session lives (paused, cut off
// from the bus) is ended by a waiting node once its liveness has run out.
class HubLock {
 public:
  // `node` (store::Leases::node()) names the holder in pg_stat_activity, so that a waiting node
  // can tell whether it is alive.
  HubLock(const std::string& conninfo, std::int64_t node);
  ~HubLock();
  HubLock(const HubLock&) = delete;
  HubLock& operator=(const HubLock&) = delete;

  // Takes it if it is free; if a holder's liveness has run out, ends its session first (its
  // writes are fenced off anyway) and tries again. True when this node holds it.
  bool try_take();

  static constexpr std::int64_t kKey = 7365696741637736;

 private:
  std::unique_ptr<pg::Connection> db_;
  std::int64_t node_;
};

}  // namespace tengen::store
