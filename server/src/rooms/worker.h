#pragma once

#include <functional>
#include <memory>

namespace tengen {

// Work taken off a game's actor: the dead-stone suggestion, which would otherwise stall the game
// for up to a quarter of a second; its answer is posted back to the game's actor
// (games/game_actor.h: Suggested). Jobs run one at a time, in the order posted, on a thread of
// the worker's own. The directory's loader (games/game_directory.h) is another such thread.
// Tests hold jobs and run them by hand.
class Worker {
 public:
  using Job = std::function<void()>;
  virtual ~Worker() = default;
  virtual void post(Job job) = 0;
};

// The worker thread. Destroying it finishes the jobs already posted and joins: destroy it before
// anything its jobs use.
std::unique_ptr<Worker> make_thread_worker();

}  // namespace tengen
