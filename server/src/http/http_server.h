#pragma once

#include <functional>
#include <memory>
#include <string>

#include "accounts/accounts.h"
#include "clock.h"
#include "config.h"
#include "http/api.h"
#include "metrics.h"
#include "rooms/timers.h"
#include "ws/connection.h"
#include "ws/limits.h"

namespace tengen {

// The listener and HTTP sessions. Beast and Asio live only in http_server.cpp: everything that
// includes this header compiles without them.
class HttpServer {
 public:
  struct Handlers {
    std::function<std::string()> health_json;  // body of GET /healthz
    // Why this node cannot serve players now (the database or, on a front node, the bus away),
    // or empty: GET /healthz answers 503 meanwhile, and WebSocket upgrades are refused with 503
    // and Retry-After, so that a proxy sends players elsewhere and clients wait before trying
    // again. GET /livez answers 200 while the process is alive.
    std::function<std::string()> not_ready;
    Api* api = nullptr;                // /api/v1/...; runs on a worker thread
    Accounts* accounts = nullptr;      // who a WebSocket client is
    Dispatcher* dispatcher = nullptr;  // what WebSocket commands go to
    Clock* clock = nullptr;
    // The connections' pings and idle checks (ConnectionTick): timers of their own, not the
    // hub's; the server takes their handler until it is destroyed.
    Timers* connection_timers = nullptr;
    std::function<std::string()> metrics_text;  // body of GET /metrics
    Metrics* metrics = nullptr;
    // Told after a logout or revocation here has closed this server's connections opened with
    // the session: a cluster tells its other nodes (docs/cluster.md), which call end_session.
    // `why`: what the page is told (Accounts::end_sessions).
    std::function<void(std::int64_t session, const std::string& why)> session_ended;
  };

  // Binds the listening socket (throws std::system_error on failure).
  HttpServer(const Config& config, Handlers handlers, ConnectionLimits limits = {});
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  unsigned short port() const;
  // Serves until SIGINT or SIGTERM (or stop()), then stops accepting, lets responses in flight
  // finish, closes idle connections and returns.
  void run();
  void stop();
  // Closes every WebSocket with 1013 (try again later): this node cannot serve them now (a
  // front node whose bus is away, docs/cluster.md), and the clients wait before trying again,
  // through the proxy to a node that can. Safe from any thread.
  void close_websockets_for_later();
  // Sends `message` to every WebSocket of this server (a protocol::Service notice). Safe from
  // any thread.
  void tell_all(const protocol::ServerMessage& message);
  // Closes every WebSocket opened with this session (1008): it was ended (a logout, a
  // revocation), here or on another node. Safe from any thread.
  void end_session(std::int64_t session, const std::string& why = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tengen
