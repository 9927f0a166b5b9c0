#pragma once

#include <map>
#include <mutex>
#include <vector>

#include "rooms/timers.h"

namespace tengen::testing {

// Timers that fire only when the test moves time: fire_due(now) delivers every deadline that
// has come, on the test's thread.
class ManualTimers final : public Timers {
 public:
  void set_handler(Fire fire) override {
    std::lock_guard lock(mutex_);
    fire_ = std::move(fire);
  }
  void arm(const TimerId& id, std::optional<Steady> when) override {
    std::lock_guard lock(mutex_);
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

 private:
  std::mutex mutex_;
  Fire fire_;
  std::map<TimerId, Steady> due_;
};

}  // namespace tengen::testing
