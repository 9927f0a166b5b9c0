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
//
// The students of a protected class (docs/classes.md) are kept apart the same way from everyone
// outside their class (its teacher and classmates are its members), the bots excepted: as if each
// blocked the other, so that they see none of each other's challenges, may not play each other
// and are not sent each other's chat lines. Replaced per class when it changes
// (store::ClassStore).
class Blocks {
 public:
  // Whether `user` blocks `other` (or one of them is a protected student the other may not meet).
  bool blocks(std::int64_t user, std::int64_t other) const {
    std::shared_lock lock(mutex_);
    const auto found = by_.find(user);
    if (found != by_.end() && found->second.contains(other)) return true;
    return !inside(user, other) || !inside(other, user);
  }
  // Whether `user` is a student of a protected class.
  bool protected_student(std::int64_t user) const {
    std::shared_lock lock(mutex_);
    return class_of_.contains(user);
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

  using Pairs = std::vector<std::pair<std::int64_t, std::int64_t>>;  // (class, user)
  // Every protected class: its students, its members, and the bots.
  void load_classes(const Pairs& students, const Pairs& members,
                    const std::vector<std::int64_t>& bots) {
    std::unique_lock lock(mutex_);
    class_of_.clear();
    members_.clear();
    set_classes(students, members, bots);
  }
  // Every bot's account, as the store has them now.
  void set_bots(const std::vector<std::int64_t>& bots) {
    std::unique_lock lock(mutex_);
    bots_ = {bots.begin(), bots.end()};
  }
  // One class as it is now (no students: it is not protected, or not a class).
  void set_class(std::int64_t group, const Pairs& students, const Pairs& members,
                 const std::vector<std::int64_t>& bots) {
    std::unique_lock lock(mutex_);
    std::erase_if(class_of_, [&](const auto& entry) { return entry.second == group; });
    members_.erase(group);
    set_classes(students, members, bots);
  }

 private:
  // Whether `user` may meet `other` as far as `user`'s class is concerned (under mutex_).
  bool inside(std::int64_t user, std::int64_t other) const {
    const auto student = class_of_.find(user);
    if (student == class_of_.end() || user == other || bots_.contains(other)) return true;
    const auto members = members_.find(student->second);
    return members != members_.end() && members->second.contains(other);
  }
  void set_classes(const Pairs& students, const Pairs& members,
                   const std::vector<std::int64_t>& bots) {
    for (const auto& [group, user] : students) class_of_[user] = group;
    for (const auto& [group, user] : members) members_[group].insert(user);
    bots_ = {bots.begin(), bots.end()};
  }

  mutable std::shared_mutex mutex_;
  std::unordered_map<std::int64_t, std::unordered_set<std::int64_t>> by_;
  std::unordered_map<std::int64_t, std::int64_t> class_of_;  // protected student → class
  std::unordered_map<std::int64_t, std::unordered_set<std::int64_t>> members_;  // class → members
  std::unordered_set<std::int64_t> bots_;
};

}  // namespace tengen
