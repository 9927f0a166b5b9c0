#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accounts/rate_limiter.h"
#include "clock.h"
#include "games/game_directory.h"
#include "lobby/command_memory.h"
#include "lobby/commit_path.h"
#include "lobby/lanes.h"
#include "lobby/lobby.h"
#include "metrics.h"
#include "reviews/review_owner.h"
#include "ws/connection.h"

namespace tengen {

// The way from every WebSocket connection to the owners (docs/architecture.md, "Owners"): it
// claims each command's id (a repeat is answered, not applied again), keeps each account's chat
// rate, and hands the command to the one owner of its family (protocol/families.h): a game's
// actor, the lobby, the review boards; the player's list of games is gathered from their games'
// actors. Each connection's commands run one after another in its lane (lobby/lanes.h), so that
// replies keep their order when two commands go to two owners; the games a connection joined
// live in its lane. A forwarded connection's lane runs on the owners' pool, never on the bus's
// thread. The router holds no game, lobby or board state itself and never waits.
class Router final : public Dispatcher {
 public:
  using Reply = std::variant<protocol::Ack, protocol::Error>;
  using MyGames = std::function<void(std::int64_t user, std::function<void(protocol::MyGames)>)>;

  struct Services {
    Clock& clock;
    Metrics* metrics = nullptr;
    CommitPath& commit;
    games::GameDirectory& games;
    Lobby& lobby;
    ReviewOwner& reviews;
    MyGames my_games;  // the player's unfinished games, from their actors
    // Each account's chat, in games and reviews alike (RoomOptions::chat_burst, chat_refill).
    int chat_burst = 0;
    Millis chat_refill{0};
    // Where a forwarded connection's lane runs (the owners' pool).
    std::function<void(std::function<void()>)> elsewhere;
    // Only games' commands come here (a node that plays games and is not the hub: docs/cluster.md,
    // "Games on every node"): a connection is not the lobby's, which says nothing to it.
    bool games_only = false;
    // Games on every node: a game that could not be read back here, because another running node
    // plays it (it adopted it a moment ago): true once this node's routes know, and the command
    // is then not applied here; its client is told to resync and sends it again, there. Called
    // on an owner's thread; may ask the store. None: every game is this node's to read back.
    std::function<bool(protocol::GameId)> played_elsewhere{};
    // Games on every node: a game this node plays already elsewhere than here (on a centre of its
    // own, or another node as far as it knows), looked at before reading the game back: its
    // command is not applied here either (its client resyncs). Cheap; none: no game is.
    std::function<bool(protocol::GameId)> known_elsewhere{};
    // Several nodes: a line of `user`'s chat was counted here (posted); the other nodes' rates
    // count it too (chat_elsewhere). Called on an owner's thread, outside the rate's lock.
    std::function<void(std::int64_t user)> chat_posted{};
  };
  explicit Router(Services services);

  void connected(const std::shared_ptr<Connection>& connection) override;
  void received(const std::shared_ptr<Connection>& connection,
                protocol::ClientEnvelope command) override;
  void disconnected(const std::shared_ptr<Connection>& connection) override;
  void answer(const std::shared_ptr<Connection>& connection,
              const protocol::ServerMessage& message) override;
  void after_replies(std::function<void()> then) override;

  // One rate for each account's chat, in games and reviews alike: the refusal, or nothing.
  std::optional<protocol::Error> too_much_chat(std::int64_t user, const std::string& cid,
                                               Steady now);
  // The acks of applied commands, for repeated cids (start-up fills it from the store).
  CommandMemory& applied() { return applied_; }
  // Lines the accounts posted before this server started (or became a cluster's hub), read back
  // from the store at recovery, as (Unix milliseconds, user id): they count against each
  // account's chat rate as if posted here, so that a restart or a new hub does not hand every
  // account a fresh burst.
  void count_chat(std::vector<std::pair<std::int64_t, std::int64_t>> lines);
  // A line `user` posted on another node (or another centre of this node) counts against their
  // rate here too: one rate for an account across the cluster (docs/cluster.md).
  void chat_elsewhere(std::int64_t user);

 private:
  // Runs a command on its connection's lane: answered again if applied already; then to its
  // family's owner.
  void run_command(const std::shared_ptr<Connection>& who,
                   const std::shared_ptr<const protocol::ClientEnvelope>& command, Lanes::Own& own,
                   const Lanes::Done& done, bool loaded = false);
  void to_game(protocol::GameId game, const std::shared_ptr<Connection>& who,
               const std::shared_ptr<const protocol::ClientEnvelope>& command, std::int64_t key,
               Lanes::Own& own, const Lanes::Done& done);
  // Answers a command here (refused, or a list of games), remembered if it is an ack.
  void answer_here(const std::shared_ptr<Connection>& who, const protocol::ClientEnvelope& command,
                   std::int64_t key, const Reply& reply, const Lanes::Done& done,
                   std::optional<protocol::ServerMessage> before = std::nullopt);
  // What every reply takes with it: the events its command made remember whose it was, the
  // counters count it, and the reply joins the outbox (encoded: the ack is remembered).
  std::shared_ptr<const std::string> answer_into(Outbox& out,
                                                 const std::shared_ptr<Connection>& who,
                                                 const protocol::ClientEnvelope& command,
                                                 const Reply& reply);

  Services s_;
  CommandMemory applied_;
  // Each account's chat across all games and boards (user id → its bucket): below the command
  // rate, so that a flood of lines is refused before it reaches the rooms and the disk. Its
  // lock is a leaf, held for one bucket's arithmetic.
  std::mutex chat_mutex_;
  RateLimiter chat_rate_;
  Lanes lanes_;
};

}  // namespace tengen
