#pragma once

// A test with the real stack on its own SQLite file and any number of registered users, each
// connected over a WebSocket when the test asks for them, and 19×19 games made between them.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "support/live_server.h"
#include "support/server_process.h"
#include "support/temp_database.h"
#include "support/ws_client.h"

namespace tengen::testing {

class ManyPlayers : public ::testing::Test {
 protected:
  void SetUp() override { stack_.emplace(temp_.path()); }
  void TearDown() override { stack_.reset(); }

  // A registered user's connection (registered on first use), past its welcome and first lobby
  // message.
  std::unique_ptr<WsClient> player(const std::string& name) {
    if (!tokens_.contains(name)) {
      // Registrations from one address: one more every 6 s.
      stack_->clock().advance(std::chrono::seconds(6));
      tokens_[name] = stack_->token_for(name);
    }
    auto c =
        std::make_unique<WsClient>(stack_->port(), WsClient::Options{tokens_[name], "", "/ws/v1"});
    c->wait_type("welcome");
    c->wait_type("lobby");
    return c;
  }
  // A 19×19 untimed game between two connections (the first has Black), both joined.
  std::int64_t game_between(WsClient& black, WsClient& white) {
    const nlohmann::json created = black.command(
        {{"type", "create_challenge"}, {"settings", {{"width", 19}, {"color", "black"}}}});
    const nlohmann::json accepted =
        white.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
    const auto game = accepted["game"].get<std::int64_t>();
    EXPECT_EQ(black.command({{"type", "join"}, {"game", game}})["type"], "ack");
    EXPECT_EQ(white.command({{"type", "join"}, {"game", game}})["type"], "ack");
    return game;
  }
  // An HTTP request to the stack, as `user` (registered by player()) when one is named, with a
  // JSON body when one is given: the status and the body as JSON; the body's text in raw_.
  std::pair<int, nlohmann::json> request(const std::string& method, const std::string& target,
                                         const std::string& user = "",
                                         const std::string& body = "") {
    std::string headers = body.empty() ? "" : "Content-Type: application/json\r\n";
    if (!user.empty()) headers += "Authorization: Bearer " + tokens_.at(user) + "\r\n";
    const std::string reply = http_request(stack_->port(), method, target, headers, body);
    const int status = std::stoi(reply.substr(9, 3));
    raw_ = body_of(reply);
    head_ = reply.substr(0, reply.find("\r\n\r\n"));
    return {status, nlohmann::json::parse(raw_, nullptr, false)};
  }
  static nlohmann::json play(std::int64_t game, const std::string& vertex) {
    return {{"type", "play"}, {"game", game}, {"vertex", vertex}};
  }

  TempDatabase temp_;
  std::optional<LiveStack> stack_;
  std::map<std::string, std::string> tokens_;
  std::string raw_;   // the last request()'s body
  std::string head_;  // and its status line and headers
};

}  // namespace tengen::testing
