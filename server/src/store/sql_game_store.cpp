#include "store/sql_game_store.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>

#include "protocol/overloaded.h"
#include "store/unreachable.h"

namespace tengen::store {
namespace {

using sql::value;

std::string operator+(std::string_view a, std::string_view b) {
  std::string out;
  out.reserve(a.size() + b.size());
  out.append(a).append(b);
  return out;
}

// The columns of a GameSummary, in the order summary() reads them, and where they come from.
constexpr std::string_view kSummaryColumns =
    "SELECT g.id, g.settings, g.black_id, g.white_id, b.username, w.username, g.created_at,"
    " g.ended_at, g.result, g.end_reason, g.move_count";
constexpr std::string_view kSummaryFrom =
    " FROM games g JOIN users b ON b.id = g.black_id JOIN users w ON w.id = g.white_id ";
const std::string kSummary = kSummaryColumns + kSummaryFrom;
// The games left to rate (ratings_due()): each one's summary, and whether a rebuild rated it.
const std::string kRatingsDue =
    kSummaryColumns +
    ", CASE WHEN EXISTS (SELECT 1 FROM rating_history h WHERE h.game_id = g.id) THEN 1 ELSE 0"
    " END" +
    kSummaryFrom +
    "JOIN ratings_due d ON d.game_id = g.id WHERE g.ended_at IS NOT NULL"
    " ORDER BY g.ended_at, g.id";

constexpr std::string_view kRatings =
    "SELECT user_id, rating, deviation, volatility, games, updated_at FROM ratings ";

constexpr std::string_view kCreated =
    "SELECT id, challenge_id, settings, first_id, second_id, nigiri_secret, nigiri_nonce,"
    " created_at FROM games ";

constexpr std::string_view kEventColumns = "SELECT seq, kind, spectators_only, record, text, at";

GameSummary summary(const sql::Rows& r, std::size_t i) {
  return {r.integer(i, 0),
          r.text(i, 1),
          r.integer(i, 2),
          r.integer(i, 3),
          r.text(i, 4),
          r.text(i, 5),
          r.integer(i, 6),
          r.optional_integer(i, 7),
          r.optional_text(i, 8),
          r.optional_text(i, 9),
          static_cast<int>(r.integer(i, 10))};
}

std::vector<GameSummary> summaries(const sql::Rows& r) {
  std::vector<GameSummary> out;
  out.reserve(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(summary(r, i));
  return out;
}

StoredRating stored_rating(const sql::Rows& r, std::size_t i) {
  return {
      r.integer(i, 0), r.real(i, 1), r.real(i, 2), r.real(i, 3), static_cast<int>(r.integer(i, 4)),
      r.integer(i, 5)};
}

GameCreated created(const sql::Rows& r, std::size_t i) {
  return GameCreated{r.integer(i, 0),       r.optional_integer(i, 1), r.text(i, 2),
                     r.integer(i, 3),       r.integer(i, 4),          r.optional_text(i, 5),
                     r.optional_text(i, 6), r.integer(i, 7)};
}

// A game's event from kEventColumns (then `first` more columns before them); its long texts are
// moved out of the rows.
GameEvent event(sql::Rows& r, std::size_t i, std::int64_t game_id, std::size_t first = 0) {
  return {game_id,
          r.integer(i, first + 0),
          r.text(i, first + 1),
          r.boolean(i, first + 2),
          r.is_null(i, first + 3) ? std::nullopt
                                  : std::optional<std::string>(r.take_text(i, first + 3)),
          r.take_text(i, first + 4),
          r.integer(i, first + 5),
          std::nullopt,
          std::nullopt};
}

// Tournament and review events: seq, kind, record, by_user, at.
constexpr std::string_view kRoomEventColumns = "SELECT seq, kind, record, by_user, at";

// The statements a write is stored by (RatingsReplaced: many).
void add_statements(const Write& write, std::vector<sql::Change>& out) {
  std::visit(
      Overloaded{
          [&](const ChallengeOpened& c) {
            out.push_back(
                {"INSERT INTO challenges(id, challenger_id, opponent_id, settings,"
                 " created_at, cid) VALUES (?, ?, ?, ?, ?, ?)",
                 {value(c.id), value(c.challenger_id), value(c.opponent_id), value(c.settings),
                  value(c.at_ms), value(c.cid)}});
          },
          [&](const ChallengeClosed& c) {
            out.push_back(
                {"UPDATE challenges SET closed_at = ?, closed_reason = ?, game_id = ?"
                 " WHERE id = ?",
                 {value(c.at_ms), value(c.reason), value(c.game_id), value(c.id)}});
          },
          [&](const GameCreated& g) {
            out.push_back(
                {"INSERT INTO games(id, challenge_id, settings, first_id, second_id,"
                 " black_id, white_id, nigiri_secret, nigiri_nonce, created_at)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 {value(g.id), value(g.challenge_id), value(g.settings), value(g.first_id),
                  value(g.second_id), value(g.first_id), value(g.second_id), value(g.nigiri_secret),
                  value(g.nigiri_nonce), value(g.at_ms)}});
          },
          [&](const GameSeated& g) {
            out.push_back({"UPDATE games SET black_id = ?, white_id = ? WHERE id = ?",
                           {value(g.black_id), value(g.white_id), value(g.id)}});
          },
          [&](const GameEvent& e) {
            out.push_back(
                {"INSERT INTO game_events(game_id, seq, kind, spectators_only, record,"
                 " text, at, user_id, cid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 {value(e.game_id), value(e.seq), value(e.kind), value(e.spectators_only),
                  value(e.record), value(e.text), value(e.at_ms), value(e.user_id), value(e.cid)}});
          },
          [&](const GameFinished& g) {
            out.push_back(
                {"UPDATE games SET ended_at = ?, result = ?, end_reason = ?,"
                 " move_count = ?, sgf = ? WHERE id = ?",
                 {value(g.at_ms), value(g.result), value(g.reason), value(g.move_count),
                  value(g.sgf), value(g.id)}});
          },
          [&](const GameAnnulled& g) {
            out.push_back(
                {"UPDATE games SET result = ?, end_reason = ?, sgf = ? WHERE id = ?"
                 " AND ended_at IS NOT NULL",
                 {value(g.result), value(g.reason), value(g.sgf), value(g.id)}});
          },
          // A player rated after a game: the rating now, and a line of its history.
          [&](const RatingChanged& r) {
            out.push_back(
                {"INSERT INTO ratings(user_id, rating, deviation, volatility, games, updated_at)"
                 " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                 " rating = excluded.rating, deviation = excluded.deviation,"
                 " volatility = excluded.volatility, games = excluded.games,"
                 " updated_at = excluded.updated_at",
                 {value(r.user_id), value(r.rating), value(r.deviation), value(r.volatility),
                  value(r.games), value(r.at_ms)}});
            out.push_back(
                {"INSERT INTO rating_history(user_id, game_id, at, rating, deviation, volatility)"
                 " VALUES (?, ?, ?, ?, ?, ?)",
                 {value(r.user_id), value(r.game_id), value(r.at_ms), value(r.rating),
                  value(r.deviation), value(r.volatility)}});
          },
          [&](const RatingSeeded& r) {
            out.push_back(
                {"INSERT INTO ratings(user_id, rating, deviation, volatility, games, updated_at)"
                 " VALUES (?, ?, ?, ?, 0, ?) ON CONFLICT (user_id) DO NOTHING",
                 {value(r.user_id), value(r.rating), value(r.deviation), value(r.volatility),
                  value(r.at_ms)}});
          },
          [&](const RatingsReplaced& r) {
            out.push_back({"DELETE FROM rating_history", {}});
            out.push_back({"DELETE FROM ratings", {}});
            for (const auto& row : r.history) add_statements(row, out);
            for (const auto& seed : r.seeds) add_statements(seed, out);
          },
          [&](const RatingDue& r) {
            out.push_back({"INSERT INTO ratings_due(game_id) VALUES (?) ON CONFLICT DO NOTHING",
                           {value(r.game_id)}});
          },
          [&](const RatingDone& r) {
            out.push_back({"DELETE FROM ratings_due WHERE game_id = ?", {value(r.game_id)}});
          },
          [&](const TournamentCreated& t) {
            out.push_back(
                {"INSERT INTO tournaments(id, name, director_id, settings, created_at,"
                 " cid) VALUES (?, ?, ?, ?, ?, ?)",
                 {value(t.id), value(t.name), value(t.director_id), value(t.settings),
                  value(t.at_ms), value(t.cid)}});
          },
          [&](const TournamentEvent& e) {
            out.push_back(
                {"INSERT INTO tournament_events(tournament_id, seq, kind, record,"
                 " by_user, at, cid) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 {value(e.tournament_id), value(e.seq), value(e.kind), value(e.record),
                  value(e.by_user), value(e.at_ms), value(e.cid)}});
          },
          [&](const TournamentStatus& t) {
            out.push_back(
                {"UPDATE tournaments SET status = ? WHERE id = ?", {value(t.status), value(t.id)}});
          },
          [&](const ReviewCreated& r) {
            out.push_back(
                {"INSERT INTO reviews(id, owner_id, title, game_id, sgf, created_at)"
                 " VALUES (?, ?, ?, ?, ?, ?)",
                 {value(r.id), value(r.owner_id), value(r.title), value(r.game_id), value(r.sgf),
                  value(r.at_ms)}});
          },
          [&](const ReviewEvent& e) {
            out.push_back(
                {"INSERT INTO review_events(review_id, seq, kind, record, by_user, at)"
                 " VALUES (?, ?, ?, ?, ?, ?)",
                 {value(e.review_id), value(e.seq), value(e.kind), value(e.record),
                  value(e.by_user), value(e.at_ms)}});
          },
          [&](const ReviewClosed& r) {
            out.push_back({"UPDATE reviews SET closed_at = ?, final_sgf = ? WHERE id = ?",
                           {value(r.at_ms), value(r.sgf), value(r.id)}});
          },
          [&](const GameOwned& o) {
            out.push_back(
                {"INSERT INTO game_leases(game_id, node_id, epoch, movable) VALUES (?, ?, ?, ?)",
                 {value(o.game_id), value(o.node_id), value(o.epoch), value(o.movable)}});
          },
          // Raises SQLSTATE TG001 (migrations/postgres/0005_nodes.sql), failing the group.
          [&](const Fence& f) {
            out.push_back({"SELECT fence_game(?, ?)", {value(f.game_id), value(f.epoch)}});
          },
      },
      write);
}

}  // namespace

SqlGameStore::SqlGameStore(std::unique_ptr<sql::Connection> writer,
                           std::unique_ptr<sql::Connection> reader)
    : writer_(std::move(writer)), reader_(std::move(reader)) {
  const bool sqlite = writer_->dialect() == sql::Dialect::Sqlite;
  several_nodes_ = !sqlite;
  // Private games stay out of the public lists (their players still see them in their own list).
  const std::string_view public_only =
      sqlite ? "json_extract(g.settings, '$.private') IS NOT 1"
             : "(g.settings::jsonb -> 'private') IS DISTINCT FROM 'true'::jsonb";
  finished_ = kSummary + "WHERE g.ended_at IS NOT NULL AND " + std::string(public_only) +
              " AND g.id < ? ORDER BY g.id DESC LIMIT ?";
  live_ = kSummary + "WHERE g.ended_at IS NULL AND " + std::string(public_only) +
          " AND g.id < ? ORDER BY g.id DESC LIMIT ?";
  const std::string order = sqlite ? "rowid" : "id";  // the events' order of insertion
  recent_events_ =
      "SELECT user_id, cid, game_id, seq, at FROM (SELECT user_id, cid, game_id, seq,"
      " at, " +
      order + " AS r, row_number() OVER (PARTITION BY user_id ORDER BY " + order +
      " DESC) AS n FROM game_events WHERE cid IS NOT NULL AND user_id IS NOT NULL)"
      " recent WHERE n <= ? ORDER BY r";
  if (several_nodes_) {
    // Random, so that no two writers (nodes, restarts) share a row: 62 bits from the OS.
    std::random_device entropy;
    writer_id_ =
        (static_cast<std::int64_t>(entropy()) << 30) ^ static_cast<std::int64_t>(entropy());
    writer_->run("DELETE FROM commit_marks WHERE at < now() - interval '1 day'");
  }
}

std::vector<sql::Change> SqlGameStore::statements(std::span<const Write> writes) const {
  std::vector<sql::Change> out;
  out.reserve(writes.size() + 1);
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
  const auto leases = [](const Write& w) {
    return std::holds_alternative<GameOwned>(w) || std::holds_alternative<Fence>(w);
  };
  for (const Write& w : writes) {
    if (several_nodes_ && early(w)) add_statements(w, out);
  }
  for (const Write& w : writes) {
    if (leases(w) && (!several_nodes_ || early(w))) continue;
    add_statements(w, out);
  }
  return out;
}

void SqlGameStore::write(std::span<const Write> writes) {
  std::lock_guard lock(writer_mutex_);
  // The last group's commit broke off with its outcome unknown, and this is the same group again
  // (GameStore::write): done if its mark is in the database, else sent again below. Throws
  // store::Unreachable, and stays in doubt, while the database is away.
  if (in_doubt_) {
    const auto r =
        writer_->run("SELECT mark FROM commit_marks WHERE writer = ?", {value(writer_id_)});
    const bool committed = r.size() == 1 && r.integer(0, 0) >= *in_doubt_;
    spdlog::info("the commit cut off by the database's loss was {}",
                 committed ? "done: nothing is sent again" : "not done: it is sent again");
    in_doubt_.reset();
    if (committed) return;
  }
  auto batch = statements(writes);
  if (!several_nodes_) {
    writer_->batch(batch);
    return;
  }
  const std::int64_t mark = ++mark_;
  batch.push_back(
      {"INSERT INTO commit_marks(writer, mark) VALUES (?, ?)"
       " ON CONFLICT (writer) DO UPDATE SET mark = excluded.mark, at = now()",
       {value(writer_id_), value(mark)}});
  try {
    writer_->batch(batch);
  } catch (const Unreachable&) {
    in_doubt_ = mark;
    throw;
  }
}

std::int64_t SqlGameStore::single_int(std::string_view sql) {
  std::lock_guard lock(writer_mutex_);
  return writer_->run(sql).integer(0, 0);
}

std::int64_t SqlGameStore::last_challenge_id() {
  return single_int("SELECT coalesce(max(id), 0) FROM challenges");
}

std::int64_t SqlGameStore::last_game_id() {
  return single_int("SELECT coalesce(max(id), 0) FROM games");
}

std::int64_t SqlGameStore::last_review_id() {
  return single_int("SELECT coalesce(max(id), 0) FROM reviews");
}

std::vector<AppliedCommand> SqlGameStore::recent_commands(int per_user) {
  std::lock_guard lock(writer_mutex_);
  std::vector<AppliedCommand> out;
  auto events = writer_->run(recent_events_, {value(per_user)});
  for (std::size_t i = 0; i < events.size(); ++i) {
    out.push_back({events.integer(i, 0), events.take_text(i, 1), events.integer(i, 2),
                   events.integer(i, 3), std::nullopt, events.integer(i, 4)});
  }
  auto challenges = writer_->run(
      "SELECT challenger_id, cid, id, created_at FROM ("
      " SELECT challenger_id, cid, id, created_at,"
      "  row_number() OVER (PARTITION BY challenger_id ORDER BY id DESC) AS n"
      " FROM challenges) recent WHERE n <= ? ORDER BY id",
      {value(per_user)});
  for (std::size_t i = 0; i < challenges.size(); ++i) {
    out.push_back({challenges.integer(i, 0), challenges.take_text(i, 1), std::nullopt, std::nullopt,
                   challenges.integer(i, 2), challenges.integer(i, 3)});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.at_ms < b.at_ms; });
  return out;
}

std::vector<ChallengeOpened> SqlGameStore::open_challenges() {
  std::lock_guard lock(writer_mutex_);
  const auto r = writer_->run(
      "SELECT id, challenger_id, opponent_id, settings, created_at FROM challenges"
      " WHERE closed_at IS NULL ORDER BY id");
  std::vector<ChallengeOpened> open;
  for (std::size_t i = 0; i < r.size(); ++i) {
    open.push_back({r.integer(i, 0),
                    r.integer(i, 1),
                    r.optional_integer(i, 2),
                    r.text(i, 3),
                    r.integer(i, 4),
                    {}});
  }
  return open;
}

std::vector<StoredGame> SqlGameStore::unfinished_games() {
  std::lock_guard lock(writer_mutex_);
  const auto games = writer_->run(kCreated + "WHERE ended_at IS NULL ORDER BY id");
  std::vector<StoredGame> out;
  out.reserve(games.size());
  for (std::size_t i = 0; i < games.size(); ++i) out.push_back({created(games, i), {}});
  // Every unfinished game's events in one statement (one round trip on PostgreSQL), by game then
  // seq, as the games are.
  auto events = writer_->run(
      "SELECT e.game_id, e.seq, e.kind, e.spectators_only, e.record, e.text, e.at, e.user_id,"
      " e.cid FROM game_events e JOIN games g ON g.id = e.game_id WHERE g.ended_at IS NULL"
      " ORDER BY e.game_id, e.seq");
  auto game = out.begin();
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto id = events.integer(i, 0);
    while (game != out.end() && game->created.id < id) ++game;
    if (game == out.end()) break;
    if (game->created.id != id) continue;
    game->events.push_back(event(events, i, id, 1));
    // Whose command made it: a chat line counts against its author's rate again, and the last
    // commands are remembered as applied (Centre).
    game->events.back().user_id = events.optional_integer(i, 7);
    game->events.back().cid = events.optional_text(i, 8);
  }
  return out;
}

std::optional<StoredGame> SqlGameStore::stored_game(std::int64_t game_id) {
  std::lock_guard lock(read_mutex_);
  const auto r = reader_->run(kCreated + "WHERE id = ?", {value(game_id)});
  if (r.empty()) return std::nullopt;
  StoredGame game{created(r, 0), {}};
  auto events =
      reader_->run(kEventColumns + ", user_id, cid FROM game_events WHERE game_id = ? ORDER BY seq",
                   {value(game_id)});
  game.events.reserve(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    game.events.push_back(event(events, i, game_id));
    // Whose command made it (a game taken over remembers its last commands: Centre).
    game.events.back().user_id = events.optional_integer(i, 6);
    game.events.back().cid = events.optional_text(i, 7);
  }
  return game;
}

std::optional<std::string> SqlGameStore::finished_sgf(std::int64_t game_id) {
  std::lock_guard lock(read_mutex_);
  auto r =
      reader_->run("SELECT sgf FROM games WHERE id = ? AND ended_at IS NOT NULL", {value(game_id)});
  if (r.empty()) return std::nullopt;
  return r.take_text(0, 0);
}

std::optional<GameSummary> SqlGameStore::game(std::int64_t game_id) {
  std::lock_guard lock(read_mutex_);
  const auto r = reader_->run(kSummary + "WHERE g.id = ?", {value(game_id)});
  if (r.empty()) return std::nullopt;
  return summary(r, 0);
}

std::vector<GameSummary> SqlGameStore::games_of(std::int64_t user_id, Page page) {
  std::lock_guard lock(read_mutex_);
  const auto before = page.before_or_max();
  return summaries(reader_->run(
      kSummary + "WHERE g.id IN (SELECT id FROM games WHERE black_id = ? AND id < ?"
                 " UNION SELECT id FROM games WHERE white_id = ? AND id < ?"
                 // A pair Go game's every player (docs/events.md), not only its first two.
                 " UNION SELECT s.game_id FROM pair_games s JOIN pair_players p"
                 " ON p.pair_id = s.id WHERE p.user_id = ? AND s.game_id < ?)"
                 " ORDER BY g.id DESC LIMIT ?",
      {value(user_id), value(before), value(user_id), value(before), value(user_id), value(before),
       value(page.limit)}));
}

std::vector<GameSummary> SqlGameStore::finished_games(Page page) {
  std::lock_guard lock(read_mutex_);
  return summaries(reader_->run(finished_, {value(page.before_or_max()), value(page.limit)}));
}

std::vector<GameSummary> SqlGameStore::live_games(Page page) {
  std::lock_guard lock(read_mutex_);
  return summaries(reader_->run(live_, {value(page.before_or_max()), value(page.limit)}));
}

std::vector<GameSummary> SqlGameStore::games_in_order_of_ending() {
  std::lock_guard lock(read_mutex_);
  return summaries(
      reader_->run(kSummary + "WHERE g.ended_at IS NOT NULL ORDER BY g.ended_at, g.id"));
}

std::vector<GameStore::DueRating> SqlGameStore::ratings_due() {
  std::lock_guard lock(read_mutex_);
  const auto r = reader_->run(kRatingsDue);
  std::vector<DueRating> out;
  out.reserve(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back({summary(r, i), r.integer(i, 11) != 0});
  return out;
}

std::vector<StoredRating> SqlGameStore::ratings() {
  std::lock_guard lock(writer_mutex_);
  const auto r = writer_->run(kRatings + "ORDER BY user_id");
  std::vector<StoredRating> out;
  out.reserve(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(stored_rating(r, i));
  return out;
}

std::optional<StoredRating> SqlGameStore::rating(std::int64_t user_id) {
  std::lock_guard lock(read_mutex_);
  const auto r = reader_->run(kRatings + "WHERE user_id = ?", {value(user_id)});
  if (r.empty()) return std::nullopt;
  return stored_rating(r, 0);
}

std::vector<RatingPoint> SqlGameStore::rating_history(std::int64_t user_id, int limit) {
  std::lock_guard lock(read_mutex_);
  const auto r = reader_->run(
      "SELECT game_id, at, rating, deviation FROM ("
      " SELECT id, game_id, at, rating, deviation FROM rating_history WHERE user_id = ?"
      " ORDER BY id DESC LIMIT ?) newest ORDER BY id",
      {value(user_id), value(limit)});
  std::vector<RatingPoint> out;
  for (std::size_t i = 0; i < r.size(); ++i)
    out.push_back({r.integer(i, 0), r.integer(i, 1), r.real(i, 2), r.real(i, 3)});
  return out;
}

std::vector<StoredTournament> SqlGameStore::tournaments() {
  std::lock_guard lock(writer_mutex_);
  const auto rows = writer_->run(
      "SELECT id, name, director_id, settings, created_at, cid FROM tournaments ORDER BY id");
  std::vector<StoredTournament> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out.push_back({{rows.integer(i, 0), rows.text(i, 1), rows.integer(i, 2), rows.text(i, 3),
                    rows.integer(i, 4), rows.text(i, 5)},
                   {}});
  }
  for (auto& t : out) {
    auto e = writer_->run(kRoomEventColumns +
                              ", cid FROM tournament_events"
                              " WHERE tournament_id = ? ORDER BY seq",
                          {value(t.created.id)});
    for (std::size_t i = 0; i < e.size(); ++i) {
      t.events.push_back({t.created.id, e.integer(i, 0), e.text(i, 1), e.take_text(i, 2),
                          e.optional_integer(i, 3), e.integer(i, 4), e.optional_text(i, 5)});
    }
  }
  return out;
}

std::vector<StoredReview> SqlGameStore::open_reviews() {
  std::lock_guard lock(writer_mutex_);
  const auto rows = writer_->run(
      "SELECT id, owner_id, title, game_id, sgf, created_at FROM reviews"
      " WHERE closed_at IS NULL ORDER BY id");
  std::vector<StoredReview> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out.push_back({{rows.integer(i, 0), rows.integer(i, 1), rows.text(i, 2),
                    rows.optional_integer(i, 3), rows.text(i, 4), rows.integer(i, 5)},
                   {}});
  }
  for (auto& r : out) {
    auto e = writer_->run(kRoomEventColumns +
                              " FROM review_events WHERE review_id = ?"
                              " ORDER BY seq",
                          {value(r.created.id)});
    for (std::size_t i = 0; i < e.size(); ++i) {
      r.events.push_back({r.created.id, e.integer(i, 0), e.text(i, 1), e.take_text(i, 2),
                          e.optional_integer(i, 3), e.integer(i, 4)});
    }
  }
  return out;
}

std::optional<ClosedReview> SqlGameStore::closed_review(std::int64_t review_id) {
  std::lock_guard lock(read_mutex_);
  auto r = reader_->run(
      "SELECT owner_id, game_id, final_sgf FROM reviews WHERE id = ? AND closed_at IS NOT NULL",
      {value(review_id)});
  if (r.empty()) return std::nullopt;
  ClosedReview out{r.integer(0, 0), r.optional_integer(0, 1), r.take_text(0, 2), {}};
  auto e = reader_->run(kRoomEventColumns +
                            " FROM review_events WHERE review_id = ?"
                            " AND kind = 'invite' ORDER BY seq",
                        {value(review_id)});
  for (std::size_t i = 0; i < e.size(); ++i) {
    out.invitations.push_back({review_id, e.integer(i, 0), e.text(i, 1), e.take_text(i, 2),
                               e.optional_integer(i, 3), e.integer(i, 4)});
  }
  return out;
}

}  // namespace tengen::store
