#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "store/game_store.h"

namespace tengen::store {
namespace pg {
class Connection;
}

// GameStore on a migrated PostgreSQL database (migrations/postgres/), as SqliteGameStore is on
// SQLite: two connections, one for write() (the journal's thread, and recovery before it
// starts), one shared by the readers under a mutex. write() sends a whole group commit in one
// transaction through libpq's pipeline mode, with a mark that tells, should the connection break
// while it commits, whether it was done (GameStore::write).
class PostgresGameStore final : public GameStore {
 public:
  explicit PostgresGameStore(const std::string& conninfo);
  ~PostgresGameStore() override;

  void write(std::span<const Write> writes) override;
  std::vector<ChallengeOpened> open_challenges() override;
  std::vector<StoredGame> unfinished_games() override;
  std::int64_t last_challenge_id() override;
  std::int64_t last_game_id() override;
  std::vector<AppliedCommand> recent_commands(int per_user) override;
  std::optional<std::string> finished_sgf(std::int64_t game_id) override;
  std::optional<StoredGame> stored_game(std::int64_t game_id) override;
  std::optional<GameSummary> game(std::int64_t game_id) override;
  std::vector<GameSummary> games_of(std::int64_t user_id, Page page) override;
  std::vector<GameSummary> finished_games(Page page) override;
  std::vector<GameSummary> live_games(Page page) override;
  std::vector<GameSummary> games_in_order_of_ending() override;
  std::vector<StoredRating> ratings() override;
  std::optional<StoredRating> rating(std::int64_t user_id) override;
  std::vector<RatingPoint> rating_history(std::int64_t user_id, int limit) override;
  std::vector<StoredTournament> tournaments() override;
  std::vector<StoredReview> open_reviews() override;
  std::int64_t last_review_id() override;
  std::optional<ClosedReview> closed_review(std::int64_t review_id) override;

 private:
  std::unique_ptr<pg::Connection> write_db_;
  // Commit marks (migrations/postgres/0011_survival.sql): this writer's row, its last number, and
  // the number of a group whose commit broke off with its outcome unknown.
  std::int64_t writer_ = 0;
  std::int64_t mark_ = 0;
  std::optional<std::int64_t> in_doubt_;
  std::mutex read_mutex_;
  std::unique_ptr<pg::Connection> read_db_;
};

}  // namespace tengen::store
