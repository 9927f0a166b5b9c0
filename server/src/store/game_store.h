#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace tengen::store {

// What the lobby and the rooms write: rows of challenges, games and game events. Settings and
// recovery records arrive as JSON text; the store does not look inside.
struct ChallengeOpened {
  std::int64_t id = 0;
  std::int64_t challenger_id = 0;
  std::optional<std::int64_t> opponent_id;
  std::string settings;
  std::int64_t at_ms = 0;
  std::string cid;  // the command that opened it
};

struct ChallengeClosed {
  std::int64_t id = 0;
  std::string reason;  // accepted, cancelled, declined
  std::optional<std::int64_t> game_id;
  std::int64_t at_ms = 0;
};

struct GameCreated {
  std::int64_t id = 0;
  std::optional<std::int64_t> challenge_id;
  std::string settings;
  std::int64_t first_id = 0;  // Black, or with a nigiri the holder
  std::int64_t second_id = 0;
  std::optional<std::string> nigiri_secret, nigiri_nonce;
  std::int64_t at_ms = 0;
};

struct GameEvent {
  std::int64_t game_id = 0;
  std::int64_t seq = 0;
  std::string kind;
  bool spectators_only = false;
  std::optional<std::string> record;  // JSON for recovery
  std::string text;                   // as sent to clients
  std::int64_t at_ms = 0;
  // The command that made it, if one did (not a deadline): its author and cid.
  std::optional<std::int64_t> user_id;
  std::optional<std::string> cid;
};

// A command a user gave that the store remembers, so that resending it after a restart does not
// apply it twice: it made room event `seq` of `game`, or opened `challenge`.
struct AppliedCommand {
  std::int64_t user_id = 0;
  std::string cid;
  std::optional<std::int64_t> game, seq, challenge;
  std::int64_t at_ms = 0;
};

// Colours drawn by a nigiri.
struct GameSeated {
  std::int64_t id = 0;
  std::int64_t black_id = 0;
  std::int64_t white_id = 0;
};

struct GameFinished {
  std::int64_t id = 0;
  std::string result;
  std::string reason;
  int move_count = 0;
  std::string sgf;
  std::int64_t at_ms = 0;
};

// A player's rating after a rated game (written with the game's GameFinished, in one transaction).
struct RatingChanged {
  std::int64_t user_id = 0;
  std::int64_t game_id = 0;
  double rating = 0, deviation = 0, volatility = 0;
  int games = 0;  // rated games played, this one included
  std::int64_t at_ms = 0;
};

// An administrator annulled a finished game (docs/moderation.md): its result becomes void and its
// record says so; when it ended stays as it was.
struct GameAnnulled {
  std::int64_t id = 0;
  std::string result;  // "Void"
  std::string reason;  // "annulled"
  std::string sgf;
};

// A player's rating before any rated game, when there is a better guess than a newcomer's: a
// house bot's, from its level (docs/bots.md). A row with no game played and no history; written
// only where the player has no rating yet.
struct RatingSeeded {
  std::int64_t user_id = 0;
  double rating = 0, deviation = 0, volatility = 0;
  std::int64_t at_ms = 0;
};

// A rated game ended on a node other than the ratings' owner (docs/cluster.md, "Games on every
// node"): written with its GameFinished, so that the hub rates it once, even if the node's word
// that it ended is lost (GameStore::ratings_due).
struct RatingDue {
  std::int64_t game_id = 0;
};
// The hub rated it (written with its RatingChanged rows, or alone for a game that had nothing to
// rate: void, or rated already by a rebuild).
struct RatingDone {
  std::int64_t game_id = 0;
};

// Every rating rebuilt from the games (after an annulment, or --recompute-ratings): the ratings
// and their history are replaced by these rows, in the order they were rated; then `seeds` for
// those who played none.
struct RatingsReplaced {
  std::vector<RatingChanged> history;
  std::vector<RatingSeeded> seeds{};
};

// Tournaments (docs/tournaments.md): a row to list it by, and the events its state is replayed
// from.
struct TournamentCreated {
  std::int64_t id = 0;
  std::string name;
  std::int64_t director_id = 0;
  std::string settings;  // JSON
  std::int64_t at_ms = 0;
  std::string cid;  // the director's command that created it
};

struct TournamentEvent {
  std::int64_t tournament_id = 0;
  std::int64_t seq = 0;
  std::string kind;
  std::string record;                   // JSON
  std::optional<std::int64_t> by_user;  // who did it; none when the server did on its own
  std::int64_t at_ms = 0;
  std::optional<std::string> cid;  // by_user's command that made it (the first event it made)
};

struct TournamentStatus {
  std::int64_t id = 0;
  std::string status;  // registering, running, finished, cancelled
};

// Several nodes (store/leases.h, docs/cluster.md): a new game's owner, the node that created it
// (after its GameCreated); and the epoch a node writes a game's rows under, which fails the whole
// transaction if another node has taken the game over since. A SQLite file has one server, which
// owns every game: its store has no leases and passes over both.
struct GameOwned {
  std::int64_t game_id = 0;
  std::int64_t node_id = 0;
  std::int64_t epoch = 1;
  // Games on every node: it may be played on any node (a live challenge's game or a quick
  // match's), so that a dead or stopping owner's game is handed to another running node rather
  // than the hub (docs/cluster.md).
  bool movable = false;
};

struct Fence {
  std::int64_t game_id = 0;
  std::int64_t epoch = 0;
};

// Review boards (docs/reviews.md): the tree a review starts from, the events its state is replayed
// from, and, once its owner closes it, the whole tree.
struct ReviewCreated {
  std::int64_t id = 0;
  std::int64_t owner_id = 0;
  std::string title;
  std::optional<std::int64_t> game_id;
  std::string sgf;
  std::int64_t at_ms = 0;
};

struct ReviewEvent {
  std::int64_t review_id = 0;
  std::int64_t seq = 0;
  std::string kind;
  std::string record;  // JSON
  std::optional<std::int64_t> by_user;
  std::int64_t at_ms = 0;
};

struct ReviewClosed {
  std::int64_t id = 0;
  std::string sgf;
  std::int64_t at_ms = 0;
};

using Write =
    std::variant<ChallengeOpened, ChallengeClosed, GameCreated, GameEvent, GameSeated, GameFinished,
                 RatingChanged, TournamentCreated, TournamentEvent, TournamentStatus, GameOwned,
                 Fence, ReviewCreated, ReviewEvent, ReviewClosed, GameAnnulled, RatingsReplaced,
                 RatingSeeded, RatingDue, RatingDone>;

// A player's rating as of their last rated game.
struct StoredRating {
  std::int64_t user_id = 0;
  double rating = 1500, deviation = 350, volatility = 0.06;
  int games = 0;
  std::int64_t updated_at_ms = 0;
};

// One point of a player's rating history: after `game_id`.
struct RatingPoint {
  std::int64_t game_id = 0;
  std::int64_t at_ms = 0;
  double rating = 0, deviation = 0;
};

// An unfinished game as stored: enough to rebuild its room.
struct StoredGame {
  GameCreated created;
  std::vector<GameEvent> events;  // in seq order
};

// One line of a game list.
struct GameSummary {
  std::int64_t id = 0;
  std::string settings;
  std::int64_t black_id = 0, white_id = 0;
  std::string black_name, white_name;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> ended_at_ms;
  std::optional<std::string> result;
  std::optional<std::string> end_reason;
  int move_count = 0;
};

// A tournament as stored: enough to replay it.
struct StoredTournament {
  TournamentCreated created;
  std::vector<TournamentEvent> events;  // in seq order
};

// An open review as stored: enough to replay it.
struct StoredReview {
  ReviewCreated created;
  std::vector<ReviewEvent> events;  // in seq order
};

// A closed review as stored: its whole tree, and what decides who may see it (the game it was made
// from, and its invitations: its "invite" events, in order).
struct ClosedReview {
  std::int64_t owner_id = 0;
  std::optional<std::int64_t> game_id;
  std::string sgf;
  std::vector<ReviewEvent> invitations;
};

// A page of a list: newest first; `before` is the id to continue from (exclusive).
struct Page {
  std::optional<std::int64_t> before;
  int limit = 50;
  // `before` as an upper bound for a query: none means no bound.
  std::int64_t before_or_max() const {
    return before.value_or(std::numeric_limits<std::int64_t>::max());
  }
};

// Games and challenges. An interface so that tests can put a failing or slow store in its place;
// the store is SqlGameStore (store/sql_game_store.h), on SQLite or PostgreSQL. write() runs on the
// journal's single writer thread; the readers may be called from any thread at the same time.
class GameStore {
 public:
  virtual ~GameStore() = default;

  // All of `writes` in one transaction, durable when this returns; throws if it could not be.
  // store::Unreachable (store/unreachable.h) when the database could not be reached, maybe
  // after it committed: the caller then calls write() again with the same writes, once or many
  // times, until it returns or throws something else; the store finds out whether the first try
  // was done and does not do it twice.
  virtual void write(std::span<const Write> writes) = 0;

  // For recovery at start.
  virtual std::vector<ChallengeOpened> open_challenges() = 0;
  // Every unfinished game with its events, each with its author (user_id) but not its cid.
  virtual std::vector<StoredGame> unfinished_games() = 0;
  virtual std::int64_t last_challenge_id() = 0;
  virtual std::int64_t last_game_id() = 0;
  // Each user's most recent commands (at most `per_user`), oldest first.
  virtual std::vector<AppliedCommand> recent_commands(int per_user) = 0;

  // The archive.
  virtual std::optional<std::string> finished_sgf(std::int64_t game_id) = 0;
  // Any game with its events, to bring a room back into memory.
  virtual std::optional<StoredGame> stored_game(std::int64_t game_id) = 0;
  virtual std::optional<GameSummary> game(std::int64_t game_id) = 0;
  virtual std::vector<GameSummary> games_of(std::int64_t user_id, Page page) = 0;
  // Public (not private) games, newest first: those that ended, and those still being played.
  virtual std::vector<GameSummary> finished_games(Page page) = 0;
  virtual std::vector<GameSummary> live_games(Page page) = 0;
  // Every finished game, private ones too, in the order they ended (ties by id): what the
  // ratings are rebuilt from.
  virtual std::vector<GameSummary> games_in_order_of_ending() = 0;

  // Ratings: everyone's (for the lobby, at start), one player's, and a player's history (the
  // newest `limit` points, oldest first).
  virtual std::vector<StoredRating> ratings() = 0;
  virtual std::optional<StoredRating> rating(std::int64_t user_id) = 0;
  virtual std::vector<RatingPoint> rating_history(std::int64_t user_id, int limit) = 0;
  // The rated games still to rate that ended on other nodes (RatingDue), in the order they ended
  // (ties by id); `rated` for those whose rows a rebuild of the ratings has written already.
  struct DueRating {
    GameSummary game;
    bool rated = false;
  };
  virtual std::vector<DueRating> ratings_due() = 0;

  // Every tournament with its events, for recovery at start (the server keeps them in memory).
  virtual std::vector<StoredTournament> tournaments() = 0;

  // Reviews: the open ones with their events (for recovery at start), the highest id given, and
  // a closed one (nullopt if there is no such review, or it is still open).
  virtual std::vector<StoredReview> open_reviews() = 0;
  virtual std::int64_t last_review_id() = 0;
  virtual std::optional<ClosedReview> closed_review(std::int64_t review_id) = 0;
};

}  // namespace tengen::store
