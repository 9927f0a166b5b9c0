#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "cluster/bus.h"
#include "protocol/bus.h"
#include "ws/connection.h"

namespace tengen::cluster {

// An account as other nodes see it on the bus.
std::optional<protocol::bus::User> bus_user(const std::optional<store::UserRecord>& user);

// A front node (docs/cluster.md): it holds WebSocket connections and hands everything that
// happens on them to the hub on another node, over the bus; what the hub sends back goes to the
// connections. The HTTP server takes it as its Dispatcher, in place of the centre's router.
class ForwardingDispatcher final : public Dispatcher {
 public:
  // The hub said a command (its text) is of a game played on another node (`node`).
  using Moved = std::function<void(const std::shared_ptr<Connection>& connection, std::int64_t node,
                                   std::string_view text)>;
  // `node`: this node's id in the cluster (store::Leases::node()). Subscribes to its subject.
  ForwardingDispatcher(Bus& bus, std::int64_t node, Moved moved = {});
  ~ForwardingDispatcher() override;

  void connected(const std::shared_ptr<Connection>& connection) override;
  void received(const std::shared_ptr<Connection>& connection,
                protocol::ClientEnvelope command) override;
  void disconnected(const std::shared_ptr<Connection>& connection) override;
  void answer(const std::shared_ptr<Connection>& connection,
              const protocol::ServerMessage& message) override;
  // Once the hub has passed the barrier; or, since the hub may be gone (and a connection waiting
  // for its replies must not wait forever), once the hub changes (release_barriers), after
  // kBarrierPatience, or when this dispatcher goes.
  void after_replies(std::function<void()> then) override;
  // The hub changed, or the bus was cut: whatever was owed by the last hub is not coming.
  void release_barriers();
  // Attaches every connection again, to the hub there is now (a new one, or the same after the
  // bus was cut): each is announced to it afresh, between a roll call and its end (the hub lets
  // go of this node's connections it still had and this node no longer holds: their departures
  // lost with the bus), and its client told to resync (protocol::Resync, `reason`), which joins
  // its rooms again and sends again what was not answered. No connection is closed. Returns how
  // many.
  std::size_t reattach(std::string_view reason);
  // The connection is no longer forwarded (this node became the hub and took it over): it is
  // forgotten here, and nothing is said to the hub that was.
  void release(const Connection& connection);

  static constexpr std::chrono::seconds kBarrierPatience{5};

 private:
  struct Barrier {
    std::chrono::steady_clock::time_point until;
    std::function<void()> then;
  };
  void delivered(std::string_view data);
  // `connection` is the barrier's number for a barrier.
  void tell_hub(protocol::bus::ToHub::Op op, std::uint64_t connection,
                std::optional<protocol::bus::User> user, std::optional<std::int64_t> rtt,
                std::string text);
  void roll(protocol::bus::ToHub::Op op);  // a roll call, or its end
  static std::shared_ptr<const std::string> resync_text(std::string_view reason);
  // Announces the connection to the hub again and tells its client to resync.
  void attach_again(Connection& connection, const std::shared_ptr<const std::string>& resync);
  void run_out_barriers();  // the thread that ends barriers past their patience

  Bus& bus_;
  const std::int64_t node_;
  const Moved moved_;
  mutable std::mutex mutex_;
  std::map<std::uint64_t, std::weak_ptr<Connection>> connections_;
  std::uint64_t next_barrier_ = 0;
  std::map<std::uint64_t, Barrier> barriers_;
  std::condition_variable barrier_added_;
  bool stopping_ = false;
  std::thread patience_;
  std::unique_ptr<Bus::Subscription> subscription_;  // last: it goes first
};

// The hub's side: every front node's connections, as connections of the hub's own (each a
// stand-in whose messages travel back over the bus), and what happens on them, told to the hub.
// A node's roll call lets the hub forget the stand-ins of connections the node no longer holds
// (their departure lost with the bus, or the node restarted): they leave their rooms and the
// lobby's presence, as a connection that goes does.
class Gateway {
 public:
  // Where it listens, and where it answers each node: the hub's (every command of the front
  // nodes' connections but those of games played elsewhere), or a node's games' (docs/cluster.md,
  // "Games on every node": the commands of the games this node plays, from the others).
  struct Subjects {
    std::string listen;
    std::string (*reply)(std::int64_t node) = nullptr;
  };
  static Subjects hub_subjects();
  static Subjects games_subjects(std::int64_t node);
  // On the hub: the node that plays a game, when it is not the hub (a node that sent a command
  // of that game here did not know: it is told, with its command, to send it there).
  using Elsewhere = std::function<std::optional<std::int64_t>(std::int64_t game)>;

  Gateway(Bus& bus, Dispatcher& hub, Subjects subjects = hub_subjects(), Elsewhere elsewhere = {});
  // Stops listening, then waits until the hub has run what this gateway handed it: the hub must
  // still be running its commits (its journal) when the gateway goes.
  ~Gateway();
  Gateway(const Gateway&) = delete;
  Gateway& operator=(const Gateway&) = delete;

  std::size_t connections() const;
  // The other nodes whose connections stand in here.
  std::vector<std::int64_t> nodes() const;
  // The node is dead (store::PostgresLeases::gone): its stand-ins leave their rooms and the
  // lobby's presence, as connections that go do. Returns how many.
  std::size_t let_go(std::int64_t node);

 private:
  void arrived(std::string_view data);
  // A node's roll call (`begin`) or its end: its stand-ins not announced between the two go.
  void roll(std::int64_t node, bool begin);
  // Stand-ins taken out of remote_ (under mutex_): they leave, as connections that go do.
  void leave(const std::vector<std::shared_ptr<Connection>>& gone);

  // The command is one of a game played on another node: its sender is told so.
  bool sent_elsewhere(const protocol::bus::ToHub& m, const protocol::ClientEnvelope& command);

  Bus& bus_;
  Dispatcher& hub_;
  const Subjects subjects_;
  const Elsewhere elsewhere_;
  mutable std::mutex mutex_;
  std::map<std::pair<std::int64_t, std::uint64_t>, std::shared_ptr<Connection>> remote_;
  std::uint64_t next_id_ = 0;  // the stand-ins' ids
  // Per node whose roll call is under way: its connections not announced again yet.
  std::map<std::int64_t, std::set<std::uint64_t>> unanswered_;
  std::unique_ptr<Bus::Subscription> subscription_;  // last: it goes first
};

}  // namespace tengen::cluster
