#include "store/postgres_game_store.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>
#include <random>

#include "protocol/overloaded.h"
#include "store/postgres.h"

namespace tengen::store {
namespace {

// The columns of a GameSummary, in the order summaries() reads them.
constexpr const char* kSummary =
    "SELECT g.id, g.settings, g.black_id, g.white_id, b.username, w.username, g.created_at,"
    " g.ended_at, g.result, g.end_reason, g.move_count"
    " FROM games g JOIN users b ON b.id = g.black_id JOIN users w ON w.id = g.white_id ";

// Private games stay out of the public lists (their players still see them in their own list).
constexpr const char* kPublic = "(g.settings::jsonb -> 'private') IS DISTINCT FROM 'true'::jsonb";

constexpr const char* kRatings =
    "SELECT user_id, rating, deviation, volatility, games, updated_at FROM ratings ";

constexpr const char* kCreated =
    "SELECT id, challenge_id, settings, first_id, second_id, nigiri_secret, nigiri_nonce,"
    " created_at FROM games ";
constexpr const char* kEvents =
    "SELECT seq, kind, spectators_only, record, text, at FROM game_events WHERE game_id = $1"
    " ORDER BY seq";

StoredRating rating_at(const pg::Result& r, int i) {
  return {r.int64(i, 0), r.real(i, 1), r.real(i, 2), r.real(i, 3), static_cast<int>(r.int64(i, 4)),
          r.int64(i, 5)};
}

GameCreated created_at(const pg::Result& r, int i) {
  return GameCreated{r.int64(i, 0), r.optional_int64(i, 1), r.text(i, 2),          r.int64(i, 3),
                     r.int64(i, 4), r.optional_text(i, 5),  r.optional_text(i, 6), r.int64(i, 7)};
}

std::vector<GameEvent> events_of(pg::Connection& db, std::int64_t game_id) {
  const auto r = db.query(kEvents, {game_id});
  std::vector<GameEvent> events;
  for (int i = 0; i < r.rows(); ++i) {
    events.push_back({game_id, r.int64(i, 0), r.text(i, 1), r.boolean(i, 2), r.optional_text(i, 3),
                      r.text(i, 4), r.int64(i, 5), std::nullopt, std::nullopt});
  }
  return events;
}

std::vector<GameSummary> summaries(const pg::Result& r) {
  std::vector<GameSummary> out;
  for (int i = 0; i < r.rows(); ++i) {
    out.push_back({r.int64(i, 0), r.text(i, 1), r.int64(i, 2), r.int64(i, 3), r.text(i, 4),
                   r.text(i, 5), r.int64(i, 6), r.optional_int64(i, 7), r.optional_text(i, 8),
                   r.optional_text(i, 9), static_cast<int>(r.int64(i, 10))});
  }
  return out;
}

// The statement that stores one write.
pg::Connection::Statement statement_for(const Write& write) {
  using S = pg::Connection::Statement;
  return std::visit(
      Overloaded{
          [](const ChallengeOpened& c) {
            return S{
                "INSERT INTO challenges(id, challenger_id, opponent_id, settings, created_at,"
                " cid) VALUES ($1, $2, $3, $4, $5, $6)",
                {c.id, c.challenger_id, c.opponent_id, c.settings, c.at_ms, c.cid}};
          },
          [](const ChallengeClosed& c) {
            return S{
                "UPDATE challenges SET closed_at = $1, closed_reason = $2, game_id = $3"
                " WHERE id = $4",
                {c.at_ms, c.reason, c.game_id, c.id}};
          },
          [](const GameCreated& g) {
            return S{
                "INSERT INTO games(id, challenge_id, settings, first_id, second_id, black_id,"
                " white_id, nigiri_secret, nigiri_nonce, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $4, $5, $6, $7, $8)",
                {g.id, g.challenge_id, g.settings, g.first_id, g.second_id, g.nigiri_secret,
                 g.nigiri_nonce, g.at_ms}};
          },
          [](const GameSeated& g) {
            return S{"UPDATE games SET black_id = $1, white_id = $2 WHERE id = $3",
                     {g.black_id, g.white_id, g.id}};
          },
          [](const GameEvent& e) {
            return S{
                "INSERT INTO game_events(game_id, seq, kind, spectators_only, record, text,"
                " at, user_id, cid) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                {e.game_id, e.seq, e.kind, e.spectators_only, e.record, e.text, e.at_ms, e.user_id,
                 e.cid}};
          },
          [](const GameFinished& g) {
            return S{
                "UPDATE games SET ended_at = $1, result = $2, end_reason = $3,"
                " move_count = $4, sgf = $5 WHERE id = $6",
                {g.at_ms, g.result, g.reason, g.move_count, g.sgf, g.id}};
          },
          [](const RatingChanged& r) {
            // Both the rating and its history row, in one statement.
            return S{
                "WITH rated AS (INSERT INTO ratings(user_id, rating, deviation, volatility,"
                " games, updated_at) VALUES ($1, $3, $4, $5, $6, $7)"
                " ON CONFLICT (user_id) DO UPDATE SET rating = excluded.rating,"
                " deviation = excluded.deviation, volatility = excluded.volatility,"
                " games = excluded.games, updated_at = excluded.updated_at)"
                " INSERT INTO rating_history(user_id, game_id, at, rating, deviation,"
                " volatility) VALUES ($1, $2, $7, $3, $4, $5)",
                {r.user_id, r.game_id, r.rating, r.deviation, r.volatility, r.games, r.at_ms}};
          },
          [](const GameAnnulled& g) {
            return S{
                "UPDATE games SET result = $1, end_reason = $2, sgf = $3 WHERE id = $4"
                " AND ended_at IS NOT NULL",
                {g.result, g.reason, g.sgf, g.id}};
          },
          [](const RatingSeeded& r) {
            return S{
                "INSERT INTO ratings(user_id, rating, deviation, volatility, games, updated_at)"
                " VALUES ($1, $2, $3, $4, 0, $5) ON CONFLICT (user_id) DO NOTHING",
                {r.user_id, r.rating, r.deviation, r.volatility, r.at_ms}};
          },
          [](const RatingsReplaced&) -> S {  // expanded by write()
            throw std::logic_error("RatingsReplaced is written row by row");
          },
          [](const TournamentCreated& t) {
            return S{
                "INSERT INTO tournaments(id, name, director_id, settings, created_at, cid)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                {t.id, t.name, t.director_id, t.settings, t.at_ms, t.cid}};
          },
          [](const TournamentEvent& e) {
            return S{
                "INSERT INTO tournament_events(tournament_id, seq, kind, record, by_user, at,"
                " cid) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                {e.tournament_id, e.seq, e.kind, e.record, e.by_user, e.at_ms, e.cid}};
          },
          [](const TournamentStatus& t) {
            return S{"UPDATE tournaments SET status = $1 WHERE id = $2", {t.status, t.id}};
          },
          [](const ReviewCreated& r) {
            return S{
                "INSERT INTO reviews(id, owner_id, title, game_id, sgf, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                {r.id, r.owner_id, r.title, r.game_id, r.sgf, r.at_ms}};
          },
          [](const ReviewEvent& e) {
            return S{
                "INSERT INTO review_events(review_id, seq, kind, record, by_user, at)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                {e.review_id, e.seq, e.kind, e.record, e.by_user, e.at_ms}};
          },
          [](const ReviewClosed& r) {
            return S{"UPDATE reviews SET closed_at = $1, final_sgf = $2 WHERE id = $3",
                     {r.at_ms, r.sgf, r.id}};
          },
          [](const GameOwned& o) {
            return S{"INSERT INTO game_leases(game_id, node_id, epoch) VALUES ($1, $2, $3)",
                     {o.game_id, o.node_id, o.epoch}};
          },
          // Raises SQLSTATE TG001 (migrations/postgres/0005_nodes.sql), failing the group.
          [](const Fence& f) {
            return S{"SELECT fence_game($1, $2)", {f.game_id, f.epoch}};
          },
      },
      write);
}

}  // namespace

PostgresGameStore::PostgresGameStore(const std::string& conninfo)
    : write_db_(std::make_unique<pg::Connection>(conninfo)),
      read_db_(std::make_unique<pg::Connection>(conninfo)) {
  // Random, so that no two writers (nodes, restarts) share a row: 62 bits from the OS.
  std::random_device entropy;
  writer_ = (static_cast<std::int64_t>(entropy()) << 30) ^ static_cast<std::int64_t>(entropy());
  write_db_->exec("DELETE FROM commit_marks WHERE at < now() - interval '1 day'");
}

PostgresGameStore::~PostgresGameStore() = default;

void PostgresGameStore::write(std::span<const Write> writes) {
  // The last group's commit broke off with its outcome unknown, and this is the same group again
  // (GameStore::write): done if its mark is in the database, else sent again below. Throws
  // store::Unreachable, and stays in doubt, while the database is away.
  if (in_doubt_) {
    const auto r = write_db_->query("SELECT mark FROM commit_marks WHERE writer = $1", {writer_});
    const bool committed = r.rows() == 1 && r.int64(0, 0) >= *in_doubt_;
    spdlog::info("the commit cut off by the database's loss was {}",
                 committed ? "done: nothing is sent again" : "not done: it is sent again");
    in_doubt_.reset();
    if (committed) return;
  }
  std::vector<pg::Connection::Statement> statements;
  statements.reserve(writes.size() + 1);
  // The fences first: a node that lost a game fails on its fence (TG001, "another node took it
  // over"), never on a row the new owner wrote under the same number. Except the fence of a game
  // this group creates, whose lease the group writes: it stays after it.
  std::vector<std::int64_t> owned_here;
  for (const Write& w : writes) {
    if (const auto* o = std::get_if<GameOwned>(&w)) owned_here.push_back(o->game_id);
  }
  const auto early = [&](const Write& w) {
    const auto* f = std::get_if<Fence>(&w);
    return f && std::find(owned_here.begin(), owned_here.end(), f->game_id) == owned_here.end();
  };
  for (const Write& w : writes) {
    if (early(w)) statements.push_back(statement_for(w));
  }
  for (const Write& w : writes) {
    if (early(w)) continue;
    if (const auto* replaced = std::get_if<RatingsReplaced>(&w)) {  // many rows
      statements.push_back({"DELETE FROM rating_history", {}});
      statements.push_back({"DELETE FROM ratings", {}});
      for (const auto& row : replaced->history) statements.push_back(statement_for(row));
      for (const auto& seed : replaced->seeds) statements.push_back(statement_for(seed));
      continue;
    }
    statements.push_back(statement_for(w));
  }
  const std::int64_t mark = ++mark_;
  statements.push_back(
      {"INSERT INTO commit_marks(writer, mark) VALUES ($1, $2)"
       " ON CONFLICT (writer) DO UPDATE SET mark = excluded.mark, at = now()",
       {writer_, mark}});
  try {
    write_db_->transaction(statements);
  } catch (const Unreachable&) {
    in_doubt_ = mark;
    throw;
  }
}

std::int64_t PostgresGameStore::last_challenge_id() {
  return write_db_->query("SELECT coalesce(max(id), 0) FROM challenges").int64(0, 0);
}

std::int64_t PostgresGameStore::last_game_id() {
  return write_db_->query("SELECT coalesce(max(id), 0) FROM games").int64(0, 0);
}

std::vector<AppliedCommand> PostgresGameStore::recent_commands(int per_user) {
  std::vector<AppliedCommand> out;
  const auto events = write_db_->query(
      "SELECT user_id, cid, game_id, seq, at FROM ("
      " SELECT user_id, cid, game_id, seq, at, id,"
      "  row_number() OVER (PARTITION BY user_id ORDER BY id DESC) AS n"
      " FROM game_events WHERE cid IS NOT NULL AND user_id IS NOT NULL) recent"
      " WHERE n <= $1 ORDER BY id",
      {per_user});
  for (int i = 0; i < events.rows(); ++i) {
    out.push_back({events.int64(i, 0), events.text(i, 1), events.int64(i, 2), events.int64(i, 3),
                   std::nullopt, events.int64(i, 4)});
  }
  const auto challenges = write_db_->query(
      "SELECT challenger_id, cid, id, created_at FROM ("
      " SELECT challenger_id, cid, id, created_at,"
      "  row_number() OVER (PARTITION BY challenger_id ORDER BY id DESC) AS n"
      " FROM challenges) recent WHERE n <= $1 ORDER BY id",
      {per_user});
  for (int i = 0; i < challenges.rows(); ++i) {
    out.push_back({challenges.int64(i, 0), challenges.text(i, 1), std::nullopt, std::nullopt,
                   challenges.int64(i, 2), challenges.int64(i, 3)});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.at_ms < b.at_ms; });
  return out;
}

std::vector<ChallengeOpened> PostgresGameStore::open_challenges() {
  const auto r = write_db_->query(
      "SELECT id, challenger_id, opponent_id, settings, created_at FROM challenges"
      " WHERE closed_at IS NULL ORDER BY id");
  std::vector<ChallengeOpened> open;
  for (int i = 0; i < r.rows(); ++i) {
    open.push_back(
        {r.int64(i, 0), r.int64(i, 1), r.optional_int64(i, 2), r.text(i, 3), r.int64(i, 4), {}});
  }
  return open;
}

std::vector<StoredGame> PostgresGameStore::unfinished_games() {
  const auto r = write_db_->query(std::string(kCreated) + "WHERE ended_at IS NULL ORDER BY id");
  std::vector<StoredGame> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back({created_at(r, i), {}});
  for (auto& game : out) game.events = events_of(*write_db_, game.created.id);
  return out;
}

std::optional<StoredGame> PostgresGameStore::stored_game(std::int64_t game_id) {
  std::lock_guard lock(read_mutex_);
  const auto r = read_db_->query(std::string(kCreated) + "WHERE id = $1", {game_id});
  if (r.rows() == 0) return std::nullopt;
  return StoredGame{created_at(r, 0), events_of(*read_db_, game_id)};
}

std::optional<std::string> PostgresGameStore::finished_sgf(std::int64_t game_id) {
  std::lock_guard lock(read_mutex_);
  const auto r =
      read_db_->query("SELECT sgf FROM games WHERE id = $1 AND ended_at IS NOT NULL", {game_id});
  if (r.rows() == 0) return std::nullopt;
  return r.optional_text(0, 0);
}

std::optional<GameSummary> PostgresGameStore::game(std::int64_t game_id) {
  std::lock_guard lock(read_mutex_);
  auto rows = summaries(read_db_->query(std::string(kSummary) + "WHERE g.id = $1", {game_id}));
  if (rows.empty()) return std::nullopt;
  return rows.front();
}

std::vector<GameSummary> PostgresGameStore::games_of(std::int64_t user_id, Page page) {
  std::lock_guard lock(read_mutex_);
  return summaries(read_db_->query(
      std::string(kSummary) + "WHERE g.id IN (SELECT id FROM games WHERE black_id = $1 AND id < $2"
                              " UNION SELECT id FROM games WHERE white_id = $1 AND id < $2)"
                              " ORDER BY g.id DESC LIMIT $3",
      {user_id, page.before_or_max(), page.limit}));
}

std::vector<GameSummary> PostgresGameStore::finished_games(Page page) {
  std::lock_guard lock(read_mutex_);
  return summaries(read_db_->query(std::string(kSummary) + "WHERE g.ended_at IS NOT NULL AND " +
                                       kPublic + " AND g.id < $1 ORDER BY g.id DESC LIMIT $2",
                                   {page.before_or_max(), page.limit}));
}

std::vector<GameSummary> PostgresGameStore::games_in_order_of_ending() {
  std::lock_guard lock(read_mutex_);
  return summaries(read_db_->query(std::string(kSummary) +
                                   "WHERE g.ended_at IS NOT NULL ORDER BY g.ended_at, g.id"));
}

std::vector<GameSummary> PostgresGameStore::live_games(Page page) {
  std::lock_guard lock(read_mutex_);
  return summaries(read_db_->query(std::string(kSummary) + "WHERE g.ended_at IS NULL AND " +
                                       kPublic + " AND g.id < $1 ORDER BY g.id DESC LIMIT $2",
                                   {page.before_or_max(), page.limit}));
}

std::vector<StoredRating> PostgresGameStore::ratings() {
  const auto r = write_db_->query(std::string(kRatings) + "ORDER BY user_id");
  std::vector<StoredRating> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(rating_at(r, i));
  return out;
}

std::optional<StoredRating> PostgresGameStore::rating(std::int64_t user_id) {
  std::lock_guard lock(read_mutex_);
  const auto r = read_db_->query(std::string(kRatings) + "WHERE user_id = $1", {user_id});
  if (r.rows() == 0) return std::nullopt;
  return rating_at(r, 0);
}

std::vector<RatingPoint> PostgresGameStore::rating_history(std::int64_t user_id, int limit) {
  std::lock_guard lock(read_mutex_);
  const auto r = read_db_->query(
      "SELECT game_id, at, rating, deviation FROM ("
      " SELECT id, game_id, at, rating, deviation FROM rating_history WHERE user_id = $1"
      " ORDER BY id DESC LIMIT $2) newest ORDER BY id",
      {user_id, limit});
  std::vector<RatingPoint> out;
  for (int i = 0; i < r.rows(); ++i)
    out.push_back({r.int64(i, 0), r.int64(i, 1), r.real(i, 2), r.real(i, 3)});
  return out;
}

std::vector<StoredTournament> PostgresGameStore::tournaments() {
  const auto rows = write_db_->query(
      "SELECT id, name, director_id, settings, created_at, cid FROM tournaments ORDER BY id");
  std::vector<StoredTournament> out;
  for (int i = 0; i < rows.rows(); ++i) {
    out.push_back({{rows.int64(i, 0), rows.text(i, 1), rows.int64(i, 2), rows.text(i, 3),
                    rows.int64(i, 4), rows.text(i, 5)},
                   {}});
  }
  for (auto& t : out) {
    const auto e = write_db_->query(
        "SELECT seq, kind, record, by_user, at, cid FROM tournament_events"
        " WHERE tournament_id = $1 ORDER BY seq",
        {t.created.id});
    for (int i = 0; i < e.rows(); ++i) {
      t.events.push_back({t.created.id, e.int64(i, 0), e.text(i, 1), e.text(i, 2),
                          e.optional_int64(i, 3), e.int64(i, 4), e.optional_text(i, 5)});
    }
  }
  return out;
}

std::vector<StoredReview> PostgresGameStore::open_reviews() {
  const auto rows = write_db_->query(
      "SELECT id, owner_id, title, game_id, sgf, created_at FROM reviews"
      " WHERE closed_at IS NULL ORDER BY id");
  std::vector<StoredReview> out;
  for (int i = 0; i < rows.rows(); ++i) {
    out.push_back({{rows.int64(i, 0), rows.int64(i, 1), rows.text(i, 2), rows.optional_int64(i, 3),
                    rows.text(i, 4), rows.int64(i, 5)},
                   {}});
  }
  for (auto& r : out) {
    const auto e = write_db_->query(
        "SELECT seq, kind, record, by_user, at FROM review_events WHERE review_id = $1"
        " ORDER BY seq",
        {r.created.id});
    for (int i = 0; i < e.rows(); ++i) {
      r.events.push_back({r.created.id, e.int64(i, 0), e.text(i, 1), e.text(i, 2),
                          e.optional_int64(i, 3), e.int64(i, 4)});
    }
  }
  return out;
}

std::int64_t PostgresGameStore::last_review_id() {
  return write_db_->query("SELECT coalesce(max(id), 0) FROM reviews").int64(0, 0);
}

std::optional<ClosedReview> PostgresGameStore::closed_review(std::int64_t review_id) {
  std::lock_guard lock(read_mutex_);
  const auto r = read_db_->query(
      "SELECT owner_id, game_id, final_sgf FROM reviews WHERE id = $1 AND closed_at IS NOT NULL",
      {review_id});
  if (r.rows() == 0) return std::nullopt;
  ClosedReview out{r.int64(0, 0), r.optional_int64(0, 1), r.optional_text(0, 2).value_or(""), {}};
  const auto e = read_db_->query(
      "SELECT seq, kind, record, by_user, at FROM review_events WHERE review_id = $1"
      " AND kind = 'invite' ORDER BY seq",
      {review_id});
  for (int i = 0; i < e.rows(); ++i) {
    out.invitations.push_back({review_id, e.int64(i, 0), e.text(i, 1), e.text(i, 2),
                               e.optional_int64(i, 3), e.int64(i, 4)});
  }
  return out;
}

}  // namespace tengen::store
