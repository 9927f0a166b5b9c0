#pragma once

#include <chrono>
#include <string>
#include <unordered_map>

namespace tengen {

// Token buckets by key: `burst` attempts at once, then one more every `refill`.
class RateLimiter {
 public:
  RateLimiter(int burst, std::chrono::milliseconds refill) : burst_(burst), refill_(refill) {}

  // Takes a token for `key` if one is left.
  bool try_take(const std::string& key, std::chrono::steady_clock::time_point now) {
    auto [it, fresh] = buckets_.try_emplace(key, Bucket{static_cast<double>(burst_), now});
    Bucket& b = it->second;
    if (!fresh) {
      const double earned = std::chrono::duration<double>(now - b.at) / std::chrono::duration<double>(refill_);
      b.tokens = std::min(static_cast<double>(burst_), b.tokens + earned);
      b.at = now;
    }
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    if (buckets_.size() > kMaxKeys) buckets_.clear();  // bounded memory under a flood of keys
    return true;
  }

 private:
  static constexpr std::size_t kMaxKeys = 100000;
  struct Bucket {
    double tokens;
    std::chrono::steady_clock::time_point at;
  };
  int burst_;
  std::chrono::milliseconds refill_;
  std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace tengen
