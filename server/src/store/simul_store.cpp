#include "store/simul_store.h"

namespace tengen::store {
namespace {

constexpr const char* kSimulSelect =
    "SELECT s.id, s.host_id, u.username, s.name, s.settings, s.boards, s.state, s.created_at,"
    " s.started_at,"
    " (SELECT count(*) FROM simul_players p WHERE p.simul_id = s.id),"
    " (SELECT count(*) FROM simul_players p WHERE p.simul_id = s.id AND p.game_id IS NOT NULL),"
    " (SELECT count(*) FROM simul_players p JOIN games g ON g.id = p.game_id"
    "   WHERE p.simul_id = s.id AND g.ended_at IS NOT NULL)"
    " FROM simuls s JOIN users u ON u.id = s.host_id ";

// Open, or playing with a game not yet over (a game whose row the journal has not written yet
// counts as not over).
constexpr const char* kRunning =
    "(s.state = 'open' OR (s.state = 'playing' AND EXISTS (SELECT 1 FROM simul_players p"
    " LEFT JOIN games g ON g.id = p.game_id WHERE p.simul_id = s.id AND p.game_id IS NOT NULL"
    " AND g.ended_at IS NULL)))";

}  // namespace

std::vector<SimulRow> SimulStore::rows(const std::string& where,
                                       const std::vector<sql::Value>& params) {
  const auto r = db_->run(std::string(kSimulSelect) + where, params);
  std::vector<SimulRow> out;
  for (std::size_t i = 0; i < r.size(); ++i)
    out.push_back({r.integer(i, 0), r.integer(i, 1), r.text(i, 2), r.text(i, 3), r.text(i, 4),
                   static_cast<int>(r.integer(i, 5)), r.text(i, 6), r.integer(i, 7),
                   r.optional_integer(i, 8), static_cast<int>(r.integer(i, 9)),
                   static_cast<int>(r.integer(i, 10)), static_cast<int>(r.integer(i, 11))});
  return out;
}

std::int64_t SimulStore::create(std::int64_t host, const std::string& name,
                                const std::string& settings, int boards, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_
      ->run(
          "INSERT INTO simuls(host_id, name, settings, boards, state, created_at)"
          " VALUES (?, ?, ?, ?, 'open', ?) RETURNING id",
          {host, name, settings, std::int64_t{boards}, now_ms})
      .integer(0, 0);
}

std::optional<SimulRow> SimulStore::simul(std::int64_t id) {
  std::lock_guard lock(mutex_);
  auto found = rows("WHERE s.id = ?", {id});
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

std::vector<SimulRow> SimulStore::list(int limit) {
  std::lock_guard lock(mutex_);
  return rows("WHERE s.state <> 'cancelled' ORDER BY s.id DESC LIMIT ?", {std::int64_t{limit}});
}

int SimulStore::running_of(std::int64_t host) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run(std::string("SELECT count(*) FROM simuls s WHERE s.host_id = ? AND ") + kRunning,
               {host})
          .integer(0, 0));
}

int SimulStore::open_count() {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("SELECT count(*) FROM simuls WHERE state = 'open'").integer(0, 0));
}

int SimulStore::joined_open(std::int64_t user) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("SELECT count(*) FROM simul_players p JOIN simuls s ON s.id = p.simul_id"
               " WHERE p.user_id = ? AND s.state = 'open'",
               {user})
          .integer(0, 0));
}

std::optional<std::string> SimulStore::locked_state(std::int64_t simul) {
  const auto r = db_->run(std::string("SELECT state FROM simuls WHERE id = ?") +
                              (db_->dialect() == sql::Dialect::Postgres ? " FOR UPDATE" : ""),
                          {simul});
  if (r.empty()) return std::nullopt;
  return r.text(0, 0);
}

SimulStore::Joined SimulStore::join(std::int64_t simul, std::int64_t user, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Joined joined = Joined::NotOpen;
  db_->transaction([&] {
    if (locked_state(simul) != "open") return;
    const auto boards = db_->run(
        "SELECT boards, (SELECT count(*) FROM simul_players WHERE simul_id = ?)"
        " FROM simuls WHERE id = ?",
        {simul, simul});
    if (boards.integer(0, 1) >= boards.integer(0, 0)) {
      joined = Joined::Full;
      return;
    }
    joined = db_->run(
                    "INSERT INTO simul_players(simul_id, user_id, joined_at) VALUES (?, ?, ?)"
                    " ON CONFLICT DO NOTHING",
                    {simul, user, now_ms})
                         .changed > 0
                 ? Joined::Yes
                 : Joined::Already;
  });
  return joined;
}

bool SimulStore::leave(std::int64_t simul, std::int64_t user) {
  std::lock_guard lock(mutex_);
  bool left = false;
  db_->transaction([&] {
    if (locked_state(simul) != "open") return;
    left = db_->run("DELETE FROM simul_players WHERE simul_id = ? AND user_id = ?", {simul, user})
               .changed > 0;
  });
  return left;
}

bool SimulStore::move(std::int64_t simul, const std::string& from, const std::string& to,
                      std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  if (to == "playing")
    return db_->run("UPDATE simuls SET state = ?, started_at = ? WHERE id = ? AND state = ?",
                    {to, now_ms, simul, from})
               .changed > 0;
  return db_->run("UPDATE simuls SET state = ? WHERE id = ? AND state = ?", {to, simul, from})
             .changed > 0;
}

std::vector<SimulPlayerRow> SimulStore::players(std::int64_t simul) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT p.user_id, u.username, p.joined_at, p.game_id, coalesce(g.result, ''),"
      " p.handicap, r.rating, r.deviation FROM simul_players p JOIN users u ON u.id = p.user_id"
      " LEFT JOIN games g ON g.id = p.game_id LEFT JOIN ratings r ON r.user_id = p.user_id"
      " WHERE p.simul_id = ? ORDER BY p.joined_at, p.user_id",
      {simul});
  std::vector<SimulPlayerRow> out;
  for (std::size_t i = 0; i < r.size(); ++i) {
    SimulPlayerRow p{r.integer(i, 0),          r.text(i, 1), r.integer(i, 2),
                     r.optional_integer(i, 3), r.text(i, 4), static_cast<int>(r.integer(i, 5))};
    if (!r.is_null(i, 6)) {
      p.rating = r.real(i, 6);
      p.deviation = r.real(i, 7);
    }
    out.push_back(std::move(p));
  }
  return out;
}

void SimulStore::set_game(std::int64_t simul, std::int64_t user, std::int64_t game, int handicap) {
  std::lock_guard lock(mutex_);
  db_->run("UPDATE simul_players SET game_id = ?, handicap = ? WHERE simul_id = ? AND user_id = ?",
           {game, std::int64_t{handicap}, simul, user});
}

void SimulStore::drop(std::int64_t simul, std::int64_t user) {
  std::lock_guard lock(mutex_);
  db_->run("DELETE FROM simul_players WHERE simul_id = ? AND user_id = ? AND game_id IS NULL",
           {simul, user});
}

std::pair<double, double> SimulStore::rating_of(std::int64_t user) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run("SELECT rating, deviation FROM ratings WHERE user_id = ?", {user});
  if (r.empty()) return {1500, 350};
  return {r.real(0, 0), r.real(0, 1)};
}

}  // namespace tengen::store
