#pragma once

// A front node (docs/cluster.md) in the test's process: an HTTP and WebSocket server on 127.0.0.1
// and a free port whose connections' commands travel to the hub over a real NATS, and whose
// replies and events come back the same way. It authenticates against the hub's accounts and
// reads the hub's store (one database), and asks the hub over the bus what only the hub holds
// (cluster/hub_reads.h), as a front node's HTTP API does.
#include <optional>
#include <thread>

#include "cluster/forwarding.h"
#include "cluster/hub_reads.h"
#include "cluster/nats_bus.h"
#include "http/http_server.h"
#include "support/live_server.h"

namespace tengen::testing {

class FrontNode {
 public:
  FrontNode(LiveStack& hub, const std::string& nats_url, std::int64_t node)
      : hub_(hub), bus_(nats_url, "front-" + std::to_string(node)) {
    dispatcher_.emplace(bus_, node);
    bus_.flush();  // its subscription is in place before any connection
    api_.emplace(
        hub.accounts(),
        GameArchive{
            .store = &hub.games(), .clock = &hub.clock(), .hub = cluster::ask_hub(bus_, kPatience)},
        false, &hub.moderation());
    Config config;
    config.address = "127.0.0.1";
    config.port = 0;
    config.allowed_origins = {"https://club.example.org"};
    server_.emplace(config,
                    HttpServer::Handlers{.health_json = [] { return std::string("{}"); },
                                         .not_ready = {},
                                         .api = &*api_,
                                         .accounts = &hub.accounts(),
                                         .dispatcher = &*dispatcher_,
                                         .clock = &hub.clock(),
                                         .connection_timers = &connection_timers_,
                                         .metrics_text = [] { return std::string(); },
                                         .metrics = &metrics_,
                                         .session_ended = {}},
                    LiveStack::limits());
    thread_ = std::thread([this] { server_->run(); });
  }
  ~FrontNode() {
    server_->stop();
    thread_.join();
    // The forwarding goes before the server, as in the server binary (main.cpp): what the bus
    // still delivers (a barrier's answer, holding a connection) is let go while the connections'
    // executor lives. The other way round, ASan once found a connection freed on the bus's
    // thread after its io_context (NodesInOneProcess.BlocksAndAnAdministratorsAction…).
    dispatcher_.reset();
  }
  FrontNode(const FrontNode&) = delete;
  FrontNode& operator=(const FrontNode&) = delete;

  // How long its API waits for the hub's answer.
  static constexpr std::chrono::milliseconds kPatience{2000};

  int port() const { return server_->port(); }
  cluster::ForwardingDispatcher& dispatcher() { return *dispatcher_; }

 private:
  LiveStack& hub_;
  cluster::NatsBus bus_;
  std::optional<cluster::ForwardingDispatcher> dispatcher_;
  std::optional<Api> api_;
  ManualTimers connection_timers_;
  Metrics metrics_;
  std::optional<HttpServer> server_;
  std::thread thread_;
};

}  // namespace tengen::testing
