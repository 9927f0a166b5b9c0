#include "store/postgres_leases.h"

#include "store/postgres.h"

namespace tengen::store {
namespace {

// A node is alive while its row has not expired.
constexpr const char* kAlive = "n.expires_at > now()";

}  // namespace

PostgresLeases::PostgresLeases(const std::string& conninfo, Options options)
    : conninfo_(conninfo),
      options_(std::move(options)),
      db_(std::make_unique<pg::Connection>(conninfo)) {
  pg::Transaction tx(*db_);
  db_->query("UPDATE nodes SET expires_at = now() WHERE expires_at > now() AND (name = $1 OR $2)",
             {options_.name, options_.sole});
  node_ = db_->query(
                 "INSERT INTO nodes(name, expires_at)"
                 " VALUES ($1, now() + $2 * interval '1 millisecond') RETURNING id",
                 {options_.name, static_cast<std::int64_t>(options_.ttl.count())})
              .int64(0, 0);
  tx.commit();
}

PostgresLeases::~PostgresLeases() = default;

pg::Connection& PostgresLeases::db() {
  if (!db_) db_ = std::make_unique<pg::Connection>(conninfo_);
  return *db_;
}

template <class F>
auto PostgresLeases::with_db(F&& call) {
  std::lock_guard lock(mutex_);
  try {
    return call(db());
  } catch (const pg::Error& e) {
    if (e.sqlstate().empty() || e.sqlstate().starts_with("08") || e.sqlstate().starts_with("57"))
      db_.reset();  // the connection failed, or the server ended it: connect again next time
    throw;
  }
}

bool PostgresLeases::renew() {
  return with_db([&](pg::Connection& db) {
    return db.query(
                 "UPDATE nodes SET expires_at = now() + $2 * interval '1 millisecond'"
                 " WHERE id = $1 AND expires_at > now()",
                 {node_, static_cast<std::int64_t>(options_.ttl.count())})
               .affected() == 1;
  });
}

std::optional<std::int64_t> PostgresLeases::take(std::int64_t game) {
  // Inserted when nobody owns the game yet; moved here, one epoch on, when its owner is dead;
  // left alone when a live node (this one included) owns it. Two nodes taking one game at once
  // queue on its row, and the second then sees the first alive. A dead node takes nothing.
  // The outer SELECT sees the table as it was before the statement: this node's lease from
  // before, or none.
  return with_db([&](pg::Connection& db) -> std::optional<std::int64_t> {
    const auto r =
        db.query(std::string("WITH me AS (SELECT n.id FROM nodes n WHERE n.id = $2 AND ") + kAlive +
                     "), claimed AS ("
                     " INSERT INTO game_leases(game_id, node_id, epoch)"
                     " SELECT g.id, me.id, 1 FROM games g, me WHERE g.id = $1"
                     " ON CONFLICT (game_id) DO UPDATE SET node_id = excluded.node_id,"
                     "  epoch = game_leases.epoch + 1, taken_at = now()"
                     " WHERE game_leases.node_id <> excluded.node_id AND NOT EXISTS ("
                     "  SELECT 1 FROM nodes n WHERE n.id = game_leases.node_id AND " +
                     kAlive +
                     ")"
                     " RETURNING epoch)"
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

void PostgresLeases::end_game_owners() {
  with_db([&](pg::Connection& db) {
    db.query(
        "UPDATE nodes SET expires_at = now() WHERE id <> $1 AND expires_at > now()"
        " AND id IN (SELECT node_id FROM game_leases)",
        {node_});
    return 0;
  });
}

}  // namespace tengen::store
