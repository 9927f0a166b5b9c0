#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "rooms/timers.h"

namespace tengen::testing {

// Timers that fire only when the test moves time: fire_due(now) delivers every deadline that
// has come, on the test's thread.
//
// A test may also hold a game's actor half-way: it arms the game's deadline before it submits
// what an input produced, so with hold(GameDeadline{g}) the next input to game g stalls there
// (until release()), and the test sees what goes on meanwhile.
class ManualTimers final : public Timers {
 public:
  void set_handler(Fire fire) override {
    std::lock_guard lock(mutex_);
    fire_ = std::move(fire);
  }
  void arm(const TimerId& id, std::optional<Steady> when) override {
    std::unique_lock lock(mutex_);
    if (held_ && *held_ == id) {
      ++waiting_;
      changed_.notify_all();
      changed_.wait(lock, [&] { return !held_; });
      --waiting_;
    }
    if (when) {
      due_[id] = *when;
    } else {
      due_.erase(id);
    }
  }
  std::optional<Steady> armed(const TimerId& id) {
    std::lock_guard lock(mutex_);
    const auto it = due_.find(id);
    return it == due_.end() ? std::nullopt : std::optional<Steady>(it->second);
  }
  void fire_due(Steady now) {
    std::vector<TimerId> ids;
    Fire fire;
    {
      std::lock_guard lock(mutex_);
      for (auto it = due_.begin(); it != due_.end();) {
        if (it->second <= now) {
          ids.push_back(it->first);
          it = due_.erase(it);
        } else {
          ++it;
        }
      }
      fire = fire_;
    }
    for (const auto& id : ids) {
      if (fire) fire(id);
    }
  }

  // The next arming of `id` (and every one after, until release) waits.
  void hold(const TimerId& id) {
    std::lock_guard lock(mutex_);
    held_ = id;
  }
  // Returns once an operation waits in arm() for the held id.
  void wait_until_held() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return waiting_ > 0; });
  }
  void release() {
    {
      std::lock_guard lock(mutex_);
      held_.reset();
    }
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<TimerId> held_;
  int waiting_ = 0;
  Fire fire_;
  std::map<TimerId, Steady> due_;
};

}  // namespace tengen::testing
