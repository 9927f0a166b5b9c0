// A bare Beast WebSocket echo server: the baseline for tengen-load (--echo). Each text frame
// is sent back as it came, on the same threads model as the server (one io_context, N threads,
// a strand per connection), so that the ratio of the two is what our server adds.
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using asio::awaitable;
using asio::use_awaitable;

awaitable<void> echo(asio::ip::tcp::socket socket) {
  websocket::stream<beast::tcp_stream> ws(std::move(socket));
  try {
    co_await ws.async_accept(use_awaitable);
    beast::flat_buffer buffer;
    for (;;) {
      co_await ws.async_read(buffer, use_awaitable);
      ws.text(ws.got_text());
      co_await ws.async_write(buffer.data(), use_awaitable);
      buffer.consume(buffer.size());
    }
  } catch (const std::exception&) {  // the client left
  }
}

awaitable<void> listen(asio::ip::tcp::acceptor& acceptor) {
  for (;;) {
    auto socket =
        co_await acceptor.async_accept(asio::make_strand(acceptor.get_executor()), use_awaitable);
    auto executor = socket.get_executor();
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
