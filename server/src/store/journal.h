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
// While the database cannot be reached (store::Unreachable: PostgreSQL restarting), the commit is
// tried again, every 50 ms at first and every 500 ms at most, until it is done: submissions wait,
// unacknowledged, and flow again within half a second of the database's return. Any other failed
// commit is fatal (the process stops, exit code 5, or 4 when another node took the game over):
// the server never acknowledges what it could not store, and restarting recovers the last
// durable state.
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
  // close(), if it was not called.
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  // Safe from any thread; `on_durable` runs on the writer thread.
  void submit(std::vector<Write> writes, std::function<void()> on_durable);

  // Ready once everything submitted before it is durable and its callbacks have run.
  std::future<void> barrier();

  Stats stats() const;

  // Whether a commit is waiting for the database to come back.
  bool waiting_for_store() const { return waiting_.load(); }
  // Submissions queued behind the commit under way.
  std::size_t backlog() const;

  // Commits what is queued, runs its callbacks, and stops the writer. While the database is away
  // it waits for it up to `patience` from the first failure, then gives up: what was queued
  // was never acknowledged, and its callbacks are dropped without running (before this returns).
  void close(std::chrono::milliseconds patience = std::chrono::seconds(2));

 private:
  struct Submission {
    std::vector<Write> writes;
    std::function<void()> on_durable;
  };
  void run();
  // store_.write(group), again while the store is unreachable; false if it gave up (closing).
  bool commit(const std::vector<Write>& group);

  GameStore& store_;
  CommitObserver observer_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Submission> queue_;
  bool stopping_ = false;
  std::chrono::milliseconds patience_{2000};
  std::atomic<bool> waiting_{false};
  Stats stats_;
  std::thread thread_;
};

}  // namespace tengen::store
