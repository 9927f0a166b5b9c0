#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
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
// that their rows reach the store in the same order is the caller's affair (the ratings' owner
// submits them from its mailbox: centre/centre.cpp).
class RatingBook {
 public:
  void load(const std::vector<store::StoredRating>& stored);

  // A player's rating before their first rated game, instead of a newcomer's (a house bot's, from
  // its level: docs/bots.md): kept for rebuilds; the row to write, if they have no rating yet.
  std::optional<store::RatingSeeded> seed(std::int64_t user, const ratings::Rating& start,
                                          std::int64_t now_ms);
  std::map<std::int64_t, ratings::Rating> seeds() const;

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

  // A stored finished game as a rated game and its result; none for an unrated game, one not
  // finished, or one whose settings or result are unreadable.
  static std::optional<std::pair<RatedGame, Result>> rated_game(const store::GameSummary& g);

  // Every rating rebuilt from the finished games in the order they ended (docs/ratings.md), each
  // rated as it was when it ended: the rows, in order, that replace the ratings and their history.
  // Unrated, void and unreadable games are passed over.
  // `seeds`: where some start (above).
  static std::vector<store::RatingChanged> replay(
      const std::vector<store::GameSummary>& games,
      const std::map<std::int64_t, ratings::Rating>& seeds = {});
  // The seed rows of those among `seeds` that `history` does not name.
  static std::vector<store::RatingSeeded> unplayed_seeds(
      const std::vector<store::RatingChanged>& history,
      const std::map<std::int64_t, ratings::Rating>& seeds, std::int64_t now_ms);
  // The book as those rows leave it (each player's last row).
  void replace(const std::vector<store::RatingChanged>& history);

 private:
  ratings::Rating at_locked(std::int64_t user, std::int64_t now_ms) const;

  mutable std::mutex mutex_;
  std::map<std::int64_t, store::StoredRating> by_user_;  // absent: a newcomer, or seeded
  std::map<std::int64_t, ratings::Rating> seeds_;
};

}  // namespace tengen
