#pragma once

#include <functional>
#include <memory>

namespace tengen {

// Work taken off a game's lock: the dead-stone suggestion, which would otherwise stall the game
// for up to a quarter of a second; and telling a tournament that its game ended when the lobby
// was busy then (Hub::finish). Jobs run one at a time, in the order posted, on a thread of the
// worker's own; a job that needs a game or the lobby takes its lock itself. Tests hold jobs and
// run them by hand.
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
