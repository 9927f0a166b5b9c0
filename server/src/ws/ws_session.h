#pragma once

// Only http_server.cpp includes this: it brings in Asio.
#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <functional>

#include "accounts/rate_limiter.h"
#include "clock.h"
#include "metrics.h"
#include "rooms/timers.h"
#include "ws/connection.h"
#include "ws/frames.h"
#include "ws/limits.h"

namespace tengen {

// One WebSocket client once the handshake is done (http_server.cpp answers it): coroutines on
// the connection's strand — a reader, a writer that sends whatever is queued in one write, and
// the close handshake's guard. Anything from another thread reaches it by post. The framing is
// ws/frames.h.
class WsSession final : public Connection, public std::enable_shared_from_this<WsSession> {
 public:
  using Socket = boost::asio::ip::tcp::socket;

  // `received`: bytes that came after the upgrade request, already frames.
  WsSession(Socket socket, std::string_view received, std::uint64_t id,
            std::optional<store::UserRecord> user, Dispatcher& dispatcher, Clock& clock,
            Timers& timers, const ConnectionLimits& limits,
            std::function<void(std::uint64_t)> on_end, Metrics* metrics);

  // Reads until the client leaves or the session is closed.
  boost::asio::awaitable<void> run();

  void send(std::shared_ptr<const std::string> message) override;
  void send_all(std::vector<std::shared_ptr<const std::string>> messages) override;
  std::uint64_t id() const override { return id_; }
  const std::optional<store::UserRecord>& user() const override { return user_; }
  std::optional<std::int64_t> rtt_ms() const override {
    const auto rtt = rtt_ms_.load();
    return rtt < 0 ? std::nullopt : std::optional<std::int64_t>(rtt);
  }

  // Sends a close frame with the code (1001 going away on shutdown) after what is queued; safe
  // from any thread.
  void close(ws::CloseCode code, std::string reason);
  // Its ConnectionTick came (from the timers' thread): the next ping, or the idle timeout.
  void wake();

 private:
  using TimePoint = boost::asio::steady_timer::time_point;  // the close handshake's, Asio's

  // False when reading must stop.
  boost::asio::awaitable<void> send_what_is_owed();  // after a half-close
  bool on_event(const ws::FrameReader::Event& event);
  void handle(std::string_view text);
  void reply_error(std::optional<std::string> cid, protocol::ErrorCode code, std::string message);
  void enqueue(std::shared_ptr<const std::string> message);
  void write();  // wakes the writer, unless a write is in flight (it looks again after)
  boost::asio::awaitable<void> write_loop();
  bool take_output();  // the next write's bytes into out_; false if there are none
  // After a write: false when the writer is done (an error, the close frame, a half-close).
  bool written(boost::system::error_code ec);
  void begin_close(ws::CloseCode code, std::string_view reason);
  void drop(std::string_view why);  // at once, without a close frame
  void close_socket();
  void arm_close(TimePoint at);
  boost::asio::awaitable<void> close_guard();  // the close handshake's time limit
  void tick();                                 // pings and the idle timeout, on the injected clock
  std::int64_t steady_ms() const;

  Socket socket_;
  std::uint64_t id_;
  std::optional<store::UserRecord> user_;
  Dispatcher& dispatcher_;
  Clock& clock_;
  Timers& timers_;
  ConnectionLimits limits_;
  std::function<void(std::uint64_t)> on_end_;
  Metrics* metrics_;
  TokenBucket rate_;     // commands from this connection
  TokenBucket strikes_;  // refused commands allowed before the client is dropped
  ws::FrameReader reader_;
  std::deque<std::shared_ptr<const std::string>> queue_;  // messages not yet in a write
  std::size_t queued_bytes_ = 0;  // their payloads, and those of the write in flight
  std::string control_;           // pings and pongs to go with the next write
  std::string close_frame_;       // the close frame, once closing: the last thing written
  std::string out_;               // the write in flight
  std::size_t out_payload_ = 0;
  bool writing_ = false;
  bool close_in_flight_ = false;
  bool close_received_ = false;  // the client's close frame came: ours ends the connection
  bool open_ = false;
  bool closing_ = false;  // no more messages in or out: a close frame is on its way, or dropped
  bool close_when_written_ = false;  // half-closed by the client: close once the queue is out
  // Never expires: write() and close_socket() cancel its wait to wake the writer.
  boost::asio::steady_timer writer_wake_;
  // The close handshake's limit runs on Asio's clock, like the HTTP handshake's: a transport
  // guard that must end a shutdown even when tests hold the injected clock still.
  boost::asio::steady_timer close_timer_;
  Steady last_received_{};  // on the injected clock
  std::atomic<std::int64_t> rtt_ms_{-1};
};

}  // namespace tengen
