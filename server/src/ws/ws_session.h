#pragma once

// Only http_server.cpp includes this: it brings in Beast.
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <atomic>
#include <deque>
#include <functional>

#include "accounts/rate_limiter.h"
#include "clock.h"
#include "metrics.h"
#include "ws/connection.h"
#include "ws/limits.h"

namespace tengen {

// One WebSocket client: a reader and a writer coroutine on the connection's strand, one write in
// flight, a byte-capped queue behind it. Anything from another thread reaches it by post.
class WsSession final : public Connection, public std::enable_shared_from_this<WsSession> {
 public:
  using Stream = boost::beast::websocket::stream<boost::beast::tcp_stream>;

  WsSession(boost::beast::tcp_stream&& stream, std::uint64_t id, std::optional<store::UserRecord> user,
            Dispatcher& dispatcher, Clock& clock, const ConnectionLimits& limits,
            std::function<void(std::uint64_t)> on_end, Metrics* metrics);

  // Completes the handshake, then reads until the client leaves or the session is closed.
  boost::asio::awaitable<void> run(boost::beast::http::request<boost::beast::http::string_body> upgrade);

  void send(std::shared_ptr<const std::string> message) override;
  void send_all(std::vector<std::shared_ptr<const std::string>> messages) override;
  std::uint64_t id() const override { return id_; }
  const std::optional<store::UserRecord>& user() const override { return user_; }
  std::optional<std::int64_t> rtt_ms() const override {
    const auto rtt = rtt_ms_.load();
    return rtt < 0 ? std::nullopt : std::optional<std::int64_t>(rtt);
  }

  // Sends a close frame with the code (1001 going away on shutdown); safe from any thread.
  void close(boost::beast::websocket::close_code code);

 private:
  boost::asio::awaitable<void> write_loop();
  void handle(std::string_view text);
  void reply_error(std::optional<std::string> cid, protocol::ErrorCode code, std::string message);
  void drop(std::string_view why);
  void enqueue(std::shared_ptr<const std::string> message);
  bool set_cork(bool on);  // TCP_CORK; true if it took
  std::int64_t steady_ms() const;

  Stream ws_;
  std::uint64_t id_;
  std::optional<store::UserRecord> user_;
  Dispatcher& dispatcher_;
  Clock& clock_;
  ConnectionLimits limits_;
  std::function<void(std::uint64_t)> on_end_;
  Metrics* metrics_;
  RateLimiter rate_;
  int strikes_ = 0;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::size_t queued_bytes_ = 0;
  boost::asio::steady_timer wake_writer_;
  bool writer_asleep_ = false;  // waiting on wake_writer_: a queued message must wake it
  bool corked_ = false;         // TCP_CORK set while a batch of messages is written
  bool open_ = false;
  bool closing_ = false;
  std::atomic<std::int64_t> rtt_ms_{-1};
  boost::asio::steady_timer::time_point next_ping_{};
};

}  // namespace tengen
