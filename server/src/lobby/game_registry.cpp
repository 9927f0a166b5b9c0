#include "lobby/game_registry.h"

#include <spdlog/spdlog.h>

namespace tengen {

void GameRegistry::add(protocol::GameId id, std::shared_ptr<GameSlot> slot) {
  std::lock_guard lock(mutex_);
  slots_[id] = std::move(slot);
}

std::shared_ptr<GameSlot> GameRegistry::find(protocol::GameId id) const {
  std::lock_guard lock(mutex_);
  const auto it = slots_.find(id);
  return it == slots_.end() ? nullptr : it->second;
}

std::shared_ptr<GameSlot> GameRegistry::load(protocol::GameId id) {
  if (auto slot = find(id)) return slot;
  if (id < 1 || id > last_id_) return nullptr;
  // One game brought back at a time, and looked for again first: two threads reading the same
  // game would make two rooms, and the second, built before the first's events were stored,
  // would number its next event with a number already taken.
  std::lock_guard loading(loading_);
  if (auto slot = find(id)) return slot;
  // The lease first, then the events: whatever its last owner wrote is committed by then (or
  // fenced off). The game left memory once its last events were submitted; read it only once
  // they are durable. Neither wait nor read holds the registry's lock: other games are not held
  // up.
  const auto epoch = leases_.take(id);
  if (!epoch) return nullptr;
  journal_.barrier().wait();
  auto stored = store_.stored_game(id);
  if (!stored) return nullptr;
  return built(*stored, *epoch);
}

std::shared_ptr<GameSlot> GameRegistry::restore(const store::StoredGame& game) {
  const auto epoch = leases_.take(game.created.id);
  if (!epoch) return nullptr;
  return built(game, *epoch);
}

std::shared_ptr<GameSlot> GameRegistry::built(const store::StoredGame& game, std::int64_t epoch) {
  auto slot = std::make_shared<GameSlot>(rebuild_(game), epoch);
  if (epoch > 1 && !slot->finished) {
    // Its owner's liveness ran out (a node that died, or this one before a restart).
    spdlog::info("took game {} over (epoch {}) from a node that is gone", game.created.id, epoch);
    if (metrics_) ++metrics_->games_taken_over_total;
  }
  add(game.created.id, slot);
  return slot;
}

void GameRegistry::evict_if_done(protocol::GameId id, GameSlot& slot) {
  if (!slot.room || !slot.room->finished() || slot.room->watched()) return;
  slot.room.reset();
  std::lock_guard lock(mutex_);
  if (const auto it = slots_.find(id); it != slots_.end() && it->second.get() == &slot)
    slots_.erase(it);
}

std::vector<protocol::GameId> GameRegistry::ids() const {
  std::lock_guard lock(mutex_);
  std::vector<protocol::GameId> out;
  out.reserve(slots_.size());
  for (const auto& [id, slot] : slots_) out.push_back(id);
  return out;
}

std::size_t GameRegistry::size() const {
  std::lock_guard lock(mutex_);
  return slots_.size();
}

std::int64_t GameRegistry::unfinished() const {
  std::lock_guard lock(mutex_);
  std::int64_t n = 0;
  for (const auto& [id, slot] : slots_) n += !slot->finished.load();
  return n;
}

}  // namespace tengen
