#pragma once

#include <functional>
#include <memory>

namespace tengen::games {

// One owner's queue of work (an actor's mailbox): what is posted runs one job at a time, in the
// order posted; never two jobs of one mailbox at once. Safe to post from any thread.
class Mailbox {
 public:
  using Job = std::function<void()>;
  virtual ~Mailbox() = default;
  // Runs on a thread of the pool, never on the caller's.
  virtual void post(Job job) = 0;
  // Runs on the caller's thread when the mailbox is idle (no hop between threads: a move in a
  // game nobody else is busy with costs what a call does); otherwise queues it behind the jobs
  // under way, which the pool's threads then run. The caller runs its own job only, never one
  // that others queued meanwhile.
  virtual void run_or_post(Job job) = 0;
  // Called from one of this mailbox's own jobs: once that job returns, the mailbox runs nothing
  // more until the function returned is called (from any thread, once; at once is allowed). For
  // an owner whose next job must come after another owner's answer (the ratings' owner waits
  // for the lobby to submit a tournament game's end) without a thread waiting for it.
  virtual std::function<void()> hold() = 0;
};

// The small pool of threads every owner's mailbox drains on (docs/architecture.md, "Owners"): as
// many threads as the machine has cores (at least two), so that a game that stalls holds up one
// thread, not the server. Asio's thread pool stays inside actor_pool.cpp.
class ActorPool {
 public:
  explicit ActorPool(unsigned threads);
  // Runs what is still posted, then joins (join()).
  ~ActorPool();
  ActorPool(const ActorPool&) = delete;
  ActorPool& operator=(const ActorPool&) = delete;

  // A new mailbox on this pool; it must not outlive the pool.
  std::unique_ptr<Mailbox> mailbox();
  // Runs `job` on a thread of the pool, in no particular order with other jobs.
  void post(Mailbox::Job job);
  // Waits until every job posted (and every job those post) has run, then lets the threads go;
  // what is posted afterwards never runs.
  void join();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tengen::games
