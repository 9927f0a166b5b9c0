#include "store/postgres_leases.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>

#include "store/postgres.h"

namespace tengen::store {
namespace {

// A node is alive while its row has not expired.
constexpr const char* kAlive = "n.expires_at > now()";
// It is running while, besides, nobody ended it and it is connected to the database (a session
// named after it in pg_stat_activity: a process killed loses its sessions at once).
const std::string kRunning = std::string(kAlive) +
                             " AND n.ended_at IS NULL AND EXISTS (SELECT 1 FROM pg_stat_activity a"
                             "  WHERE a.application_name = 'tengen-node-' || n.id)";

}  // namespace

PostgresLeases::PostgresLeases(const std::string& conninfo, Options options)
    : conninfo_(conninfo), options_(std::move(options)) {
  pg::Connection joining(conninfo);
  pg::Transaction tx(joining);
  // A node of this name that is alive and connected to the database (a session named after it,
  // pg_stat_activity) is running: two nodes under one name would end each other in turn.
  const auto running =
      joining.query("SELECT n.id FROM nodes n WHERE n.name = $1 AND " + kRunning, {options_.name});
  if (running.rows() > 0 && !options_.sole) {
    throw std::runtime_error("a node named '" + options_.name + "' is running already (node " +
                             running.text(0, 0) +
                             "): give this one a name of its own with --node (docs/cluster.md)");
  }
  // One that is not connected is dead (killed, its machine gone): this one takes its place now.
  joining.query(
      "UPDATE nodes SET expires_at = now(), ended_at = now() WHERE expires_at > now()"
      " AND ended_at IS NULL AND (name = $1 OR $2)",
      {options_.name, options_.sole});
  node_ = joining
              .query(
                  "INSERT INTO nodes(name, expires_at)"
                  " VALUES ($1, now() + $2 * interval '1 millisecond') RETURNING id",
                  {options_.name, static_cast<std::int64_t>(options_.ttl.count())})
              .int64(0, 0);
  tx.commit();
  db_ = std::make_unique<pg::Connection>(conninfo_, application());
}

pg::Connection::Options PostgresLeases::application() const {
  return {"tengen-node-" + std::to_string(node_)};
}

PostgresLeases::~PostgresLeases() = default;

template <class F>
auto PostgresLeases::with_db(F&& call) {
  std::lock_guard lock(mutex_);
  return call(*db_);  // a broken connection is made again by the next statement
}

bool PostgresLeases::renew() {
  return with_db([&](pg::Connection& db) {
    // Alive again even if the liveness ran out (the database was away longer than the lease),
    // unless another node ended it: nobody takes a game from a node whose liveness ran out but
    // a hub, and a new hub ends the last one first (end_game_owners).
    const auto r = db.query_idempotent(
        "WITH before AS (SELECT expires_at <= now() AS expired FROM nodes WHERE id = $1)"
        " UPDATE nodes SET expires_at = now() + $2 * interval '1 millisecond'"
        " WHERE id = $1 AND ended_at IS NULL RETURNING (SELECT expired FROM before)",
        {node_, static_cast<std::int64_t>(options_.ttl.count())});
    if (r.rows() == 1 && r.boolean(0, 0)) {
      spdlog::warn(
          "node {}'s liveness ran out while it could not renew it, and nobody ended it: "
          "it is alive again",
          options_.name);
    }
    return r.rows() == 1;
  });
}

std::optional<std::int64_t> PostgresLeases::take(std::int64_t game) {
  // Inserted when nobody owns the game yet; moved here, one epoch on, when its owner is dead
  // (which is then ended for good);
  // left alone when a live node (this one included) owns it. Two nodes taking one game at once
  // queue on its row, and the second then sees the first alive. A dead node takes nothing.
  // The outer SELECT sees the table as it was before the statement: this node's lease from
  // before, or none.
  return with_db([&](pg::Connection& db) -> std::optional<std::int64_t> {
    const auto r =
        db.query(std::string("WITH me AS (SELECT n.id FROM nodes n WHERE n.id = $2 AND ") + kAlive +
                     "), before AS (SELECT node_id FROM game_leases WHERE game_id = $1)"
                     ", claimed AS ("
                     " INSERT INTO game_leases(game_id, node_id, epoch)"
                     " SELECT g.id, me.id, 1 FROM games g, me WHERE g.id = $1"
                     " ON CONFLICT (game_id) DO UPDATE SET node_id = excluded.node_id,"
                     "  epoch = game_leases.epoch + 1, taken_at = now()"
                     " WHERE game_leases.node_id <> excluded.node_id AND NOT EXISTS ("
                     "  SELECT 1 FROM nodes n WHERE n.id = game_leases.node_id AND " +
                     kAlive +
                     ")"
                     " RETURNING epoch)"
                     // The node it was taken from is ended: it does not come back to life when
                     // it renews (renew()), it stops.
                     ", ended AS (UPDATE nodes SET ended_at = now() WHERE id IN ("
                     "  SELECT node_id FROM before) AND id <> $2 AND ended_at IS NULL"
                     "  AND EXISTS (SELECT 1 FROM claimed))"
                     " SELECT epoch FROM claimed"
                     " UNION ALL SELECT l.epoch FROM game_leases l, me WHERE l.game_id = $1"
                     " AND l.node_id = me.id",
                 {game, node_});
    if (r.rows() == 0) return std::nullopt;
    return r.int64(0, 0);
  });
}

std::vector<std::int64_t> PostgresLeases::orphans(int limit) {
  return with_db([&](pg::Connection& db) {
    const auto r =
        db.query(std::string("SELECT l.game_id FROM game_leases l JOIN games g ON g.id = l.game_id"
                             " WHERE g.ended_at IS NULL AND NOT EXISTS ("
                             "  SELECT 1 FROM nodes n WHERE n.id = l.node_id AND ") +
                     kAlive + ") ORDER BY l.game_id LIMIT $1",
                 {limit});
    std::vector<std::int64_t> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(r.int64(i, 0));
    return out;
  });
}

void PostgresLeases::end_game_owners(bool spare_running) {
  with_db([&](pg::Connection& db) {
    db.query(
        "UPDATE nodes n SET expires_at = least(n.expires_at, now()), ended_at = now()"
        " WHERE n.id <> $1 AND n.ended_at IS NULL AND n.id IN (SELECT node_id FROM game_leases)" +
            (spare_running ? " AND NOT (" + kRunning + ")" : std::string()),
        {node_});
    return 0;
  });
}

void PostgresLeases::end() {
  with_db([&](pg::Connection& db) {
    db.query(
        "UPDATE nodes SET expires_at = least(expires_at, now()), ended_at = now() WHERE id = $1",
        {node_});
    return 0;
  });
}

std::vector<std::pair<std::int64_t, std::int64_t>> PostgresLeases::placements() {
  return with_db([&](pg::Connection& db) {
    const auto r = db.query_idempotent(
        "SELECT l.game_id, l.node_id FROM game_leases l JOIN nodes n ON n.id = l.node_id"
        " WHERE l.node_id <> $1 AND " +
            kRunning + " ORDER BY l.game_id",
        {node_});
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    out.reserve(static_cast<std::size_t>(r.rows()));
    for (int i = 0; i < r.rows(); ++i) out.emplace_back(r.int64(i, 0), r.int64(i, 1));
    return out;
  });
}

std::optional<std::int64_t> PostgresLeases::owner_elsewhere(std::int64_t game) {
  return with_db([&](pg::Connection& db) -> std::optional<std::int64_t> {
    const auto r = db.query_idempotent(
        "SELECT l.node_id FROM game_leases l JOIN nodes n ON n.id = l.node_id"
        " WHERE l.game_id = $1 AND l.node_id <> $2 AND " +
            kRunning,
        {game, node_});
    if (r.rows() == 0) return std::nullopt;
    return r.int64(0, 0);
  });
}

std::vector<Handover> PostgresLeases::spread(int limit) {
  return with_db([&](pg::Connection& db) {
    const auto orphans = db.query_idempotent(
        std::string("SELECT l.game_id FROM game_leases l JOIN games g ON g.id = l.game_id"
                    " WHERE l.movable AND g.ended_at IS NULL AND NOT EXISTS ("
                    "  SELECT 1 FROM nodes n WHERE n.id = l.node_id AND ") +
            kAlive + ") ORDER BY l.game_id LIMIT $1",
        {limit});
    std::vector<Handover> plan;
    if (orphans.rows() == 0) return plan;
    const auto running = db.query_idempotent(
        "SELECT n.id, (SELECT count(*) FROM game_leases l JOIN games g ON g.id = l.game_id"
        "  WHERE l.node_id = n.id AND g.ended_at IS NULL) FROM nodes n WHERE " +
        kRunning + " ORDER BY n.id");
    struct Load {
      std::int64_t node;
      std::int64_t games;
    };
    std::vector<Load> loads;
    for (int i = 0; i < running.rows(); ++i)
      loads.push_back({running.int64(i, 0), running.int64(i, 1)});
    if (loads.empty()) return plan;
    // Fewest games first; on a tie, not this node (the hub); then the lowest id.
    const auto before = [this](const Load& a, const Load& b) {
      if (a.games != b.games) return a.games < b.games;
      if ((a.node == node_) != (b.node == node_)) return b.node == node_;
      return a.node < b.node;
    };
    for (int i = 0; i < orphans.rows(); ++i) {
      auto& least = *std::min_element(loads.begin(), loads.end(), before);
      plan.push_back({orphans.int64(i, 0), least.node});
      ++least.games;
    }
    return plan;
  });
}

std::vector<Handover> PostgresLeases::hand(const std::vector<Handover>& plan) {
  std::vector<Handover> out;
  if (plan.empty()) return out;
  std::string games = "{", nodes = "{";
  for (const auto& h : plan) {
    games += (games.size() > 1 ? "," : "") + std::to_string(h.game);
    nodes += (nodes.size() > 1 ? "," : "") + std::to_string(h.node);
  }
  games += "}";
  nodes += "}";
  return with_db([&](pg::Connection& db) {
    // As take(), for many games and on behalf of other nodes: every part sees the tables as they
    // were before the statement.
    const auto r = db.query(
        std::string("WITH x AS (SELECT * FROM unnest($1::bigint[], $2::bigint[]) AS x(game, node))"
                    ", before AS (SELECT l.game_id, l.node_id FROM game_leases l"
                    "  JOIN x ON x.game = l.game_id)"
                    ", handed AS (UPDATE game_leases l SET node_id = x.node,"
                    "  epoch = l.epoch + 1, taken_at = now() FROM x WHERE l.game_id = x.game"
                    "  AND l.node_id <> x.node AND NOT EXISTS ("
                    "   SELECT 1 FROM nodes n WHERE n.id = l.node_id AND ") +
            kAlive + ") AND EXISTS (SELECT 1 FROM nodes n WHERE n.id = x.node AND " + kRunning +
            ") RETURNING l.game_id, l.node_id)"
            ", ended AS (UPDATE nodes SET ended_at = now() WHERE ended_at IS NULL AND id IN ("
            "  SELECT b.node_id FROM before b JOIN handed h ON h.game_id = b.game_id))"
            " SELECT game_id, node_id FROM handed"
            " UNION ALL SELECT b.game_id, b.node_id FROM before b JOIN nodes n ON n.id = b.node_id"
            "  WHERE " +
            kAlive +
            " AND NOT EXISTS (SELECT 1 FROM handed h WHERE h.game_id = b.game_id)"
            " ORDER BY 1",
        {games, nodes});
    for (int i = 0; i < r.rows(); ++i) out.push_back({r.int64(i, 0), r.int64(i, 1)});
    return out;
  });
}

std::vector<std::int64_t> PostgresLeases::gone(const std::vector<std::int64_t>& nodes) {
  if (nodes.empty()) return {};
  std::string list = "{";
  for (const auto n : nodes) list += (list.size() > 1 ? "," : "") + std::to_string(n);
  list += "}";
  return with_db([&](pg::Connection& db) {
    const auto r = db.query_idempotent(
        "SELECT x FROM unnest($1::bigint[]) AS x WHERE NOT EXISTS ("
        " SELECT 1 FROM nodes n WHERE n.id = x AND " +
            kRunning + ") ORDER BY x",
        {list});
    std::vector<std::int64_t> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(r.int64(i, 0));
    return out;
  });
}

}  // namespace tengen::store
