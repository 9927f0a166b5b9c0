#include "store/relay_store.h"

namespace tengen::store {
namespace {

constexpr const char* kRelaySelect =
    "SELECT r.id, r.director_id, u.username, r.event, r.round, r.table_no, r.black, r.black_rank,"
    " r.white, r.white_rank, r.size, r.komi, r.ruleset, r.handicap, r.delay, r.board_review,"
    " r.commentary_review, r.state, r.result, r.created_at, r.finished_at,"
    " (SELECT count(*) FROM relay_moves m WHERE m.relay_id = r.id),"
    " coalesce((SELECT m.vertex FROM relay_moves m WHERE m.relay_id = r.id"
    " ORDER BY m.number DESC LIMIT 1), '')"
    " FROM relays r JOIN users u ON u.id = r.director_id ";

}  // namespace

std::vector<RelayRow> RelayStore::rows(const std::string& where,
                                       const std::vector<sql::Value>& params) {
  const auto r = db_->run(std::string(kRelaySelect) + where, params);
  std::vector<RelayRow> out;
  for (std::size_t i = 0; i < r.size(); ++i) {
    RelayRow row;
    row.id = r.integer(i, 0);
    row.director_id = r.integer(i, 1);
    row.director_name = r.text(i, 2);
    row.event = r.text(i, 3);
    row.round = static_cast<int>(r.integer(i, 4));
    row.table = static_cast<int>(r.integer(i, 5));
    row.black = r.text(i, 6);
    row.black_rank = r.text(i, 7);
    row.white = r.text(i, 8);
    row.white_rank = r.text(i, 9);
    row.size = static_cast<int>(r.integer(i, 10));
    row.komi = r.real(i, 11);
    row.ruleset = r.text(i, 12);
    row.handicap = static_cast<int>(r.integer(i, 13));
    row.delay = static_cast<int>(r.integer(i, 14));
    row.board_review = r.integer(i, 15);
    row.commentary_review = r.integer(i, 16);
    row.state = r.text(i, 17);
    row.result = r.text(i, 18);
    row.created_at_ms = r.integer(i, 19);
    row.finished_at_ms = r.optional_integer(i, 20);
    row.moves = static_cast<int>(r.integer(i, 21));
    row.last_move = r.text(i, 22);
    out.push_back(std::move(row));
  }
  return out;
}

std::int64_t RelayStore::create(const RelayRow& w) {
  std::lock_guard lock(mutex_);
  return db_
      ->run(
          "INSERT INTO relays(director_id, event, round, table_no, black, black_rank, white,"
          " white_rank, size, komi, ruleset, handicap, delay, board_review, commentary_review,"
          " state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'live', ?)"
          " RETURNING id",
          {w.director_id, w.event, std::int64_t{w.round}, std::int64_t{w.table}, w.black,
           w.black_rank, w.white, w.white_rank, std::int64_t{w.size}, sql::value(w.komi), w.ruleset,
           std::int64_t{w.handicap}, std::int64_t{w.delay}, w.board_review, w.commentary_review,
           w.created_at_ms})
      .integer(0, 0);
}

std::optional<RelayRow> RelayStore::relay(std::int64_t id) {
  std::lock_guard lock(mutex_);
  auto found = rows("WHERE r.id = ?", {id});
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

std::vector<RelayRow> RelayStore::list(int limit) {
  std::lock_guard lock(mutex_);
  return rows(
      "WHERE r.state <> 'closed' ORDER BY CASE WHEN r.state = 'live' THEN 0 ELSE 1 END, r.id DESC"
      " LIMIT ?",
      {std::int64_t{limit}});
}

int RelayStore::live_of(std::int64_t director) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("SELECT count(*) FROM relays WHERE director_id = ? AND state = 'live'", {director})
          .integer(0, 0));
}

int RelayStore::live_count() {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("SELECT count(*) FROM relays WHERE state = 'live'").integer(0, 0));
}

void RelayStore::add_move(std::int64_t relay, int number, const std::string& vertex,
                          std::int64_t node, std::int64_t at_ms) {
  std::lock_guard lock(mutex_);
  db_->run(
      "INSERT INTO relay_moves(relay_id, number, vertex, node, at) VALUES (?, ?, ?, ?, ?)"
      " ON CONFLICT (relay_id, number) DO UPDATE SET vertex = excluded.vertex,"
      " node = excluded.node, at = excluded.at",
      {relay, std::int64_t{number}, vertex, node, at_ms});
}

void RelayStore::remove_move(std::int64_t relay, int number) {
  std::lock_guard lock(mutex_);
  db_->run("DELETE FROM relay_moves WHERE relay_id = ? AND number >= ?",
           {relay, std::int64_t{number}});
}

std::optional<std::int64_t> RelayStore::move_node(std::int64_t relay, int number) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run("SELECT node FROM relay_moves WHERE relay_id = ? AND number = ?",
                          {relay, std::int64_t{number}});
  if (r.empty()) return std::nullopt;
  return r.integer(0, 0);
}

bool RelayStore::finish(std::int64_t relay, const std::string& result, std::int64_t at_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "UPDATE relays SET state = 'finished', result = ?, finished_at = ?"
                " WHERE id = ? AND state = 'live'",
                {result, at_ms, relay})
             .changed > 0;
}

bool RelayStore::close(std::int64_t relay, std::int64_t at_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "UPDATE relays SET state = 'closed', finished_at = coalesce(finished_at, ?)"
                " WHERE id = ? AND state <> 'closed'",
                {at_ms, relay})
             .changed > 0;
}

}  // namespace tengen::store
