#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

namespace tengen {

// The acknowledgements of recently applied commands, so that a command sent again with the same
// cid (a client retrying after a reconnect) is answered again and never applied twice
// (docs/protocol.md). Kept per account, or per connection for a guest, and bounded: the newest
// kPerKey of each. The hub fills it as commands are applied, and after a restart from the
// commands the store remembers.
class CommandMemory {
 public:
  using Key = std::int64_t;  // a user id, or −(connection id) for a guest
  static constexpr std::size_t kPerKey = 512;

  // The encoded ack of the command `cid` of `key`, answered again if it comes back.
  void remember(Key key, const std::string& cid, std::shared_ptr<const std::string> ack);
  // The ack remembered for `cid`, or null if no such command was applied (or it is forgotten).
  std::shared_ptr<const std::string> recall(Key key, const std::string& cid) const;
  // Forgets everything of `key` (a guest's commands die with its connection).
  void forget(Key key) { by_key_.erase(key); }

 private:
  struct Remembered {
    std::deque<std::string> order;  // oldest first
    std::map<std::string, std::shared_ptr<const std::string>> acks;
  };
  std::unordered_map<Key, Remembered> by_key_;
};

}  // namespace tengen
