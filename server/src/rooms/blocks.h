#pragma once

#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tengen {

// Who blocks whom (docs/moderation.md), in the centre's memory: read by the lobby (challenges a
// player does not see, challenges refused) and by every room (chat lines a player is not sent),
// from any thread; replaced per player when they change it (the store keeps them:
// store::ModerationStore).
class Blocks {
 public:
  // Whether `user` blocks `other`.
  bool blocks(std::int64_t user, std::int64_t other) const {
    std::shared_lock lock(mutex_);
    const auto found = by_.find(user);
    return found != by_.end() && found->second.contains(other);
  }
  // Whether either blocks the other: no game between them.
  bool apart(std::int64_t a, std::int64_t b) const { return blocks(a, b) || blocks(b, a); }

  void load(const std::vector<std::pair<std::int64_t, std::int64_t>>& pairs) {
    std::unique_lock lock(mutex_);
    by_.clear();
    for (const auto& [user, other] : pairs) by_[user].insert(other);
  }
  // The whole list of one player's blocks, as the store has it now.
  void set(std::int64_t user, const std::vector<std::int64_t>& blocked) {
    std::unique_lock lock(mutex_);
    if (blocked.empty()) {
      by_.erase(user);
      return;
    }
    by_[user] = {blocked.begin(), blocked.end()};
  }

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::int64_t, std::unordered_set<std::int64_t>> by_;
};

}  // namespace tengen
