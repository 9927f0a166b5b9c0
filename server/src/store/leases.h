#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tengen::store {

// A game given to a node (store::PostgresLeases::spread, cluster::Roles::give_orphans).
struct Handover {
  std::int64_t game = 0;
  std::int64_t node = 0;
  bool operator==(const Handover&) const = default;
};

// Which node owns each game (docs/cluster.md). A node is alive while it renews its liveness in
// the store; a game is owned by one node at a time under an epoch, which grows when another node
// takes it over because its owner's liveness ran out. Whatever a node writes about a game it
// writes under its epoch (store::Fence): a stale owner's writes fail.
//
// Called from any thread; an implementation serialises its own calls.
class Leases {
 public:
  virtual ~Leases() = default;

  // This node's id and name in the cluster.
  virtual std::int64_t node() const = 0;
  virtual const std::string& name() const = 0;
  // Extends this node's liveness; false when it had already run out (others may have taken its
  // games: the node must stop). Throws if the store cannot be reached.
  virtual bool renew() = 0;
  // Takes `game` for this node if nobody owns it, its owner's liveness ran out, or it is this
  // node's already: the epoch to write it under. nullopt when a live node owns it.
  virtual std::optional<std::int64_t> take(std::int64_t game) = 0;
  // Unfinished games whose owner's liveness ran out (at most `limit`, oldest first): the living
  // take them over.
  virtual std::vector<std::int64_t> orphans(int limit) = 0;
  // For the node that has just become the hub (store::HubLock): the nodes that own games — only a
  // hub does, and the last one's session has ended — are dead from now, so that their games can
  // be taken at once rather than when their leases run out. `spare_running`: games are played on
  // every node (docs/cluster.md, "Games on every node"), so that only those that are not running
  // any more (no session of their own left) are.
  virtual void end_game_owners(bool spare_running) = 0;
  // This node stops for good, everything it acknowledged stored (docs/cluster.md, "Stopping a
  // node"): it is ended now, so that its games are anyone's to take at once rather than when its
  // liveness runs out.
  virtual void end() = 0;
};

// A cluster of one: a SQLite file has one server (store::DatabaseLock), which owns every game
// under epoch 1 and never loses it.
class SoleNode final : public Leases {
 public:
  std::int64_t node() const override { return 1; }
  const std::string& name() const override { return name_; }
  bool renew() override { return true; }
  std::optional<std::int64_t> take(std::int64_t) override { return 1; }
  std::vector<std::int64_t> orphans(int) override { return {}; }
  void end_game_owners(bool) override {}
  void end() override {}

 private:
  std::string name_ = "sole";
};

}  // namespace tengen::store
