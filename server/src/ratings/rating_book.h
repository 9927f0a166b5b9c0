#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "engine/result.h"
#include "ratings/glicko2.h"
#include "store/game_store.h"

namespace tengen {

// Every player's current Glicko-2 rating (docs/ratings.md), as the store holds it, and the
// update of both players when a rated game ends. A player without a rated game is a newcomer
// (1500 ± 350); a rating's deviation grows with the time since the player's last rated game.
//
// Safe from any thread. Two games of one player that end at once are rated one after the other;
// that their rows reach the store in the same order is the caller's affair (the hub submits them
// under a lock of its own).
class RatingBook {
 public:
  void load(const std::vector<store::StoredRating>& stored);

  // The player's rating at `now_ms` (Unix milliseconds), the deviation grown since their last
  // rated game.
  ratings::Rating at(std::int64_t user, std::int64_t now_ms) const;

  struct RatedGame {
    std::int64_t game = 0;
    std::int64_t black = 0, white = 0;  // user ids
    int handicap = 0;
    double komi = 0;
    double customary_komi = 0;  // the ruleset's usual komi: more or less is an advantage
  };
  // Both players' new ratings after a rated game with `result`, kept here and returned as the
  // rows to write with the game's end; none for a void game or one without a result.
  std::vector<store::RatingChanged> rate(const RatedGame& game, const Result& result,
                                         std::int64_t now_ms);

  // Every rating rebuilt from the finished games in the order they ended (docs/ratings.md), each
  // rated as it was when it ended: the rows, in order, that replace the ratings and their history.
  // Unrated, void and unreadable games are passed over.
  static std::vector<store::RatingChanged> replay(const std::vector<store::GameSummary>& games);
  // The book as those rows leave it (each player's last row).
  void replace(const std::vector<store::RatingChanged>& history);

 private:
  ratings::Rating at_locked(std::int64_t user, std::int64_t now_ms) const;

  mutable std::mutex mutex_;
  std::map<std::int64_t, store::StoredRating> by_user_;  // absent: a newcomer
};

}  // namespace tengen
