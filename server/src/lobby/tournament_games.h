#pragma once

#include <map>
#include <mutex>
#include <optional>

#include "protocol/messages.h"
#include "rooms/room_options.h"

namespace tengen {

// Which games belong to a tournament, and how their rooms run (docs/tournaments.md): written by
// the lobby when its tournaments open a game (and at recovery), read by the loader when a game
// comes back from the store and by the moderation's game actions. Safe from any thread: its lock
// is a leaf, held only to copy one entry in or out.
class TournamentGames {
 public:
  void add(protocol::GameId game, const RoomOptions& options) {
    std::lock_guard lock(mutex_);
    games_[game] = options;
  }
  std::optional<RoomOptions> options_of(protocol::GameId game) const {
    std::lock_guard lock(mutex_);
    const auto it = games_.find(game);
    if (it == games_.end()) return std::nullopt;
    return it->second;
  }

 private:
  mutable std::mutex mutex_;
  std::map<protocol::GameId, RoomOptions> games_;
};

}  // namespace tengen
