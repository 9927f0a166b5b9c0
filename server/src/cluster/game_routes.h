#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cluster/bus.h"
#include "ws/connection.h"

namespace tengen::cluster {

// Where each game's commands go, on one node of a cluster whose games are played on every node
// (docs/cluster.md, "Games on every node"). The hub plays every game not said to be elsewhere;
// a game the lobby placed on a node (that of the player who accepted its challenge) is played
// there, and every node learns it from the hub's word on the bus (GameOwner), or, if it missed
// that, from the hub itself when it sends it one of the game's commands (ToNode::moved).
//
// A command of a game played on this node goes to `local` (this node's own games); one of a
// game played on another node is sent to that node's games' gateway, the connection announced
// there first (once: that node keeps a stand-in for it, as the hub does), and what the game
// produces comes back on this node's games' subject. A connection that goes is said to be gone
// to every node it was announced to. Safe from any thread.
class GameRoutes {
 public:
  GameRoutes(Bus& bus, std::int64_t self, Dispatcher& local);
  ~GameRoutes();
  GameRoutes(const GameRoutes&) = delete;
  GameRoutes& operator=(const GameRoutes&) = delete;

  // The node that plays `game`, when it is not the hub.
  std::optional<std::int64_t> owner(std::int64_t game) const;
  // The nodes that play games, as far as this node knows (the hub knows them all).
  std::vector<std::int64_t> nodes() const;
  // `game` is played on `node` now (0: on the hub). If another node played it before (it died,
  // and the hub adopted its games), the connections announced there are told to resync: their
  // clients join their games again, where they are played now, and send again what was not
  // answered.
  void set_owner(std::int64_t game, std::int64_t node);
  // `node` is gone (it stopped, or the hub found it dead): its games are anyone's, to be
  // played on the hub (the unfinished ones adopted there); the connections announced to it
  // resync, as set_owner's do.
  void forget_node(std::int64_t node);
  // Sends a command of a game played here or on another node there; false: it is the hub's (or
  // not a game's).
  bool received(const std::shared_ptr<Connection>& connection,
                const protocol::ClientEnvelope& command);
  // The hub said the command (its text) is of a game played on `node`: sent there.
  void moved(const std::shared_ptr<Connection>& connection, std::int64_t node,
             std::string_view text);
  void disconnected(const std::shared_ptr<Connection>& connection);
  // The bus was cut: the other nodes may have lost their stand-ins of this node's connections,
  // which are announced again at their next command (their clients resync meanwhile).
  void forget_announcements();

 private:
  // Per connection: whether `local` knows it, and the nodes it is announced to.
  struct Held {
    std::weak_ptr<Connection> connection;
    bool local = false;
    std::set<std::int64_t> nodes;
  };
  // Under mutex_: the connections announced to `node`, which forget it.
  std::vector<std::shared_ptr<Connection>> announced_to(std::int64_t node);
  static void tell_to_resync(const std::vector<std::shared_ptr<Connection>>& connections,
                             std::string_view why);
  void send(const std::shared_ptr<Connection>& connection, std::int64_t node,
            const protocol::ClientEnvelope& command, std::string text);
  void delivered(std::string_view data);

  Bus& bus_;
  const std::int64_t self_;
  Dispatcher& local_;
  mutable std::mutex mutex_;
  std::unordered_map<std::int64_t, std::int64_t> owners_;  // game → node, not the hub's
  std::map<std::uint64_t, Held> held_;                     // by connection id
  std::unique_ptr<Bus::Subscription> subscription_;        // last: it goes first
};

}  // namespace tengen::cluster
