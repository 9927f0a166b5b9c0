#pragma once

#include <boost/asio/io_context.hpp>
#include <memory>

#include "config.h"

// The bridge between the server and GTP engines (docs/bots.md): logs in as a bot account, keeps a
// WebSocket to the server (reconnecting on its own), accepts the challenges its configuration
// allows, keeps its own challenge open, and plays each game with its own engine process.
// Beast stays inside bridge.cpp.
namespace tengen::bridge {

struct BridgeOptions {
  bool register_account = false;  // create the bot account if logging in says it does not exist
};

class Bridge {
 public:
  Bridge(boost::asio::io_context& io, Config config, BridgeOptions options);
  ~Bridge();
  Bridge(const Bridge&) = delete;
  Bridge& operator=(const Bridge&) = delete;

  void start();
  // Closes the connection and ends the engines; the games go on on the server, and a bridge
  // started again picks them up.
  void stop();
  // 0, or 2 when the bridge gave up for good (the account is not a bot, wrong password).
  int exit_code() const;

 private:
  class Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace tengen::bridge
