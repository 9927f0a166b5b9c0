#pragma once

// What another thread hands a test (timers firing, messages off a bus), gathered in order, and a
// way to wait for it without sleeping.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace tengen::testing {

template <class T>
class Gathered {
 public:
  // Safe from any thread.
  void add(T value) {
    {
      std::lock_guard lock(mutex_);
      values_.push_back(std::move(value));
    }
    arrived_.notify_all();
  }
  // Everything gathered, once there are at least `n` (or after 10 s, whatever there is).
  std::vector<T> wait_for(std::size_t n) {
    std::unique_lock lock(mutex_);
    arrived_.wait_for(lock, std::chrono::seconds(10), [&] { return values_.size() >= n; });
    return values_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<T> values_;
};

}  // namespace tengen::testing
