#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "clock.h"
#include "games/actor_pool.h"
#include "games/game_directory.h"
#include "lobby/commit_path.h"
#include "lobby/lobby.h"
#include "lobby/player_notice.h"
#include "lobby/router.h"
#include "lobby/tournament_games.h"
#include "metrics.h"
#include "moderation/game_actions.h"
#include "protocol/moderation_api.h"
#include "ratings/rating_book.h"
#include "reviews/review_owner.h"
#include "rooms/blocks.h"
#include "rooms/room_options.h"
#include "rooms/time_off.h"
#include "rooms/timers.h"
#include "rooms/worker.h"
#include "store/class_store.h"
#include "store/game_store.h"
#include "store/group_store.h"
#include "store/journal.h"
#include "store/leases.h"
#include "store/moderation_store.h"

namespace tengen {

// What a node that runs games is made of (docs/architecture.md, "Owners"), built and wired
// here and nowhere else: the games' actors and their directory, the lobby, the review boards
// and the ratings, each owning its state on a mailbox of one small pool, and the router in front
// of them that every connection's commands go through (router()). Whatever an owner changes is
// stored through the journal, and whatever it sends goes out only once that is durable
// (docs/persistence.md). The centre itself holds no state that changes while serving: it is the
// games' host (what their actors ask of the server), the ratings' owner's mailbox, and the entry
// for the callers that are not connections (HTTP, the mailer, the lease keeper, an
// administrator), who wait for an owner's answer on their own threads.
class Centre final : private games::GameHost {
 public:
  using FindUser = Lobby::FindUser;
  using FindUserById = Lobby::FindUserById;
  // A player's time zone and vacations (docs/correspondence.md).
  using CalendarOf = std::function<Calendar(std::int64_t id)>;

  struct Services {
    FindUser find_user;
    FindUserById find_user_by_id;
    store::Journal* journal = nullptr;  // required
    // Required: finished games leave memory once nobody watches them and come back from here.
    store::GameStore* store = nullptr;
    // Who takes Black when the settings say "automatic" and the ratings are equal: true means
    // the challenger.
    std::function<bool()> draw_black;
    // `bytes` random bytes as hex digits, for nigiri secrets: cryptographic in the server,
    // seeded in tests.
    std::function<std::string(std::size_t bytes)> random_hex;
    Clock* clock = nullptr;
    Timers* timers = nullptr;  // must stop before the centre goes; without, deadlines are only
                               // noticed when a command arrives
    // Runs the dead-stone suggestions off the game's actor; must stop after stop(). Without,
    // they run on the actor, stalling that game.
    Worker* worker = nullptr;
    // Threads of the owners' pool: 0, one per core (two at least).
    unsigned actor_threads = 0;
    RoomOptions room;
    ReviewLimits reviews{};
    Metrics* metrics = nullptr;
    // Which node owns each game (store/leases.h); none: this node's alone (store::SoleNode).
    store::Leases* leases = nullptr;
    // Blocks between players (docs/moderation.md), read at start and by reload_player; none: no
    // one blocks anyone.
    store::ModerationStore* moderation = nullptr;
    // Groups (docs/groups.md), whose members the lobby keeps in memory for the groups'
    // challenges, read at start and by group_changed; none: no challenge may be a group's.
    store::GroupStore* groups = nullptr;
    // Classes (docs/classes.md): their protected students are kept apart from everyone outside
    // their class (rooms/blocks.h), read at start and by group_changed; none: no one is.
    store::ClassStore* classes = nullptr;
    // Where each player's weekends fall in correspondence games, and their vacations; none:
    // everyone's weekends are UTC's, and nobody takes a vacation.
    CalendarOf calendar_of{};
    // Told when a player of a correspondence game is to move, or the game is over
    // (lobby/player_notice.h), from the game's actor: it must only take note. None: nobody is
    // told.
    std::function<void(const PlayerNotice&)> notify{};
    // Where some accounts' ratings start (the house bots': docs/bots.md), for those whose
    // accounts exist; seeded at recovery, and by seed_starts() once their accounts are made.
    std::function<std::vector<std::pair<std::int64_t, ratings::Rating>>()> rating_starts{};
    // A cluster whose games are played on every node (docs/cluster.md, "Games on every node"):
    // the lobby placed a game on another node (`placing`: at once, so that its commands are sent
    // there from now; `placed`: once its rows are durable, for that node to load it). None: every
    // game is played here.
    std::function<void(protocol::GameId, std::int64_t node)> placing{};
    std::function<void(protocol::GameId, std::int64_t node)> placed{};
    // This centre plays the games placed on its node and nothing else (it is not the hub): its
    // router takes games' commands only, its lobby stays empty.
    bool games_only = false;
    // Games on every node, on the hub: a player's unfinished games played on the other nodes,
    // asked of them (it waits: called on a thread of the centre's own), for their list of games.
    std::function<protocol::MyGames(std::int64_t user)> games_elsewhere{};
    // Games on every node, on a node that becomes the hub: the games it plays already on a centre
    // of its own (placed there while it was not the hub), which recovery leaves there.
    std::function<bool(protocol::GameId)> played_elsewhere{};
    // Games on every node: a game this centre could not read back because another running node
    // plays it (Router::Services::played_elsewhere).
    std::function<bool(protocol::GameId)> taken_elsewhere{};
    std::function<bool(protocol::GameId)> known_elsewhere{};  // Router::Services's
    // Games on every node, on a games_only centre: a rated game it played has ended, its end
    // durable with its store::RatingDue row; the hub, which owns the ratings, is told to rate it
    // (rate_due). Called once per game, from the journal's thread.
    std::function<void(protocol::GameId)> rating_due{};
    // Likewise: an administrator annulled a rated game it played; every rating is rebuilt by the
    // hub (it waits; the rows written).
    std::function<std::size_t()> rebuild_ratings_at_hub{};
    // Games on every node, on the hub: how often it reads the games left to rate without being
    // told (a node's word lost on the bus while the hub lived); zero: only when told, at recovery,
    // and when a node's games are adopted or it leaves.
    Millis ratings_sweep{0};
    // Several nodes: a line of chat counted by this centre's rate (Router::Services's).
    std::function<void(std::int64_t user)> chat_posted{};
  };

  explicit Centre(Services services);
  ~Centre() override;  // stop()s first
  // Lets every owner finish what it was given, then the pool's threads go: call once the server
  // takes no more connections and the timers are stopped, before the worker goes.
  void stop();
  Centre(const Centre&) = delete;
  Centre& operator=(const Centre&) = delete;

  // Where every connection's commands go.
  Router& router() { return router_; }

  Metrics::Gauges gauges();

  // A time armed with Timers came (Timers calls this from its thread): to its owner.
  void deadline(const TimerId& id);

  // The player's unfinished games, those waiting for their move first (as my_games answers).
  protocol::MyGames games_of(std::int64_t user);

  // Rebuilds the open challenges, tournaments, review boards and unfinished games from the
  // store; call once, before serving.
  struct Recovered {
    std::size_t challenges = 0;
    std::size_t games = 0;
    std::size_t reviews = 0;
  };
  Recovered recover(store::GameStore& store);
  std::size_t rooms_in_memory();

  // Takes over unfinished games whose owner's liveness ran out (cluster::LeaseKeeper finds them):
  // each rebuilt from the store as at start, its clocks not charged for the gap, its deadlines
  // armed. Returns those this node took (another may have been quicker).
  std::vector<protocol::GameId> adopt(const std::vector<protocol::GameId>& games);

  // Brings the game into memory (from the store, under the lease this node takes) unless it is
  // there already, without waiting: a game placed on this node starts its clocks.
  void bring(protocol::GameId game) {
    games_.post(game, games::Read{[](const Room*) {}});
  }
  // A line of chat posted elsewhere in the cluster (Router::chat_elsewhere).
  void chat_elsewhere(std::int64_t user) { router_.chat_elsewhere(user); }
  // Whether the game is in memory here.
  bool plays(protocol::GameId game) const { return games_.contains(game); }

  // The tournaments as JSON for the HTTP API: the list, and one tournament whole.
  std::string tournaments_json(const store::Page& page) { return lobby_.tournaments_json(page); }
  std::optional<std::string> tournament_json(protocol::TournamentId id) {
    return lobby_.tournament_json(id);
  }

  // Review boards (docs/reviews.md): a new one, once its row is durable (a status and the body
  // of the HTTP answer); the open ones as JSON; an open one's SGF.
  std::pair<int, std::string> create_review(const protocol::http::ReviewRequest& request) {
    return reviews_.create(request);
  }
  std::string reviews_json(const protocol::http::Viewer& viewer) {
    return reviews_.list_json(viewer);
  }
  std::optional<std::string> review_sgf(protocol::ReviewId id,
                                        const protocol::http::Viewer& viewer) {
    return reviews_.sgf(id, viewer);
  }
  // A relay's boards (docs/events.md, "Relays"): made, moved, closed.
  std::pair<int, std::string> relay(const protocol::http::RelayOp& op) {
    return reviews_.relay(op);
  }

  // An administrator suspended or banned the user (docs/moderation.md): their open challenges are
  // cancelled and their quick-match seek ends. Their games in play go on without them.
  void account_restricted(std::int64_t user) { lobby_.account_restricted(user); }

  // A player changed their blocks or their time zone (the store has them already): the lobby
  // and the games follow at once.
  void reload_player(std::int64_t user);
  // A group's members changed in the store (docs/groups.md): read again, and those who joined or
  // left get the lobby as they now see it. Does not wait.
  void group_changed(std::int64_t group);
  // A ladder's game (docs/groups.md), a simul's board (docs/events.md): started by the lobby.
  // Waits.
  std::variant<protocol::GameId, std::string> start_game(
      const protocol::GameSettings& settings, std::int64_t black, std::int64_t white,
      std::optional<Millis> start_timeout = std::nullopt) {
    return lobby_.start_game(settings, black, white, start_timeout);
  }
  // A class's round robin (docs/classes.md), made, filled and started by the lobby. Waits.
  std::variant<protocol::TournamentId, std::string> class_tournament(
      const protocol::TournamentSettings& settings, std::int64_t director,
      const std::vector<std::int64_t>& players) {
    return lobby_.class_tournament(settings, director, players);
  }
  // An OpenGotha file's tournament (docs/tournaments.md), made by the director's commands in the
  // lobby. Waits.
  std::variant<protocol::TournamentId, std::string> import_tournament(
      const federation::OpenGothaFile& file, std::int64_t director) {
    return lobby_.import_tournament(file, director);
  }
  // A list of players registered by the tournament's director (docs/tournaments.md). Waits.
  std::variant<int, std::string> add_tournament_players(
      protocol::TournamentId tournament, std::int64_t director,
      const std::vector<federation::ListedPlayer>& players) {
    return lobby_.add_tournament_players(tournament, director, players);
  }
  // A group's news to its members' connections, not to those who block `from`. Does not wait.
  void tell(std::vector<std::int64_t> users, std::optional<std::int64_t> from, std::string text) {
    lobby_.tell(std::move(users), from, std::move(text));
  }

  // What an administrator does to a game (docs/moderation.md), once durable: a chat line deleted,
  // the game annulled (a rated game's annulment rebuilds every rating from the games) or
  // adjudicated; or why not (moderation/game_actions.h; http/moderation_answers.h answers it).
  moderation::GameActionOutcome game_action(protocol::GameId game,
                                            const protocol::http::GameAction& action);
  // Every rating rebuilt from the stored games, in the order they ended, replacing the ratings
  // and their history (in memory and in the store): the rows written.
  std::size_t rebuild_ratings();
  // On the hub: rates the games other nodes ended and left to rate (store::GameStore::
  // ratings_due), once each, in the order they ended; does not wait. Called when a node says a
  // rated game ended, when the hub recovers, and when a node's games are adopted (its word may
  // have been lost with it), and every Services::ratings_sweep. Calls that come while one is
  // queued are one.
  void rate_due();
  // Where `user`'s rating starts before their first rated game (a house bot's: docs/bots.md);
  // written to the store if they have no rating yet, and kept for rebuilds.
  void seed_rating(std::int64_t user, const ratings::Rating& start);
  // Services::rating_starts, for the accounts that exist.
  void seed_starts();

  // The SGF record of a game in play, once all it shows is durable; nullopt if no such game is
  // in memory.
  std::optional<std::string> sgf(protocol::GameId game);

 private:
  static constexpr std::size_t kMyGamesListed = 500;  // docs/limits.md

  // ---- GameHost: what the games' actors ask of the server (centre_games.cpp) ----
  Steady steady_now() override { return services_.clock->steady_now(); }
  std::int64_t unix_ms() override { return services_.clock->unix_ms(); }
  void commit(Outbox& out) override;
  void commit_ended(Outbox out, const Room& room, std::function<void()> then) override;
  void notify(const PlayerNotice& notice) override;
  void arm(protocol::GameId game, std::optional<Steady> when) override;
  void suggest(SuggestionJob job) override;
  std::optional<protocol::Error> too_much_chat(std::int64_t user, const std::string& cid,
                                               Steady now) override {
    return router_.too_much_chat(user, cid, now);
  }
  void done_with(games::GameActor& actor) override { games_.forget(actor); }
  void redeliver(protocol::GameId game, games::Input input) override {
    games_.post(game, std::move(input));
  }
  // Waits (not on a network thread) until the game's actor has handled what was posted before,
  // and returns what `look` made of its room (nullopt: no such game in memory).
  template <typename T>
  std::optional<T> ask(protocol::GameId game, std::function<T(const Room&)> look,
                       bool in_memory_only);
  // The player's unfinished games, asked of their actors; `then` has them (from any thread).
  void my_games(std::int64_t user, std::function<void(protocol::MyGames)> then);

  std::unique_ptr<Room> rebuild(const store::StoredGame& game, Steady now);
  // A new or rebuilt game's room gets its players' blocks and (correspondence with weekends
  // off) their weekends (rooms/time_off.h).
  void prepare_room(Room& room);
  std::size_t rebuild_ratings_here();  // on the ratings' mailbox
  void rate_due_here();                // likewise
  void arm_ratings_sweep();            // the next Services::ratings_sweep, if any

  Services services_;
  Metrics* metrics_;
  store::SoleNode sole_;
  store::Leases& leases_ = services_.leases ? *services_.leases : sole_;
  CommitPath commit_{*services_.journal, *services_.clock};
  RatingBook ratings_;                // read from any thread; changed on ratings_mail_ only
  Blocks blocks_;                     // safe from any thread (a leaf lock of its own)
  Memberships memberships_;           // likewise
  Calendars calendars_;               // likewise
  TournamentGames tournament_games_;  // likewise
  // The steady clock against Unix time, read once (correspondence weekends: rooms/time_off.h).
  Steady steady_anchor_;
  std::int64_t unix_anchor_ = 0;
  // The owners' threads, and the loader that reads games back from the store; stop() lets them
  // go, the loader first.
  games::ActorPool pool_;
  std::unique_ptr<Worker> loader_;
  // Asks the other nodes for a player's games there (Services::games_elsewhere), when it may.
  std::unique_ptr<Worker> asker_;
  // The ratings' owner: rated games' rows reach the journal in the order they were rated, and a
  // rebuild runs there without holding up other games.
  std::unique_ptr<games::Mailbox> ratings_mail_;
  std::atomic<bool> due_queued_{false};
  // The games other nodes ended that the ratings' owner rated and submitted, until their
  // store::RatingDone is durable (ratings_mail_ only).
  std::set<protocol::GameId> due_submitted_;
  games::GameDirectory games_;
  ReviewOwner reviews_;
  Lobby lobby_;
  Router router_;
  bool stopped_ = false;
};

}  // namespace tengen
