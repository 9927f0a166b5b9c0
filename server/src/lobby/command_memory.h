#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

namespace tengen {

// The acknowledgements of recently applied commands, so that a command sent again with the same
// cid (a client retrying after a reconnect) is answered again and never applied twice
// (docs/protocol.md). Kept per account, or per connection for a guest, and bounded: the newest
// kPerKey of each. The hub fills it as commands are applied, and after a restart from the
// commands the store remembers.
//
// Safe from any thread. Commands for different games run at once, so the same cid may arrive on
// two connections of one account while the first is still being applied: `begin` claims the cid
// for the first, and the second waits in `begin` until the first has `end`ed, then gets its ack
// (or, if the first was refused, the claim).
class CommandMemory {
 public:
  using Key = std::int64_t;  // a user id, or −(connection id) for a guest
  static constexpr std::size_t kPerKey = 512;

  // The ack to answer again if the command `cid` of `key` was applied; otherwise null, and the
  // caller holds the cid's claim until it calls `end` (exactly once).
  std::shared_ptr<const std::string> begin(Key key, const std::string& cid);
  // Ends the claim: with the encoded ack if the command was applied (and its ack submitted), or
  // null if it was refused (the cid may then be sent again and applied).
  void end(Key key, const std::string& cid, std::shared_ptr<const std::string> ack);

  // The encoded ack of the command `cid` of `key`, answered again if it comes back.
  void remember(Key key, const std::string& cid, std::shared_ptr<const std::string> ack);
  // The ack remembered for `cid`, or null if no such command was applied (or it is forgotten).
  std::shared_ptr<const std::string> recall(Key key, const std::string& cid) const;
  // Forgets everything of `key` (a guest's commands die with its connection).
  void forget(Key key);

 private:
  struct Remembered {
    std::deque<std::string> order;  // oldest first
    std::map<std::string, std::shared_ptr<const std::string>> acks;
  };
  void remember_locked(Key key, const std::string& cid, std::shared_ptr<const std::string> ack);
  std::shared_ptr<const std::string> recall_locked(Key key, const std::string& cid) const;

  mutable std::mutex mutex_;
  std::condition_variable ended_;
  std::unordered_map<Key, Remembered> by_key_;
  std::set<std::pair<Key, std::string>> under_way_;  // claimed by `begin`, not yet ended
};

}  // namespace tengen
