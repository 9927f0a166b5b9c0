#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "metrics.h"
#include "store/leases.h"

namespace tengen::cluster {

// Keeps this node alive in the cluster's eyes and takes over the games of nodes that are not
// (docs/cluster.md). Every third of the lease's time to live, on a thread of its own: renews the
// node's liveness, then hands the games whose owner's liveness ran out to `adopt`.
//
// A node whose liveness ran out must stop at once (`lost`): others may have taken its games, and
// the store would refuse its writes anyway (store::Fence). So must one that could not reach the
// store for a whole time to live: by then the others see it as dead. Stopping is the whole
// recovery: its supervisor starts it again and it takes back what nobody took.
class LeaseKeeper {
 public:
  struct Hooks {
    // Takes the games over (Hub::adopt); returns how many it took.
    std::function<std::size_t(const std::vector<std::int64_t>&)> adopt;
    // This node's liveness is gone; `why` says how. Does not return in the server (it aborts).
    std::function<void(const std::string& why)> lost;
  };

  enum class Thread { Start, None };  // None: the caller calls round() (tests)
  LeaseKeeper(store::Leases& leases, std::chrono::milliseconds ttl, Hooks hooks,
              Metrics* metrics = nullptr, Thread thread = Thread::Start);
  ~LeaseKeeper();
  LeaseKeeper(const LeaseKeeper&) = delete;
  LeaseKeeper& operator=(const LeaseKeeper&) = delete;

  // One renewal and one look for orphans; `now` is when it runs (steady time).
  void round(std::chrono::steady_clock::time_point now);

 private:
  void run();

  store::Leases& leases_;
  const std::chrono::milliseconds ttl_;
  Hooks hooks_;
  Metrics* metrics_;
  std::chrono::steady_clock::time_point last_renewed_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tengen::cluster
