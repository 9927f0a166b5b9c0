#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <variant>
#include <vector>

#include "clock.h"
#include "games/actor_pool.h"
#include "games/game_directory.h"
#include "groups/memberships.h"
#include "lobby/challenges.h"
#include "lobby/commit_path.h"
#include "lobby/player_notice.h"
#include "lobby/presence.h"
#include "lobby/quick_match.h"
#include "lobby/tournament_games.h"
#include "metrics.h"
#include "ratings/rating_book.h"
#include "rooms/blocks.h"
#include "rooms/outbox.h"
#include "rooms/room_options.h"
#include "rooms/timers.h"
#include "store/game_store.h"
#include "store/leases.h"
#include "tournaments/director.h"
#include "ws/connection.h"

namespace tengen::federation {
struct OpenGothaFile;  // tournaments/opengotha.h
struct ListedPlayer;   // tournaments/player_list.h
}  // namespace tengen::federation

namespace tengen {

class Room;

// The lobby (docs/games.md, docs/architecture.md "Owners"): who is online, the open challenges,
// quick match, the tournaments and who watches them. An actor: all it holds is touched on its
// mailbox, one job at a time, and nowhere else. Everything reaches it as a message (a command,
// a connection coming or going, a deadline, a tournament game's end), handled in one turn whose
// writes and messages are submitted together (CommitPath); the games a turn opens start on their
// own actors once their rows are submitted. The tournament director is part of the lobby: its
// host (TournamentHost) is this actor's turn; ending a game in play is a message to the game's
// actor. It never waits for another owner; only callers that are not owners (HTTP, an
// administrator, start-up) wait for its answers (games/wait.h).
class Lobby final : private TournamentHost {
 public:
  using Reply = std::variant<protocol::Ack, protocol::Error>;
  // Arrivals and departures are told to everyone together, at most this often (Presence).
  static constexpr Millis kPresenceInterval{250};
  // How often the quick-match queue is looked at again while players wait.
  static constexpr Millis kQuickMatchInterval{2000};
  static constexpr std::int64_t kFirstEpoch = 1;  // a new game's lease (store/leases.h)

  using FindUser = std::function<std::optional<protocol::UserRef>(const std::string& name)>;
  using FindUserById = std::function<std::optional<protocol::UserRef>(std::int64_t id)>;

  struct Services {
    FindUser find_user;
    FindUserById find_user_by_id;
    // Who takes Black when the settings say "automatic" and the ratings are equal: true means
    // the challenger.
    std::function<bool()> draw_black;
    // `bytes` random bytes as hex digits, for nigiri secrets.
    std::function<std::string(std::size_t bytes)> random_hex;
    Clock& clock;
    Timers* timers = nullptr;  // without: presence is told at once, queues looked at per command
    RoomOptions room;
    Metrics* metrics = nullptr;
    store::Leases& leases;
    CommitPath& commit;
    games::GameDirectory& games;
    const RatingBook& ratings;
    Blocks& blocks;
    // Who belongs to which group (docs/groups.md): a group's challenges are its members' only.
    // None: no challenge may be a group's.
    const Memberships* memberships = nullptr;
    TournamentGames& tournament_games;
    // Readies a new game's room (the players' blocks and weekends) before it starts.
    std::function<void(Room&)> prepare_room;
    // A game started: its players may be told on their devices (lobby/player_notice.h).
    std::function<void(const PlayerNotice&)> notify{};
    // In a cluster whose games are played on every node (docs/cluster.md, "Games on every
    // node"): a game the lobby placed on another node, its rows submitted (the node loads it
    // from the store). None: every game is played here.
    std::function<void(protocol::GameId, std::int64_t node)> placed{};
  };

  Lobby(Services services, std::unique_ptr<games::Mailbox> mailbox);
  Lobby(const Lobby&) = delete;
  Lobby& operator=(const Lobby&) = delete;

  // A lobby's or a tournament's command (the router sends no other): `answered` puts the reply
  // into the turn's outbox, after the events the command caused; `submitted` follows once all
  // of it is submitted (from the lobby's mailbox).
  struct Command {
    std::shared_ptr<Connection> who;
    std::string cid;
    protocol::ClientMessage message;
    std::function<void(Outbox&, const Reply&)> answered;
    std::function<void()> submitted;
  };
  void command(Command command);
  // A connection came (it is sent the lobby) or went (it watches nothing more; the user's last
  // connection ends their seek); `then` once submitted.
  void connected(std::shared_ptr<Connection> connection, std::function<void()> then);
  void disconnected(std::shared_ptr<Connection> connection, std::function<void()> then);
  // A presence, quick-match or tournament time came (the games' own go to their actors).
  void deadline(const TimerId& id);
  // A tournament game ended: its tournament learns the result in the same submission as the
  // end itself (`out`, with its ratings); `then` once submitted.
  void tournament_game_ended(Outbox out, std::function<void()> then);

  // An administrator restricted the user: their challenges close, their seek ends. Waits.
  void account_restricted(std::int64_t user);
  // The user's blocks changed (the store has them): the lobby follows, and their connections
  // get the lobby as they now see it. Waits.
  void blocks_changed(std::int64_t user, std::vector<std::int64_t> blocked);
  // Sends `text` to the connections of these users, but not to those who block `from` (a group's
  // news: docs/groups.md). Does not wait.
  void tell(std::vector<std::int64_t> users, std::optional<std::int64_t> from, std::string text);
  // A game between two players that no challenge opened (a group's ladder: docs/groups.md; a
  // simul's board: docs/events.md), with these settings, Black and White as given, and each
  // player's first move due within `start_timeout` (none: the usual): its id once its row is
  // submitted and its players told, or why not. Waits.
  std::variant<protocol::GameId, std::string> start_game(
      const protocol::GameSettings& settings, std::int64_t black, std::int64_t white,
      std::optional<Millis> start_timeout = std::nullopt);
  // A class's round robin (docs/classes.md): a tournament made by `director` with these settings,
  // each of `players` registered, and started: its id, or why not (nothing is left half made
  // when the settings are refused; a player who may not play is left out). Waits.
  std::variant<protocol::TournamentId, std::string> class_tournament(
      const protocol::TournamentSettings& settings, std::int64_t director,
      const std::vector<std::int64_t>& players);
  // An OpenGotha file's tournament (docs/tournaments.md, "OpenGotha"), made by `director`'s
  // commands one after another (federation::import_opengotha): its id, or why not. Waits.
  std::variant<protocol::TournamentId, std::string> import_tournament(
      const federation::OpenGothaFile& file, std::int64_t director);
  // A list of players (docs/tournaments.md, "A list of players from a spreadsheet") registered
  // by `director` with tournament_add_player one after another: how many, or why not (a name
  // registered already refuses the whole list before anyone is added). Waits.
  std::variant<int, std::string> add_tournament_players(
      protocol::TournamentId tournament, std::int64_t director,
      const std::vector<federation::ListedPlayer>& players);
  // These users joined or left a group (Memberships has it already): their connections get the
  // lobby as they now see it, with or without the group's challenges. Does not wait.
  void refresh(std::vector<std::int64_t> users);
  // A group's members changed (Memberships has it already): its open challenges whose challenger
  // no longer belongs (left, turned out, the group closed or gone) are cancelled, and `moved`
  // (who joined or left) are refreshed as above. Does not wait.
  void group_changed(std::int64_t group, std::vector<std::int64_t> moved);
  // The tournaments as JSON for the HTTP API. Wait.
  std::string tournaments_json(const store::Page& page);
  std::optional<std::string> tournament_json(protocol::TournamentId id);

  // Start-up, before serving (each waits): the open challenges and the blocks; the tournaments
  // (before the games, whose rooms ask how they run); then, once the games are back, the
  // tournaments move on as far as the time allows.
  std::size_t recover_challenges(store::GameStore& store,
                                 const std::vector<std::pair<std::int64_t, std::int64_t>>& blocks);
  void recover_tournaments(const std::vector<store::StoredTournament>& tournaments);
  void resume_tournaments(store::GameStore& store);

  // For the metrics, from any thread: as of the lobby's last turn.
  std::int64_t challenges_open() const { return challenges_open_; }
  std::int64_t users_online() const { return users_online_; }

 private:
  // One turn of the lobby: what it produced, and the games it opened (not yet anyone's to find:
  // their rows are submitted first). While it lives it is the lobby's turn_ (the director's host
  // calls write into it). A turn dropped half-way abandons its games.
  struct Turn {
    explicit Turn(Lobby& l) : lobby(l) { lobby.turn_ = this; }
    ~Turn();
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;
    Lobby& lobby;
    Outbox out;
    std::map<protocol::GameId, std::unique_ptr<Room>> opened;
    // The node the next game opened may be played on (that of the player who accepted its
    // challenge, or of the quick match's last seeker), and the games opened that are played on
    // another node.
    std::optional<std::int64_t> place_on;
    // The next game opened is a quick match's (as a challenge's game, it may be played on any
    // node: store::GameOwned::movable).
    bool matched = false;
    std::map<protocol::GameId, std::int64_t> elsewhere;
  };

  // Runs `job` on the lobby's mailbox with a turn of its own, submitted after it.
  void in_turn(std::function<void(Turn&)> job, std::function<void()> then = {});
  // The events of the games it opened, into its outbox.
  static void collect(Turn& turn);
  // Submits the turn's outbox and starts the games it opened.
  void finish(Turn& turn);

  Reply handle(Turn& turn, const std::shared_ptr<Connection>& who, const std::string& cid,
               const protocol::ClientMessage& m);
  Reply tournament_command(const protocol::UserRef& me, const std::string& cid,
                           const protocol::ClientMessage& m);
  Reply create(Turn& turn, const protocol::UserRef& me, const std::string& cid,
               const protocol::CreateChallenge& m);
  Reply accept(Turn& turn, const protocol::UserRef& me, const std::string& cid,
               protocol::ChallengeId id);
  Reply close_challenge(Turn& turn, const protocol::UserRef& me, const std::string& cid,
                        protocol::ChallengeId id, bool decline,
                        const std::optional<std::string>& why = {});
  // Quick match (lobby/quick_match.h): a seek (from a connection on `node`, games on every node),
  // its cancellation, and the pairing of the waiting.
  Reply seek(Turn& turn, const protocol::UserRef& me, const std::string& cid,
             const protocol::Seek& m, std::int64_t node);
  void pair_seekers(Turn& turn);
  // Ends the user's seek, if they wait, telling their connections (with the game that ended it).
  void end_seek(Turn& turn, std::int64_t user, std::optional<protocol::GameId> game);
  // Black and White of two players whose colours go by rating: the weaker takes Black; equal
  // ratings toss a coin.
  std::pair<protocol::UserRef, protocol::UserRef> weaker_takes_black(const protocol::UserRef& a,
                                                                     const protocol::UserRef& b);
  // The lobby as this connection's user sees it (without the challenges of those they block).
  protocol::LobbySnapshot lobby_for(const std::optional<store::UserRecord>& user) const;
  // Whether the user may see and accept the challenge: not a group's, or they are its member.
  bool in_group_of(const protocol::Challenge& c, std::int64_t user) const;
  // Tells a challenge's change to those who see it: everyone, a direct one's two players, or a
  // group's members.
  void broadcast_challenge(Turn& turn, const protocol::Challenge& c,
                           const protocol::ServerMessage& m);
  // Notes that the user came online or went offline, for the next presence message.
  void presence_changed(Turn& turn, const protocol::UserRef& user, bool online);
  void tell_presence(Turn& turn);  // the presence changes noted, to every connection
  // A new game's row and room (not yet announced to its players), held by the turn.
  protocol::GameId open_room(Turn& turn, std::optional<protocol::ChallengeId> challenge,
                             const protocol::GameSettings& settings, const protocol::UserRef& black,
                             const protocol::UserRef& white, std::optional<std::string> secret,
                             std::optional<std::string> nonce, const RoomOptions& options,
                             bool in_tournament);
  // Tells both players that a game of theirs started (their pages open it).
  void tell_started(Turn& turn, const protocol::GameStarted& started);
  ratings::Rating rating_of(std::int64_t user) const;
  std::int64_t now_ms() const { return s_.clock.unix_ms(); }

  // TournamentHost: the director's calls, within the lobby's turn (turn_).
  protocol::GameId start_tournament_game(const protocol::GameSettings& settings,
                                         const protocol::UserRef& black,
                                         const protocol::UserRef& white,
                                         const RoomOptions& options) override;
  void end_tournament_game(protocol::GameId game, const Result& result,
                           protocol::EndReason reason) override;
  void write(store::Write write) override { turn_->out.writes.push_back(std::move(write)); }
  void tournament_changed(const protocol::TournamentChanged& change) override;
  void arm_tournament(protocol::TournamentId id, std::optional<std::int64_t> at_ms) override;
  std::optional<protocol::UserRef> user_named(const std::string& name) override {
    return s_.find_user(name);
  }
  std::optional<protocol::UserRef> user_by_id(std::int64_t id) override {
    return s_.find_user_by_id(id);
  }
  double rating_of_user(std::int64_t user) override { return rating_of(user).rating; }
  std::int64_t unix_now_ms() override { return now_ms(); }

  Services s_;
  std::unique_ptr<games::Mailbox> mailbox_;
  Turn* turn_ = nullptr;  // the turn under way (on the mailbox)
  Presence presence_;     // who is connected and online
  Challenges challenges_;
  QuickMatch quick_match_;
  TournamentDirector tournaments_{*this, s_.room};
  // What each connection watches of the tournaments (WatchTournaments): one tournament, or
  // every one (nullopt). tournament_changed goes to these only.
  std::unordered_map<std::uint64_t,
                     std::pair<std::shared_ptr<Connection>, std::optional<protocol::TournamentId>>>
      tournament_watchers_;
  std::atomic<std::int64_t> challenges_open_ = 0;
  std::atomic<std::int64_t> users_online_ = 0;
};

}  // namespace tengen
