#pragma once

// The load generator's WebSocket client, used alike for the players against tengen-server and
// for the connections of the echo baseline, so that both measurements pay the same client cost.
// The handshake goes through Beast's HTTP; then frames are read and written on the socket
// directly (RFC 6455, client side: writes masked, reads unmasked). The generator shares the
// machine with the server it measures: with Beast's websocket::stream it spent about as much CPU
// per move as the server did.
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "ws/frames.h"

namespace tengen::load {

class WsClient : public std::enable_shared_from_this<WsClient> {
 public:
  using Socket = boost::asio::ip::tcp::socket;

  explicit WsClient(boost::asio::io_context& io) : socket_(io) {}

  Socket& socket() { return socket_; }

  // The upgrade request, with a bearer token if not empty; throws unless answered 101.
  boost::asio::awaitable<void> handshake(const std::string& target, const std::string& token) {
    namespace http = boost::beast::http;
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::upgrade, "websocket");
    req.set(http::field::connection, "Upgrade");
    req.set(http::field::sec_websocket_key,
            "dGhlIHNhbXBsZSBub25jZQ==");  // the server only checks its form
    req.set(http::field::sec_websocket_version, "13");
    if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
    co_await http::async_write(socket_, req, boost::asio::use_awaitable);
    boost::beast::flat_buffer buffer;
    http::response_parser<http::empty_body> parser;
    parser.skip(true);  // a 101 has no body; what follows it is frames
    co_await http::async_read_header(socket_, buffer, parser, boost::asio::use_awaitable);
    if (parser.get().result() != http::status::switching_protocols) {
      throw std::runtime_error("upgrade refused: " + std::to_string(parser.get().result_int()));
    }
    // Frames the server sent right behind its answer.
    const auto* data = static_cast<const char*>(buffer.cdata().data());
    in_.assign(data, buffer.size());
    begin_ = 0;
    end_ = in_.size();
  }

  // The next text message (valid until the next call); pings are answered on the way. Throws
  // when the server closes or the connection ends.
  boost::asio::awaitable<std::string_view> read() {
    for (;;) {
      if (auto message = next_frame()) co_return *message;
      if (begin_ == end_) {
        begin_ = end_ = 0;
      } else if (in_.size() - end_ < kReadSize &&
                 begin_ > 0) {  // the unread part moves to the front
        std::memmove(in_.data(), in_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
      }
      if (in_.size() - end_ < kReadSize) in_.resize(end_ + 4 * kReadSize);
      boost::system::error_code ec;
      const std::size_t n = co_await socket_.async_read_some(
          boost::asio::buffer(in_.data() + end_, in_.size() - end_),
          boost::asio::redirect_error(boost::asio::use_awaitable, ec));
      if (ec) throw boost::system::system_error(ec);
      end_ += n;
    }
  }

  // Queues one text message; it leaves with whatever else is queued, in one write.
  void send(std::string_view text) {
    append_frame(pending_, 0x1, text);
    if (!writing_) write();
  }

  void close() {
    boost::system::error_code ignored;
    socket_.close(ignored);
  }

 private:
  // A whole text message from the buffer, or nullopt if more bytes are needed.
  std::optional<std::string_view> next_frame() {
    for (;;) {
      const std::size_t available = end_ - begin_;
      if (available < 2) return std::nullopt;
      const auto* b = reinterpret_cast<const unsigned char*>(in_.data() + begin_);
      const bool fin = (b[0] & 0x80) != 0;
      const int opcode = b[0] & 0x0F;
      std::size_t header = 2;
      std::uint64_t size = b[1] & 0x7F;
      if (size == 126) {
        header = 4;
        if (available < header) return std::nullopt;
        size = (std::uint64_t{b[2]} << 8) | b[3];
      } else if (size == 127) {
        header = 10;
        if (available < header) return std::nullopt;
        size = 0;
        for (int i = 0; i < 8; ++i) size = (size << 8) | b[2 + i];
      }
      if (available - header < size) return std::nullopt;
      const std::string_view payload(in_.data() + begin_ + header, static_cast<std::size_t>(size));
      begin_ += header + static_cast<std::size_t>(size);
      switch (opcode) {
        case 0x9:  // ping
          append_frame(pending_, 0xA, payload);
          if (!writing_) write();
          continue;
        case 0xA:  // pong
          continue;
        case 0x8:
          throw std::runtime_error("the server closed the connection");
        case 0x1:
        case 0x2:
          if (fin) return payload;
          message_.assign(payload);
          continue;
        case 0x0:
          message_.append(payload);
          if (fin) return std::string_view(message_);
          continue;
        default:
          throw std::runtime_error("unexpected opcode " + std::to_string(opcode));
      }
    }
  }

  void append_frame(std::string& out, int opcode, std::string_view payload) {
    // A fresh mask per frame (xorshift): RFC 6455 wants them unpredictable to intermediaries;
    // on loopback there are none, but the server must see masked frames.
    mask_ ^= mask_ << 13;
    mask_ ^= mask_ >> 17;
    mask_ ^= mask_ << 5;
    char key[4];
    std::memcpy(key, &mask_, 4);
    ws::append_raw_frame(out, static_cast<std::uint8_t>(0x80 | opcode), payload, key);
  }

  void write() {
    writing_ = true;
    out_.swap(pending_);
    pending_.clear();
    boost::asio::async_write(
        socket_, boost::asio::buffer(out_),
        [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
          self->writing_ = false;
          if (ec) {
            self->pending_.clear();
            return;
          }
          if (!self->pending_.empty()) self->write();
        });
  }

  static constexpr std::size_t kReadSize = 4096;

  Socket socket_;
  std::string in_;  // received: [begin_, end_) not yet read
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::string message_;  // a fragmented message
  std::string pending_;  // frames not yet written
  std::string out_;      // the write in flight
  bool writing_ = false;
  std::uint32_t mask_ = 0x9E3779B9u;
};

}  // namespace tengen::load
