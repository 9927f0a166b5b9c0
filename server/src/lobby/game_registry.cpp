#include "lobby/game_registry.h"

namespace tengen {

Room& GameRegistry::add(protocol::GameId id, std::unique_ptr<Room> room) {
  auto& slot = rooms_[id];
  slot = std::move(room);
  return *slot;
}

Room* GameRegistry::find(protocol::GameId id) const {
  const auto it = rooms_.find(id);
  return it == rooms_.end() ? nullptr : it->second.get();
}

Room* GameRegistry::load(protocol::GameId id) {
  if (Room* room = find(id)) return room;
  if (id < 1 || id > last_id_) return nullptr;
  auto stored = store_.stored_game(id);
  if (!stored) return nullptr;
  return &add(id, rebuild_(*stored));
}

void GameRegistry::evict_if_done(protocol::GameId id) {
  if (const auto it = rooms_.find(id);
      it != rooms_.end() && it->second->finished() && !it->second->watched()) {
    rooms_.erase(it);
  }
}

std::int64_t GameRegistry::unfinished() const {
  std::int64_t n = 0;
  for (const auto& [id, room] : rooms_) n += !room->finished();
  return n;
}

}  // namespace tengen
