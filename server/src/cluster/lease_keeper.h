#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "metrics.h"
#include "store/leases.h"

namespace tengen::cluster {

// Keeps this node alive in the cluster's eyes, keeps the hub lock it holds, and takes over the
// games of nodes that are not (docs/cluster.md). On a thread of its own, every quarter second:
// checks the hub lock (no round trip unless its connection broke: then it is taken again); every
// third of the lease's time to live, renews the node's liveness, then hands the games whose
// owner's liveness ran out to `spread` and `adopt` (not for kGrace after the database's return:
// every node's ran out while it was away).
//
// A node another node ended (a new hub ended the last one, a node restarted under its name) must
// stop at once (`lost`): others may have taken its games, and the store would refuse its writes
// anyway (store::Fence). So must a hub that finds the hub lock held by another when it takes it
// again. A node that cannot reach the database does not stop: nobody can take its games while
// the database is away, and when it comes back the node renews (alive again, unless ended) and
// takes its lock back before the front nodes try it (store::HubLock's grace). Meanwhile it says
// it is not ready (reachable()), and tries again every kRetry.
class LeaseKeeper {
 public:
  struct Hooks {
    // Games on every node, on the hub: gives at most `limit` movable orphans to the running
    // nodes, spread (store::PostgresLeases::spread); returns how many it gave. Before `adopt`,
    // which takes what is left (those that must stay on the hub).
    std::function<std::size_t(int limit)> spread;
    // Takes the games over (Centre::adopt); returns how many it took.
    std::function<std::size_t(const std::vector<std::int64_t>&)> adopt;
    // This node's liveness is gone; `why` says how. Does not return in the server (it stops).
    std::function<void(const std::string& why)> lost;
    // For the holder of the hub lock (store::HubLock::keep; empty, or false from `holds`, on a
    // node that does not hold it): true while held; false when another holds it now. Throws
    // store::Unreachable while the database is away.
    std::function<bool()> keep_lock;
    // After each tick (the node's readiness may have changed: /healthz, the players' notice).
    std::function<void()> ticked;
    // After each renewal that reached the database (every third of the lease): the hub looks
    // for dead nodes whose connections it still stands in for (cluster::Roles). May throw.
    std::function<void()> renewed;
  };

  enum class Thread { Start, None };  // None: the caller calls round() (tests)
  LeaseKeeper(store::Leases& leases, std::chrono::milliseconds ttl, Hooks hooks,
              Metrics* metrics = nullptr, Thread thread = Thread::Start);
  ~LeaseKeeper();
  LeaseKeeper(const LeaseKeeper&) = delete;
  LeaseKeeper& operator=(const LeaseKeeper&) = delete;

  // One tick: the lock, then a renewal and a look for orphans if one is due (the first tick, a
  // third of the lease after the last, or after a failure); `now` is when it runs (steady time).
  void round(std::chrono::steady_clock::time_point now);

  // Renews and looks for orphans at once, not at the next third of the lease (a node that stops
  // said it has ended: docs/cluster.md, "Stopping a node"). Safe from any thread.
  void look_now();

  // Whether the last renewal reached the database (for /healthz's readiness).
  bool reachable() const { return reachable_.load(); }

  static constexpr std::chrono::milliseconds kTick{250};
  static constexpr std::chrono::milliseconds kRetry{50};  // between tries while it is away
  // After the database's return, no orphans are looked for for a lease, and this at least: the
  // other nodes reconnect and renew meanwhile (store::HubLock gives its holder the same grace).
  static constexpr std::chrono::milliseconds kGrace{2000};

 private:
  void run();
  void tick(std::chrono::steady_clock::time_point now);
  void unreachable(std::chrono::steady_clock::time_point now, const std::string& what);

  store::Leases& leases_;
  const std::chrono::milliseconds ttl_;
  Hooks hooks_;
  Metrics* metrics_;
  std::optional<std::chrono::steady_clock::time_point> last_renewed_;
  std::optional<std::chrono::steady_clock::time_point> away_since_;  // the database
  std::optional<std::chrono::steady_clock::time_point> back_since_;  // its return, in the grace
  std::chrono::steady_clock::time_point last_warned_{};
  std::atomic<bool> reachable_{true};
  std::atomic<bool> look_now_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tengen::cluster
