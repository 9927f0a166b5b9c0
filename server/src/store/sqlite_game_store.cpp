#include "store/sqlite_game_store.h"

#include <algorithm>
#include <limits>

#include "protocol/overloaded.h"

namespace tengen::store {
namespace {

// The columns of a GameSummary, in the order summaries() reads them.
constexpr const char* kSummary =
    "SELECT g.id, g.settings, g.black_id, g.white_id, b.username, w.username, g.created_at, "
    "g.ended_at,"
    " g.result, g.end_reason, g.move_count"
    " FROM games g JOIN users b ON b.id = g.black_id JOIN users w ON w.id = g.white_id ";

// Private games stay out of the public lists (their players still see them in their own list).
constexpr const char* kPublic = "json_extract(g.settings, '$.private') IS NOT 1";

constexpr const char* kRatings =
    "SELECT user_id, rating, deviation, volatility, games, updated_at FROM ratings ";

StoredRating read_rating(const Statement& q) {
  return {q.column_int(0),
          q.column_double(1),
          q.column_double(2),
          q.column_double(3),
          static_cast<int>(q.column_int(4)),
          q.column_int(5)};
}

constexpr const char* kCreated =
    "SELECT id, challenge_id, settings, first_id, second_id, nigiri_secret, nigiri_nonce, "
    "created_at FROM games ";
constexpr const char* kEvents =
    "SELECT seq, kind, spectators_only, record, text, at FROM game_events WHERE game_id = ? ORDER "
    "BY seq";

}  // namespace

SqliteGameStore::Writer::Writer(Database& db)
    : open_challenge(
          db,
          "INSERT INTO challenges(id, challenger_id, opponent_id, settings, created_at, cid)"
          " VALUES (?, ?, ?, ?, ?, ?)"),
      close_challenge(
          db, "UPDATE challenges SET closed_at = ?, closed_reason = ?, game_id = ? WHERE id = ?"),
      create_game(
          db,
          "INSERT INTO games(id, challenge_id, settings, first_id, second_id, black_id, white_id,"
          " nigiri_secret, nigiri_nonce, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
      seat_game(db, "UPDATE games SET black_id = ?, white_id = ? WHERE id = ?"),
      insert_event(db,
                   "INSERT INTO game_events(game_id, seq, kind, spectators_only, record, text, at, "
                   "user_id, cid)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
      finish_game(
          db,
          "UPDATE games SET ended_at = ?, result = ?, end_reason = ?, move_count = ?, sgf = ?"
          " WHERE id = ?"),
      set_rating(db,
                 "INSERT INTO ratings(user_id, rating, deviation, volatility, games, updated_at) "
                 "VALUES (?, ?, ?, ?, ?, ?)"
                 " ON CONFLICT(user_id) DO UPDATE SET rating = excluded.rating, deviation = "
                 "excluded.deviation,"
                 " volatility = excluded.volatility, games = excluded.games, updated_at = "
                 "excluded.updated_at"),
      add_history(db,
                  "INSERT INTO rating_history(user_id, game_id, at, rating, deviation, volatility)"
                  " VALUES (?, ?, ?, ?, ?, ?)"),
      create_tournament(db,
                        "INSERT INTO tournaments(id, name, director_id, settings, created_at, cid) "
                        "VALUES (?, ?, ?, ?, ?, ?)"),
      tournament_event(
          db,
          "INSERT INTO tournament_events(tournament_id, seq, kind, record, by_user, at, cid)"
          " VALUES (?, ?, ?, ?, ?, ?, ?)"),
      tournament_status(db, "UPDATE tournaments SET status = ? WHERE id = ?"),
      create_review(db,
                    "INSERT INTO reviews(id, owner_id, title, game_id, sgf, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)"),
      review_event(db,
                   "INSERT INTO review_events(review_id, seq, kind, record, by_user, at)"
                   " VALUES (?, ?, ?, ?, ?, ?)"),
      close_review(db, "UPDATE reviews SET closed_at = ?, final_sgf = ? WHERE id = ?"),
      annul_game(db,
                 "UPDATE games SET result = ?, end_reason = ?, sgf = ? WHERE id = ?"
                 " AND ended_at IS NOT NULL"),
      clear_history(db, "DELETE FROM rating_history"),
      clear_ratings(db, "DELETE FROM ratings"),
      seed_rating(db,
                  "INSERT INTO ratings(user_id, rating, deviation, volatility, games, updated_at)"
                  " VALUES (?, ?, ?, ?, 0, ?) ON CONFLICT(user_id) DO NOTHING") {}

SqliteGameStore::Reader::Reader(Database& db)
    : sgf(db, "SELECT sgf FROM games WHERE id = ? AND ended_at IS NOT NULL"),
      game(db, std::string(kSummary) + "WHERE g.id = ?"),
      games_of(db, std::string(kSummary) +
                       "WHERE g.id IN (SELECT id FROM games WHERE black_id = ?1 AND id < ?2"
                       " UNION SELECT id FROM games WHERE white_id = ?1 AND id < ?2)"
                       " ORDER BY g.id DESC LIMIT ?3"),
      finished(db, std::string(kSummary) + "WHERE g.ended_at IS NOT NULL AND " + kPublic +
                       " AND g.id < ? ORDER BY g.id DESC LIMIT ?"),
      live(db, std::string(kSummary) + "WHERE g.ended_at IS NULL AND " + kPublic +
                   " AND g.id < ? ORDER BY g.id DESC LIMIT ?"),
      stored(db, std::string(kCreated) + "WHERE id = ?"),
      events(db, kEvents),
      rating(db, std::string(kRatings) + "WHERE user_id = ?"),
      history(db,
              "SELECT game_id, at, rating, deviation FROM ("
              " SELECT id, game_id, at, rating, deviation FROM rating_history WHERE user_id = ? "
              "ORDER BY id DESC LIMIT ?"
              ") ORDER BY id") {}

SqliteGameStore::SqliteGameStore(const std::string& path)
    : write_db_(path), writer_(write_db_), read_db_(path), reader_(read_db_) {}

void SqliteGameStore::write(std::span<const Write> writes) {
  Transaction tx(write_db_);
  // A player rated after a game: the rating now, and a line of its history.
  const auto seed_rating = [&](const RatingSeeded& r) {
    writer_.seed_rating.bind(1, r.user_id)
        .bind_real(2, r.rating)
        .bind_real(3, r.deviation)
        .bind_real(4, r.volatility)
        .bind(5, r.at_ms)
        .run();
  };
  const auto rate = [&](const RatingChanged& r) {
    writer_.set_rating.bind(1, r.user_id)
        .bind_real(2, r.rating)
        .bind_real(3, r.deviation)
        .bind_real(4, r.volatility)
        .bind(5, std::int64_t{r.games})
        .bind(6, r.at_ms)
        .run();
    writer_.add_history.bind(1, r.user_id)
        .bind(2, r.game_id)
        .bind(3, r.at_ms)
        .bind_real(4, r.rating)
        .bind_real(5, r.deviation)
        .bind_real(6, r.volatility)
        .run();
  };
  for (const Write& w : writes) {
    std::visit(Overloaded{
                   [&](const ChallengeOpened& c) {
                     writer_.open_challenge.bind(1, c.id)
                         .bind(2, c.challenger_id)
                         .bind(3, c.opponent_id)
                         .bind(4, c.settings)
                         .bind(5, c.at_ms)
                         .bind(6, c.cid)
                         .run();
                   },
                   [&](const ChallengeClosed& c) {
                     writer_.close_challenge.bind(1, c.at_ms)
                         .bind(2, c.reason)
                         .bind(3, c.game_id)
                         .bind(4, c.id)
                         .run();
                   },
                   [&](const GameCreated& g) {
                     writer_.create_game.bind(1, g.id)
                         .bind(2, g.challenge_id)
                         .bind(3, g.settings)
                         .bind(4, g.first_id)
                         .bind(5, g.second_id)
                         .bind(6, g.first_id)
                         .bind(7, g.second_id)
                         .bind(8, g.nigiri_secret)
                         .bind(9, g.nigiri_nonce)
                         .bind(10, g.at_ms)
                         .run();
                   },
                   [&](const GameSeated& g) {
                     writer_.seat_game.bind(1, g.black_id).bind(2, g.white_id).bind(3, g.id).run();
                   },
                   [&](const GameEvent& e) {
                     writer_.insert_event.bind(1, e.game_id)
                         .bind(2, e.seq)
                         .bind(3, e.kind)
                         .bind(4, std::int64_t{e.spectators_only})
                         .bind(5, e.record)
                         .bind(6, e.text)
                         .bind(7, e.at_ms)
                         .bind(8, e.user_id)
                         .bind(9, e.cid)
                         .run();
                   },
                   [&](const GameFinished& g) {
                     writer_.finish_game.bind(1, g.at_ms)
                         .bind(2, g.result)
                         .bind(3, g.reason)
                         .bind(4, std::int64_t{g.move_count})
                         .bind(5, g.sgf)
                         .bind(6, g.id)
                         .run();
                   },
                   [&](const GameAnnulled& g) {
                     writer_.annul_game.bind(1, g.result)
                         .bind(2, g.reason)
                         .bind(3, g.sgf)
                         .bind(4, g.id)
                         .run();
                   },
                   [&](const RatingsReplaced& r) {
                     writer_.clear_history.run();
                     writer_.clear_ratings.run();
                     for (const auto& row : r.history) rate(row);
                     for (const auto& seed : r.seeds) seed_rating(seed);
                   },
                   [&](const RatingSeeded& r) { seed_rating(r); },
                   [&](const RatingChanged& r) { rate(r); },
                   [&](const TournamentCreated& t) {
                     writer_.create_tournament.bind(1, t.id)
                         .bind(2, t.name)
                         .bind(3, t.director_id)
                         .bind(4, t.settings)
                         .bind(5, t.at_ms)
                         .bind(6, t.cid)
                         .run();
                   },
                   [&](const TournamentEvent& e) {
                     writer_.tournament_event.bind(1, e.tournament_id)
                         .bind(2, e.seq)
                         .bind(3, e.kind)
                         .bind(4, e.record)
                         .bind(5, e.by_user)
                         .bind(6, e.at_ms)
                         .bind(7, e.cid)
                         .run();
                   },
                   [&](const TournamentStatus& t) {
                     writer_.tournament_status.bind(1, t.status).bind(2, t.id).run();
                   },
                   [&](const ReviewCreated& r) {
                     writer_.create_review.bind(1, r.id)
                         .bind(2, r.owner_id)
                         .bind(3, r.title)
                         .bind(4, r.game_id)
                         .bind(5, r.sgf)
                         .bind(6, r.at_ms)
                         .run();
                   },
                   [&](const ReviewEvent& e) {
                     writer_.review_event.bind(1, e.review_id)
                         .bind(2, e.seq)
                         .bind(3, e.kind)
                         .bind(4, e.record)
                         .bind(5, e.by_user)
                         .bind(6, e.at_ms)
                         .run();
                   },
                   [&](const ReviewClosed& r) {
                     writer_.close_review.bind(1, r.at_ms).bind(2, r.sgf).bind(3, r.id).run();
                   },
                   // One server on the file owns every game (store/leases.h: SoleNode).
                   [](const GameOwned&) {},
                   [](const Fence&) {},
               },
               w);
  }
  tx.commit();
}

std::int64_t SqliteGameStore::single_int(const char* sql) {
  Statement q(write_db_, sql);
  q.step();
  return q.column_int(0);
}

std::int64_t SqliteGameStore::last_challenge_id() {
  return single_int("SELECT coalesce(max(id), 0) FROM challenges");
}

std::int64_t SqliteGameStore::last_game_id() {
  return single_int("SELECT coalesce(max(id), 0) FROM games");
}

std::vector<AppliedCommand> SqliteGameStore::recent_commands(int per_user) {
  std::vector<AppliedCommand> out;
  Statement events(
      write_db_,
      "SELECT user_id, cid, game_id, seq, at FROM ("
      " SELECT user_id, cid, game_id, seq, at, rowid AS r,"
      "  row_number() OVER (PARTITION BY user_id ORDER BY rowid DESC) AS n"
      " FROM game_events WHERE cid IS NOT NULL AND user_id IS NOT NULL) WHERE n <= ? ORDER BY r");
  events.bind(1, std::int64_t{per_user});
  while (events.step()) {
    out.push_back({events.column_int(0), events.column_text(1), events.column_int(2),
                   events.column_int(3), std::nullopt, events.column_int(4)});
  }
  Statement challenges(write_db_,
                       "SELECT challenger_id, cid, id, created_at FROM ("
                       " SELECT challenger_id, cid, id, created_at,"
                       "  row_number() OVER (PARTITION BY challenger_id ORDER BY id DESC) AS n"
                       " FROM challenges) WHERE n <= ? ORDER BY id");
  challenges.bind(1, std::int64_t{per_user});
  while (challenges.step()) {
    out.push_back({challenges.column_int(0), challenges.column_text(1), std::nullopt, std::nullopt,
                   challenges.column_int(2), challenges.column_int(3)});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.at_ms < b.at_ms; });
  return out;
}

std::vector<ChallengeOpened> SqliteGameStore::open_challenges() {
  Statement q(write_db_,
              "SELECT id, challenger_id, opponent_id, settings, created_at FROM challenges"
              " WHERE closed_at IS NULL ORDER BY id");
  std::vector<ChallengeOpened> open;
  while (q.step()) {
    open.push_back({q.column_int(0),
                    q.column_int(1),
                    q.column_optional_int(2),
                    q.column_text(3),
                    q.column_int(4),
                    {}});
  }
  return open;
}

GameCreated SqliteGameStore::read_created(Statement& q) {
  return GameCreated{q.column_int(0),           q.column_optional_int(1), q.column_text(2),
                     q.column_int(3),           q.column_int(4),          q.column_optional_text(5),
                     q.column_optional_text(6), q.column_int(7)};
}

std::vector<GameEvent> SqliteGameStore::read_events(Statement& q, std::int64_t game_id) {
  q.bind(1, game_id);
  std::vector<GameEvent> events;
  while (q.step()) {
    events.push_back({game_id, q.column_int(0), q.column_text(1), q.column_int(2) != 0,
                      q.column_optional_text(3), q.column_text(4), q.column_int(5), std::nullopt,
                      std::nullopt});
  }
  q.reset();
  return events;
}

std::vector<StoredGame> SqliteGameStore::unfinished_games() {
  Statement games(write_db_, std::string(kCreated) + "WHERE ended_at IS NULL ORDER BY id");
  std::vector<StoredGame> out;
  while (games.step()) out.push_back({read_created(games), {}});
  Statement events(write_db_, kEvents);
  for (auto& game : out) game.events = read_events(events, game.created.id);
  return out;
}

std::optional<StoredGame> SqliteGameStore::stored_game(std::int64_t game_id) {
  std::lock_guard lock(read_mutex_);
  reader_.stored.bind(1, game_id);
  std::optional<StoredGame> game;
  if (reader_.stored.step()) game = StoredGame{read_created(reader_.stored), {}};
  reader_.stored.reset();
  if (game) game->events = read_events(reader_.events, game_id);
  return game;
}

std::vector<GameSummary> SqliteGameStore::summaries(Statement& q) {
  std::vector<GameSummary> out;
  while (q.step()) {
    out.push_back({q.column_int(0), q.column_text(1), q.column_int(2), q.column_int(3),
                   q.column_text(4), q.column_text(5), q.column_int(6), q.column_optional_int(7),
                   q.column_optional_text(8), q.column_optional_text(9),
                   static_cast<int>(q.column_int(10))});
  }
  q.reset();
  return out;
}

std::optional<std::string> SqliteGameStore::finished_sgf(std::int64_t game_id) {
  std::lock_guard lock(read_mutex_);
  reader_.sgf.bind(1, game_id);
  std::optional<std::string> sgf;
  if (reader_.sgf.step()) sgf = reader_.sgf.column_text(0);
  reader_.sgf.reset();
  return sgf;
}

std::optional<GameSummary> SqliteGameStore::game(std::int64_t game_id) {
  std::lock_guard lock(read_mutex_);
  reader_.game.bind(1, game_id);
  auto rows = summaries(reader_.game);
  if (rows.empty()) return std::nullopt;
  return rows.front();
}

std::vector<GameSummary> SqliteGameStore::games_of(std::int64_t user_id, Page page) {
  std::lock_guard lock(read_mutex_);
  reader_.games_of.bind(1, user_id).bind(2, page.before_or_max()).bind(3, std::int64_t{page.limit});
  return summaries(reader_.games_of);
}

std::vector<GameSummary> SqliteGameStore::games_in_order_of_ending() {
  std::lock_guard lock(read_mutex_);
  Statement q(read_db_,
              std::string(kSummary) + "WHERE g.ended_at IS NOT NULL ORDER BY g.ended_at, g.id");
  return summaries(q);
}

std::vector<GameSummary> SqliteGameStore::finished_games(Page page) {
  std::lock_guard lock(read_mutex_);
  reader_.finished.bind(1, page.before_or_max()).bind(2, std::int64_t{page.limit});
  return summaries(reader_.finished);
}

std::vector<StoredRating> SqliteGameStore::ratings() {
  Statement q(write_db_, kRatings);
  std::vector<StoredRating> out;
  while (q.step()) out.push_back(read_rating(q));
  return out;
}

std::optional<StoredRating> SqliteGameStore::rating(std::int64_t user_id) {
  std::lock_guard lock(read_mutex_);
  reader_.rating.bind(1, user_id);
  std::optional<StoredRating> out;
  if (reader_.rating.step()) out = read_rating(reader_.rating);
  reader_.rating.reset();
  return out;
}

std::vector<RatingPoint> SqliteGameStore::rating_history(std::int64_t user_id, int limit) {
  std::lock_guard lock(read_mutex_);
  reader_.history.bind(1, user_id).bind(2, std::int64_t{limit});
  std::vector<RatingPoint> out;
  while (reader_.history.step()) {
    out.push_back({reader_.history.column_int(0), reader_.history.column_int(1),
                   reader_.history.column_double(2), reader_.history.column_double(3)});
  }
  reader_.history.reset();
  return out;
}

std::vector<StoredTournament> SqliteGameStore::tournaments() {
  Statement rows(
      write_db_,
      "SELECT id, name, director_id, settings, created_at, cid FROM tournaments ORDER BY id");
  std::vector<StoredTournament> out;
  while (rows.step()) {
    out.push_back({{rows.column_int(0), rows.column_text(1), rows.column_int(2),
                    rows.column_text(3), rows.column_int(4), rows.column_text(5)},
                   {}});
  }
  Statement events(write_db_,
                   "SELECT seq, kind, record, by_user, at, cid FROM tournament_events WHERE "
                   "tournament_id = ? ORDER BY seq");
  for (auto& t : out) {
    events.bind(1, t.created.id);
    while (events.step()) {
      t.events.push_back({t.created.id, events.column_int(0), events.column_text(1),
                          events.column_text(2), events.column_optional_int(3),
                          events.column_int(4), events.column_optional_text(5)});
    }
    events.reset();
  }
  return out;
}

std::vector<StoredReview> SqliteGameStore::open_reviews() {
  Statement rows(write_db_,
                 "SELECT id, owner_id, title, game_id, sgf, created_at FROM reviews"
                 " WHERE closed_at IS NULL ORDER BY id");
  std::vector<StoredReview> out;
  while (rows.step()) {
    out.push_back({{rows.column_int(0), rows.column_int(1), rows.column_text(2),
                    rows.column_optional_int(3), rows.column_text(4), rows.column_int(5)},
                   {}});
  }
  Statement events(write_db_,
                   "SELECT seq, kind, record, by_user, at FROM review_events WHERE review_id = ?"
                   " ORDER BY seq");
  for (auto& r : out) {
    events.bind(1, r.created.id);
    while (events.step()) {
      r.events.push_back({r.created.id, events.column_int(0), events.column_text(1),
                          events.column_text(2), events.column_optional_int(3),
                          events.column_int(4)});
    }
    events.reset();
  }
  return out;
}

std::int64_t SqliteGameStore::last_review_id() {
  return single_int("SELECT coalesce(max(id), 0) FROM reviews");
}

std::optional<ClosedReview> SqliteGameStore::closed_review(std::int64_t review_id) {
  std::lock_guard lock(read_mutex_);
  Statement q(read_db_,
              "SELECT owner_id, game_id, final_sgf FROM reviews WHERE id = ?"
              " AND closed_at IS NOT NULL");
  q.bind(1, review_id);
  if (!q.step()) return std::nullopt;
  ClosedReview out{q.column_int(0), q.column_optional_int(1), q.column_text(2), {}};
  Statement events(read_db_,
                   "SELECT seq, kind, record, by_user, at FROM review_events WHERE review_id = ?"
                   " AND kind = 'invite' ORDER BY seq");
  events.bind(1, review_id);
  while (events.step()) {
    out.invitations.push_back({review_id, events.column_int(0), events.column_text(1),
                               events.column_text(2), events.column_optional_int(3),
                               events.column_int(4)});
  }
  return out;
}

std::vector<GameSummary> SqliteGameStore::live_games(Page page) {
  std::lock_guard lock(read_mutex_);
  reader_.live.bind(1, page.before_or_max()).bind(2, std::int64_t{page.limit});
  return summaries(reader_.live);
}

}  // namespace tengen::store
