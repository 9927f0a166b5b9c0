#pragma once

#include <atomic>

#include "clock.h"

namespace tengen::testing {

// A clock that moves only when the test says so. Server threads may read it while the test
// thread moves it.
class ManualClock final : public Clock {
 public:
  std::chrono::steady_clock::time_point steady_now() override {
    return std::chrono::steady_clock::time_point(std::chrono::milliseconds(steady_ms_.load()));
  }
  std::int64_t unix_ms() override { return unix_ms_.load(); }
  void advance(std::chrono::milliseconds d) {
    steady_ms_ += d.count();
    unix_ms_ += d.count();
  }

 private:
  std::atomic<std::int64_t> steady_ms_{3'600'000'000};  // 1000 hours
  std::atomic<std::int64_t> unix_ms_{1'795'000'000'000};
};

}  // namespace tengen::testing
