#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "store/leases.h"

namespace tengen::store {
namespace pg {
class Connection;
}

// Leases on a migrated PostgreSQL database (migrations/postgres/0005_nodes.sql), on a connection
// of their own, so that renewing never waits behind a group commit. Expiry is by PostgreSQL's
// clock, the one clock every node shares. A call that finds the connection broken throws; the
// next one connects again (a database restarted within the lease's time costs nobody anything).
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
  // dead from now on: a restarted node takes its own games back at once.
  PostgresLeases(const std::string& conninfo, Options options);
  ~PostgresLeases() override;

  std::int64_t node() const override { return node_; }
  const std::string& name() const override { return options_.name; }
  bool renew() override;
  std::optional<std::int64_t> take(std::int64_t game) override;
  std::vector<std::int64_t> orphans(int limit) override;
  void end_game_owners() override;

 private:
  // The connection, made again if the last call found it broken. Under mutex_.
  pg::Connection& db();
  // Runs `call` on the connection; on a failure of the connection itself, drops it and throws.
  template <class F>
  auto with_db(F&& call);

  std::string conninfo_;
  Options options_;
  std::mutex mutex_;
  std::unique_ptr<pg::Connection> db_;
  std::int64_t node_ = 0;
};

}  // namespace tengen::store
