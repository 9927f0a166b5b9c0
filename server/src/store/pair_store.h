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

// A pair Go game (docs/events.md, "Pair Go") as stored, with its teams' counts and its game's
// result.
struct PairRow {
  std::int64_t id = 0;
  std::int64_t host_id = 0;
  std::string host_name;
  std::string name;
  std::string settings;  // the game's settings, JSON
  int team_size = 0;
  std::string state;  // open, playing, cancelled
  std::optional<std::int64_t> game_id;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> started_at_ms;
  int black = 0, white = 0;  // members joined to each team
  std::string result;        // the game's, once it ended
  bool over = false;         // the game ended
};

struct PairPlayerRow {
  std::int64_t user_id = 0;
  std::string name;
  std::string team;  // black, white
  std::int64_t joined_at_ms = 0;
  double rating = 1500, deviation = 350;  // as stored (a newcomer's without a rated game)
};

// The pair Go tables (migrations 0016_pair_go.sql), written once for SQLite and PostgreSQL over
// sql::Connection. Safe from any thread; joining, leaving and starting take the game's row in
// turn (PostgreSQL's row lock, SQLite's one writer), so that a team never has more members than
// its size and nobody joins or leaves a game that has started.
class PairStore {
 public:
  explicit PairStore(std::unique_ptr<sql::Connection> db) : db_(std::move(db)) {}

  std::int64_t create(std::int64_t host, const std::string& name, const std::string& settings,
                      int team_size, std::int64_t now_ms);
  std::optional<PairRow> pair(std::int64_t id);
  // Newest first, not the cancelled ones: at most `limit`.
  std::vector<PairRow> list(int limit);
  // This host's that are open or whose game is not over.
  int running_of(std::int64_t host);
  int open_count();
  // Open ones the user has joined.
  int joined_open(std::int64_t user);

  enum class Joined { Yes, Already, TeamFull, NotOpen };
  Joined join(std::int64_t pair, std::int64_t user, const std::string& team, std::int64_t now_ms);
  // False when not in it, or it is no longer open.
  bool leave(std::int64_t pair, std::int64_t user);
  // From one state to another (the start notes its time): false if it was not in `from`.
  bool move(std::int64_t pair, const std::string& from, const std::string& to, std::int64_t now_ms);
  void set_game(std::int64_t pair, std::int64_t game);
  // Both teams, each in the order its members joined (Black's first).
  std::vector<PairPlayerRow> players(std::int64_t pair);

 private:
  std::vector<PairRow> rows(const std::string& where, const std::vector<sql::Value>& params);
  // The game's state, its row held until the transaction ends (PostgreSQL); empty if none.
  std::optional<std::string> locked_state(std::int64_t pair);
  std::mutex mutex_;
  std::unique_ptr<sql::Connection> db_;
};

}  // namespace tengen::store
