#include "store/journal.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>

#include "stop.h"
#include "store/unreachable.h"

namespace tengen::store {

Journal::Journal(GameStore& store, CommitObserver observer)
    : store_(store), observer_(std::move(observer)), thread_([this] { run(); }) {}

Journal::~Journal() {
  close();
}

void Journal::close(std::chrono::milliseconds patience) {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    patience_ = patience;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

bool Journal::commit(const std::vector<Write>& group) {
  auto pause = std::chrono::milliseconds(50);
  std::optional<std::chrono::steady_clock::time_point> lost;
  for (;;) {
    try {
      store_.write(group);
      if (lost) {
        waiting_ = false;
        spdlog::info("the database is back: {} rows committed after waiting {} ms", group.size(),
                     std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - *lost)
                         .count());
      }
      return true;
    } catch (const Unreachable& e) {
      if (!lost) {
        lost = std::chrono::steady_clock::now();
        waiting_ = true;
        spdlog::warn(
            "the journal cannot reach the database ({}): {} rows wait, unacknowledged, and are "
            "committed when it is back",
            e.what(), group.size());
      }
    } catch (const std::exception& e) {
      const std::string why = e.what();
      // SQLSTATE TG001 (migrations/postgres/0005_nodes.sql): fenced off.
      const bool fenced = why.find("another node took it over") != std::string::npos;
      stop_process(fenced ? ExitCode::Superseded : ExitCode::StoreFailed,
                   "the journal could not commit " + std::to_string(group.size()) +
                       " rows: " + why +
                       (fenced ? " (this node's game is another's now; restarted, it serves again)"
                               : "; nothing unstored was acknowledged (restart to recover the "
                                 "last durable state)"));
    }
    std::unique_lock lock(mutex_);
    const bool give_up = wake_.wait_for(lock, pause, [&] {
      return stopping_ && std::chrono::steady_clock::now() - *lost >= patience_;
    });
    if (give_up) return false;
    pause = std::min(pause * 2, std::chrono::milliseconds(500));
  }
}

void Journal::submit(std::vector<Write> writes, std::function<void()> on_durable) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(writes), std::move(on_durable)});
  }
  wake_.notify_one();
}

std::future<void> Journal::barrier() {
  auto done = std::make_shared<std::promise<void>>();
  auto future = done->get_future();
  submit({}, [done] { done->set_value(); });
  return future;
}

std::size_t Journal::backlog() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

Journal::Stats Journal::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void Journal::run() {
  std::vector<Write> group;
  for (;;) {
    std::deque<Submission> taken;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything is committed
      taken.swap(queue_);
    }
    group.clear();
    for (auto& s : taken) {
      for (auto& w : s.writes) group.push_back(std::move(w));
    }
    const auto start = std::chrono::steady_clock::now();
    if (!group.empty() && !commit(group)) {
      std::deque<Submission> rest;
      {
        std::lock_guard lock(mutex_);
        rest.swap(queue_);
      }
      const std::size_t dropped = taken.size() + rest.size();
      spdlog::warn(
          "stopping while the database is away: {} submissions were not stored and were never "
          "acknowledged",
          dropped);
      return;  // `taken`'s callbacks are dropped here, unrun, while close() waits
    }
    const auto took = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start);
    // A fence (store::Fence) checks a lease and writes no row.
    const auto rows = group.size() - static_cast<std::size_t>(std::count_if(
                                         group.begin(), group.end(), [](const Write& w) {
                                           return std::holds_alternative<Fence>(w);
                                         }));
    if (observer_ && !group.empty()) observer_(rows, took);
    {
      std::lock_guard lock(mutex_);
      stats_.commits += !group.empty();
      stats_.writes += rows;
      stats_.submissions += taken.size();
      stats_.commit_us += static_cast<std::uint64_t>(took.count());
    }
    for (auto& s : taken) {
      if (!s.on_durable) continue;
      s.on_durable();
      // Now, not when `taken` goes: the callback may hold the last reference to a connection,
      // whose destructor needs the network's io_context, and a barrier's callback lets the
      // server tear that down as soon as it has run (found by ASan: a session freed after
      // its io_context on SIGTERM).
      s.on_durable = nullptr;
    }
  }
}

}  // namespace tengen::store
