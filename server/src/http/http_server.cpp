#include "http/http_server.h"

#include <spdlog/spdlog.h>

#include <boost/asio.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <filesystem>
#include <set>

namespace tengen {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kReadTimeout = std::chrono::seconds(30);
constexpr std::size_t kMaxRequestBody = std::size_t{16} * 1024;
constexpr auto kNothrow = asio::as_tuple(asio::use_awaitable);
constexpr int kWorkerThreads = 2;  // password hashing and other slow API work

std::string_view mime_type(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".wav") return "audio/wav";
  if (ext == ".mp3") return "audio/mpeg";
  if (ext == ".woff2") return "font/woff2";
  return "application/octet-stream";
}

// Maps a request target to a file under root, or nullopt if it tries to leave the root.
std::optional<std::filesystem::path> resolve(const std::string& root, std::string_view target) {
  target = target.substr(0, target.find_first_of("?#"));
  if (target.empty() || target[0] != '/') return std::nullopt;
  std::filesystem::path relative;
  std::size_t start = 1;
  while (start <= target.size()) {
    const auto end = std::min(target.find('/', start), target.size());
    const auto segment = target.substr(start, end - start);
    if (segment == ".." || segment.find('\\') != std::string_view::npos ||
        segment.find('\0') != std::string_view::npos) {
      return std::nullopt;
    }
    if (!segment.empty() && segment != ".") relative /= std::string(segment);
    start = end + 1;
  }
  std::filesystem::path full = std::filesystem::path(root) / relative;
  if (target.back() == '/') full /= "index.html";
  return full;
}

}  // namespace

struct HttpServer::Impl {
  Impl(const Config& cfg, Handlers h)
      : config(cfg), handlers(std::move(h)), acceptor(io), signals(io, SIGINT, SIGTERM) {
    const tcp::endpoint endpoint(asio::ip::make_address(config.address), config.port);
    acceptor.open(endpoint.protocol());
    acceptor.set_option(asio::socket_base::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen(asio::socket_base::max_listen_connections);
  }

  static ApiRequest to_api_request(const http::request<http::string_body>& req, const tcp::endpoint& peer) {
    ApiRequest r;
    r.method = std::string(req.method_string());
    r.target = std::string(req.target());
    r.body = req.body();
    r.user_agent = std::string(req[http::field::user_agent]);
    r.address = peer.address().to_string();
    const std::string_view auth = req[http::field::authorization];
    if (auth.starts_with("Bearer ")) {
      r.token = std::string(auth.substr(7));
    } else {
      r.token = token_from_cookie(req[http::field::cookie]);
    }
    return r;
  }

  // A coroutine taking its data as parameters (copied into its frame), not a capturing lambda:
  // co_spawn moves the function object, and a lambda coroutine's captures would dangle.
  static asio::awaitable<ApiResponse> call_api(Api* api, ApiRequest request) {
    co_return api->handle(request).value_or(ApiResponse{404, "", {}});
  }

  static http::message_generator api_response(const ApiResponse& a, unsigned version, bool keep_alive) {
    http::response<http::string_body> res{static_cast<http::status>(a.status), version};
    res.set(http::field::server, "tengen");
    res.set(http::field::cache_control, "no-store");
    if (!a.body.empty()) res.set(http::field::content_type, "application/json");
    for (const auto& cookie : a.set_cookies) res.insert(http::field::set_cookie, cookie);
    res.keep_alive(keep_alive);
    res.body() = a.body;
    res.prepare_payload();
    return http::message_generator(std::move(res));
  }

  http::message_generator respond(const http::request<http::string_body>& req) {
    const auto plain = [&](http::status status, std::string body, std::string_view type) {
      http::response<http::string_body> res{status, req.version()};
      res.set(http::field::server, "tengen");
      res.set(http::field::content_type, type);
      res.set(http::field::cache_control, "no-store");
      res.keep_alive(req.keep_alive());
      res.body() = std::move(body);
      res.prepare_payload();
      return http::message_generator(std::move(res));
    };
    const std::string_view target = req.target();
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
      return plain(http::status::method_not_allowed, "{\"error\":\"method not allowed\"}",
                   "application/json");
    }
    if (target == "/healthz")
      return plain(http::status::ok, handlers.health_json(), "application/json");

    const auto path = resolve(config.web_root, target);
    if (!path) return plain(http::status::bad_request, "bad path\n", "text/plain");
    beast::error_code ec;
    http::file_body::value_type file;
    file.open(path->c_str(), beast::file_mode::scan, ec);
    if (ec) return plain(http::status::not_found, "not found\n", "text/plain");
    const auto size = file.size();
    if (req.method() == http::verb::head) {
      http::response<http::empty_body> res{http::status::ok, req.version()};
      res.set(http::field::content_type, mime_type(*path));
      res.content_length(size);
      res.keep_alive(req.keep_alive());
      return http::message_generator(std::move(res));
    }
    http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(file)),
                                        std::make_tuple(http::status::ok, req.version())};
    res.set(http::field::server, "tengen");
    res.set(http::field::content_type, mime_type(*path));
    res.content_length(size);
    res.keep_alive(req.keep_alive());
    return http::message_generator(std::move(res));
  }

  asio::awaitable<void> session(std::shared_ptr<beast::tcp_stream> stream) {
    live.insert(stream);
    beast::flat_buffer buffer;
    while (!stopping) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(kMaxRequestBody);
      stream->expires_after(kReadTimeout);
      auto [read_ec, read_bytes] = co_await http::async_read(*stream, buffer, parser, kNothrow);
      if (read_ec) break;
      auto request = parser.release();
      const bool keep_alive = request.keep_alive();
      std::optional<http::message_generator> response;
      if (handlers.api && request.target().starts_with("/api/")) {
        beast::error_code peer_ec;
        const auto peer = stream->socket().remote_endpoint(peer_ec);
        ApiRequest api_request = to_api_request(request, peer);
        ApiResponse result =
            co_await asio::co_spawn(workers, call_api(handlers.api, std::move(api_request)), asio::use_awaitable);
        response.emplace(api_response(result, request.version(), keep_alive));
      } else {
        response.emplace(respond(request));
      }
      auto [write_ec, written] = co_await beast::async_write(*stream, std::move(*response), kNothrow);
      if (write_ec || !keep_alive) break;
    }
    beast::error_code ignored;
    stream->socket().shutdown(tcp::socket::shutdown_send, ignored);
    live.erase(stream);
  }

  asio::awaitable<void> accept_loop() {
    while (!stopping) {
      auto [ec, socket] = co_await acceptor.async_accept(kNothrow);
      if (ec) {
        if (stopping || ec == asio::error::operation_aborted) break;
        spdlog::warn("accept failed: {}", ec.message());
        continue;
      }
      asio::co_spawn(io, session(std::make_shared<beast::tcp_stream>(std::move(socket))),
                     asio::detached);
    }
  }

  void begin_stop() {
    if (stopping) return;
    stopping = true;
    spdlog::info("shutting down: no new connections, closing {} open", live.size());
    beast::error_code ignored;
    acceptor.close(ignored);
    signals.cancel(ignored);
    for (const auto& stream : live) stream->socket().cancel(ignored);
  }

  Config config;
  Handlers handlers;
  asio::io_context io{1};
  asio::thread_pool workers{kWorkerThreads};
  tcp::acceptor acceptor;
  asio::signal_set signals;
  std::set<std::shared_ptr<beast::tcp_stream>> live;
  bool stopping = false;
};

HttpServer::HttpServer(const Config& config, Handlers handlers)
    : impl_(std::make_unique<Impl>(config, std::move(handlers))) {}

HttpServer::~HttpServer() = default;

unsigned short HttpServer::port() const {
  return impl_->acceptor.local_endpoint().port();
}

void HttpServer::run() {
  impl_->signals.async_wait([this](const boost::system::error_code& ec, int signal) {
    if (ec) return;
    spdlog::info("received signal {}", signal);
    impl_->begin_stop();
  });
  asio::co_spawn(impl_->io, impl_->accept_loop(), asio::detached);
  impl_->io.run();
  impl_->workers.join();
}

void HttpServer::stop() {
  asio::post(impl_->io, [this] { impl_->begin_stop(); });
}

}  // namespace tengen
