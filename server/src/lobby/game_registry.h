#pragma once

#include <functional>
#include <map>
#include <memory>

#include "rooms/room.h"
#include "store/game_store.h"

namespace tengen {

// The games in memory, by id: every unfinished game, and finished ones someone still watches.
// A finished game nobody watches leaves memory (evict_if_done), and comes back from the store
// when it is asked for again (load). New games take the next id.
class GameRegistry {
 public:
  // Rebuilds a stored game's room (its settings, players and options are the caller's).
  using Rebuild = std::function<std::unique_ptr<Room>(const store::StoredGame&)>;

  GameRegistry(store::GameStore& store, Rebuild rebuild)
      : store_(store), rebuild_(std::move(rebuild)) {}

  // Ids continue after the last one the store has seen.
  void continue_after(protocol::GameId last) { last_id_ = last; }
  protocol::GameId next_id() { return ++last_id_; }

  Room& add(protocol::GameId id, std::unique_ptr<Room> room);
  // The game's room if it is in memory; null otherwise.
  Room* find(protocol::GameId id) const;
  // The game's room, brought back from the store if it has left memory; null if no such game.
  Room* load(protocol::GameId id);
  // Lets the game leave memory if it is over and nobody watches it.
  void evict_if_done(protocol::GameId id);

  std::size_t size() const { return rooms_.size(); }
  std::int64_t unfinished() const;

 private:
  store::GameStore& store_;
  Rebuild rebuild_;
  std::map<protocol::GameId, std::unique_ptr<Room>> rooms_;
  protocol::GameId last_id_ = 0;
};

}  // namespace tengen
