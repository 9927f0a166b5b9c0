#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "store/game_store.h"
#include "ws/connection.h"

namespace tengen {

// What one command (or deadline) produced: rows to store and messages to send. The hub hands it
// to the journal, which sends the messages only once the rows are durable (docs/persistence.md).
struct Outbox {
  std::vector<store::Write> writes;
  std::vector<std::pair<std::shared_ptr<Connection>, std::shared_ptr<const std::string>>> sends;

  void send(const std::shared_ptr<Connection>& to, std::shared_ptr<const std::string> text) {
    sends.emplace_back(to, std::move(text));
  }
  void send(const std::shared_ptr<Connection>& to, const protocol::ServerMessage& message) {
    send(to, std::make_shared<const std::string>(protocol::encode(message)));
  }
  // Moves everything into `into`, after what it holds.
  void drain_into(Outbox& into) {
    for (auto& w : writes) into.writes.push_back(std::move(w));
    for (auto& s : sends) into.sends.push_back(std::move(s));
    writes.clear();
    sends.clear();
  }
  bool empty() const { return writes.empty() && sends.empty(); }
};

}  // namespace tengen
