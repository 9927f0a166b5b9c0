#include "store/hub_lock.h"

#include <spdlog/spdlog.h>

#include "store/postgres.h"

namespace tengen::store {
namespace {

const std::string kTry = "SELECT pg_try_advisory_lock(" + std::to_string(HubLock::kKey) + ")";

}  // namespace

HubLock::HubLock(const std::string& conninfo, const std::string& application_name,
                 std::chrono::milliseconds grace)
    : db_(std::make_unique<pg::Connection>(conninfo, pg::Connection::Options{application_name})),
      grace_(grace) {}

HubLock::~HubLock() = default;

bool HubLock::try_take() {
  // The database came back since the last try: the holder's session ended with it, and the
  // holder takes the lock again within a tick. Leave it to it for a while.
  const auto now = std::chrono::steady_clock::now();
  db_->reconnect_if_broken();
  if (db_->connects() != connects_seen_) {
    connects_seen_ = db_->connects();
    reconnected_at_ = now;
  }
  if (connects_seen_ > 1 && now - reconnected_at_ < grace_) return false;
  if (db_->query(kTry).boolean(0, 0)) {
    held_ = true;
    return true;
  }
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
  held_ = db_->query(kTry).boolean(0, 0);
  return held_;
}

bool HubLock::take_waiting(std::chrono::milliseconds patience) {
  db_->exec("SET lock_timeout = '" + std::to_string(patience.count()) + "ms'");
  try {
    db_->query("SELECT pg_advisory_lock(" + std::to_string(kKey) + ")");
  } catch (const pg::Error& e) {
    if (e.sqlstate() != "55P03") throw;  // lock_not_available
    return false;
  }
  db_->exec("SET lock_timeout = 0");
  held_ = true;
  return true;
}

void HubLock::release() {
  if (!held_.exchange(false)) return;
  try {
    db_->query("SELECT pg_advisory_unlock(" + std::to_string(kKey) + ")");
  } catch (const std::exception&) {
    // The session is gone, and the lock with it.
  }
}

bool HubLock::keep() {
  if (!held_) return false;
  // Connected again: the lock went with the old session. Until it is taken again (the database
  // may go again first), this keeps trying.
  if (db_->reconnect_if_broken()) retaking_ = true;
  if (!retaking_) return true;  // up: the lock is held with the session
  connects_seen_ = db_->connects();
  if (db_->query(kTry).boolean(0, 0)) {
    retaking_ = false;
    spdlog::info("took the hub lock again: the database is back");
    return true;
  }
  held_ = false;
  return false;
}

}  // namespace tengen::store
