#pragma once

#include <cstdint>
#include <deque>
#include <functional>
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
// Safe from any thread, and nobody waits in it. Commands for different games run at once, so the
// same cid may arrive on two connections of one account while the first is still being applied:
// `begin` claims the cid for the first; the second is told to come back, and its `when_free` is
// called once the first has `end`ed (it then gets the ack, or, if the first was refused, the
// claim).
class CommandMemory {
 public:
  using Key = std::int64_t;  // a user id, or −(connection id) for a guest
  static constexpr std::size_t kPerKey = 512;

  struct Begun {
    std::shared_ptr<const std::string> ack;  // applied already: answer this again
    bool claimed = false;  // the caller holds the cid's claim until it calls `end` (exactly once)
  };
  // Neither ack nor claim: the cid is under way on another connection; `when_free` is called
  // (on the thread that ends it) when it is no longer, to begin again.
  Begun begin(Key key, const std::string& cid, std::function<void()> when_free);
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
  std::unordered_map<Key, Remembered> by_key_;
  // Claimed by `begin`, not yet ended; with whoever came back for the same cid meanwhile.
  std::map<std::pair<Key, std::string>, std::vector<std::function<void()>>> under_way_;
};

}  // namespace tengen
