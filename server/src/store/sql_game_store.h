#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "store/game_store.h"
#include "store/sql.h"

namespace tengen::store {

// GameStore written once for SQLite and PostgreSQL (store/sql.h; docs/persistence.md, "One set of
// statements"), on a migrated database. Two connections: `writer` for write() (the journal's
// thread) and the recoveries, one at a time; `reader` shared by the readers under a mutex
// (SQLite's WAL, PostgreSQL's MVCC let them work beside the writer). write() is one batch: one
// transaction, on PostgreSQL sent in one go.
//
// Where the databases differ:
// - several nodes share a PostgreSQL database (store/leases.h): a game's lease and the fences
//   that fail a group written by a node that lost the game are written there; a SQLite file has
//   one server, which owns every game, and passes over both;
// - a PostgreSQL connection can break while it commits: each group ends with a commit mark that
//   tells, when write() is called again with the same group, whether it was done (GameStore::
//   write). A SQLite commit returns or throws; it needs no mark;
// - reading a JSON field (a game's "private" flag), and the events' order of insertion (SQLite's
//   rowid, PostgreSQL's identity column).
class SqlGameStore final : public GameStore {
 public:
  SqlGameStore(std::unique_ptr<sql::Connection> writer, std::unique_ptr<sql::Connection> reader);

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
  std::vector<DueRating> ratings_due() override;
  std::vector<StoredTournament> tournaments() override;
  std::vector<StoredReview> open_reviews() override;
  std::int64_t last_review_id() override;
  std::optional<ClosedReview> closed_review(std::int64_t review_id) override;

 private:
  std::vector<sql::Change> statements(std::span<const Write> writes) const;
  std::int64_t single_int(std::string_view sql);

  // The writer's connection is the journal's and the recoveries'. One at a time: in a cluster a
  // node becomes the hub (and its centre recovers) while its journal writes the games it plays
  // (found by TSan: a recovery's read beside the journal's batch on one libpq connection).
  std::mutex writer_mutex_;
  std::unique_ptr<sql::Connection> writer_;
  // PostgreSQL only (above): leases and fences written; commit marks (migrations/postgres/
  // 0011_survival.sql): this writer's row, its last number, and the number of a group whose
  // commit broke off with its outcome unknown.
  bool several_nodes_ = false;
  std::int64_t writer_id_ = 0;
  std::int64_t mark_ = 0;
  std::optional<std::int64_t> in_doubt_;
  // The statements that differ by dialect, made once.
  std::string finished_, live_, recent_events_;

  std::mutex read_mutex_;
  std::unique_ptr<sql::Connection> reader_;
};

}  // namespace tengen::store
