#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "store/account_store.h"
#include "store/analysis_store.h"
#include "store/class_store.h"
#include "store/database_lock.h"
#include "store/game_store.h"
#include "store/group_store.h"
#include "store/hub_lock.h"
#include "store/ladder_store.h"
#include "store/leases.h"
#include "store/mail_store.h"
#include "store/moderation_store.h"
#include "store/pair_store.h"
#include "store/position_analysis_store.h"
#include "store/postgres.h"
#include "store/push_store.h"
#include "store/relay_store.h"
#include "store/simul_store.h"
#include "store/sqlite.h"

namespace tengen::store {

// The stores a server runs on, opened from its --database: a SQLite file (the default, locked
// against a second server), or a PostgreSQL database named by a postgres:// URI (docs/cluster.md),
// held with an advisory lock on a connection of its own for the server's life (PostgreSQL lets go
// when the process ends, however it ends; store::HubLock takes it again after a restart of the
// database). Migrated before use. A PostgreSQL that does not accept connections yet is waited
// for (Node::wait), then store::Unreachable is thrown.
struct Stores {
  std::optional<DatabaseLock> lock;
  std::unique_ptr<HubLock> hub_lock;  // one server on PostgreSQL (no bus): held from the start
  std::optional<Database> sqlite;
  std::optional<pg::Connection> postgres;
  std::unique_ptr<AccountStore> accounts;
  std::unique_ptr<GameStore> games;
  std::unique_ptr<ModerationStore> moderation;
  std::unique_ptr<MailStore> mail;          // e-mail (docs/mail.md): addresses, links, the queue
  std::unique_ptr<PushStore> push;          // Web Push: the server's key, devices, the queue
  std::unique_ptr<AnalysisStore> analysis;  // analysis: worker keys, the jobs (docs/analysis.md)
  std::unique_ptr<GroupStore> groups;       // groups (clubs): members, chat (docs/groups.md)
  std::unique_ptr<LadderStore> ladders;
  std::unique_ptr<SimulStore> simuls;
  std::unique_ptr<PairStore> pairs;     // pair Go and rengo games (docs/events.md)
  std::unique_ptr<RelayStore> relays;   // relays of games played over the board (docs/events.md)
  std::unique_ptr<ClassStore> classes;  // classes, teachers, course progress (docs/classes.md)
  std::unique_ptr<PositionAnalysisStore> positions;  // review boards' positions analysed
  // Which node owns each game: with SQLite this server, always (SoleNode); with PostgreSQL the
  // leases in the database, this server having joined as a node (PostgresLeases).
  std::unique_ptr<Leases> leases;
  int schema = 0;
  std::string described;  // for the start-up log: the file's absolute path, or the URI unsigned

  // How this server joins a PostgreSQL database's nodes (unused with SQLite).
  struct Node {
    std::string name = "tengen";
    std::chrono::milliseconds ttl{5000};
    // One of several nodes (with a bus, --bus): no one-server lock; the node takes the hub lock
    // (store::HubLock) itself, or serves as a front node while another holds it.
    bool clustered = false;
    // How long to wait at start for a PostgreSQL that does not accept connections yet.
    std::chrono::milliseconds wait{60000};
  };

  // Throws std::runtime_error, saying what to do, when another server already serves it.
  static std::unique_ptr<Stores> open(const std::string& database, const Node& node);
  static std::unique_ptr<Stores> open(const std::string& database) { return open(database, {}); }

 private:
  // The stores written once for both databases (store/sql.h), each on a connection of its own.
  void written_once(const std::function<std::unique_ptr<sql::Connection>()>& connect);
};

// A URI as it may be logged: without its password.
std::string without_password(const std::string& uri);

}  // namespace tengen::store
