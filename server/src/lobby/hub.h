#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

#include "accounts/rate_limiter.h"
#include "clock.h"
#include "games/actor_pool.h"
#include "games/game_directory.h"
#include "lobby/challenges.h"
#include "lobby/command_memory.h"
#include "lobby/commit_path.h"
#include "lobby/lanes.h"
#include "lobby/player_notice.h"
#include "lobby/presence.h"
#include "lobby/quick_match.h"
#include "metrics.h"
#include "moderation/game_actions.h"
#include "protocol/moderation_api.h"
#include "ratings/rating_book.h"
#include "reviews/reviews.h"
#include "rooms/outbox.h"
#include "rooms/room.h"
#include "rooms/time_off.h"
#include "rooms/timers.h"
#include "rooms/worker.h"
#include "store/game_store.h"
#include "store/journal.h"
#include "store/moderation_store.h"
#include "tournaments/director.h"
#include "ws/connection.h"

namespace tengen {

// The router and the lobby behind every WebSocket connection (docs/games.md,
// docs/architecture.md "Owners"): challenges, online users, tournaments, reviews, and the way to
// each game's actor. Whatever a command changes is stored through the journal, and whatever it
// sends (replies and events alike) goes out only once that is durable (docs/persistence.md), in
// the order it was produced; each connection's own strand then delivers it.
//
// Every game is owned by its actor (games/game_actor.h): a command for a game is posted to it and
// handled on its mailbox (on the caller's thread if the game is idle, else the actor pool's); no
// thread waits for a game, and a game that left memory is read back by the directory's loader
// while its inputs wait. The review boards and the ratings have mailboxes of their own. Each
// connection's commands run one after another in its lane (lobby/lanes.h), so that its replies
// keep their order when two commands go to two owners. The lobby (presence, challenges, quick
// match, tournaments) still has a lock of its own, taken by the command's thread; a game's end
// reaches its tournament through the ratings' owner, in one submission (commit_ended).
class Hub final : public Dispatcher, private TournamentHost, private games::GameHost {
 public:
  // Arrivals and departures are told to everyone together, at most this often (Presence).
  static constexpr Millis kPresenceInterval{250};
  // How often the quick-match queue is looked at again while players wait.
  static constexpr Millis kQuickMatchInterval{2000};
  using FindUser = std::function<std::optional<protocol::UserRef>(const std::string& name)>;
  using FindUserById = std::function<std::optional<protocol::UserRef>(std::int64_t id)>;
  // A player's time zone and vacations (docs/correspondence.md).
  using CalendarOf = std::function<Calendar(std::int64_t id)>;
  // Decides who takes Black when the settings say "automatic" and the ratings are equal: true
  // means the challenger.
  using DrawBlack = std::function<bool()>;
  // `bytes` random bytes as hex digits, for nigiri secrets: cryptographic in the server,
  // seeded in tests.
  using RandomHex = std::function<std::string(std::size_t bytes)>;

  struct Services {
    FindUser find_user;
    FindUserById find_user_by_id;
    store::Journal* journal = nullptr;  // required
    // Required: finished games leave memory once nobody watches them and come back from here.
    store::GameStore* store = nullptr;
    DrawBlack draw_black;
    RandomHex random_hex;
    Clock* clock = nullptr;
    Timers* timers = nullptr;  // must stop before the hub goes; without, deadlines are only
                               // noticed when a command arrives
    // Runs the dead-stone suggestions off the game's actor; must stop after stop(). Without,
    // they run on the actor, stalling that game.
    Worker* worker = nullptr;
    // Threads of the actor pool (games, the review boards, the ratings): 0, one per core (two
    // at least).
    unsigned actor_threads = 0;
    RoomOptions room;
    ReviewLimits reviews{};
    Metrics* metrics = nullptr;
    // Which node owns each game (store/leases.h); none: this hub's alone (store::SoleNode).
    store::Leases* leases = nullptr;
    // Blocks between players (docs/moderation.md), read at start and by reload_player; none: no
    // one blocks anyone.
    store::ModerationStore* moderation = nullptr;
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
  };

  explicit Hub(Services services);
  ~Hub() override;  // stop()s first
  // Lets every game's actor finish what it was given, then the pool's threads go: call once the
  // server takes no more connections and the timers are stopped, before the worker goes.
  void stop();
  Hub(const Hub&) = delete;
  Hub& operator=(const Hub&) = delete;

  Metrics::Gauges gauges();

  // A time armed with Timers came (Timers calls this from its thread).
  void deadline(const TimerId& id);

  // The player's unfinished games, those waiting for their move first (as my_games answers).
  protocol::MyGames games_of(std::int64_t user);

  // Rebuilds the open challenges and unfinished games from the store; call once, before serving.
  struct Recovered {
    std::size_t challenges = 0;
    std::size_t games = 0;
    std::size_t reviews = 0;
  };
  Recovered recover(store::GameStore& store);
  std::size_t rooms_in_memory();

  // Takes over unfinished games whose owner's liveness ran out (cluster::LeaseKeeper finds them):
  // each rebuilt from the store as at start, its clocks not charged for the gap, its deadlines
  // armed. Returns how many this node took (another may have been quicker).
  std::size_t adopt(const std::vector<protocol::GameId>& games);

  // The tournaments as JSON for the HTTP API: the list, and one tournament whole.
  std::string tournaments_json(const store::Page& page);
  std::optional<std::string> tournament_json(protocol::TournamentId id);

  // Review boards (docs/reviews.md): a new one, once its row is durable (a status and the body
  // of the HTTP answer: 201 and its id, or why not); the open ones as JSON; an open one's SGF.
  std::pair<int, std::string> create_review(const protocol::http::ReviewRequest& request);
  std::string reviews_json(const protocol::http::Viewer& viewer);
  std::optional<std::string> review_sgf(protocol::ReviewId id,
                                        const protocol::http::Viewer& viewer);

  // An administrator suspended or banned the user (docs/moderation.md): their open challenges are
  // cancelled and their quick-match seek ends, so that nobody starts a game with them. Their
  // games in play go on without them (their clocks run).
  void account_restricted(std::int64_t user);

  // A player changed their blocks or their time zone (the store has them already): the lobby
  // and the rooms follow at once (the player's connections get a lobby without the challenges
  // now hidden; their correspondence games' flags move with their weekends).
  void reload_player(std::int64_t user);

  // What an administrator does to a game (docs/moderation.md), once durable: a chat line deleted,
  // the game annulled (a rated game's annulment rebuilds every rating from the games) or
  // adjudicated; or why not (moderation/game_actions.h; http/moderation_answers.h answers it).
  moderation::GameActionOutcome game_action(protocol::GameId game,
                                            const protocol::http::GameAction& action);
  // Every rating rebuilt from the stored games, in the order they ended, replacing the ratings
  // and their history (in memory and in the store): the rows written.
  std::size_t rebuild_ratings();
  // Where `user`'s rating starts before their first rated game (a house bot's: docs/bots.md);
  // written to the store if they have no rating yet, and kept for rebuilds.
  void seed_rating(std::int64_t user, const ratings::Rating& start);
  // Services::rating_starts, for the accounts that exist.
  void seed_starts();

  // The SGF record of a game in play, once all it shows is durable; nullopt if no such game is
  // in memory.
  std::optional<std::string> sgf(protocol::GameId game);

  void connected(const std::shared_ptr<Connection>& connection) override;
  void received(const std::shared_ptr<Connection>& connection,
                protocol::ClientEnvelope command) override;
  void disconnected(const std::shared_ptr<Connection>& connection) override;
  void answer(const std::shared_ptr<Connection>& connection,
              const protocol::ServerMessage& message) override;
  void after_replies(std::function<void()> then) override;

 private:
  using Reply = std::variant<protocol::Ack, protocol::Error>;

  // One operation of the lobby (a command, a deadline, a connection coming or going, a
  // tournament game's end): the lock it holds and what it produced. finish() submits that, then
  // lets the locks go; the games it opened then start, each on its own actor.
  struct Operation {
    explicit Operation(Hub& h) : hub(h) {}
    ~Operation();
    Operation(const Operation&) = delete;
    Operation& operator=(const Operation&) = delete;
    void release();

    Hub& hub;
    std::unique_lock<std::mutex> lobby;
    Outbox out;
    // The games it opened, not yet anyone's to find: their rows are submitted first.
    std::map<protocol::GameId, std::unique_ptr<Room>> opened;
  };

  static constexpr std::int64_t kFirstEpoch = 1;  // a new game's lease (store/leases.h)

  void lock_lobby(Operation& op);
  // Submits the operation's outbox (with the events of the games it opened), lets its locks go,
  // and starts the opened games' actors.
  void finish(Operation& op);
  static void collect(Operation& op);

  // ---- the router: each connection's lane ----
  // Runs a command on its connection's lane: answered again if applied already; then to its
  // game's actor, a review board's to theirs, or handled here (the lobby, tournaments).
  void run_command(const std::shared_ptr<Connection>& who,
                   const std::shared_ptr<const protocol::ClientEnvelope>& command, Lanes::Own& own,
                   const Lanes::Done& done);
  // The reply of a command handled by its game's actor: posted there, answered when submitted.
  void to_game(protocol::GameId game, const std::shared_ptr<Connection>& who,
               const std::shared_ptr<const protocol::ClientEnvelope>& command, std::int64_t key,
               Lanes::Own& own, const Lanes::Done& done);
  // What every reply takes with it: the events its command made remember whose it was, the
  // counters count it, and the reply joins the outbox (encoded: the ack is remembered).
  std::shared_ptr<const std::string> answer_into(Outbox& out,
                                                 const std::shared_ptr<Connection>& who,
                                                 const protocol::ClientEnvelope& command,
                                                 const Reply& reply);
  // A review board's command, on the boards' mailbox: answered when submitted.
  void to_reviews(const std::shared_ptr<Connection>& who,
                  const std::shared_ptr<const protocol::ClientEnvelope>& command, std::int64_t key,
                  const Lanes::Done& done);
  // Runs `job` on an owner's mailbox (the review boards', the ratings') and waits for it: for
  // callers that are not network threads (HTTP, the mailer, start-up).
  template <typename T>
  T wait_on(games::Mailbox& owner, std::function<T()> job);
  std::size_t rebuild_ratings_here();  // on the ratings' mailbox
  Reply handle(Operation& op, const std::shared_ptr<Connection>& who, const std::string& cid,
               const protocol::ClientMessage& m, Steady now);
  // The player's unfinished games, asked of their actors; `then` has them (from any thread).
  void my_games(std::int64_t user, std::function<void(protocol::MyGames)> then);
  static constexpr std::size_t kMyGamesListed = 500;  // docs/limits.md

  // ---- GameHost: what the games' actors ask of the server (hub_games.cpp) ----
  Steady steady_now() override { return services_.clock->steady_now(); }
  std::int64_t unix_ms() override { return now_ms(); }
  void commit(Outbox& out) override;
  void commit_ended(Outbox out, const Room& room, std::function<void()> then) override;
  void notify(const PlayerNotice& notice) override;
  void arm(protocol::GameId game, std::optional<Steady> when) override;
  void suggest(SuggestionJob job) override;
  std::optional<protocol::Error> too_much_chat(std::int64_t user, const std::string& cid,
                                               Steady now) override;
  void done_with(games::GameActor& actor) override { games_.forget(actor); }
  void redeliver(protocol::GameId game, games::Input input) override {
    games_.post(game, std::move(input));
  }
  // Waits (not on a network thread) until the game's actor has handled what was posted before,
  // and returns what `look` made of its room (nullopt: no such game in memory).
  template <typename T>
  std::optional<T> ask(protocol::GameId game, std::function<T(const Room&)> look,
                       bool in_memory_only);

  std::unique_ptr<Room> rebuild(const store::StoredGame& game, Steady now);
  // A correspondence game with weekends off gets its players' weekends (rooms/time_off.h).
  void give_time_off(Room& room);
  protocol::UserRef stored_user(std::int64_t id) const;
  static protocol::GameSettings stored_settings(const std::string& text, const std::string& what);
  // How a tournament game's room runs; nullopt for a game outside tournaments.
  std::optional<RoomOptions> tournament_game(protocol::GameId game) const;

  Reply tournament_command(Operation& op, const protocol::UserRef& me, const std::string& cid,
                           const protocol::ClientMessage& m);
  Reply tournament_action(const protocol::UserRef& me, const std::string& cid,
                          const protocol::ClientMessage& m);
  // A new game's row and room (not yet announced to its players), held by `op`.
  protocol::GameId open_room(Operation& op, std::optional<protocol::ChallengeId> challenge,
                             const protocol::GameSettings& settings, const protocol::UserRef& black,
                             const protocol::UserRef& white, std::optional<std::string> secret,
                             std::optional<std::string> nonce, const RoomOptions& options,
                             bool in_tournament);

  // TournamentHost: called by the director, always under the lobby's lock, so within lobby_op_.
  // A game it ends is told so on its actor (or at once, if this operation opened it).
  protocol::GameId start_tournament_game(const protocol::GameSettings& settings,
                                         const protocol::UserRef& black,
                                         const protocol::UserRef& white,
                                         const RoomOptions& options) override;
  void end_tournament_game(protocol::GameId game, const Result& result,
                           protocol::EndReason reason) override;
  void write(store::Write write) override { lobby_op_->out.writes.push_back(std::move(write)); }
  void tournament_changed(const protocol::TournamentChanged& change) override;
  void arm_tournament(protocol::TournamentId id, std::optional<std::int64_t> at_ms) override;
  std::optional<protocol::UserRef> user_named(const std::string& name) override {
    return services_.find_user(name);
  }
  std::optional<protocol::UserRef> user_by_id(std::int64_t id) override {
    return services_.find_user_by_id(id);
  }
  double rating_of_user(std::int64_t user) override { return rating_of(user).rating; }
  std::int64_t unix_now_ms() override { return now_ms(); }

  Reply create(Operation& op, const protocol::UserRef& me, const std::string& cid,
               const protocol::CreateChallenge& m);
  Reply accept(Operation& op, const protocol::UserRef& me, const std::string& cid,
               protocol::ChallengeId id);
  Reply close_challenge(Operation& op, const protocol::UserRef& me, const std::string& cid,
                        protocol::ChallengeId id, bool decline,
                        const std::optional<std::string>& why = {});
  // Quick match (lobby/quick_match.h): a seek, its cancellation, and the pairing of the waiting.
  Reply seek(Operation& op, const protocol::UserRef& me, const std::string& cid,
             const protocol::Seek& m, Steady now);
  Reply cancel_seek(Operation& op, const protocol::UserRef& me, const std::string& cid);
  void pair_seekers(Operation& op, Steady now);
  // Ends the user's seek, if they wait, telling their connections (with the game that ended it).
  void end_seek(Operation& op, std::int64_t user, std::optional<protocol::GameId> game);
  // Black and White of two players whose colours go by rating: the weaker takes Black; equal
  // ratings toss a coin.
  std::pair<protocol::UserRef, protocol::UserRef> weaker_takes_black(const protocol::UserRef& a,
                                                                     const protocol::UserRef& b);
  // The lobby as this connection's user sees it (without the challenges of those they block).
  protocol::LobbySnapshot lobby_for(const std::optional<store::UserRecord>& user) const;
  // Tells a challenge's change to those who see it: everyone, or a direct one's two players.
  void broadcast_challenge(Operation& op, const protocol::Challenge& c,
                           const protocol::ServerMessage& m);
  // A player's rating now (the deviation grown by the time since their last rated game).
  ratings::Rating rating_of(std::int64_t user) const;
  // Notes that the user came online or went offline, for the next presence message.
  void presence_changed(Operation& op, const protocol::UserRef& user, bool online);
  void tell_presence(Operation& op);  // sends the presence changes noted, to every connection
  std::int64_t now_ms() const { return services_.clock->unix_ms(); }

  Services services_;
  Metrics* metrics_;

  // The lobby: under lobby_mutex_.
  std::mutex lobby_mutex_;
  Operation* lobby_op_ = nullptr;  // the operation holding lobby_mutex_
  Presence presence_;              // who is connected and online
  Challenges challenges_;
  QuickMatch quick_match_;
  TournamentDirector tournaments_{*this, services_.room};
  // What each connection watches of the tournaments (WatchTournaments): one tournament, or
  // every one (nullopt). tournament_changed goes to these only.
  std::unordered_map<std::uint64_t,
                     std::pair<std::shared_ptr<Connection>, std::optional<protocol::TournamentId>>>
      tournament_watchers_;

  store::SoleNode sole_;
  store::Leases& leases_ = services_.leases ? *services_.leases : sole_;
  CommitPath commit_{*services_.journal, *services_.clock};
  RatingBook ratings_;
  Blocks blocks_;        // safe from any thread (a lock of its own, taken last)
  Calendars calendars_;  // likewise
  // The steady clock against Unix time, read once (correspondence weekends: rooms/time_off.h).
  Steady steady_anchor_;
  std::int64_t unix_anchor_ = 0;
  CommandMemory applied_;  // the acks of applied commands, for repeated cids
  // The tournament games, and how their rooms run: written under the lobby's lock, read by the
  // games' actors (a game's end goes to the lobby only if it is one).
  mutable std::mutex tournament_games_mutex_;
  std::map<protocol::GameId, RoomOptions> tournament_games_;
  // The review boards: touched only on reviews_mail_ (after start), their owner's mailbox.
  Reviews reviews_{services_.reviews, services_.find_user};
  // Each account's chat across all games (user id → its bucket): below the command rate, so that
  // a flood of lines is refused before it reaches the rooms and the disk.
  std::mutex chat_mutex_;
  RateLimiter chat_rate_{services_.room.chat_burst, services_.room.chat_refill};
  // Each connection's commands, in order; a forwarded connection's run on the pool, not on the
  // bus's thread.
  Lanes lanes_{[this](std::function<void()> job) { pool_.post(std::move(job)); }};
  // The owners' threads, the games' actors, and the loader that reads games back from the
  // store; stop() lets them go, the loader first.
  games::ActorPool pool_;
  std::unique_ptr<Worker> loader_;
  std::unique_ptr<games::Mailbox> reviews_mail_;  // the review boards' owner
  // The ratings' owner: rated games' rows reach the journal in the order they were rated, and a
  // rebuild runs there without holding up other games.
  std::unique_ptr<games::Mailbox> ratings_mail_;
  games::GameDirectory games_;
  bool stopped_ = false;
};

}  // namespace tengen
