#pragma once

// A test with the real stack on its own database (a SQLite file, or with `database_` set to a
// postgres:// URI a PostgreSQL one) and two users connected over WebSockets, which can be stopped
// and started again on the same database (as a restart would).
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "support/live_server.h"
#include "support/temp_database.h"
#include "support/ws_client.h"

namespace tengen::testing {

class TwoPlayers : public ::testing::Test {
 protected:
  TwoPlayers(std::string first, std::string second) : names_{std::move(first), std::move(second)} {}

  // A server on the test's file; the users exist after the first start.
  void start() {
    stack_.emplace(database_.empty() ? temp_.path() : database_);
    if (tokens_[0].empty()) {
      tokens_[0] = stack_->token_for(names_[0]);
      tokens_[1] = stack_->token_for(names_[1]);
    }
    players_[0] = connect(tokens_[0]);
    players_[1] = connect(tokens_[1]);
  }
  // Everything goes: the clients, then the server.
  void stop() {
    players_[0].reset();
    players_[1].reset();
    stack_.reset();
  }
  void TearDown() override { stop(); }

  std::unique_ptr<WsClient> connect(const std::string& token) {
    auto c = std::make_unique<WsClient>(stack_->port(), WsClient::Options{token, "", "/ws/v1"});
    c->wait_type("welcome");
    lobby_ = c->wait_type("lobby");
    return c;
  }
  std::string get(const std::string& target) { return body_of(http_get(stack_->port(), target)); }

  TempDatabase temp_;
  std::string database_;  // empty: temp_'s SQLite file
  std::optional<LiveStack> stack_;
  std::string names_[2];
  std::string tokens_[2];
  std::unique_ptr<WsClient> players_[2];
  nlohmann::json lobby_;  // the last lobby snapshot a connection received
};

}  // namespace tengen::testing
