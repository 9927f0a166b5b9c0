#pragma once

// A blocking WebSocket client for tests. Every message received is kept, so a test can wait for
// the one it expects while broadcasts arrive in between. Reads run on the client's own
// io_context with a deadline, so a message that never comes fails the test instead of hanging it.
//
// Beast lives in ws_client.cpp, compiled once into the tengen_test_client library: the test
// files that use this header stay cheap to compile (each one used to instantiate the whole
// WebSocket stream, which made them the slowest files of the build under the sanitizers).
// Failures of the connection are thrown as boost::system::system_error.
#include <boost/system/system_error.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
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

  explicit WsClient(int port, Options options = Options());
  // `forwarded_for`: sent as X-Forwarded-For, the client's address as a trusted proxy would say
  // it (tests with more connections than one address may open: --trusted-proxies 127.0.0.1).
  WsClient(int port, Options options, std::string forwarded_for);
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  // Pings the server sent that this client answered (Beast answers them while reading).
  int pings() const;
  const std::string& last_ping_payload() const;

  // Keeps reading (and so answering pings) until the server has sent n pings, then drops the
  // connection. False if the connection ended or the deadline passed first.
  bool answer_pings(int n, std::chrono::milliseconds deadline);
  // Keeps reading (and answering pings) while `go_on()`, asked between the client's steps, says
  // so, then drops the connection. False if the server ended it or the deadline passed first.
  bool read_while(const std::function<bool()>& go_on, std::chrono::milliseconds deadline);

  // Reads the raw TCP stream, bypassing WebSocket (so pings go unanswered), until the server
  // closes it. Returns false if it is still open after the deadline.
  bool raw_read_until_eof(std::chrono::milliseconds deadline);

  void send_text(const std::string& text);
  // Sends the bytes as one binary frame (the server refuses those).
  void send_binary(const std::string& bytes);

  // Sends a command with a fresh cid (unless it has one) and returns the ack or error for it.
  json command(json message);

  // The first message (kept or still to come) that matches; it is removed from the kept ones.
  json wait(const std::function<bool(const json&)>& match);
  json wait_type(const std::string& type);
  json wait_event(std::int64_t game, std::uint64_t seq);

  // How long read() waits for a message before failing the test (10 s unless set).
  void set_read_timeout(std::chrono::seconds timeout) { read_timeout_ = timeout; }

  // Drops kept messages, for tests that check what arrives next.
  void forget() { kept_.clear(); }
  std::deque<json>& kept() { return kept_; }

  // The next message; throws if none comes within the read timeout.
  json read();

  // Reads until the server closes; returns the close code (or -1 if the connection just dropped).
  int read_until_closed();
  // The reason the server gave when it closed the connection (after read_until_closed).
  std::string close_reason() const;

  void close();

 private:
  struct Stream;
  std::unique_ptr<Stream> stream_;
  std::deque<json> kept_;
  int instance_;
  int next_cid_ = 0;
  std::chrono::seconds read_timeout_{10};
};

// Connects a plain TCP socket, sends the bytes and waits for the server to close the
// connection: "eof" when it did, "open" if it was still open after the deadline, otherwise the
// error the read ended with.
std::string send_raw_and_wait_for_close(int port, const std::string& bytes,
                                        std::chrono::milliseconds deadline);

// Connects a plain TCP socket, sends the bytes (then, with `half_close`, shuts its sending side)
// and keeps what the server sends back until it closes the connection (`closed`) or the deadline
// passes.
struct RawExchange {
  std::string received;
  bool closed = false;
};
RawExchange exchange_raw(int port, const std::string& bytes, std::chrono::milliseconds deadline,
                         bool half_close = false);

}  // namespace tengen::testing
