#include "ws/ws_session.h"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <charconv>
#include <cstring>

namespace tengen {
namespace asio = boost::asio;

namespace {

constexpr auto kNothrow = asio::as_tuple(asio::use_awaitable);
// A write buffer grown past this by a large message (a long game's snapshot) is let go after it.
constexpr std::size_t kKeptWriteBuffer = 64 * 1024;
// How long a close frame waits for the client's answer before the socket is closed anyway.
constexpr std::chrono::milliseconds kCloseGrace{5'000};

}  // namespace

WsSession::WsSession(Socket socket, std::string_view received, std::uint64_t id,
                     std::optional<store::UserRecord> user, Dispatcher& dispatcher, Clock& clock,
                     Timers& timers, const ConnectionLimits& limits,
                     std::function<void(std::uint64_t)> on_end, Metrics* metrics)
    : socket_(std::move(socket)),
      id_(id),
      user_(std::move(user)),
      dispatcher_(dispatcher),
      clock_(clock),
      timers_(timers),
      limits_(limits),
      on_end_(std::move(on_end)),
      metrics_(metrics),
      rate_(limits.message_burst,
            std::chrono::milliseconds(1000 / std::max(1, limits.messages_per_second)),
            clock.steady_now()),
      strikes_(limits.abuse_strikes, limits.abuse_strike_refill, clock.steady_now()),
      reader_(limits.max_message_bytes),
      writer_wake_(socket_.get_executor(), asio::steady_timer::time_point::max()),
      close_timer_(socket_.get_executor()) {
  if (!received.empty()) {
    const auto room = reader_.space(received.size());
    std::memcpy(room.data(), received.data(), received.size());
    reader_.commit(received.size());
  }
}

asio::awaitable<void> WsSession::run() {
  auto self = shared_from_this();
  asio::co_spawn(socket_.get_executor(), write_loop(), asio::detached);
  open_ = true;
  last_received_ = clock_.steady_now();
  tick();  // the first ping: its pong gives the round trip at once
  protocol::Welcome welcome{{}, TENGEN_VERSION};
  if (user_) welcome.user = protocol::UserRef{user_->id, user_->username};
  Connection::send(welcome);
  dispatcher_.connected(self);

  bool reading = true;
  while (reading) {
    while (auto event = reader_.next()) {
      if (!on_event(*event)) {
        reading = false;
        break;
      }
    }
    if (!reading || !socket_.is_open()) break;
    const auto room = reader_.space();
    auto [ec, bytes] =
        co_await socket_.async_read_some(asio::buffer(room.data(), room.size()), kNothrow);
    if (ec == asio::error::eof && !closing_) {
      co_await send_what_is_owed();
      break;
    }
    if (ec) break;
    // After a broken frame nothing more is read: what comes is dropped, not buffered.
    if (!reader_.failed()) reader_.commit(bytes);
    last_received_ = clock_.steady_now();
  }
  open_ = false;
  closing_ = true;
  if (!close_when_written_) close_socket();
  dispatcher_.disconnected(self);
  on_end_(id_);
}

// The client closed its sending side (a TCP half-close) after its last commands: their replies
// are still on their way through the journal. They go out, then the connection closes, instead
// of a move applied and never acknowledged.
asio::awaitable<void> WsSession::send_what_is_owed() {
  asio::steady_timer owed(socket_.get_executor(), asio::steady_timer::time_point::max());
  dispatcher_.after_replies([self = shared_from_this(), &owed] {
    asio::post(self->socket_.get_executor(), [&owed] { owed.cancel(); });
  });
  co_await owed.async_wait(kNothrow);  // cancelled once every earlier reply has been enqueued
  closing_ = true;                     // nothing more is taken in
  // written() closes the socket once the queue is out.
  close_when_written_ = writing_ || !queue_.empty();
}

bool WsSession::on_event(const ws::FrameReader::Event& event) {
  using Kind = ws::FrameReader::Event::Kind;
  switch (event.kind) {
    case Kind::Text:
      if (!closing_) handle(event.payload);
      return socket_.is_open();
    case Kind::Binary:
      if (!closing_)
        reply_error({}, protocol::ErrorCode::BadJson,
                    "binary frames are not accepted: send JSON text");
      return true;
    case Kind::Ping:
      if (closing_) return true;  // nothing may follow our close frame
      ws::append_frame(control_, ws::Opcode::Pong, event.payload);
      write();
      return true;
    case Kind::Pong: {
      // Our pings carry the time they left ("t<ms>"): the pong gives the round trip that lag
      // compensation credits.
      const auto payload = event.payload;
      if (payload.size() < 2 || payload[0] != 't') return true;
      std::int64_t sent = 0;
      const auto [end, ec] =
          std::from_chars(payload.data() + 1, payload.data() + payload.size(), sent);
      if (ec == std::errc() && end == payload.data() + payload.size()) {
        rtt_ms_ = std::max<std::int64_t>(0, steady_ms() - sent);
        if (metrics_) ++metrics_->ws_pongs_total;
      }
      return true;
    }
    case Kind::Close:
      close_received_ = true;
      if (closing_) {  // the answer to ours: done
        close_socket();
        return false;
      }
      // Echo the client's code (none if it gave none); the socket closes once ours is written.
      closing_ = true;
      close_frame_.clear();
      ws::append_frame(close_frame_, ws::Opcode::Close,
                       event.code == 1005
                           ? std::string{}
                           : ws::close_payload(static_cast<ws::CloseCode>(event.code), {}));
      arm_close(asio::steady_timer::clock_type::now() + kCloseGrace);
      write();
      return true;
    case Kind::Failed:
      spdlog::info("connection {}: {}", id_, event.why);
      if (metrics_) ++metrics_->ws_errors_total;
      begin_close(static_cast<ws::CloseCode>(event.code), event.why);
      return true;  // reads on until the client answers or leaves
  }
  return true;
}

void WsSession::handle(std::string_view text) {
  if (!rate_.try_take(clock_.steady_now())) {
    if (!strikes_.try_take(clock_.steady_now())) {
      drop("kept sending far over the rate limit");
      return;
    }
    // Which command was refused, if it can be read: the client may send it again later.
    const auto refused = protocol::decode_client(text);
    std::optional<std::string> cid;
    if (const auto* command = std::get_if<protocol::ClientEnvelope>(&refused)) cid = command->cid;
    reply_error(std::move(cid), protocol::ErrorCode::RateLimited,
                "too many messages: at most " + std::to_string(limits_.messages_per_second) +
                    " a second; this one was not applied");
    return;
  }
  auto decoded = protocol::decode_client(text);
  if (auto* error = std::get_if<protocol::Error>(&decoded)) {
    if (metrics_) ++metrics_->ws_errors_total;
    dispatcher_.answer(shared_from_this(), *error);
    return;
  }
  auto& command = std::get<protocol::ClientEnvelope>(decoded);
  if (const auto* ping = std::get_if<protocol::Ping>(&command.message)) {
    dispatcher_.answer(shared_from_this(), protocol::Pong{command.cid, ping->t});
    return;
  }
  // The dispatcher answers every command itself, a failure too (the database away: the lobby, a
  // game's actor).
  dispatcher_.received(shared_from_this(), std::move(command));
}

void WsSession::reply_error(std::optional<std::string> cid, protocol::ErrorCode code,
                            std::string message) {
  dispatcher_.answer(shared_from_this(),
                     protocol::Error{std::move(cid), code, std::move(message), {}});
}

void WsSession::send(std::shared_ptr<const std::string> message) {
  asio::post(socket_.get_executor(),
             [self = shared_from_this(), message = std::move(message)]() mutable {
               self->enqueue(std::move(message));
               self->write();
             });
}

void WsSession::send_all(std::vector<std::shared_ptr<const std::string>> messages) {
  asio::post(socket_.get_executor(),
             [self = shared_from_this(), messages = std::move(messages)]() mutable {
               for (auto& m : messages) self->enqueue(std::move(m));
               self->write();
             });
}

// On the connection's strand.
void WsSession::enqueue(std::shared_ptr<const std::string> message) {
  if (!open_ || closing_) return;
  if (queued_bytes_ + message->size() > limits_.max_queued_bytes) {
    drop("too slow to read its messages");
    return;
  }
  queued_bytes_ += message->size();
  queue_.push_back(std::move(message));
}

void WsSession::write() {
  if (!writing_) writer_wake_.cancel();  // the writer waits for this (or is about to look)
}

// The writer: whatever is queued when it looks goes out in one write; then it looks again, or
// waits for write() to wake it. Ends with the socket (or after the close frame).
asio::awaitable<void> WsSession::write_loop() {
  auto self = shared_from_this();
  while (socket_.is_open()) {
    if (!take_output()) {
      co_await writer_wake_.async_wait(kNothrow);  // "cancelled" by write() and close_socket()
      continue;
    }
    writing_ = true;
    auto [ec, bytes] = co_await asio::async_write(socket_, asio::buffer(out_), kNothrow);
    writing_ = false;
    if (!written(ec)) break;
  }
}

bool WsSession::take_output() {
  out_.clear();
  out_payload_ = 0;
  out_ += control_;
  control_.clear();
  for (const auto& message : queue_) {
    ws::append_frame(out_, ws::Opcode::Text, *message);
    out_payload_ += message->size();
  }
  queue_.clear();
  if (!close_frame_.empty()) {
    out_ += close_frame_;
    close_frame_.clear();
    close_in_flight_ = true;
  }
  return !out_.empty();
}

bool WsSession::written(boost::system::error_code ec) {
  queued_bytes_ -= out_payload_;
  if (out_.capacity() > kKeptWriteBuffer) std::string().swap(out_);
  if (ec) {
    close_socket();
    return false;
  }
  if (close_in_flight_) {
    close_in_flight_ = false;
    // Done if the client's close came, or if nothing reads any more: the client half-closed
    // (a shutdown that began while its owed replies were going out), and no answer can come.
    if (close_received_ || !open_) {
      close_socket();
    } else {  // the client answers with its own close frame, then leaves
      boost::system::error_code ignored;
      socket_.shutdown(Socket::shutdown_send, ignored);
    }
    return false;  // nothing is written after a close frame
  }
  if (close_when_written_ && queue_.empty() && control_.empty()) {
    close_socket();
    return false;
  }
  return true;
}

void WsSession::begin_close(ws::CloseCode code, std::string_view reason) {
  if (closing_ || !socket_.is_open()) return;
  closing_ = true;
  ws::append_frame(close_frame_, ws::Opcode::Close, ws::close_payload(code, reason));
  arm_close(asio::steady_timer::clock_type::now() +
            std::min<std::chrono::milliseconds>(kCloseGrace, limits_.handshake_timeout));
  write();
}

void WsSession::close(ws::CloseCode code, std::string reason) {
  asio::post(socket_.get_executor(), [self = shared_from_this(), code, reason = std::move(reason)] {
    if (self->open_) self->begin_close(code, reason);
  });
}

void WsSession::drop(std::string_view why) {
  spdlog::info("connection {} dropped: {}", id_, why);
  if (metrics_) ++metrics_->ws_dropped_total;
  closing_ = true;
  close_socket();
}

void WsSession::close_socket() {
  boost::system::error_code ignored;
  if (socket_.is_open()) {
    socket_.shutdown(Socket::shutdown_both, ignored);
    socket_.close(ignored);
  }
  close_timer_.cancel();
  writer_wake_.cancel();  // the writer sees the socket closed and ends
  timers_.arm(ConnectionTick{id_}, std::nullopt);
}

void WsSession::arm_close(TimePoint at) {
  close_timer_.expires_at(at);
  asio::co_spawn(socket_.get_executor(), close_guard(), asio::detached);
}

// The close handshake's time limit (armed once: closing_ is set first).
asio::awaitable<void> WsSession::close_guard() {
  auto self = shared_from_this();
  auto [ec] = co_await close_timer_.async_wait(kNothrow);
  if (!ec && socket_.is_open()) close_socket();
}

void WsSession::wake() {
  asio::post(socket_.get_executor(), [self = shared_from_this()] { self->tick(); });
}

// Pings go out every rtt_ping_interval, and at least twice per idle timeout: a client that
// answers nothing (not even pings) for a whole idle timeout is closed. Time is the injected
// clock's, and the next tick a ConnectionTick of the timers: tests move both by hand. A late or
// extra wake only sends a ping early.
void WsSession::tick() {
  if (!socket_.is_open() || closing_) return;
  const Steady now = clock_.steady_now();
  if (now - last_received_ >= limits_.idle_timeout) {
    spdlog::info("connection {}: nothing received for {} ms, closed", id_,
                 limits_.idle_timeout.count());
    close_socket();
    return;
  }
  // Not "t" + std::to_string(…): GCC 12 at -O3 warns of an impossible overlapping memcpy in
  // operator+(const char*, std::string&&) (-Wrestrict, GCC bug 105651).
  std::string payload = "t";
  payload += std::to_string(steady_ms());
  ws::append_frame(control_, ws::Opcode::Ping, payload);
  write();
  const auto every = std::max<std::chrono::milliseconds>(
      std::chrono::milliseconds(1),
      std::min<std::chrono::milliseconds>(limits_.rtt_ping_interval, limits_.idle_timeout / 2));
  timers_.arm(ConnectionTick{id_}, now + every);
}

std::int64_t WsSession::steady_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             clock_.steady_now().time_since_epoch())
      .count();
}

}  // namespace tengen
