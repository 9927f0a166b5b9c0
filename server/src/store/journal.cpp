#include "store/journal.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace tengen::store {

Journal::Journal(GameStore& store, CommitObserver observer)
    : store_(store), observer_(std::move(observer)), thread_([this] { run(); }) {}

Journal::~Journal() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
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
    if (!group.empty()) {
      try {
        store_.write(group);
      } catch (const std::exception& e) {
        spdlog::critical(
            "the journal could not commit {} rows: {}; stopping so that nothing unstored is "
            "acknowledged (restart to recover the last durable state)",
            group.size(), e.what());
        spdlog::default_logger()->flush();
        std::abort();
      }
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
