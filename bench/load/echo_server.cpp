// A bare WebSocket echo server: the baseline for tengen-load (--echo). Each text message is sent
// back as it came. It shares the server's thread model (one io_context, N threads, a strand per
// connection), its handshake (Beast's HTTP parser, ws::accept_key) and its framing
// (ws::FrameReader, ws::append_frame, everything read at once written back in one write), so that
// the ratio of the two is what the server adds — rooms, the store, the protocol — and not a
// difference between two WebSocket implementations.
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "ws/frames.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::awaitable;
using asio::use_awaitable;
using Kind = tengen::ws::FrameReader::Event::Kind;

constexpr std::size_t kMaxMessage = 64 * 1024;

awaitable<void> echo(asio::ip::tcp::socket accepted) {
  try {
    beast::tcp_stream stream(std::move(accepted));
    beast::flat_buffer buffer;
    http::request<http::string_body> req;
    co_await http::async_read(stream, buffer, req, use_awaitable);
    if (!beast::websocket::is_upgrade(req)) co_return;
    http::response<http::empty_body> res{http::status::switching_protocols, req.version()};
    res.set(http::field::upgrade, "websocket");
    res.set(http::field::connection, "upgrade");
    res.set(http::field::sec_websocket_accept,
            tengen::ws::accept_key(req[http::field::sec_websocket_key]));
    co_await http::async_write(stream, res, use_awaitable);
    auto socket = stream.release_socket();
    tengen::ws::FrameReader reader(kMaxMessage);
    if (buffer.size() > 0) {  // frames that came with the request
      const auto room = reader.space(buffer.size());
      std::memcpy(room.data(), buffer.data().data(), buffer.size());
      reader.commit(buffer.size());
    }
    std::string out;
    for (;;) {
      bool done = false;
      while (auto event = reader.next()) {
        if (event->kind == Kind::Text || event->kind == Kind::Binary) {
          tengen::ws::append_frame(out, tengen::ws::Opcode::Text, event->payload);
        } else if (event->kind == Kind::Ping) {
          tengen::ws::append_frame(out, tengen::ws::Opcode::Pong, event->payload);
        } else if (event->kind == Kind::Close || event->kind == Kind::Failed) {
          tengen::ws::append_frame(out, tengen::ws::Opcode::Close, {});
          done = true;
          break;
        }
      }
      if (!out.empty()) {
        co_await asio::async_write(socket, asio::buffer(out), use_awaitable);
        out.clear();
      }
      if (done) co_return;
      const auto room = reader.space();
      const std::size_t n =
          co_await socket.async_read_some(asio::buffer(room.data(), room.size()), use_awaitable);
      reader.commit(n);
    }
  } catch (const std::exception&) {  // the client left
  }
}

awaitable<void> listen(asio::ip::tcp::acceptor& acceptor) {
  for (;;) {
    auto socket =
        co_await acceptor.async_accept(asio::make_strand(acceptor.get_executor()), use_awaitable);
    auto executor = socket.get_executor();
    socket.set_option(asio::ip::tcp::no_delay(true));  // as the server does
    asio::co_spawn(executor, echo(std::move(socket)), asio::detached);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 2;
  std::string port_file;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--threads") threads = std::stoi(argv[i + 1]);
    if (a == "--port-file") port_file = argv[i + 1];
  }
  asio::io_context io(threads);
  asio::ip::tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
  acceptor.listen(asio::socket_base::max_listen_connections);
  if (!port_file.empty()) std::ofstream(port_file) << acceptor.local_endpoint().port() << "\n";
  asio::co_spawn(io, listen(acceptor), asio::detached);
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](auto, int) { io.stop(); });
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&] { io.run(); });
  io.run();
  for (auto& t : pool) t.join();
}
