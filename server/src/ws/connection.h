#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "rooms/recipient.h"

namespace tengen {

// What the rest of the server sees of one WebSocket client: a recipient (rooms/recipient.h) the
// network measures. Beast lives behind it.
class Connection : public Recipient {
 public:
  // The last measured round trip to the client, for lag compensation; nullopt if none yet.
  virtual std::optional<std::int64_t> rtt_ms() const { return std::nullopt; }
  // Held by another node of a cluster (docs/cluster.md): what it sends arrives on the bus's
  // thread, which hands it on and runs nothing of the games or the lobby itself.
  virtual bool forwarded() const { return false; }
  // The node of a cluster that holds it (store::Leases::node()); 0: this one.
  virtual std::int64_t node() const { return 0; }
};

// Receives what arrives on connections: decoded, rate-limited commands only.
class Dispatcher {
 public:
  virtual ~Dispatcher() = default;
  virtual void connected(const std::shared_ptr<Connection>& connection) = 0;
  // Answers the command, whatever happens (a refusal, the database away): it does not throw.
  virtual void received(const std::shared_ptr<Connection>& connection,
                        protocol::ClientEnvelope command) = 0;
  virtual void disconnected(const std::shared_ptr<Connection>& connection) = 0;
  // A reply the connection makes by itself (a pong, a decoding or rate-limit error): sent after
  // everything the dispatcher has already produced for that connection, never ahead of it.
  virtual void answer(const std::shared_ptr<Connection>& connection,
                      const protocol::ServerMessage& message) = 0;
  // Calls `then` (on another thread) once everything produced so far, for every connection, has
  // been handed to its connection: a client that half-closed gets the replies it is owed first.
  virtual void after_replies(std::function<void()> then) = 0;
};

}  // namespace tengen
