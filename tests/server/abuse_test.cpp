// Floods of shared resources through the real stack (SQLite file, hub, WebSockets on loopback):
// each bound holds, the flooder is told why, and other players are not affected.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <optional>
#include <string>

#include "support/live_server.h"
#include "support/server_process.h"
#include "support/temp_database.h"
#include "support/ws_client.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

class Abuse : public ::testing::Test {
 protected:
  void SetUp() override { stack_.emplace(temp_.path()); }
  void TearDown() override { stack_.reset(); }
  // A registered user's connection, past its welcome and first lobby message.
  std::unique_ptr<WsClient> player(const std::string& name) {
    stack_->clock().advance(6s);  // registrations from one address: one more every 6 s
    auto c = std::make_unique<WsClient>(stack_->port(),
                                        WsClient::Options{stack_->token_for(name), "", "/ws/v1"});
    c->wait_type("welcome");
    c->wait_type("lobby");
    return c;
  }
  // The largest settings a challenge can carry: everything set, the longest clock.
  static json challenge() {
    return {{"type", "create_challenge"},
            {"settings",
             {{"width", 19},
              {"height", 19},
              {"ruleset", "new-zealand"},
              {"komi", -149.5},
              {"handicap", 9},
              {"placement", "fixed"},
              {"color", "white"},
              {"time",
               {{"system", "canadian"},
                {"main_ms", 86400000},
                {"stones", 25},
                {"period_ms", 86400000}}},
              {"rated", true},
              {"private", false}}}};
  }

  TempDatabase temp_;
  std::optional<LiveStack> stack_;
};

TEST_F(Abuse, OpenChallengesAreCappedPerAccountAndInAllAndTheLobbyStillFits) {
  // One account: ten, then told why.
  auto flooder = player("flooder");
  for (int i = 0; i < 10; ++i) EXPECT_EQ(flooder->command(challenge())["type"], "ack");
  const json refused = flooder->command(challenge());
  EXPECT_EQ(refused["code"], "conflict") << refused.dump();
  EXPECT_EQ(refused["message"],
            "you have 10 open challenges, the most one player may have: cancel one first");

  // Many accounts: a thousand in all, then the lobby is full for everyone alike.
  for (int user = 1; user < 100; ++user) {
    auto c = player("crowd" + std::to_string(user));
    for (int i = 0; i < 10; ++i) ASSERT_EQ(c->command(challenge())["type"], "ack") << user;
  }
  auto late = player("latecomer");
  const json full = late->command(challenge());
  EXPECT_EQ(full["code"], "conflict") << full.dump();
  EXPECT_EQ(full["message"],
            "the lobby holds 1000 open challenges, the most it may: accept one, or try again "
            "later");

  // Whoever connects still gets the whole lobby, in one message well within the 1 MiB a
  // connection may have queued; and the cap holds across a restart.
  stack_.reset();
  stack_.emplace(temp_.path());
  WsClient newcomer(stack_->port(), WsClient::Options{"", "", "/ws/v1"});
  newcomer.wait_type("welcome");
  const json lobby = newcomer.wait_type("lobby");
  EXPECT_EQ(lobby["challenges"].size(), 1000u);
  const auto bytes = lobby.dump().size();
  EXPECT_LT(bytes, 1024u * 1024 / 2) << "a full lobby is " << bytes << " bytes";
  std::cout << "a full lobby (1000 challenges) is " << bytes << " bytes\n";
  stack_->clock().advance(6s);
  const std::string token = cookie_token(
      http_request(stack_->port(), "POST", "/api/v1/login", "Content-Type: application/json\r\n",
                   R"({"username":"latecomer","password":"a fine password"})"));
  WsClient again(stack_->port(), WsClient::Options{token, "", "/ws/v1"});
  again.wait_type("lobby");
  EXPECT_EQ(again.command(challenge())["code"], "conflict");
}

}  // namespace
}  // namespace tengen::testing
