#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/codec.h"
#include "protocol/messages.h"
#include "store/account_store.h"

namespace tengen {

// Someone a room's events and replies go to: who they are, and a queue that takes messages. In
// the server a WebSocket connection (ws/connection.h), in tests a recorder. Rooms, review boards
// and the outbox know this and nothing of sockets (docs/architecture.md).
class Recipient {
 public:
  virtual ~Recipient() = default;
  // Queues a message; safe from any thread. The same buffer may go to many recipients.
  virtual void send(std::shared_ptr<const std::string> message) = 0;
  // Queues several messages, in order, at the cost of one: what one command produced for this
  // recipient (an ack and the event it caused) travels together.
  virtual void send_all(std::vector<std::shared_ptr<const std::string>> messages) {
    for (auto& m : messages) send(std::move(m));
  }
  void send(const protocol::ServerMessage& message) {
    send(std::make_shared<const std::string>(protocol::encode(message)));
  }
  virtual std::uint64_t id() const = 0;
  virtual const std::optional<store::UserRecord>& user() const = 0;  // nullopt for a guest
};

}  // namespace tengen
