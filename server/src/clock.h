#pragma once

#include <chrono>
#include <cstdint>

namespace tengen {

// Time, injected: the server runs on SystemClock, tests on a clock they move by hand.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::chrono::steady_clock::time_point steady_now() = 0;  // for durations
  virtual std::int64_t unix_ms() = 0;                              // for records
};

class SystemClock final : public Clock {
 public:
  std::chrono::steady_clock::time_point steady_now() override {
    return std::chrono::steady_clock::now();
  }
  std::int64_t unix_ms() override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

}  // namespace tengen
