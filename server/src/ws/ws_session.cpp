#include "ws/ws_session.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <boost/asio/as_tuple.hpp>
#include <charconv>

namespace tengen {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;

namespace {

constexpr auto kNothrow = asio::as_tuple(asio::use_awaitable);

}  // namespace

WsSession::WsSession(beast::tcp_stream&& stream, std::uint64_t id, std::optional<store::UserRecord> user,
                     Dispatcher& dispatcher, Clock& clock, const ConnectionLimits& limits,
                     std::function<void(std::uint64_t)> on_end, Metrics* metrics)
    : ws_(std::move(stream)),
      id_(id),
      user_(std::move(user)),
      dispatcher_(dispatcher),
      clock_(clock),
      limits_(limits),
      on_end_(std::move(on_end)),
      metrics_(metrics),
      rate_(limits.message_burst, std::chrono::milliseconds(1000 / std::max(1, limits.messages_per_second))),
      wake_writer_(ws_.get_executor()) {}

asio::awaitable<void> WsSession::run(http::request<http::string_body> upgrade) {
  auto self = shared_from_this();
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = limits_.handshake_timeout;
  timeouts.idle_timeout = limits_.idle_timeout;
  timeouts.keep_alive_pings = true;
  beast::get_lowest_layer(ws_).expires_never();
  ws_.set_option(timeouts);
  ws_.read_message_max(limits_.max_message_bytes);
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "tengen"); }));
  auto [accept_ec] = co_await ws_.async_accept(upgrade, kNothrow);
  if (accept_ec) {
    on_end_(id_);
    co_return;
  }
  open_ = true;
  ws_.text(true);
  // Our own pings carry the time they left ("t<ms>"); their pongs give the round trip that lag
  // compensation credits. Beast's keep-alive pings carry no such payload and are ignored here.
  ws_.control_callback([this](websocket::frame_type kind, beast::string_view payload) {
    if (kind != websocket::frame_type::pong || payload.size() < 2 || payload[0] != 't') return;
    std::int64_t sent = 0;
    const auto [end, ec] = std::from_chars(payload.data() + 1, payload.data() + payload.size(), sent);
    if (ec != std::errc() || end != payload.data() + payload.size()) return;
    rtt_ms_ = std::max<std::int64_t>(0, steady_ms() - sent);
  });
  next_ping_ = asio::steady_timer::clock_type::now() + limits_.rtt_ping_interval;
  asio::co_spawn(ws_.get_executor(), write_loop(), asio::detached);
  protocol::Welcome welcome{{}, TENGEN_VERSION};
  if (user_) welcome.user = protocol::UserRef{user_->id, user_->username};
  Connection::send(welcome);
  dispatcher_.connected(self);

  beast::flat_buffer buffer;
  for (;;) {
    auto [ec, bytes] = co_await ws_.async_read(buffer, kNothrow);
    if (ec) {
      if (ec == websocket::error::message_too_big) spdlog::info("connection {}: frame over the size limit", id_);
      break;
    }
    if (!ws_.got_text()) {
      reply_error({}, protocol::ErrorCode::BadJson, "binary frames are not accepted: send JSON text");
    } else {
      handle(std::string_view(static_cast<const char*>(buffer.cdata().data()), bytes));
    }
    buffer.consume(bytes);
    if (closing_) break;
  }
  open_ = false;
  wake_writer_.cancel();
  dispatcher_.disconnected(self);
  on_end_(id_);
}

void WsSession::handle(std::string_view text) {
  if (!rate_.try_take("", clock_.steady_now())) {
    if (++strikes_ >= limits_.abuse_strikes) {
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
  dispatcher_.received(shared_from_this(), std::move(command));
}

void WsSession::reply_error(std::optional<std::string> cid, protocol::ErrorCode code, std::string message) {
  dispatcher_.answer(shared_from_this(), protocol::Error{std::move(cid), code, std::move(message), {}});
}

void WsSession::send(std::shared_ptr<const std::string> message) {
  asio::post(ws_.get_executor(), [self = shared_from_this(), message = std::move(message)]() mutable {
    self->enqueue(std::move(message));
  });
}

void WsSession::send_all(std::vector<std::shared_ptr<const std::string>> messages) {
  asio::post(ws_.get_executor(), [self = shared_from_this(), messages = std::move(messages)]() mutable {
    for (auto& m : messages) self->enqueue(std::move(m));
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
  if (writer_asleep_) {  // a writer busy writing takes it from the queue by itself
    writer_asleep_ = false;
    wake_writer_.cancel();
  }
}

std::int64_t WsSession::steady_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(clock_.steady_now().time_since_epoch()).count();
}

asio::awaitable<void> WsSession::write_loop() {
  auto self = shared_from_this();
  while (open_ && !closing_) {
    if (queue_.empty()) {
      // Sleep until a message is queued (the timer is cancelled) or the next ping is due.
      wake_writer_.expires_at(next_ping_);
      writer_asleep_ = true;
      auto [timer_ec] = co_await wake_writer_.async_wait(kNothrow);
      writer_asleep_ = false;
      if (!timer_ec && open_ && !closing_) {
        next_ping_ = asio::steady_timer::clock_type::now() + limits_.rtt_ping_interval;
        const std::string payload = "t" + std::to_string(steady_ms());
        auto [ping_ec] = co_await ws_.async_ping(websocket::ping_data(payload.c_str()), kNothrow);
        if (ping_ec) break;
      }
      continue;
    }
    // Several messages waiting (a command's ack and the event it caused, say): corked, they
    // leave in one TCP segment instead of one each. On loopback and on a LAN most of the cost
    // of a small message is its segment's trip through the network stack, not the write.
    if (!corked_ && queue_.size() > 1) corked_ = set_cork(true);
    const auto message = queue_.front();
    auto [ec, written] = co_await ws_.async_write(asio::buffer(*message), kNothrow);
    if (ec) break;
    queue_.pop_front();
    queued_bytes_ -= message->size();
    if (corked_ && queue_.empty()) corked_ = !set_cork(false);
  }
}

bool WsSession::set_cork(bool on) {
  const int value = on ? 1 : 0;
  return setsockopt(beast::get_lowest_layer(ws_).socket().native_handle(), IPPROTO_TCP, TCP_CORK, &value,
                    sizeof value) == 0;
}

void WsSession::drop(std::string_view why) {
  spdlog::info("connection {} dropped: {}", id_, why);
  if (metrics_) ++metrics_->ws_dropped_total;
  closing_ = true;
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  beast::get_lowest_layer(ws_).socket().close(ignored);
}

void WsSession::close(websocket::close_code code) {
  asio::post(ws_.get_executor(), [self = shared_from_this(), code] {
    if (!self->open_ || self->closing_) return;
    self->closing_ = true;
    self->wake_writer_.cancel();
    self->ws_.async_close(code, [self](beast::error_code) {});
  });
}

}  // namespace tengen
