#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

#include "games/game_actor.h"
#include "metrics.h"
#include "rooms/worker.h"
#include "store/game_store.h"
#include "store/journal.h"
#include "store/leases.h"

namespace tengen::games {

// Every game in memory, by id, and its actor (docs/architecture.md, "Owners"): every unfinished
// game, and finished ones someone still watches. A finished game nobody watches leaves memory
// (its actor says so: forget), and comes back from the store when something is posted to it
// again, asynchronously: the actor starts Loading, its inputs wait, and the loader (a thread of
// its own) takes the game's lease, waits until what was submitted about it is durable, reads its
// events and hands the room over. No thread that posts ever waits for the store. Safe from any
// thread; its lock is held only to look up, add or remove an actor, never while a game is worked
// on or read.
class GameDirectory {
 public:
  // Rebuilds a stored game's room (its settings, players and options are the caller's); throws
  // if the store's rows cannot be read.
  using Rebuild = std::function<std::unique_ptr<Room>(const store::StoredGame&)>;

  struct Services {
    store::GameStore& store;
    store::Journal& journal;
    store::Leases& leases;
    Rebuild rebuild;
    ActorPool& pool;
    Worker& loader;
    GameHost& host;
    Metrics* metrics = nullptr;
    // The games' ids are given elsewhere (a node that plays the games the hub's lobby places on
    // it: docs/cluster.md), so that any id may be one to read back; else only those up to the
    // last one given here are.
    bool ids_from_elsewhere = false;
  };
  explicit GameDirectory(Services services) : s_(std::move(services)) {}

  // Ids continue after the last one the store has seen.
  void continue_after(protocol::GameId last) { last_id_ = last; }
  protocol::GameId next_id() { return ++last_id_; }

  // Hands the input to the game's actor, bringing the game back from the store first if it left
  // memory; an input for a game that does not exist (or that a live node owns) is answered so.
  void post(protocol::GameId id, Input input);
  // The same for a game in memory only: a deadline, a suggestion, a read of a game in play.
  void post_in_memory(protocol::GameId id, Input input);
  // A new game's actor, before its room is ready: what is posted to it waits for add().
  void reserve(protocol::GameId id);
  // A new game (its creation submitted already) or one recovered at start: its actor (reserved,
  // or made now) starts with the room. `told_moves`: -1 for a new game (its first move is news).
  void add(protocol::GameId id, std::unique_ptr<Room> room, std::int64_t epoch, int told_moves);
  // A stored game for this node, under the lease it takes (recovery, adoption); false if a live
  // node owns it.
  bool restore(const store::StoredGame& game);
  // A reserved game that will not start (its creation failed): what waits for it is answered as
  // for a game that does not exist.
  void abandon(protocol::GameId id);
  // The actor left memory (over, unwatched): it is forgotten, unless another took its place.
  void forget(const GameActor& actor);
  // No more loads (the server is stopping): inputs for games not in memory are answered as for
  // games that do not exist.
  void close();

  std::size_t size() const;
  bool contains(protocol::GameId id) const;
  // In memory with its room there (not still being read back).
  bool ready(protocol::GameId id) const;
  std::vector<protocol::GameId> ids() const;  // of the games in memory now
  // The games in memory that `user` plays in (the list of their games, their calendars).
  std::vector<protocol::GameId> games_of(std::int64_t user) const;
  std::int64_t unfinished() const;

 private:
  std::shared_ptr<GameActor> make(protocol::GameId id);
  void load(const std::shared_ptr<GameActor>& actor);
  // Installs a room in its actor, indexed by its players.
  void install(const std::shared_ptr<GameActor>& actor, std::unique_ptr<Room> room,
               std::int64_t epoch, int told_moves);
  void gone(const std::shared_ptr<GameActor>& actor);  // missing: answered, and forgotten

  Services s_;
  mutable std::mutex mutex_;
  std::map<protocol::GameId, std::shared_ptr<GameActor>> actors_;
  std::unordered_map<std::int64_t, std::set<protocol::GameId>> by_player_;
  std::map<protocol::GameId, std::vector<std::int64_t>> players_;  // a pair Go game's four
  bool closed_ = false;
  std::atomic<protocol::GameId> last_id_ = 0;
};

}  // namespace tengen::games
