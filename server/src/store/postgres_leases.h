#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/leases.h"
#include "store/postgres.h"

namespace tengen::store {

// Leases on a migrated PostgreSQL database (migrations/postgres/0005_nodes.sql, 0011), on a
// connection of their own named after the node (tengen-node-N in pg_stat_activity), so that
// renewing never waits behind a group commit. Expiry is by PostgreSQL's clock, the one clock
// every node shares. A call while the database is away throws store::Unreachable; the next one
// connects again. A node whose liveness ran out while the database was away is alive again when
// it renews, unless another node ended it meanwhile (docs/cluster.md).
class PostgresLeases final : public Leases {
 public:
  struct Options {
    std::string name;  // unique among the running nodes
    std::chrono::milliseconds ttl{5000};
    // This node is known to be the only one running (it holds the one-server lock): every other
    // node's liveness ends now, so that a restart takes its predecessor's games at once.
    bool sole = false;
  };

  // Joins the cluster as a new node. A node that ran under the same name before is taken to be
  // dead from now on: a restarted node takes its own games back at once. Throws
  // std::runtime_error if a node of that name is alive and connected to the database (unless
  // `sole`, whose one-server lock says there is no other).
  PostgresLeases(const std::string& conninfo, Options options);
  ~PostgresLeases() override;

  std::int64_t node() const override { return node_; }
  const std::string& name() const override { return options_.name; }
  bool renew() override;
  std::optional<std::int64_t> take(std::int64_t game) override;
  std::vector<std::int64_t> orphans(int limit) override;
  void end_game_owners(bool spare_running) override;
  void end() override;
  // Of `nodes`, those not alive now: ended, expired, or no longer connected to the database (a
  // node killed with SIGKILL: PostgreSQL ends its sessions at once). The hub lets go of their
  // connections (cluster::Roles::let_go_of_dead_nodes).
  std::vector<std::int64_t> gone(const std::vector<std::int64_t>& nodes);
  // Games on every node (docs/cluster.md): the games, finished or not, that the other running
  // nodes own, with their owner — for a node that becomes the hub (the last hub is not running),
  // the games the lobby placed on other nodes.
  std::vector<std::pair<std::int64_t, std::int64_t>> placements();
  // The running node that owns `game`, if another than this one.
  std::optional<std::int64_t> owner_elsewhere(std::int64_t game);

  // Games on every node, for the hub (docs/cluster.md, "A node that dies"): the movable games
  // (GameOwned::movable) whose owner's liveness ran out, at most `limit`, oldest first, each
  // given to the running node with the fewest games in play — on a tie, another than this one
  // (the hub, which runs the lobby too), then the lowest id — counting those given before it.
  std::vector<Handover> spread(int limit);
  // Gives each game of `plan` to its node, one epoch on, if its owner's liveness has still run out
  // and the node is running (the owner is ended for good, as by take()). Returns, for each game
  // of the plan that a live node owns now, that node: the planned one, or one that took the game
  // itself meanwhile (this one, a command having reached it first); a game not returned is
  // still an orphan (its node stopped meanwhile).
  std::vector<Handover> hand(const std::vector<Handover>& plan);

 private:
  // Runs `call` on the connection, under mutex_.
  template <class F>
  auto with_db(F&& call);
  pg::Connection::Options application() const;

  std::string conninfo_;
  Options options_;
  std::mutex mutex_;
  std::unique_ptr<pg::Connection> db_;
  std::int64_t node_ = 0;
};

}  // namespace tengen::store
