#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "store/game_store.h"

namespace tengen::store {

// Group commit (docs/persistence.md): one writer thread takes everything submitted since its last
// commit and writes it in one transaction, so that many games' events share one fsync; only then
// does it run the submissions' callbacks, which send acknowledgements and events. Nobody sees an
// event before it is durable.
//
// Submissions are committed, and their callbacks run, in submission order, also those without
// writes: a reply that carries no new state still waits for the state it may describe.
// A failed commit is fatal (the process aborts): the server never acknowledges what it could not
// store, and restarting recovers the last durable state.
class Journal {
 public:
  struct Stats {
    std::uint64_t commits = 0;      // transactions
    std::uint64_t writes = 0;       // rows written
    std::uint64_t submissions = 0;  // callbacks run
    std::uint64_t commit_us = 0;    // total time spent committing
  };

  // Told about each commit on the writer thread (rows written, time taken), e.g. for a histogram.
  using CommitObserver = std::function<void(std::size_t rows, std::chrono::microseconds took)>;

  explicit Journal(GameStore& store, CommitObserver observer = {});
  // Commits what is queued, then stops.
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  // Safe from any thread; `on_durable` runs on the writer thread.
  void submit(std::vector<Write> writes, std::function<void()> on_durable);

  // Ready once everything submitted before it is durable and its callbacks have run.
  std::future<void> barrier();

  Stats stats() const;

 private:
  struct Submission {
    std::vector<Write> writes;
    std::function<void()> on_durable;
  };
  void run();

  GameStore& store_;
  CommitObserver observer_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Submission> queue_;
  bool stopping_ = false;
  Stats stats_;
  std::thread thread_;
};

}  // namespace tengen::store
