#include "http/http_server.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "http/proxies.h"
#include "http/responses.h"
#include "http/static_files.h"
#include "http/web_files.h"
#include "protocol/http_api.h"
#include "ws/ws_session.h"

namespace tengen {
using namespace http_responses;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

constexpr std::size_t kMaxRequestBody = std::size_t{16} * 1024;
constexpr std::size_t kMaxRecordBody =
    std::size_t{256} * 1024;  // a line of play, an SGF file, an analysis
constexpr std::size_t kMaxImportBody =
    std::size_t{1024} * 1024;  // a tournament's file: federation::kMaxOpenGothaBytes
constexpr auto kNothrow = asio::as_tuple(asio::use_awaitable);
constexpr int kWorkerThreads = 2;  // password hashing and other slow API work

}  // namespace

struct HttpServer::Impl {
  Impl(const Config& cfg, Handlers h, ConnectionLimits l)
      : config(cfg),
        handlers(std::move(h)),
        limits(l),
        proxies(std::get<TrustedProxies>(TrustedProxies::parse(cfg.trusted_proxies))),
        io(cfg.threads),
        control(asio::make_strand(io)),
        acceptor(control),
        signals(control, SIGINT, SIGTERM) {
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(config.address, ec);
    if (ec) throw std::runtime_error("--address " + config.address + " is not an IP address");
    const tcp::endpoint endpoint(address, config.port);
    acceptor.open(endpoint.protocol());
    acceptor.set_option(asio::socket_base::reuse_address(true));
    if (acceptor.bind(endpoint, ec); ec == asio::error::address_in_use) {
      throw std::runtime_error("port " + std::to_string(config.port) + " on " + config.address +
                               " is already in use: stop what holds it, or choose another with "
                               "--port (or TENGEN_PORT)");
    } else if (ec) {
      throw std::runtime_error("cannot listen on " + config.address + " port " +
                               std::to_string(config.port) + ": " + ec.message());
    }
    acceptor.listen(asio::socket_base::max_listen_connections);
  }

  // ---- plain HTTP ----

  // A coroutine taking its data as parameters (copied into its frame), not a capturing lambda:
  // co_spawn moves the function object, and a lambda coroutine's captures would dangle.
  static asio::awaitable<ApiResponse> call_api(Api* api, ApiRequest request) {
    co_return api->handle(request).value_or(ApiResponse{404, "", {}});
  }

  http::message_generator respond(const http::request<http::string_body>& req) {
    const std::string_view target = req.target();
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
      return plain(req, http::status::method_not_allowed, "{\"error\":\"method not allowed\"}",
                   "application/json");
    }
    if (target.substr(0, target.find('?')) == "/ws/v1") {  // not an upgrade (those never get here)
      auto res =
          text_response(req, http::status::upgrade_required,
                        "/ws/v1 is a WebSocket endpoint: upgrade to websocket\n", "text/plain");
      res.set(http::field::upgrade, "websocket");
      res.set(http::field::connection, "Upgrade");
      res.set(http::field::sec_websocket_version, "13");
      return http::message_generator(std::move(res));
    }
    if (target == "/healthz") {
      const bool ready = !handlers.not_ready || handlers.not_ready().empty();
      return plain(req, ready ? http::status::ok : http::status::service_unavailable,
                   handlers.health_json(), "application/json");
    }
    if (target == "/livez")  // the process answers: alive, whatever it can serve
      return plain(req, http::status::ok, "{\"status\":\"alive\"}", "application/json");
    if (target == "/metrics" && handlers.metrics_text) {
      return plain(req, http::status::ok, handlers.metrics_text(),
                   "text/plain; version=0.0.4; charset=utf-8");
    }
    // The web client's languages are the catalogs in its locales/ folder: adding a language is
    // adding one file (web/locales/README.md).
    return web_file(web_files, config.web_root, req, target);
  }

  // ---- WebSocket upgrade ----

  // Why this upgrade is refused, or empty. Browsers send Origin; programs usually do not.
  std::string refuse_upgrade(const http::request<http::string_body>& req,
                             const std::string& address) {
    std::string_view path = req.target();
    path = path.substr(0, path.find('?'));
    if (path != "/ws/v1") return "404 the WebSocket endpoint is /ws/v1";
    if (req[http::field::sec_websocket_version] != "13")
      return "426 only WebSocket version 13 is spoken here";
    // A base64 nonce of 16 bytes: 24 characters.
    const std::string_view key = req[http::field::sec_websocket_key];
    if (key.size() != 24 ||
        key.find_first_not_of(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") !=
            std::string_view::npos) {
      return "400 Sec-WebSocket-Key is missing or malformed";
    }
    const std::string_view origin = req[http::field::origin];
    if (!origin.empty() && http_files::origin_host(origin) != req[http::field::host]) {
      bool allowed = false;
      for (const auto& o : config.allowed_origins) allowed = allowed || o == origin;
      if (!allowed) return "403 origin " + std::string(origin) + " is not allowed";
    }
    // Not ready (the database or the bus away): a connection it would drop at once is not
    // accepted; the client waits (Retry-After) and a proxy sends it to a node that is ready.
    if (handlers.not_ready) {
      if (auto why = handlers.not_ready(); !why.empty()) return "503 " + why;
    }
    std::lock_guard lock(mutex);
    if (per_address[address] >= limits.connections_per_address) {
      return "429 too many connections from " + address;
    }
    return "";
  }

  // `received`: what the client sent after its request (frames, if it did not wait for the answer).
  asio::awaitable<void> upgrade(std::shared_ptr<beast::tcp_stream> stream,
                                http::request<http::string_body> req, std::string address,
                                std::string received) {
    if (const std::string refusal = refuse_upgrade(req, address); !refusal.empty()) {
      const auto status = static_cast<http::status>(std::stoi(refusal.substr(0, 3)));
      spdlog::info("upgrade from {} refused: {}", address, refusal.substr(4));
      auto response = text_response(req, status, refusal.substr(4) + "\n", "text/plain");
      if (status == http::status::upgrade_required)
        response.set(http::field::sec_websocket_version, "13");
      // Too many connections from the address: one may close at any time; try again shortly.
      if (status == http::status::too_many_requests) response.set(http::field::retry_after, "5");
      if (status == http::status::service_unavailable) response.set(http::field::retry_after, "2");
      auto [ec, n] = co_await beast::async_write(
          *stream, http::message_generator(std::move(response)), kNothrow);
      if (ec) spdlog::debug("refusal not delivered: {}", ec.message());
      co_return;
    }
    // The handshake's answer (RFC 6455 §4.2.2); ws/frames.h takes it from there.
    http::response<http::empty_body> accepted{http::status::switching_protocols, req.version()};
    accepted.set(http::field::server, "tengen");
    accepted.set(http::field::upgrade, "websocket");
    accepted.set(http::field::connection, "upgrade");
    accepted.set(http::field::sec_websocket_accept,
                 ws::accept_key(req[http::field::sec_websocket_key]));
    stream->expires_after(limits.handshake_timeout);
    auto [accept_ec, accept_bytes] = co_await http::async_write(*stream, accepted, kNothrow);
    if (accept_ec) co_return;
    stream->expires_never();
    std::optional<store::UserRecord> user;
    std::optional<std::int64_t> login;  // the session it was opened with, to end with it
    std::shared_ptr<WsSession> session;
    {
      std::lock_guard lock(mutex);
      // The server began to stop while the answer was written: begin_stop has closed the
      // sessions it knew of, and this one would keep it waiting.
      if (stopping) co_return;
      // Looked up under the lock end_session takes (a logout deletes the session first, then
      // calls it): a session ended during this upgrade is either gone already, and this is a
      // guest, or ended after this connection is registered in `logins`, and closes it.
      if (handlers.accounts) {
        try {
          if (auto found = handlers.accounts->live_session(token_of(req))) {
            user = std::move(found->user);
            login = found->id;
          }
        } catch (const std::exception& e) {
          // The database went away since the readiness check: not a guest, so not served. The
          // client reconnects (with its backoff) and finds the node not ready.
          spdlog::info("upgrade from {} dropped: who it is cannot be read: {}", address, e.what());
          co_return;
        }
      }
      ++per_address[address];
      const std::uint64_t id = ++next_connection;
      if (handlers.metrics) {
        ++handlers.metrics->ws_connections;
        ++handlers.metrics->ws_connections_total;
      }
      session = std::make_shared<WsSession>(
          stream->release_socket(), received, id, std::move(user), *handlers.dispatcher,
          *handlers.clock, *handlers.connection_timers, limits,
          [this, address](std::uint64_t ended) {
            std::lock_guard l(mutex);
            sockets.erase(ended);
            logins.erase(ended);
            if (--per_address[address] == 0) per_address.erase(address);
            if (handlers.metrics) --handlers.metrics->ws_connections;
          },
          handlers.metrics);
      sockets[id] = session;
      if (login) logins[id] = *login;
    }
    co_await session->run();
  }

  asio::awaitable<void> session(std::shared_ptr<beast::tcp_stream> stream) {
    beast::error_code peer_ec;
    const std::string peer = stream->socket().remote_endpoint(peer_ec).address().to_string();
    const std::uint64_t key = register_http(stream);
    beast::flat_buffer buffer;
    while (!stopping) {
      http::request_parser<http::string_body> parser;
      // Beast checks Content-Length against the limit as it reads the header: the largest one
      // first, and once the target is known, the usual one unless it carries a line of play,
      // a review's SGF file, an analysis worker's result or a tournament's file.
      parser.body_limit(kMaxImportBody);
      stream->expires_after(limits.handshake_timeout);
      auto [header_ec, header_bytes] =
          co_await http::async_read_header(*stream, buffer, parser, kNothrow);
      bool too_large = header_ec == http::error::body_limit;
      if (header_ec && !too_large) break;
      const auto target = parser.get().target();
      const bool record = target.starts_with("/api/v1/positions") || target == "/api/v1/reviews" ||
                          (target.starts_with("/api/v1/analysis/") && target.ends_with("/result"));
      // A tournament's file, or its list of players: up to kMaxImportBody.
      const bool file =
          target == "/api/v1/tournaments/import" ||
          (target.starts_with("/api/v1/tournaments/") && target.ends_with("/players"));
      if (!too_large && !file) {
        const std::size_t limit = record ? kMaxRecordBody : kMaxRequestBody;
        too_large = parser.content_length().value_or(0) > limit;
        parser.body_limit(limit);
      }
      beast::error_code read_ec;
      if (!too_large) {
        auto [ec, read_bytes] = co_await http::async_read(*stream, buffer, parser, kNothrow);
        read_ec = ec;
        too_large = read_ec == http::error::body_limit;
      }
      if (too_large) {  // told, then closed: the rest is not read
        auto refusal = text_response(parser.get(), http::status::payload_too_large,
                                     "the request body is too large\n", "text/plain");
        refusal.keep_alive(false);
        co_await beast::async_write(*stream, http::message_generator(std::move(refusal)), kNothrow);
        break;
      }
      if (read_ec) break;
      auto request = parser.release();
      // Each request says itself which client a trusted proxy forwards (docs/operations.md).
      const std::string address = proxies.client_address(peer, request["X-Forwarded-For"]);
      if (const auto problem = malformed(request)) {  // RFC 9112 §3.2: answered 400, then closed
        auto refusal =
            text_response(request, http::status::bad_request, *problem + "\n", "text/plain");
        refusal.keep_alive(false);  // says Connection: close, as it is
        co_await beast::async_write(*stream, http::message_generator(std::move(refusal)), kNothrow);
        break;
      }
      if (websocket::is_upgrade(request) && handlers.dispatcher) {
        unregister_http(key);
        std::string received(static_cast<const char*>(buffer.cdata().data()), buffer.size());
        co_await upgrade(stream, std::move(request), address, std::move(received));
        co_return;
      }
      const bool keep_alive = request.keep_alive();
      if (handlers.metrics) ++handlers.metrics->http_requests_total;
      // The request is read: answering it gets a time of its own. The deadline above began while
      // a kept-alive connection sat idle; a request that arrived near its end was cut while being
      // answered, after it had done its work, and browsers send such a request again (a ladder
      // challenge accepted twice, a chat line said twice).
      stream->expires_after(limits.handshake_timeout);
      std::optional<http::message_generator> response;
      if (handlers.api && request.target().starts_with("/api/")) {
        ApiResponse result = co_await asio::co_spawn(
            workers, call_api(handlers.api, to_api_request(request, address)), asio::use_awaitable);
        response.emplace(api_response(result, request.version(), keep_alive));
      } else {
        response.emplace(respond(request));
      }
      auto [write_ec, written] =
          co_await beast::async_write(*stream, std::move(*response), kNothrow);
      if (write_ec || !keep_alive) break;
    }
    beast::error_code ignored;
    stream->socket().shutdown(tcp::socket::shutdown_send, ignored);
    unregister_http(key);
  }

  std::uint64_t register_http(const std::shared_ptr<beast::tcp_stream>& stream) {
    std::lock_guard lock(mutex);
    const std::uint64_t key = ++next_connection;
    http_streams[key] = stream;
    return key;
  }
  void unregister_http(std::uint64_t key) {
    std::lock_guard lock(mutex);
    http_streams.erase(key);
  }

  // SIGINT or SIGTERM begins a graceful stop (cancelled by a stop that began otherwise).
  asio::awaitable<void> stop_on_signal() {
    // stop() may have come before run() started this (a server stopped at once, as a test's
    // is): then begin_stop's cancel found no wait, and this one would keep run() going for ever.
    if (stopping) co_return;
    auto [ec, signal] = co_await signals.async_wait(kNothrow);
    if (ec) co_return;
    spdlog::info("received signal {}", signal);
    begin_stop();
  }

  asio::awaitable<void> accept_loop() {
    while (!stopping) {
      auto [ec, socket] = co_await acceptor.async_accept(asio::make_strand(io), kNothrow);
      if (ec) {
        if (stopping || ec == asio::error::operation_aborted) break;
        spdlog::warn("accept failed: {}", ec.message());
        continue;
      }
      // Small messages go out at once: without this, Nagle holds an ack behind the event before it.
      beast::error_code nodelay_ec;
      socket.set_option(tcp::no_delay(true), nodelay_ec);
      auto stream = std::make_shared<beast::tcp_stream>(std::move(socket));
      asio::co_spawn(stream->get_executor(), session(stream), asio::detached);
    }
  }

  void tell_all(const protocol::ServerMessage& message) {
    std::vector<std::shared_ptr<WsSession>> live;
    {
      std::lock_guard lock(mutex);
      for (const auto& [id, weak] : sockets) {
        if (auto s = weak.lock()) live.push_back(std::move(s));
      }
    }
    const auto text = std::make_shared<const std::string>(protocol::encode(message));
    for (const auto& s : live) s->send(text);
  }

  // Logout or revocation: every connection opened with the session closes now (the web client
  // then reconnects as whoever its cookie says, a guest after a logout).
  void end_session(std::int64_t login, const std::string& why) {
    std::vector<std::shared_ptr<WsSession>> ended;
    {
      std::lock_guard lock(mutex);
      for (const auto& [id, l] : logins) {
        if (l != login) continue;
        if (const auto it = sockets.find(id); it != sockets.end()) {
          if (auto live = it->second.lock()) ended.push_back(std::move(live));
        }
      }
    }
    for (const auto& s : ended) {
      s->close(ws::CloseCode::PolicyViolation,
               why.empty() ? "the session was ended: log in again" : why);
    }
  }

  // A connection's ConnectionTick came, on the timers' thread.
  void wake(const TimerId& id) {
    const auto* tick = std::get_if<ConnectionTick>(&id);
    if (!tick) return;
    std::shared_ptr<WsSession> session;
    {
      std::lock_guard lock(mutex);
      if (const auto it = sockets.find(tick->connection); it != sockets.end())
        session = it->second.lock();
    }
    if (session) session->wake();
  }

  void begin_stop() {
    if (stopping.exchange(true)) return;
    beast::error_code ignored;
    acceptor.close(ignored);
    signals.cancel(ignored);
    std::lock_guard lock(mutex);
    spdlog::info("shutting down: closing {} WebSocket and {} HTTP connections", sockets.size(),
                 http_streams.size());
    for (auto& [key, weak] : http_streams) {
      if (auto stream = weak.lock()) {
        asio::post(stream->get_executor(), [stream] {
          beast::error_code e;
          stream->socket().cancel(e);
        });
      }
    }
    for (auto& [id, weak] : sockets) {
      if (auto ws = weak.lock()) ws->close(ws::CloseCode::GoingAway, "the server is shutting down");
    }
  }

  void close_websockets_for_later() {
    std::lock_guard lock(mutex);
    spdlog::info("closing {} WebSockets for their clients to reconnect later", sockets.size());
    for (auto& [id, weak] : sockets) {
      if (auto ws = weak.lock())
        ws->close(ws::CloseCode::TryAgainLater, "this node cannot serve now: try again later");
    }
  }

  Config config;
  Handlers handlers;
  ConnectionLimits limits;
  TrustedProxies proxies;  // parse_config has checked the list
  asio::io_context io;
  asio::strand<asio::io_context::executor_type> control;  // the acceptor, signals and stop
  asio::thread_pool workers{kWorkerThreads};
  tcp::acceptor acceptor;
  asio::signal_set signals;
  std::atomic<bool> stopping{false};
  http_files::WebFiles web_files{config.web_root};  // safe from any thread
  std::mutex mutex;  // guards what follows: touched from every connection's strand
  std::uint64_t next_connection = 0;
  std::map<std::uint64_t, std::weak_ptr<beast::tcp_stream>> http_streams;
  std::map<std::uint64_t, std::weak_ptr<WsSession>> sockets;
  std::map<std::uint64_t, std::int64_t> logins;  // connection -> the session it was opened with
  std::map<std::string, int> per_address;
};

HttpServer::HttpServer(const Config& config, Handlers handlers, ConnectionLimits limits)
    : impl_(std::make_unique<Impl>(config, std::move(handlers), limits)) {
  // spdlog creates its registry on first use. Do it here, before the network threads log: the
  // creation happens inside the (uninstrumented) shared library, and ThreadSanitizer reports two
  // threads' first logs as a race.
  spdlog::default_logger_raw();
  if (impl_->handlers.accounts) {
    impl_->handlers.accounts->on_session_ended(
        [impl = impl_.get()](std::int64_t login, const std::string& why) {
          impl->end_session(login, why);
          if (impl->handlers.session_ended) impl->handlers.session_ended(login, why);
        });
  }
  impl_->handlers.connection_timers->set_handler(
      [impl = impl_.get()](const TimerId& id) { impl->wake(id); });
}

HttpServer::~HttpServer() {
  if (impl_->handlers.accounts) impl_->handlers.accounts->on_session_ended({});
  impl_->handlers.connection_timers->set_handler({});  // returns once no call is under way
}

unsigned short HttpServer::port() const {
  return impl_->acceptor.local_endpoint().port();
}

void HttpServer::run() {
  // Every file read and compressed once before the first visitor, not on a network thread.
  impl_->web_files.version();
  asio::co_spawn(impl_->control, impl_->stop_on_signal(), asio::detached);
  asio::co_spawn(impl_->control, impl_->accept_loop(), asio::detached);
  std::vector<std::thread> threads;
  for (int i = 1; i < impl_->config.threads; ++i) threads.emplace_back([this] { impl_->io.run(); });
  impl_->io.run();
  for (auto& t : threads) t.join();
  impl_->workers.join();
}

void HttpServer::stop() {
  asio::post(impl_->control, [this] { impl_->begin_stop(); });
}

void HttpServer::tell_all(const protocol::ServerMessage& message) {
  impl_->tell_all(message);
}

void HttpServer::close_websockets_for_later() {
  impl_->close_websockets_for_later();
}

void HttpServer::end_session(std::int64_t session, const std::string& why) {
  impl_->end_session(session, why);
}

}  // namespace tengen
