#pragma once

#include <functional>
#include <memory>

namespace tengen::games {

// One owner's queue of work (an actor's mailbox): what is posted runs one job at a time, in the
// order posted, on a thread of the pool it came from; never two jobs of one mailbox at once, and
// never on the caller's thread. Safe to post from any thread.
class Mailbox {
 public:
  using Job = std::function<void()>;
  virtual ~Mailbox() = default;
  virtual void post(Job job) = 0;
};

// The small pool of threads every owner's mailbox runs on (docs/architecture.md, "Owners"): as
// many threads as the machine has cores, so that a game that stalls holds up one thread, not the
// server. Asio's strands stay inside actor_pool.cpp.
class ActorPool {
 public:
  explicit ActorPool(unsigned threads);
  // Runs what is still posted, then joins (join()).
  ~ActorPool();
  ActorPool(const ActorPool&) = delete;
  ActorPool& operator=(const ActorPool&) = delete;

  // A new mailbox on this pool; it must not outlive the pool.
  std::unique_ptr<Mailbox> mailbox();
  // Waits until every job posted (and every job those post) has run, then lets the threads go;
  // what is posted afterwards never runs.
  void join();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tengen::games
