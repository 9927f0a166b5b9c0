#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "cluster/bus.h"
#include "cluster/forwarding.h"
#include "store/leases.h"
#include "ws/connection.h"

namespace tengen::cluster {

// What a node of a cluster is (docs/cluster.md): the hub, which runs the lobby and every game
// (the one holding the hub lock, store::HubLock), or a front node, which holds connections and
// forwards them to the hub over the bus, waiting to become the hub if the hub goes. The HTTP
// server's dispatcher is dispatcher(): each connection stays with the side it arrived at (the hub,
// or the forwarding to it), so that a node that becomes the hub tells its new hub nothing about
// connections it never saw; it closes them instead, and they come back.
class Roles {
 public:
  struct Hooks {
    // Takes the hub lock if it can (store::HubLock::try_take).
    std::function<bool()> try_take_lock;
    // Builds the hub (store::Leases's owners already ended), recovers it; returns it. Runs once.
    std::function<Dispatcher&()> become_hub;
    // Closes every WebSocket of this node with 1012: its clients reconnect and resume.
    std::function<void()> restart_connections;
  };

  // Tries the hub lock at once (becoming the hub before returning if it is free), else waits
  // for it on a thread of its own, trying every `retry`.
  Roles(Bus& bus, store::Leases& leases, Hooks hooks,
        std::chrono::milliseconds retry = std::chrono::milliseconds(500));
  ~Roles();
  Roles(const Roles&) = delete;
  Roles& operator=(const Roles&) = delete;

  Dispatcher& dispatcher() { return router_; }
  bool is_hub() const { return hub_.load() != nullptr; }
  // The bus came back after a break, or dropped messages for a subscriber that fell behind:
  // what travelled meanwhile is lost, so this node's connections attach again (and a hub says
  // again that it is the hub, so that every node's do).
  void resync();

 private:
  // Routes each connection to where it was when it connected.
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

   private:
    Dispatcher& of(const Connection& connection);
    Roles& roles_;
    std::mutex mutex_;
    std::map<std::uint64_t, Dispatcher*> sides_;
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
  ForwardingDispatcher forwarding_;
  Router router_{*this};
  std::atomic<Dispatcher*> hub_{nullptr};
  std::optional<Gateway> gateway_;
  std::unique_ptr<Bus::Subscription> announcements_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread waiting_;
};

}  // namespace tengen::cluster
