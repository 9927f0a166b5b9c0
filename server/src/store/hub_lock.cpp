#include "store/hub_lock.h"

#include <spdlog/spdlog.h>

#include "store/postgres.h"

namespace tengen::store {

HubLock::HubLock(const std::string& conninfo, std::int64_t node)
    : db_(std::make_unique<pg::Connection>(conninfo)), node_(node) {
  db_->query("SELECT set_config('application_name', $1, false)",
             {"tengen-node-" + std::to_string(node_)});
}

HubLock::~HubLock() = default;

bool HubLock::try_take() {
  const std::string key = std::to_string(kKey);
  if (db_->query("SELECT pg_try_advisory_lock(" + key + ")").boolean(0, 0)) return true;
  // Held. By a node whose liveness ran out (its session outlived it: paused, or cut off)? Then
  // its session ends here, and with it the lock.
  const auto stale = db_->query(
      "SELECT a.pid, a.application_name FROM pg_locks l"
      " JOIN pg_stat_activity a ON a.pid = l.pid"
      " JOIN nodes n ON 'tengen-node-' || n.id = a.application_name"
      " WHERE l.locktype = 'advisory' AND l.granted"
      " AND ((l.classid::bigint << 32) | l.objid::bigint) = $1 AND n.expires_at <= now()",
      {kKey});
  if (stale.rows() == 0) return false;
  spdlog::warn("the hub ({}) is alive to PostgreSQL but its liveness ran out: ending its session",
               stale.text(0, 1));
  db_->query("SELECT pg_terminate_backend($1)", {stale.int64(0, 0)});
  return db_->query("SELECT pg_try_advisory_lock(" + key + ")").boolean(0, 0);
}

}  // namespace tengen::store
