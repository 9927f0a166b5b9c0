#include "lobby/command_memory.h"

namespace tengen {

CommandMemory::Begun CommandMemory::begin(Key key, const std::string& cid,
                                          std::function<void()> when_free) {
  std::lock_guard lock(mutex_);
  if (const auto it = under_way_.find({key, cid}); it != under_way_.end()) {
    it->second.push_back(std::move(when_free));
    return {};
  }
  if (auto ack = recall_locked(key, cid)) return {std::move(ack), false};
  under_way_.try_emplace({key, cid});
  return {nullptr, true};
}

void CommandMemory::end(Key key, const std::string& cid, std::shared_ptr<const std::string> ack) {
  std::vector<std::function<void()>> waiting;
  {
    std::lock_guard lock(mutex_);
    const auto it = under_way_.find({key, cid});
    if (it != under_way_.end()) {
      waiting = std::move(it->second);
      under_way_.erase(it);
    }
    if (ack) remember_locked(key, cid, std::move(ack));
  }
  for (auto& again : waiting) again();
}

void CommandMemory::remember(Key key, const std::string& cid,
                             std::shared_ptr<const std::string> ack) {
  std::lock_guard lock(mutex_);
  remember_locked(key, cid, std::move(ack));
}

std::shared_ptr<const std::string> CommandMemory::recall(Key key, const std::string& cid) const {
  std::lock_guard lock(mutex_);
  return recall_locked(key, cid);
}

void CommandMemory::forget(Key key) {
  std::lock_guard lock(mutex_);
  by_key_.erase(key);
}

void CommandMemory::remember_locked(Key key, const std::string& cid,
                                    std::shared_ptr<const std::string> ack) {
  Remembered& remembered = by_key_[key];
  if (remembered.acks.insert_or_assign(cid, std::move(ack)).second) remembered.order.push_back(cid);
  if (remembered.order.size() > kPerKey) {
    remembered.acks.erase(remembered.order.front());
    remembered.order.pop_front();
  }
}

std::shared_ptr<const std::string> CommandMemory::recall_locked(Key key,
                                                                const std::string& cid) const {
  const auto it = by_key_.find(key);
  if (it == by_key_.end()) return nullptr;
  const auto found = it->second.acks.find(cid);
  return found == it->second.acks.end() ? nullptr : found->second;
}

}  // namespace tengen
