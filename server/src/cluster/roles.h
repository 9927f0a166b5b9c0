#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "cluster/bus.h"
#include "cluster/forwarding.h"
#include "cluster/game_routes.h"
#include "store/leases.h"
#include "ws/connection.h"

namespace tengen::cluster {

// What a node of a cluster is (docs/cluster.md): the hub, which runs the lobby and every game
// (the one holding the hub lock, store::HubLock), or a front node, which holds connections and
// forwards them to the hub over the bus, waiting to become the hub if the hub goes. The HTTP
// server's dispatcher is dispatcher(): each connection is on one side at a time (the hub, or the
// forwarding to it). When the hub changes, or the bus was cut, no connection is closed: each is
// attached again (to the new hub over the bus, or, on the node that became the hub, to its own)
// and its client told to resync (protocol::Resync): it joins its rooms again and sends again
// what was not answered, on the same socket.
class Roles {
 public:
  struct Hooks {
    // Takes the hub lock if it can (store::HubLock::try_take).
    std::function<bool()> try_take_lock;
    // Builds the hub (store::Leases's owners already ended), recovers it; returns it. Runs once.
    std::function<Dispatcher&()> become_hub;
    // This node's connections were attached again (how many): counted.
    std::function<void(std::size_t)> reattached;
    // Of these nodes, those that are dead (store::PostgresLeases::gone).
    std::function<std::vector<std::int64_t>(const std::vector<std::int64_t>&)> gone;
    // Games on every node: a game placed on this node is brought into memory (Centre::bring),
    // its clocks running; not on the bus's thread.
    std::function<void(std::int64_t game)> bring;
    // On the hub, games on every node: a node that stopped said so (its games are orphans now):
    // they are taken over at once (cluster::LeaseKeeper::look_now).
    std::function<void()> adopt_now;
    // Games on every node, for a node that becomes the hub: the games the other running nodes
    // own (store::PostgresLeases::placements), whose commands it sends there.
    std::function<std::vector<std::pair<std::int64_t, std::int64_t>>()> placements;
    // On the hub, games on every node: a node ended a rated game, or a node is gone (its word
    // may be lost with it): the games left to rate are rated (Centre::rate_due). Does not wait.
    std::function<void()> rate_due;
    // Games on every node, on the hub (give_orphans): which running node to give each of at most
    // `limit` movable orphans to (store::PostgresLeases::spread), and the giving (::hand),
    // which returns who owns each game after it.
    std::function<std::vector<store::Handover>(int limit)> spread;
    std::function<std::vector<store::Handover>(const std::vector<store::Handover>&)> hand;
  };

  // Tries the hub lock at once (becoming the hub before returning if it is free), else waits
  // for it on a thread of its own, trying every `retry`. `games`: this node also plays the games
  // the lobby places on it (docs/cluster.md, "Games on every node"), on that dispatcher (a
  // centre of its own, Centre::Services::games_only), which the other nodes reach on its games'
  // subject; none: only the hub plays games.
  Roles(Bus& bus, store::Leases& leases, Hooks hooks,
        std::chrono::milliseconds retry = std::chrono::milliseconds(500),
        Dispatcher* games = nullptr);
  ~Roles();
  Roles(const Roles&) = delete;
  Roles& operator=(const Roles&) = delete;

  Dispatcher& dispatcher() { return router_; }
  bool is_hub() const { return hub_.load() != nullptr; }
  // The bus came back after a break, or dropped messages for a subscriber that fell behind:
  // what travelled meanwhile is lost, so this node's forwarded connections attach again (and a
  // hub says again that it is the hub, so that every node's do).
  void resync();
  // On the hub: the nodes whose connections stand in here (Gateway) and that have been found
  // dead — ended, expired, or no longer connected to the database — at every look for at least
  // `patience` (a lease: a node that only reconnects slowly after the database came back renews
  // well within it) lose their stand-ins, which leave their games and the lobby's presence as
  // connections that go do. Without this, a front node killed and never started again kept its
  // players "present" for ever. Should a live node's be let go all the same, its connections'
  // next commands make it attach them again (`unknown`). Called from one thread (the lease
  // keeper's, after each renewal), at `now`. Returns how many stand-ins were let go.
  std::size_t let_go_of_dead_nodes(std::chrono::steady_clock::duration patience,
                                   std::chrono::steady_clock::time_point now);

  // On the hub, games on every node: the lobby placed `game` on `node` (Centre::Services::
  // placing): its commands go there from now.
  void placing(std::int64_t game, std::int64_t node);
  // Games on every node: the node that plays `game`, when it is not the hub; the nodes that play
  // games (as far as this node knows: the hub knows them all).
  std::optional<std::int64_t> owner_of(std::int64_t game) const {
    return routes_ ? routes_->owner(game) : std::nullopt;
  }
  std::vector<std::int64_t> game_nodes() const {
    return routes_ ? routes_->nodes() : std::vector<std::int64_t>{};
  }
  // Every node is told where `game` is played now (0: on the hub, which adopted it), and `node`
  // brings it into memory.
  void tell_owner(std::int64_t game, std::int64_t node);
  // On the hub (or the node becoming it), games on every node: gives at most `limit` movable
  // games whose node died or stopped to the running nodes, the fewest games first (docs/
  // cluster.md, "A node that dies"). Every node is told where each is played now, and its node
  // brings it into memory; those given to this node are added to `here` (the hub's centre
  // takes them: Centre::adopt, or its recovery). Returns how many were given; a game that could
  // not be (its node stopped meanwhile) is left for the hub to adopt. Throws if the store cannot
  // be reached.
  std::size_t give_orphans(int limit, std::vector<std::int64_t>& here);
  // Games on every node: this node ended rated `game`, durable with its store::RatingDue row; the
  // hub is told to rate it (on `bus`: safe while the roles go).
  static void tell_rating_due(Bus& bus, std::int64_t game);

 private:
  // Routes each connection to its side.
  class Router final : public Dispatcher {
   public:
    explicit Router(Roles& roles) : roles_(roles) {}
    void connected(const std::shared_ptr<Connection>& connection) override;
    void received(const std::shared_ptr<Connection>& connection,
                  protocol::ClientEnvelope command) override;
    void disconnected(const std::shared_ptr<Connection>& connection) override;
    void answer(const std::shared_ptr<Connection>& connection,
                const protocol::ServerMessage& message) override;
    void after_replies(std::function<void()> then) override;
    // This node became the hub: its forwarded connections move to it, each told to resync.
    // Returns how many.
    std::size_t take_over(Dispatcher& hub);

   private:
    struct Side {
      Dispatcher* dispatcher = nullptr;
      std::weak_ptr<Connection> connection;
    };
    Dispatcher& of(const Connection& connection);
    Roles& roles_;
    // Shared while a connection is handed to its side; its own while one arrives, goes or moves.
    std::shared_mutex mutex_;
    std::map<std::uint64_t, Side> sides_;
  };

  Dispatcher& current() { return hub_ ? *hub_.load() : forwarding_; }
  bool try_become_hub();
  void wait_for_lock();
  void announce();
  void hub_announced(std::string_view data);

  Bus& bus_;
  store::Leases& leases_;
  Hooks hooks_;
  std::chrono::milliseconds retry_;
  // Games on every node: where each game's commands go. Before what reads it on the bus's
  // threads (the forwarding, the gateways), so that it goes after them.
  std::unique_ptr<GameRoutes> routes_;
  ForwardingDispatcher forwarding_;
  Router router_{*this};
  std::atomic<Dispatcher*> hub_{nullptr};
  std::optional<Gateway> gateway_;
  // Games on every node: this node's games' gateway.
  std::optional<Gateway> games_gateway_;
  std::unique_ptr<Bus::Subscription> announcements_;
  // Nodes found dead, since when (let_go_of_dead_nodes's thread only).
  std::map<std::int64_t, std::chrono::steady_clock::time_point> suspects_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool try_now_ = false;  // the hub said it is leaving: the lock is free
  std::thread waiting_;
};

}  // namespace tengen::cluster
