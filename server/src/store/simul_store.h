#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "store/sql.h"

namespace tengen::store {

// A simul (docs/events.md, "Simuls") as stored, with what its page counts.
struct SimulRow {
  std::int64_t id = 0;
  std::int64_t host_id = 0;
  std::string host_name;
  std::string name;
  std::string settings;  // its games' settings, JSON
  int boards = 0;        // at most this many players
  std::string state;     // open, playing, cancelled
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> started_at_ms;
  int players = 0;     // joined
  int started = 0;     // of them, with a game
  int games_over = 0;  // of those games, ended
};

struct SimulPlayerRow {
  std::int64_t user_id = 0;
  std::string name;
  std::int64_t joined_at_ms = 0;
  std::optional<std::int64_t> game_id;
  std::string result;                     // the game's, once it ended (SGF RE[] form)
  int handicap = 0;                       // the stones they got at the start
  double rating = 1500, deviation = 350;  // as stored (a newcomer's without a rated game)
};

// The simuls' tables (migrations 0015_simuls.sql), written once for SQLite and PostgreSQL over
// sql::Connection. Safe from any thread; joining, leaving and starting take the simul's row in
// turn (PostgreSQL's row lock, SQLite's one writer), so that a simul never has more players than
// boards and nobody joins or leaves one that has started.
class SimulStore {
 public:
  explicit SimulStore(std::unique_ptr<sql::Connection> db) : db_(std::move(db)) {}

  std::int64_t create(std::int64_t host, const std::string& name, const std::string& settings,
                      int boards, std::int64_t now_ms);
  std::optional<SimulRow> simul(std::int64_t id);
  // Newest first, not the cancelled ones: at most `limit`.
  std::vector<SimulRow> list(int limit);
  // Simuls of this host that are open or whose games are not all over.
  int running_of(std::int64_t host);
  int open_count();
  // Open simuls the user has joined.
  int joined_open(std::int64_t user);

  enum class Joined { Yes, Already, Full, NotOpen };
  Joined join(std::int64_t simul, std::int64_t user, std::int64_t now_ms);
  // False when not in it, or it is no longer open.
  bool leave(std::int64_t simul, std::int64_t user);
  // Moves the simul from one state to another (the start notes its time): false if it was not in
  // `from`.
  bool move(std::int64_t simul, const std::string& from, const std::string& to,
            std::int64_t now_ms);
  // In the order they joined.
  std::vector<SimulPlayerRow> players(std::int64_t simul);
  void set_game(std::int64_t simul, std::int64_t user, std::int64_t game, int handicap);
  // A player who could not be given a board at the start (their account restricted meanwhile).
  void drop(std::int64_t simul, std::int64_t user);
  // The user's rating and deviation as stored (a newcomer's without one).
  std::pair<double, double> rating_of(std::int64_t user);

 private:
  std::vector<SimulRow> rows(const std::string& where, const std::vector<sql::Value>& params);
  // The simul's state, its row held until the transaction ends (PostgreSQL); empty if none.
  std::optional<std::string> locked_state(std::int64_t simul);
  std::mutex mutex_;
  std::unique_ptr<sql::Connection> db_;
};

}  // namespace tengen::store
