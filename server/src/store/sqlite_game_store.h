#pragma once

#include <mutex>

#include "store/game_store.h"
#include "store/sqlite.h"

namespace tengen::store {

// GameStore on a migrated SQLite file. Two connections of its own: one that writes (the journal's
// thread, and recovery before it starts), one shared by the readers under a mutex; WAL lets
// them work at the same time. Statements are prepared once, here.
class SqliteGameStore final : public GameStore {
 public:
  explicit SqliteGameStore(const std::string& path);

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
  struct Writer {
    explicit Writer(Database& db);
    Statement open_challenge, close_challenge, create_game, seat_game, insert_event, finish_game,
        set_rating, add_history, create_tournament, tournament_event, tournament_status,
        create_review, review_event, close_review, annul_game, clear_history, clear_ratings,
        seed_rating;
  };
  struct Reader {
    explicit Reader(Database& db);
    Statement sgf, game, games_of, finished, live, stored, events, rating, history;
  };
  std::vector<GameSummary> summaries(Statement& query);
  static GameCreated read_created(Statement& query);
  static std::vector<GameEvent> read_events(Statement& query, std::int64_t game_id);
  std::int64_t single_int(const char* sql);

  Database write_db_;
  Writer writer_;
  std::mutex read_mutex_;
  Database read_db_;
  Reader reader_;
};

}  // namespace tengen::store
