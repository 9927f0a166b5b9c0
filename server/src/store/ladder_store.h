#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/sql.h"

namespace tengen::store {

// A group's ladder (docs/groups.md, "Ladders") as stored.
struct LadderRow {
  std::int64_t id = 0;
  std::int64_t group_id = 0;
  std::string name;
  std::string settings;  // its games' settings, JSON
  int reach = 3;
  int accept_days = 7;
  std::string on_win;  // swap, move_up
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> closed_at_ms;
};

struct LadderPlayer {
  std::int64_t user_id = 0;
  std::string name;
  int rung = 0;  // 1 is the top
  bool away = false;
  std::int64_t joined_at_ms = 0;
};

struct LadderChallengeRow {
  std::int64_t id = 0;
  std::int64_t ladder_id = 0;
  std::int64_t challenger_id = 0;
  std::string challenger_name;
  std::int64_t defender_id = 0;
  std::string defender_name;
  std::int64_t created_at_ms = 0;
  std::int64_t deadline_ms = 0;
  std::string state;  // open, playing, won, lost, drawn, expired, cancelled
  std::optional<std::int64_t> game_id;
  std::optional<std::int64_t> resolved_at_ms;
  std::string result;  // the game's, once it ended (SGF RE[] form)
};

// The ladders' tables (migrations 0012_groups.sql), written once for SQLite and PostgreSQL over
// sql::Connection. Safe from any thread. Rungs are kept 1..n without gaps by every change here.
class LadderStore {
 public:
  explicit LadderStore(std::unique_ptr<sql::Connection> db) : db_(std::move(db)) {}

  std::int64_t create(const LadderRow& ladder, std::int64_t now_ms);
  std::optional<LadderRow> ladder(std::int64_t id);
  std::vector<LadderRow> of_group(std::int64_t group);
  bool close(std::int64_t id, std::int64_t now_ms);

  // By rung, the top first; with `at`, those on a vacation of their account then (docs/
  // correspondence.md) are marked away too: their rungs are frozen the same way.
  std::vector<LadderPlayer> players(std::int64_t ladder, std::optional<std::int64_t> at = {});
  // Whether the user is on a vacation of their account at `at`.
  bool on_vacation(std::int64_t user, std::int64_t at);
  // Joins at the bottom: the rung taken, or nullopt if already on it.
  std::optional<int> join(std::int64_t ladder, std::int64_t user, std::int64_t now_ms);
  // Leaves: those below move up one; their unresolved challenges are cancelled. False if not on.
  bool leave(std::int64_t ladder, std::int64_t user, std::int64_t now_ms);
  bool set_away(std::int64_t ladder, std::int64_t user, bool away);
  // Every player's rung at once (a result applied), in one transaction.
  void set_rungs(std::int64_t ladder, const std::vector<std::pair<std::int64_t, int>>& rungs);

  std::int64_t add_challenge(std::int64_t ladder, std::int64_t challenger, std::int64_t defender,
                             std::int64_t now_ms, std::int64_t deadline_ms);
  std::optional<LadderChallengeRow> challenge(std::int64_t id);
  // The ladder's challenges, newest first: the unresolved ones, or the latest `limit` of all.
  std::vector<LadderChallengeRow> challenges(std::int64_t ladder, bool unresolved_only, int limit);
  // Moves a challenge from one state to another (with its game, or its resolution time): false
  // if it was not in `from` (another node was quicker, or it moved on meanwhile).
  bool move(std::int64_t id, const std::string& from, const std::string& to,
            std::optional<std::int64_t> game, std::int64_t now_ms);
  // Open challenges whose deadline has passed, and playing ones whose game has ended: what
  // Ladders::sweep resolves, on every ladder.
  std::vector<LadderChallengeRow> due(std::int64_t now_ms);

  // The ladder keeps its latest `keep` events.
  void add_event(std::int64_t ladder, std::int64_t now_ms, const std::string& event,
                 int keep = 1000);
  // The latest `limit`, newest first: (at, JSON).
  std::vector<std::pair<std::int64_t, std::string>> events(std::int64_t ladder, int limit);

 private:
  std::vector<LadderChallengeRow> challenges_where(const std::string& where,
                                                   const std::vector<sql::Value>& params);
  std::mutex mutex_;
  std::unique_ptr<sql::Connection> db_;
};

}  // namespace tengen::store
