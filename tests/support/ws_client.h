#pragma once

// A blocking WebSocket client for tests. Every message received is kept, so a test can wait for
// the one it expects while broadcasts arrive in between. Reads run on the client's own
// io_context with a deadline, so a message that never comes fails the test instead of hanging it.
#include <array>
#include <atomic>
#include <chrono>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace tengen::testing {

struct WsClientOptions {
  std::string token;   // sent as a bearer token
  std::string origin;  // sent as Origin if not empty
  std::string target = "/ws/v1";
};

class WsClient {
 public:
  using json = nlohmann::json;
  using Options = WsClientOptions;

  explicit WsClient(int port, Options options = Options()) : ws_(io_) {
    namespace beast = boost::beast;
    boost::asio::ip::tcp::endpoint endpoint(boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port));
    ws_.next_layer().connect(endpoint);
    ws_.set_option(beast::websocket::stream_base::decorator([options](beast::websocket::request_type& req) {
      if (!options.token.empty()) req.set(beast::http::field::authorization, "Bearer " + options.token);
      if (!options.origin.empty()) req.set(beast::http::field::origin, options.origin);
    }));
    ws_.handshake("127.0.0.1:" + std::to_string(port), options.target);
    ws_.text(true);
    ws_.control_callback([this](beast::websocket::frame_type kind, beast::string_view payload) {
      if (kind != beast::websocket::frame_type::ping) return;
      ++pings_;
      last_ping_payload_ = std::string(payload);
    });
  }

  // Pings the server sent that this client answered (Beast answers them while reading).
  int pings() const { return pings_; }
  const std::string& last_ping_payload() const { return last_ping_payload_; }

  // Keeps reading (and so answering pings) until the server has sent n pings, then drops the
  // connection. False if the connection ended or the deadline passed first.
  bool answer_pings(int n, std::chrono::milliseconds deadline) {
    boost::beast::flat_buffer buffer;
    bool ended = false;
    ws_.async_read(buffer, [&](boost::system::error_code, std::size_t) { ended = true; });
    io_.restart();
    const auto until = std::chrono::steady_clock::now() + deadline;
    while (pings_ < n && !ended && std::chrono::steady_clock::now() < until) {
      io_.run_one_until(until);
    }
    const bool ok = pings_ >= n && !ended;
    if (!ended) {  // a cancelled WebSocket read is not resumable: end the connection
      boost::system::error_code ignored;
      ws_.next_layer().close(ignored);
      io_.restart();
      io_.run();
    }
    return ok;
  }

  // Reads the raw TCP stream, bypassing WebSocket (so pings go unanswered), until the server
  // closes it. Returns false if it is still open after the deadline.
  bool raw_read_until_eof(std::chrono::milliseconds deadline) {
    std::array<char, 4096> chunk{};
    bool eof = false;
    std::function<void()> next = [&] {
      ws_.next_layer().async_read_some(boost::asio::buffer(chunk), [&](boost::system::error_code ec, std::size_t) {
        if (ec) {
          eof = true;
          return;
        }
        next();
      });
    };
    next();
    io_.restart();
    io_.run_for(deadline);
    if (!eof) {
      ws_.next_layer().cancel();
      io_.restart();
      io_.run();
    }
    return eof;
  }

  void send_text(const std::string& text) { ws_.write(boost::asio::buffer(text)); }

  // Sends a command with a fresh cid (unless it has one) and returns the ack or error for it.
  json command(json message) {
    if (!message.contains("cid")) message["cid"] = "k" + std::to_string(instance_) + "-" + std::to_string(++next_cid_);
    send_text(message.dump());
    const std::string cid = message["cid"].is_string() ? message["cid"].get<std::string>() : message["cid"].dump();
    return wait([&](const json& m) {
      return (m["type"] == "ack" || m["type"] == "error" || m["type"] == "pong") && m.contains("cid") && m["cid"] == cid;
    });
  }

  // The first message (kept or still to come) that matches; it is removed from the kept ones.
  json wait(const std::function<bool(const json&)>& match) {
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
  json wait_type(const std::string& type) {
    return wait([&](const json& m) { return m["type"] == type; });
  }
  json wait_event(std::int64_t game, std::uint64_t seq) {
    return wait([&](const json& m) { return m.contains("seq") && m["seq"] == seq && m.contains("game") && m["game"] == game && m["type"] != "ack"; });
  }

  // How long read() waits for a message before failing the test (10 s unless set).
  void set_read_timeout(std::chrono::seconds timeout) { read_timeout_ = timeout; }

  // Drops kept messages, for tests that check what arrives next.
  void forget() { kept_.clear(); }
  std::deque<json>& kept() { return kept_; }

  json read() {
    boost::beast::flat_buffer buffer;
    boost::system::error_code result = boost::asio::error::timed_out;
    bool done = false;
    ws_.async_read(buffer, [&](boost::system::error_code ec, std::size_t) {
      result = ec;
      done = true;
    });
    io_.restart();
    io_.run_for(read_timeout_);
    if (!done) {
      ws_.next_layer().cancel();
      io_.restart();
      io_.run();
      std::string seen;
      for (const auto& m : kept_) seen += "\n  " + m.dump();
      throw std::runtime_error("no message from the server within " + std::to_string(read_timeout_.count()) +
                               " s; received but not yet used:" + seen);
    }
    if (result) throw boost::system::system_error(result);
    return json::parse(boost::beast::buffers_to_string(buffer.data()));
  }

  // Reads until the server closes; returns the close code (or -1 if the connection just dropped).
  int read_until_closed() {
    try {
      for (;;) read();
    } catch (const boost::system::system_error& e) {
      if (e.code() == boost::beast::websocket::error::closed) return ws_.reason().code;
      return -1;
    }
  }

  void close() { ws_.close(boost::beast::websocket::close_code::normal); }
  boost::beast::websocket::stream<boost::asio::ip::tcp::socket>& stream() { return ws_; }

 private:
  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::asio::ip::tcp::socket> ws_;
  std::deque<json> kept_;
  // Command ids must be unique per user across connections: the server remembers them.
  inline static std::atomic<int> instances_{0};
  int instance_ = ++instances_;
  int next_cid_ = 0;
  std::chrono::seconds read_timeout_{10};
  int pings_ = 0;
  std::string last_ping_payload_;
};

}  // namespace tengen::testing
