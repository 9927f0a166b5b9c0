#pragma once

#include <algorithm>
#include <chrono>
#include <string>
#include <unordered_map>

namespace tengen {

// `burst` attempts at once, then one more every `refill`.
class TokenBucket {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  TokenBucket(int burst, std::chrono::milliseconds refill, TimePoint now)
      : burst_(burst), refill_(refill), tokens_(static_cast<double>(burst)), at_(now) {}

  // Takes a token if one is left.
  bool try_take(TimePoint now) {
    const double earned =
        std::chrono::duration<double>(now - at_) / std::chrono::duration<double>(refill_);
    tokens_ = std::min(static_cast<double>(burst_), tokens_ + earned);
    at_ = now;
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }

 private:
  int burst_;
  std::chrono::milliseconds refill_;
  double tokens_;
  TimePoint at_;
};

// Token buckets by key (an address, a user name).
class RateLimiter {
 public:
  RateLimiter(int burst, std::chrono::milliseconds refill) : burst_(burst), refill_(refill) {}

  // Takes a token for `key` if one is left.
  bool try_take(const std::string& key, std::chrono::steady_clock::time_point now) {
    const auto it = buckets_.try_emplace(key, burst_, refill_, now).first;
    if (!it->second.try_take(now)) return false;
    if (buckets_.size() > kMaxKeys) buckets_.clear();  // bounded memory under a flood of keys
    return true;
  }

 private:
  static constexpr std::size_t kMaxKeys = 100000;
  int burst_;
  std::chrono::milliseconds refill_;
  std::unordered_map<std::string, TokenBucket> buckets_;
};

}  // namespace tengen
