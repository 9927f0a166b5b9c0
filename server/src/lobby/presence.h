#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "rooms/outbox.h"
#include "ws/connection.h"

namespace tengen {

// Who is connected, and who is online (a logged-in user with at least one connection): whom a
// message for one user, or for everyone, goes to; and the arrivals and departures not yet told,
// which go out together in one presence message (at most kListed in each, the rest in the
// next), so that a crowd logging in does not send everyone a message each.
class Presence {
 public:
  // The lobby message names at most this many users online (and counts everyone), and each
  // presence message at most this many changes, so that neither outgrows a connection's queue
  // however many are online (~40 bytes a name).
  static constexpr std::size_t kListed = 500;

  // A new connection; true if it is its user's first (they came online: a change to tell).
  bool connected(const std::shared_ptr<Connection>& connection);
  // A connection gone; true if it was its user's last (they went offline: a change to tell).
  bool disconnected(const Connection& connection);

  void send_to_user(std::int64_t user, const std::shared_ptr<const std::string>& text,
                    Outbox& out) const;
  void send_to_all(const std::shared_ptr<const std::string>& text, Outbox& out) const;
  // To every connection but those of users `skip` names (guests are never skipped).
  void send_to_all_but(const std::function<bool(std::int64_t user)>& skip,
                       const std::shared_ptr<const std::string>& text, Outbox& out) const;

  // The first kListed users online, and how many there are, for a lobby message.
  std::vector<protocol::UserRef> listed() const;
  std::int64_t online_count() const { return static_cast<std::int64_t>(online_.size()); }

  // Notes that the user came online or went offline (the latest word on each user counts);
  // true if nothing was waiting to be told before (the caller arms the next presence message).
  bool note(const protocol::UserRef& user, bool online);
  // The next presence message, and whether changes remain for another; nullopt if none waits.
  std::optional<protocol::Presence> take_message();
  bool changes_waiting() const { return !changes_.empty(); }

 private:
  std::map<std::uint64_t, std::shared_ptr<Connection>> all_;  // by connection id
  // Each logged-in user's connections, in arrival order.
  std::map<std::int64_t, std::vector<std::shared_ptr<Connection>>> online_;
  std::map<std::int64_t, std::pair<protocol::UserRef, bool>> changes_;  // true: came online
};

}  // namespace tengen
