#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "metrics.h"
#include "rooms/room.h"
#include "store/game_store.h"
#include "store/journal.h"
#include "store/leases.h"

namespace tengen {

// One game in memory and the lock that serialises everything done to it: commands, deadlines,
// suggestions and the submission of what they produced (docs/architecture.md, "Threads").
struct GameSlot {
  GameSlot(std::unique_ptr<Room> r, std::int64_t lease_epoch)
      : epoch(lease_epoch),
        finished(r->finished()),
        told_moves(r->moves_played()),
        room(std::move(r)) {}

  // The epoch this node owns the game under (store/leases.h): every write about it is fenced
  // with it.
  const std::int64_t epoch;

  std::mutex mutex;
  // Whether the game is over, as of the last operation on it (read without the lock, for the
  // gauges).
  std::atomic<bool> finished;
  // Under `mutex`: the moves played when the player to move was last told so (Hub's notify). A
  // game read back from the store starts as told; a new one (-1) tells Black of the first move.
  int told_moves;
  // Under `mutex`. Null once the game has left memory: whoever locked the slot too late looks
  // the game up again.
  std::unique_ptr<Room> room;
};

// The games in memory, by id: every unfinished game, and finished ones someone still watches.
// A finished game nobody watches leaves memory (evict_if_done), and comes back from the store
// when it is asked for again (load), once this node has taken its lease. New games take the next
// id. Safe from any thread; its own lock is held only to look up, add or remove a slot, never
// while a room is worked on.
class GameRegistry {
 public:
  // Rebuilds a stored game's room (its settings, players and options are the caller's).
  using Rebuild = std::function<std::unique_ptr<Room>(const store::StoredGame&)>;

  GameRegistry(store::GameStore& store, store::Journal& journal, store::Leases& leases,
               Rebuild rebuild, Metrics* metrics)
      : store_(store),
        journal_(journal),
        leases_(leases),
        rebuild_(std::move(rebuild)),
        metrics_(metrics) {}

  // Ids continue after the last one the store has seen.
  void continue_after(protocol::GameId last) { last_id_ = last; }
  protocol::GameId next_id() { return ++last_id_; }

  // Adds a new game's slot (the caller may hold its lock already, so that nobody else works on
  // the game before its creation is submitted).
  void add(protocol::GameId id, std::shared_ptr<GameSlot> slot);
  // The game's slot if it is in memory; null otherwise.
  std::shared_ptr<GameSlot> find(protocol::GameId id) const;
  // The game's slot, brought back from the store if it has left memory; null if no such game,
  // or if another live node owns it (in a cluster only the hub owns games: docs/cluster.md).
  std::shared_ptr<GameSlot> load(protocol::GameId id);
  // A stored game's slot for this node, under the lease it takes; null if a live node owns it.
  std::shared_ptr<GameSlot> restore(const store::StoredGame& game);
  // Lets the game leave memory if it is over and nobody watches it; the caller holds the slot's
  // lock.
  void evict_if_done(protocol::GameId id, GameSlot& slot);

  std::size_t size() const;
  std::vector<protocol::GameId> ids() const;  // of the games in memory now
  std::int64_t unfinished() const;

 private:
  std::shared_ptr<GameSlot> built(const store::StoredGame& game, std::int64_t epoch);

  store::GameStore& store_;
  store::Journal& journal_;
  store::Leases& leases_;
  Rebuild rebuild_;
  Metrics* metrics_;
  mutable std::mutex mutex_;
  std::mutex loading_;  // held while a game is read back from the store
  std::map<protocol::GameId, std::shared_ptr<GameSlot>> slots_;
  std::atomic<protocol::GameId> last_id_ = 0;
};

}  // namespace tengen
