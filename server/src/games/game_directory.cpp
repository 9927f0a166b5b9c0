#include "games/game_directory.h"

#include <spdlog/spdlog.h>

namespace tengen::games {

std::shared_ptr<GameActor> GameDirectory::make(protocol::GameId id) {
  return std::make_shared<GameActor>(id, s_.host, s_.pool.mailbox());
}

void GameDirectory::post(protocol::GameId id, Input input) {
  std::shared_ptr<GameActor> actor;
  bool fresh = false;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = actors_.find(id); it != actors_.end()) {
      actor = it->second;
    } else if (!closed_ && id >= 1 && (id <= last_id_ || s_.ids_from_elsewhere)) {
      actor = make(id);
      actors_.emplace(id, actor);
      fresh = true;
    }
  }
  if (!actor) {  // no such game: a short-lived actor answers the input
    actor = make(id);
    actor->missing();
    actor->post(std::move(input));
    return;
  }
  actor->post(std::move(input));  // queued while Loading
  if (fresh) load(actor);
}

void GameDirectory::post_in_memory(protocol::GameId id, Input input) {
  std::shared_ptr<GameActor> actor;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = actors_.find(id); it != actors_.end()) actor = it->second;
  }
  if (!actor) {
    actor = make(id);
    actor->missing();
  }
  actor->post(std::move(input));
}

void GameDirectory::load(const std::shared_ptr<GameActor>& actor) {
  s_.loader.post([this, actor] {
    try {
      // The lease first, then the events: whatever its last owner wrote is committed by then
      // (or fenced off). The game left memory once its last events were submitted: read it only
      // once they are durable. This thread waits; nobody else does.
      const auto epoch = s_.leases.take(actor->id());
      if (!epoch) return gone(actor);
      s_.journal.barrier().wait();
      const auto stored = s_.store.stored_game(actor->id());
      if (!stored) return gone(actor);
      auto room = s_.rebuild(*stored);
      const int moves = room->moves_played();
      if (s_.metrics) ++s_.metrics->games_loaded_total;
      install(actor, std::move(room), *epoch, moves);
    } catch (const std::exception& e) {
      spdlog::error("game {} could not be read back from the store: {}", actor->id(), e.what());
      gone(actor);
    }
  });
}

void GameDirectory::gone(const std::shared_ptr<GameActor>& actor) {
  actor->missing();
  forget(*actor);
}

void GameDirectory::install(const std::shared_ptr<GameActor>& actor, std::unique_ptr<Room> room,
                            std::int64_t epoch, int told_moves) {
  if (epoch > 1 && !room->finished()) {
    // Its owner's liveness ran out (a node that died, or this one before a restart).
    spdlog::info("took game {} over (epoch {}) from a node that is gone", actor->id(), epoch);
    if (s_.metrics) ++s_.metrics->games_taken_over_total;
  }
  {
    std::lock_guard lock(mutex_);
    auto players = room->players();
    for (const auto user : players) by_player_[user].insert(actor->id());
    players_[actor->id()] = std::move(players);
  }
  actor->start(std::move(room), epoch, told_moves);
}

void GameDirectory::reserve(protocol::GameId id) {
  std::lock_guard lock(mutex_);
  actors_[id] = make(id);
}

void GameDirectory::add(protocol::GameId id, std::unique_ptr<Room> room, std::int64_t epoch,
                        int told_moves) {
  std::shared_ptr<GameActor> actor;
  {
    std::lock_guard lock(mutex_);
    auto& slot = actors_[id];
    if (!slot) slot = make(id);
    actor = slot;
  }
  install(actor, std::move(room), epoch, told_moves);
}

bool GameDirectory::restore(const store::StoredGame& game) {
  const auto epoch = s_.leases.take(game.created.id);
  if (!epoch) return false;
  auto room = s_.rebuild(game);
  const int moves = room->moves_played();
  add(game.created.id, std::move(room), *epoch, moves);
  return true;
}

void GameDirectory::forget(const GameActor& actor) {
  std::lock_guard lock(mutex_);
  const auto it = actors_.find(actor.id());
  if (it == actors_.end() || it->second.get() != &actor) return;
  actors_.erase(it);
  if (const auto p = players_.find(actor.id()); p != players_.end()) {
    for (const auto user : p->second) {
      if (const auto games = by_player_.find(user); games != by_player_.end()) {
        games->second.erase(actor.id());
        if (games->second.empty()) by_player_.erase(games);
      }
    }
    players_.erase(p);
  }
}

void GameDirectory::abandon(protocol::GameId id) {
  std::shared_ptr<GameActor> actor;
  {
    std::lock_guard lock(mutex_);
    const auto it = actors_.find(id);
    if (it == actors_.end()) return;
    actor = it->second;
  }
  gone(actor);
}

void GameDirectory::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
}

bool GameDirectory::contains(protocol::GameId id) const {
  std::lock_guard lock(mutex_);
  return actors_.contains(id);
}

bool GameDirectory::ready(protocol::GameId id) const {
  std::lock_guard lock(mutex_);
  const auto it = actors_.find(id);
  return it != actors_.end() && it->second->started();
}

std::size_t GameDirectory::size() const {
  std::lock_guard lock(mutex_);
  return actors_.size();
}

std::vector<protocol::GameId> GameDirectory::ids() const {
  std::lock_guard lock(mutex_);
  std::vector<protocol::GameId> out;
  out.reserve(actors_.size());
  for (const auto& [id, actor] : actors_) out.push_back(id);
  return out;
}

std::vector<protocol::GameId> GameDirectory::games_of(std::int64_t user) const {
  std::lock_guard lock(mutex_);
  const auto it = by_player_.find(user);
  if (it == by_player_.end()) return {};
  return {it->second.begin(), it->second.end()};
}

std::int64_t GameDirectory::unfinished() const {
  std::lock_guard lock(mutex_);
  std::int64_t n = 0;
  for (const auto& [id, actor] : actors_) n += !actor->finished();
  return n;
}

}  // namespace tengen::games
