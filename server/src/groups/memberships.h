#pragma once

#include <cstdint>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tengen {

// Who belongs to which group (docs/groups.md), in the centre's memory: read by the lobby (a
// group's challenges are seen and accepted by its members only) from any thread; loaded at start
// and replaced per group when it changes (the store keeps them: store::GroupStore). Like Blocks.
class Memberships {
 public:
  bool member(std::int64_t group, std::int64_t user) const {
    std::shared_lock lock(mutex_);
    const auto found = by_group_.find(group);
    return found != by_group_.end() && found->second.contains(user);
  }
  std::vector<std::int64_t> members(std::int64_t group) const {
    std::shared_lock lock(mutex_);
    const auto found = by_group_.find(group);
    if (found == by_group_.end()) return {};
    return {found->second.begin(), found->second.end()};
  }
  void load(const std::vector<std::pair<std::int64_t, std::int64_t>>& pairs) {
    std::unique_lock lock(mutex_);
    by_group_.clear();
    for (const auto& [group, user] : pairs) by_group_[group].insert(user);
  }
  // The group's members as the store has them now (none: it closed or is gone).
  void set(std::int64_t group, const std::vector<std::int64_t>& users) {
    std::unique_lock lock(mutex_);
    if (users.empty()) {
      by_group_.erase(group);
      return;
    }
    by_group_[group] = {users.begin(), users.end()};
  }

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::int64_t, std::unordered_set<std::int64_t>> by_group_;
};

}  // namespace tengen
