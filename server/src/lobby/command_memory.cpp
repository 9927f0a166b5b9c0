#include "lobby/command_memory.h"

namespace tengen {

void CommandMemory::remember(Key key, const std::string& cid,
                             std::shared_ptr<const std::string> ack) {
  Remembered& remembered = by_key_[key];
  if (remembered.acks.insert_or_assign(cid, std::move(ack)).second) remembered.order.push_back(cid);
  if (remembered.order.size() > kPerKey) {
    remembered.acks.erase(remembered.order.front());
    remembered.order.pop_front();
  }
}

std::shared_ptr<const std::string> CommandMemory::recall(Key key, const std::string& cid) const {
  const auto it = by_key_.find(key);
  if (it == by_key_.end()) return nullptr;
  const auto found = it->second.acks.find(cid);
  return found == it->second.acks.end() ? nullptr : found->second;
}

}  // namespace tengen
