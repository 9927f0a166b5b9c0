#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/result.h"
#include "rooms/recipient.h"
#include "store/game_store.h"

namespace tengen {

// A game that ended: what ratings and tournaments learn it from.
struct GameOver {
  protocol::GameId game = 0;
  Result result;
};

// What one command (or deadline) produced: rows to store, messages to send, and the games it
// ended. The hub tells ratings and tournaments of the ended games, then hands the rows and
// messages to the journal, which sends the messages only once the rows are durable
// (docs/persistence.md).
struct Outbox {
  std::vector<store::Write> writes;
  std::vector<std::pair<std::shared_ptr<Recipient>, std::shared_ptr<const std::string>>> sends;
  std::vector<GameOver> ended;

  void send(const std::shared_ptr<Recipient>& to, std::shared_ptr<const std::string> text) {
    sends.emplace_back(to, std::move(text));
  }
  void send(const std::shared_ptr<Recipient>& to, const protocol::ServerMessage& message) {
    send(to, std::make_shared<const std::string>(protocol::encode(message)));
  }
  // Moves everything into `into`, after what it holds.
  void drain_into(Outbox& into) {
    for (auto& w : writes) into.writes.push_back(std::move(w));
    for (auto& s : sends) into.sends.push_back(std::move(s));
    into.ended.insert(into.ended.end(), ended.begin(), ended.end());
    writes.clear();
    sends.clear();
    ended.clear();
  }
  bool empty() const { return writes.empty() && sends.empty() && ended.empty(); }
};

}  // namespace tengen
