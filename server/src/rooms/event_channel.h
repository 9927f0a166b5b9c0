#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "engine/color.h"
#include "protocol/messages.h"
#include "rooms/outbox.h"

namespace tengen {

// Who may receive an event besides every member: the room that publishes it says (Room::sees).
struct EventAudience {
  bool spectators_only = false;  // a game's spectators' chat: players see it once it is over
  std::int64_t author = 0;       // a chat line's: not sent to those who block them
  std::optional<Color> only{};   // sent only to this colour's player (their conditional moves)
};

// The audience of one room, a game or a review board (docs/architecture.md): its members, the
// numbering of its events, the newest events kept for members who come back (resume), and the
// fan-out of each event to the members who may see it. It sends nothing itself: what it fans out
// joins the room's outbox, which goes once what it stores is durable. Not thread-safe: the room's
// owner serialises calls.
class EventChannel {
 public:
  using Member = std::shared_ptr<Recipient>;
  using Text = std::shared_ptr<const std::string>;
  struct Event {
    protocol::Seq seq = 0;
    Text text;
    EventAudience audience{};
  };

  // Kept for resumption: at most `kept_events`, and at most `kept_bytes`, so that what a member
  // who comes back missed fits their queue; older than that, they get a snapshot. 0 keeps none.
  EventChannel(std::size_t kept_events, std::size_t kept_bytes)
      : kept_events_(kept_events), kept_bytes_(kept_bytes) {}

  // The number of the last event, and the next one taken; restored on recovery.
  protocol::Seq seq() const noexcept { return seq_; }
  protocol::Seq next() noexcept { return ++seq_; }
  void restore_seq(protocol::Seq seq) noexcept { seq_ = seq; }

  const std::set<Member>& members() const noexcept { return members_; }
  bool empty() const noexcept { return members_.empty(); }
  std::size_t size() const noexcept { return members_.size(); }
  bool contains(const Member& m) const { return members_.contains(m); }
  bool add(const Member& m) { return members_.insert(m).second; }
  bool remove(const Member& m) { return members_.erase(m) > 0; }
  void clear() { members_.clear(); }
  // Removes the members `pred` picks (it may send them a last word); how many.
  template <class Pred>
  std::size_t remove_if(Pred pred) {
    return std::erase_if(members_, pred);
  }

  // An event: to every member `sees(member, audience)` lets see it, and kept.
  template <class Sees>
  void publish(Event e, Outbox& out, const Sees& sees) {
    for (const auto& m : members_) {
      if (sees(m, e.audience)) out.send(m, e.text);
    }
    keep(std::move(e));
  }
  // A message to every member, not numbered, not kept (who follows, how many watch).
  void broadcast(const Text& text, Outbox& out) const {
    for (const auto& m : members_) out.send(m, text);
  }
  void broadcast(const protocol::ServerMessage& message, Outbox& out) const {
    if (members_.empty()) return;
    broadcast(std::make_shared<const std::string>(protocol::encode(message)), out);
  }

  // What `who` missed since event `since`, if every event after it is kept: sent (those it may
  // see), and true; false when it needs a snapshot instead.
  template <class Sees>
  bool resume(const Member& who, std::optional<protocol::Seq> since, Outbox& out,
              const Sees& sees) const {
    if (!since || *since > seq_) return false;
    // Missed events it no longer keeps (or, keeping none, any at all).
    if (kept_.empty() ? *since != seq_ : *since + 1 < kept_.front().seq) return false;
    for (const auto& e : kept_) {
      if (e.seq > *since && sees(who, e.audience)) out.send(who, e.text);
    }
    return true;
  }

  // Keeps an event without sending it (recovery: stored events, sent long ago).
  void keep(Event e);
  // A kept event's text replaced (an administrator deleted a chat line: a client resuming from
  // before it must not get its words back); nothing if it is not kept.
  void rewrite(protocol::Seq seq, Text text);
  void forget_kept() {
    kept_.clear();
    kept_bytes_now_ = 0;
  }

 private:
  std::size_t kept_events_;
  std::size_t kept_bytes_;
  protocol::Seq seq_ = 0;
  std::set<Member> members_;
  std::deque<Event> kept_;
  std::size_t kept_bytes_now_ = 0;
};

}  // namespace tengen
