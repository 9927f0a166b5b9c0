#include "cluster/lease_keeper.h"

#include <spdlog/spdlog.h>

namespace tengen::cluster {
namespace {

// Taken over per round: a dead node's games spread over the living that look at once, and a
// round never takes long.
constexpr int kAdoptPerRound = 200;

}  // namespace

LeaseKeeper::LeaseKeeper(store::Leases& leases, std::chrono::milliseconds ttl, Hooks hooks,
                         Metrics* metrics, Thread thread)
    : leases_(leases),
      ttl_(ttl),
      hooks_(std::move(hooks)),
      metrics_(metrics),
      last_renewed_(std::chrono::steady_clock::now()) {
  if (thread == Thread::Start) thread_ = std::thread([this] { run(); });
}

LeaseKeeper::~LeaseKeeper() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void LeaseKeeper::round(std::chrono::steady_clock::time_point now) {
  try {
    const auto start = std::chrono::steady_clock::now();
    const bool alive = leases_.renew();
    if (metrics_) {
      ++metrics_->lease_renewals_total;
      metrics_->lease_renewal_us_total +=
          static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                         std::chrono::steady_clock::now() - start)
                                         .count());
    }
    if (!alive) {
      hooks_.lost(
          "its liveness ran out before it could renew it (paused, or cut off from the "
          "database, for longer than the lease's " +
          std::to_string(ttl_.count()) + " ms): other nodes may own its games now");
      return;
    }
    last_renewed_ = now;
  } catch (const std::exception& e) {
    if (metrics_) ++metrics_->lease_renewal_failures_total;
    const auto since = std::chrono::duration_cast<std::chrono::milliseconds>(now - last_renewed_);
    spdlog::warn("node {} could not renew its lease ({} ms since the last renewal): {}",
                 leases_.name(), since.count(), e.what());
    if (since >= ttl_) {
      hooks_.lost("it could not reach the database for " + std::to_string(since.count()) +
                  " ms, the lease's whole time to live: other nodes may own its games now");
    }
    return;
  }
  try {
    const auto orphans = leases_.orphans(kAdoptPerRound);
    if (orphans.empty() || !hooks_.adopt) return;
    const auto taken = hooks_.adopt(orphans);
    spdlog::info("node {} took over {} of {} games whose owner is gone", leases_.name(), taken,
                 orphans.size());
  } catch (const std::exception& e) {
    spdlog::warn("node {} could not take over orphaned games: {}", leases_.name(), e.what());
  }
}

void LeaseKeeper::run() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, ttl_ / 3, [this] { return stopping_; })) {
    lock.unlock();
    round(std::chrono::steady_clock::now());
    lock.lock();
  }
}

}  // namespace tengen::cluster
