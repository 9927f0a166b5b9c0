#include "cluster/lease_keeper.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace tengen::cluster {
namespace {

// Taken over per round: a dead node's games spread over the living that look at once, and a
// round never takes long.
constexpr int kAdoptPerRound = 200;

long long ms(std::chrono::steady_clock::duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

}  // namespace

LeaseKeeper::LeaseKeeper(store::Leases& leases, std::chrono::milliseconds ttl, Hooks hooks,
                         Metrics* metrics, Thread thread)
    : leases_(leases), ttl_(ttl), hooks_(std::move(hooks)), metrics_(metrics) {
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

void LeaseKeeper::unreachable(std::chrono::steady_clock::time_point now, const std::string& what) {
  reachable_ = false;
  if (!away_since_) {
    away_since_ = now;
    last_warned_ = now;
    spdlog::warn("node {} cannot reach the database: {}; it keeps trying, and serves what it can",
                 leases_.name(), what);
  } else if (now - last_warned_ >= std::chrono::seconds(10)) {
    last_warned_ = now;
    spdlog::warn("node {} still cannot reach the database ({} ms): {}", leases_.name(),
                 ms(now - *away_since_), what);
  }
}

void LeaseKeeper::round(std::chrono::steady_clock::time_point now) {
  tick(now);
  if (hooks_.ticked) hooks_.ticked();
}

void LeaseKeeper::tick(std::chrono::steady_clock::time_point now) {
  if (hooks_.keep_lock) {
    try {
      if (!hooks_.keep_lock()) {
        hooks_.lost(
            "another node holds the hub lock now (it took it while the database was away, or "
            "ended this node's session): the games are its to serve");
        return;
      }
    } catch (const std::exception& e) {
      unreachable(now, e.what());
    }
  }
  const bool due = look_now_.exchange(false) || !last_renewed_ || !reachable_ ||
                   now - *last_renewed_ >= ttl_ / 3;
  if (!due) return;
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
          "another node ended its liveness (a new hub took over the games, or a node started "
          "under its name): other nodes may own its games now");
      return;
    }
    if (away_since_) {
      spdlog::info("node {} reaches the database again, after {} ms", leases_.name(),
                   ms(now - *away_since_));
      away_since_.reset();
      back_since_ = now;
    }
    reachable_ = true;
    last_renewed_ = now;
  } catch (const std::exception& e) {
    if (metrics_) ++metrics_->lease_renewal_failures_total;
    unreachable(now, e.what());
    return;
  }
  if (hooks_.renewed) {
    try {
      hooks_.renewed();
    } catch (const std::exception& e) {
      spdlog::warn("node {} could not look for dead nodes: {}", leases_.name(), e.what());
    }
  }
  // Back from the database's absence: every node's liveness ran out meanwhile, and the others
  // have not all renewed yet (each reconnects in its own time). Their games are not orphans: they
  // are looked for once the others have had a lease (and 2 s at least) to come back.
  if (back_since_) {
    if (now - *back_since_ < std::max<std::chrono::steady_clock::duration>(ttl_, kGrace)) return;
    back_since_.reset();
  }
  if (hooks_.spread) {
    try {
      if (const auto given = hooks_.spread(kAdoptPerRound); given > 0)
        spdlog::info("node {} gave {} games whose owner is gone to the running nodes",
                     leases_.name(), given);
    } catch (const std::exception& e) {
      spdlog::warn("node {} could not give orphaned games to other nodes: {}", leases_.name(),
                   e.what());
    }
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

void LeaseKeeper::look_now() {
  {
    std::lock_guard lock(mutex_);
    look_now_ = true;
  }
  wake_.notify_one();
}

void LeaseKeeper::run() {
  const auto period = std::min<std::chrono::milliseconds>(kTick, ttl_ / 3);
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    round(std::chrono::steady_clock::now());
    lock.lock();
    // While the database is away, tried again soon: a restart of a fraction of a second leaves
    // the node not ready for a few tens of milliseconds after the database's return, not a tick.
    wake_.wait_for(lock, reachable_ ? period : std::min(period, kRetry),
                   [this] { return stopping_ || look_now_.load(); });
  }
}

}  // namespace tengen::cluster
