#pragma once

#include <atomic>
#include <chrono>
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
//
// A restart of PostgreSQL ends every session, the holder's too: the holder takes the lock again
// as soon as the database is back (keep(), every quarter second from cluster::LeaseKeeper), and a
// waiting node that saw the database go away leaves it to the holder for `grace` (the lease's
// time to live) before it tries the lock again. So a restart does not move the hub; a hub that
// died meanwhile is replaced `grace` later than usual.
class HubLock {
 public:
  // `application_name` names the session in pg_stat_activity ("tengen-node-N", as
  // store::PostgresLeases does), so that a waiting node can tell whether the holder is alive.
  HubLock(const std::string& conninfo, const std::string& application_name,
          std::chrono::milliseconds grace);
  ~HubLock();
  HubLock(const HubLock&) = delete;
  HubLock& operator=(const HubLock&) = delete;

  // For a waiting node: takes it if it is free; if a holder's liveness has run out, ends its
  // session first (its writes are fenced off anyway) and tries again. True when this node holds
  // it. False, without trying, within `grace` of this connection coming back after a loss.
  bool try_take();
  // For one server (no bus): waits for it up to `patience` (a server killed a moment ago still
  // holds it until PostgreSQL notices); false if another holds it still.
  bool take_waiting(std::chrono::milliseconds patience);
  // For the holder: true while it holds it. If the connection broke (the database restarted),
  // connects again and takes it again: false if another node took it meanwhile. Throws
  // store::Unreachable while the database is away. No round trip while the connection is up.
  bool keep();
  bool held() const { return held_.load(); }
  // For the holder that stops (docs/cluster.md, "Stopping a node"), once everything it
  // acknowledged is stored: lets go of the lock now, rather than when its session ends, so that
  // a waiting node can take it at once. Never throws (a database away has let go of it anyway).
  void release();

  static constexpr std::int64_t kKey = 7365696741637736;

 private:
  std::unique_ptr<pg::Connection> db_;
  std::chrono::milliseconds grace_;
  std::uint64_t connects_seen_ = 1;
  std::chrono::steady_clock::time_point reconnected_at_{};
  // Written by the thread that takes it (cluster::Roles), then read by the one that keeps it
  // (cluster::LeaseKeeper): the connection passes from one to the other with it.
  std::atomic<bool> held_{false};
  bool retaking_ = false;  // connected again, the lock not yet taken again
};

}  // namespace tengen::store
