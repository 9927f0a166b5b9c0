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

// A relay (docs/events.md, "Relays") as stored: the game's names, its two boards, how far it
// has come.
struct RelayRow {
  std::int64_t id = 0;
  std::int64_t director_id = 0;
  std::string director_name;
  std::string event;
  int round = 0, table = 0;
  std::string black, black_rank, white, white_rank;
  int size = 19;
  double komi = 6.5;
  std::string ruleset;
  int handicap = 0;
  int delay = 0;
  std::int64_t board_review = 0, commentary_review = 0;
  std::string state;  // live, finished, closed
  std::string result;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> finished_at_ms;
  int moves = 0;
  std::string last_move;
};

// The relay tables (migrations 0017_relays.sql), written once for SQLite and PostgreSQL over
// sql::Connection. Safe from any thread. The boards' own changes are the review boards' (the
// reviews tables); here each move's number, point, node and time.
class RelayStore {
 public:
  explicit RelayStore(std::unique_ptr<sql::Connection> db) : db_(std::move(db)) {}

  // `row`'s id, state and counts are ignored: a new live relay's id.
  std::int64_t create(const RelayRow& row);
  std::optional<RelayRow> relay(std::int64_t id);
  // The live ones first, then the finished, newest first (not the closed): at most `limit`.
  std::vector<RelayRow> list(int limit);
  int live_of(std::int64_t director);
  int live_count();
  // Move `number` was entered (again: it replaces what was kept).
  void add_move(std::int64_t relay, int number, const std::string& vertex, std::int64_t node,
                std::int64_t at_ms);
  void remove_move(std::int64_t relay, int number);
  // Move `number`'s node on the board; nullopt if there is none.
  std::optional<std::int64_t> move_node(std::int64_t relay, int number);
  // live → finished (with its result); false if it was not live.
  bool finish(std::int64_t relay, const std::string& result, std::int64_t at_ms);
  // live or finished → closed; false if it was closed already.
  bool close(std::int64_t relay, std::int64_t at_ms);

 private:
  std::vector<RelayRow> rows(const std::string& where, const std::vector<sql::Value>& params);
  std::mutex mutex_;
  std::unique_ptr<sql::Connection> db_;
};

}  // namespace tengen::store
