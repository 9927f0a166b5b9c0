#include "lobby/lanes.h"

#include <atomic>

namespace tengen {

bool Lanes::push(std::uint64_t connection, Step step, bool elsewhere) {
  Lane* lane = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto& slot = lanes_[connection];
    if (!slot) slot = std::make_unique<Lane>();
    if (slot->busy) {
      if (slot->waiting.size() >= kMaxWaiting) return false;
      slot->waiting.push_back(std::move(step));
      return true;
    }
    slot->busy = true;
    lane = slot.get();
  }
  if (elsewhere && elsewhere_) {
    elsewhere_([this, connection, lane, step = std::move(step)]() mutable {
      drive(connection, *lane, std::move(step));
    });
    return true;
  }
  drive(connection, *lane, std::move(step));
  return true;
}

// Runs steps until one finishes later (its `done` then drives on) or none is left. A step that
// finishes at once does not recurse: the loop takes the next.
void Lanes::drive(std::uint64_t connection, Lane& lane, Step step) {
  while (step) {
    // 0: running; 1: done before the step returned; 2: the step returned first.
    auto state = std::make_shared<std::atomic<int>>(0);
    step(lane.own, [this, connection, &lane, state] {
      if (state->exchange(1) != 2) return;  // the loop below goes on
      if (auto following = next(connection)) drive(connection, lane, std::move(following));
    });
    if (state->exchange(2) != 1) return;  // finishes later: its `done` drives on
    step = next(connection);
  }
}

Lanes::Step Lanes::next(std::uint64_t connection) {
  std::lock_guard lock(mutex_);
  const auto it = lanes_.find(connection);
  Lane& lane = *it->second;
  if (lane.waiting.empty()) {
    lane.busy = false;
    if (lane.closing) lanes_.erase(it);
    return {};
  }
  Step step = std::move(lane.waiting.front());
  lane.waiting.pop_front();
  return step;
}

void Lanes::close(std::uint64_t connection) {
  std::lock_guard lock(mutex_);
  const auto it = lanes_.find(connection);
  if (it == lanes_.end()) return;
  if (!it->second->busy) {
    lanes_.erase(it);
    return;
  }
  it->second->closing = true;
}

void Lanes::after_current(std::function<void()> then) {
  struct Count {
    std::atomic<std::size_t> left;
    std::function<void()> then;
  };
  auto count = std::make_shared<Count>();
  count->then = std::move(then);
  {
    std::lock_guard lock(mutex_);
    std::size_t busy = 0;
    for (const auto& [id, lane] : lanes_) busy += lane->busy;
    count->left = busy + 1;  // one more for this call, let go below
    for (auto& [id, lane] : lanes_) {
      if (!lane->busy) continue;
      // A marker at the end of the lane (never refused: it holds nothing).
      lane->waiting.push_back([count](Own&, Done done) {
        if (--count->left == 0) count->then();
        done();
      });
    }
  }
  if (--count->left == 0) count->then();
}

std::size_t Lanes::size() const {
  std::lock_guard lock(mutex_);
  return lanes_.size();
}

}  // namespace tengen
