#include "store/pair_store.h"

namespace tengen::store {
namespace {

constexpr const char* kPairSelect =
    "SELECT s.id, s.host_id, u.username, s.name, s.settings, s.team_size, s.state, s.game_id,"
    " s.created_at, s.started_at,"
    " (SELECT count(*) FROM pair_players p WHERE p.pair_id = s.id AND p.team = 'black'),"
    " (SELECT count(*) FROM pair_players p WHERE p.pair_id = s.id AND p.team = 'white'),"
    " coalesce(g.result, ''), g.ended_at"
    " FROM pair_games s JOIN users u ON u.id = s.host_id LEFT JOIN games g ON g.id = s.game_id ";

// Open, or playing a game not yet over (a game whose row the journal has not written yet counts
// as not over).
constexpr const char* kRunning =
    "(s.state = 'open' OR (s.state = 'playing' AND NOT EXISTS (SELECT 1 FROM games g"
    " WHERE g.id = s.game_id AND g.ended_at IS NOT NULL)))";

}  // namespace

std::vector<PairRow> PairStore::rows(const std::string& where,
                                     const std::vector<sql::Value>& params) {
  const auto r = db_->run(std::string(kPairSelect) + where, params);
  std::vector<PairRow> out;
  for (std::size_t i = 0; i < r.size(); ++i)
    out.push_back({r.integer(i, 0), r.integer(i, 1), r.text(i, 2), r.text(i, 3), r.text(i, 4),
                   static_cast<int>(r.integer(i, 5)), r.text(i, 6), r.optional_integer(i, 7),
                   r.integer(i, 8), r.optional_integer(i, 9), static_cast<int>(r.integer(i, 10)),
                   static_cast<int>(r.integer(i, 11)), r.text(i, 12), !r.is_null(i, 13)});
  return out;
}

std::int64_t PairStore::create(std::int64_t host, const std::string& name,
                               const std::string& settings, int team_size, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_
      ->run(
          "INSERT INTO pair_games(host_id, name, settings, team_size, state, created_at)"
          " VALUES (?, ?, ?, ?, 'open', ?) RETURNING id",
          {host, name, settings, std::int64_t{team_size}, now_ms})
      .integer(0, 0);
}

std::optional<PairRow> PairStore::pair(std::int64_t id) {
  std::lock_guard lock(mutex_);
  auto found = rows("WHERE s.id = ?", {id});
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

std::vector<PairRow> PairStore::list(int limit) {
  std::lock_guard lock(mutex_);
  return rows("WHERE s.state <> 'cancelled' ORDER BY s.id DESC LIMIT ?", {std::int64_t{limit}});
}

int PairStore::running_of(std::int64_t host) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run(std::string("SELECT count(*) FROM pair_games s WHERE s.host_id = ? AND ") + kRunning,
               {host})
          .integer(0, 0));
}

int PairStore::open_count() {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("SELECT count(*) FROM pair_games WHERE state = 'open'").integer(0, 0));
}

int PairStore::joined_open(std::int64_t user) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("SELECT count(*) FROM pair_players p JOIN pair_games s ON s.id = p.pair_id"
               " WHERE p.user_id = ? AND s.state = 'open'",
               {user})
          .integer(0, 0));
}

std::optional<std::string> PairStore::locked_state(std::int64_t pair) {
  const auto r = db_->run(std::string("SELECT state FROM pair_games WHERE id = ?") +
                              (db_->dialect() == sql::Dialect::Postgres ? " FOR UPDATE" : ""),
                          {pair});
  if (r.empty()) return std::nullopt;
  return r.text(0, 0);
}

PairStore::Joined PairStore::join(std::int64_t pair, std::int64_t user, const std::string& team,
                                  std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Joined joined = Joined::NotOpen;
  db_->transaction([&] {
    if (locked_state(pair) != "open") return;
    if (!db_->run("SELECT 1 FROM pair_players WHERE pair_id = ? AND user_id = ?", {pair, user})
             .empty()) {
      joined = Joined::Already;
      return;
    }
    const auto size = db_->run(
        "SELECT team_size, (SELECT count(*) FROM pair_players WHERE pair_id = ? AND team = ?)"
        " FROM pair_games WHERE id = ?",
        {pair, team, pair});
    if (size.integer(0, 1) >= size.integer(0, 0)) {
      joined = Joined::TeamFull;
      return;
    }
    db_->run("INSERT INTO pair_players(pair_id, user_id, team, joined_at) VALUES (?, ?, ?, ?)",
             {pair, user, team, now_ms});
    joined = Joined::Yes;
  });
  return joined;
}

bool PairStore::leave(std::int64_t pair, std::int64_t user) {
  std::lock_guard lock(mutex_);
  bool left = false;
  db_->transaction([&] {
    if (locked_state(pair) != "open") return;
    left = db_->run("DELETE FROM pair_players WHERE pair_id = ? AND user_id = ?", {pair, user})
               .changed > 0;
  });
  return left;
}

bool PairStore::move(std::int64_t pair, const std::string& from, const std::string& to,
                     std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  if (to == "playing")
    return db_->run("UPDATE pair_games SET state = ?, started_at = ? WHERE id = ? AND state = ?",
                    {to, now_ms, pair, from})
               .changed > 0;
  return db_->run("UPDATE pair_games SET state = ? WHERE id = ? AND state = ?", {to, pair, from})
             .changed > 0;
}

void PairStore::set_game(std::int64_t pair, std::int64_t game) {
  std::lock_guard lock(mutex_);
  db_->run("UPDATE pair_games SET game_id = ? WHERE id = ?", {game, pair});
}

std::vector<PairPlayerRow> PairStore::players(std::int64_t pair) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT p.user_id, u.username, p.team, p.joined_at, r.rating, r.deviation"
      " FROM pair_players p JOIN users u ON u.id = p.user_id"
      " LEFT JOIN ratings r ON r.user_id = p.user_id"
      " WHERE p.pair_id = ? ORDER BY p.team, p.joined_at, p.user_id",
      {pair});
  std::vector<PairPlayerRow> out;
  for (std::size_t i = 0; i < r.size(); ++i) {
    PairPlayerRow p{r.integer(i, 0), r.text(i, 1), r.text(i, 2), r.integer(i, 3)};
    if (!r.is_null(i, 4)) {
      p.rating = r.real(i, 4);
      p.deviation = r.real(i, 5);
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace tengen::store
