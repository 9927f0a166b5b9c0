#include "support/ws_client.h"

#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <functional>
#include <stdexcept>

namespace tengen::testing {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

asio::ip::tcp::endpoint loopback(int port) {
  return {asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)};
}

// Command ids must be unique per user across connections: the server remembers them.
std::atomic<int> instances{0};

}  // namespace

struct WsClient::Stream {
  asio::io_context io;
  websocket::stream<asio::ip::tcp::socket> ws{io};
  int pings = 0;
  std::string last_ping_payload;
};

WsClient::WsClient(int port, Options options) : WsClient(port, std::move(options), "") {}

WsClient::WsClient(int port, Options options, std::string forwarded_for)
    : stream_(std::make_unique<Stream>()), instance_(++instances) {
  auto& ws = stream_->ws;
  ws.next_layer().connect(loopback(port));
  // Beast writes a masked frame's header and payload separately: with Nagle's algorithm the second
  // write waits for the server's delayed ACK (~40 ms a message). Browsers send at once too.
  ws.next_layer().set_option(asio::ip::tcp::no_delay(true));
  ws.set_option(
      websocket::stream_base::decorator([options, forwarded_for](websocket::request_type& req) {
        if (!options.token.empty())
          req.set(beast::http::field::authorization, "Bearer " + options.token);
        if (!options.origin.empty()) req.set(beast::http::field::origin, options.origin);
        if (!forwarded_for.empty()) req.set("X-Forwarded-For", forwarded_for);
      }));
  ws.handshake("127.0.0.1:" + std::to_string(port), options.target);
  ws.text(true);
  ws.control_callback([s = stream_.get()](websocket::frame_type kind, beast::string_view payload) {
    if (kind != websocket::frame_type::ping) return;
    ++s->pings;
    s->last_ping_payload = std::string(payload);
  });
}

WsClient::~WsClient() = default;

int WsClient::pings() const {
  return stream_->pings;
}
const std::string& WsClient::last_ping_payload() const {
  return stream_->last_ping_payload;
}

bool WsClient::answer_pings(int n, std::chrono::milliseconds deadline) {
  const int& pings = stream_->pings;
  return read_while([&] { return pings < n; }, deadline);
}

bool WsClient::read_while(const std::function<bool()>& go_on, std::chrono::milliseconds deadline) {
  auto& io = stream_->io;
  auto& ws = stream_->ws;
  beast::flat_buffer buffer;
  bool ended = false;
  ws.async_read(buffer, [&](boost::system::error_code, std::size_t) { ended = true; });
  io.restart();
  const auto until = std::chrono::steady_clock::now() + deadline;
  bool done = false;
  while (!ended && std::chrono::steady_clock::now() < until) {
    if (!go_on()) {
      done = true;
      break;
    }
    io.run_one_for(std::chrono::milliseconds(1));
  }
  const bool ok = done && !ended;
  if (!ended) {  // a cancelled WebSocket read is not resumable: end the connection
    boost::system::error_code ignored;
    ws.next_layer().close(ignored);
    io.restart();
    io.run();
  }
  return ok;
}

bool WsClient::raw_read_until_eof(std::chrono::milliseconds deadline) {
  auto& io = stream_->io;
  auto& socket = stream_->ws.next_layer();
  std::array<char, 4096> chunk{};
  bool eof = false;
  std::function<void()> next = [&] {
    socket.async_read_some(asio::buffer(chunk), [&](boost::system::error_code ec, std::size_t) {
      if (ec) {
        eof = true;
        return;
      }
      next();
    });
  };
  next();
  io.restart();
  io.run_for(deadline);
  if (!eof) {
    socket.cancel();
    io.restart();
    io.run();
  }
  return eof;
}

void WsClient::send_text(const std::string& text) {
  stream_->ws.write(asio::buffer(text));
}

void WsClient::send_binary(const std::string& bytes) {
  stream_->ws.binary(true);
  stream_->ws.write(asio::buffer(bytes));
  stream_->ws.text(true);
}

WsClient::json WsClient::command(json message) {
  if (!message.contains("cid"))
    message["cid"] = "k" + std::to_string(instance_) + "-" + std::to_string(++next_cid_);
  send_text(message.dump());
  const std::string cid =
      message["cid"].is_string() ? message["cid"].get<std::string>() : message["cid"].dump();
  return wait([&](const json& m) {
    return (m["type"] == "ack" || m["type"] == "error" || m["type"] == "pong") &&
           m.contains("cid") && m["cid"] == cid;
  });
}

WsClient::json WsClient::wait(const std::function<bool(const json&)>& match) {
  for (auto it = kept_.begin(); it != kept_.end(); ++it) {
    if (match(*it)) {
      json m = *it;
      kept_.erase(it);
      return m;
    }
  }
  for (;;) {
    json m = read();
    if (match(m)) return m;
    kept_.push_back(std::move(m));
  }
}

WsClient::json WsClient::wait_type(const std::string& type) {
  return wait([&](const json& m) { return m["type"] == type; });
}

WsClient::json WsClient::wait_event(std::int64_t game, std::uint64_t seq) {
  return wait([&](const json& m) {
    return m.contains("seq") && m["seq"] == seq && m.contains("game") && m["game"] == game &&
           m["type"] != "ack";
  });
}

WsClient::json WsClient::read() {
  auto& io = stream_->io;
  auto& ws = stream_->ws;
  beast::flat_buffer buffer;
  boost::system::error_code result = asio::error::timed_out;
  bool done = false;
  ws.async_read(buffer, [&](boost::system::error_code ec, std::size_t) {
    result = ec;
    done = true;
  });
  io.restart();
  io.run_for(read_timeout_);
  if (!done) {
    ws.next_layer().cancel();
    io.restart();
    io.run();
    std::string seen;
    for (const auto& m : kept_) seen += "\n  " + m.dump();
    throw std::runtime_error("no message from the server within " +
                             std::to_string(read_timeout_.count()) +
                             " s; received but not yet used:" + seen);
  }
  if (result) throw boost::system::system_error(result);
  return json::parse(beast::buffers_to_string(buffer.data()));
}

int WsClient::read_until_closed() {
  try {
    for (;;) read();
  } catch (const boost::system::system_error& e) {
    if (e.code() == websocket::error::closed) return stream_->ws.reason().code;
    return -1;
  }
}

std::string WsClient::close_reason() const {
  return std::string(stream_->ws.reason().reason.c_str());
}

void WsClient::close() {
  stream_->ws.close(websocket::close_code::normal);
}

std::string send_raw_and_wait_for_close(int port, const std::string& bytes,
                                        std::chrono::milliseconds deadline) {
  asio::io_context io;
  asio::ip::tcp::socket socket(io);
  socket.connect(loopback(port));
  asio::write(socket, asio::buffer(bytes));
  std::array<char, 256> chunk{};
  std::string outcome = "open";
  socket.async_read_some(asio::buffer(chunk), [&](boost::system::error_code ec, std::size_t) {
    outcome = ec == asio::error::eof ? "eof" : ec ? ec.message() : "data";
  });
  io.run_for(deadline);
  return outcome;
}

RawExchange exchange_raw(int port, const std::string& bytes, std::chrono::milliseconds deadline,
                         bool half_close) {
  asio::io_context io;
  asio::ip::tcp::socket socket(io);
  socket.connect(loopback(port));
  asio::write(socket, asio::buffer(bytes));
  if (half_close) socket.shutdown(asio::ip::tcp::socket::shutdown_send);
  RawExchange result;
  std::array<char, 4096> chunk{};
  std::function<void(boost::system::error_code, std::size_t)> on_read =
      [&](boost::system::error_code ec, std::size_t n) {
        result.received.append(chunk.data(), n);
        if (ec) {
          result.closed = true;
          return;
        }
        socket.async_read_some(asio::buffer(chunk), on_read);
      };
  socket.async_read_some(asio::buffer(chunk), on_read);
  io.run_for(deadline);
  return result;
}

}  // namespace tengen::testing
