#pragma once

#include "clock.h"

namespace tengen::testing {

// A clock that moves only when the test says so.
class ManualClock final : public Clock {
 public:
  std::chrono::steady_clock::time_point steady_now() override { return steady_; }
  std::int64_t unix_ms() override { return unix_ms_; }
  void advance(std::chrono::milliseconds d) {
    steady_ += d;
    unix_ms_ += d.count();
  }

 private:
  std::chrono::steady_clock::time_point steady_{std::chrono::hours(1000)};
  std::int64_t unix_ms_ = 1'795'000'000'000;
};

}  // namespace tengen::testing
