// Web Push through the real server binary (docs/web-client.md, "Push") to a push service on
// loopback that checks everything itself (tests/support/push_service.py, python3-cryptography:
// not the server's code): devices subscribe over the HTTP API, a correspondence game's "your
// move", a game's start and an opponent coming back to a live game reach the devices that want
// them, each message decrypts with its device's keys and carries a VAPID token the server's public
// key signs, a test message, a device its push service says is gone is forgotten, a busy service is
// tried again, and endpoints and keys that are not a browser's are refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/game_commands.h"
#include "support/server_process.h"
#include "support/temp_push.h"
#include "support/ws_client.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;

constexpr std::int64_t kDay = 24 * 3'600'000;

struct Answer {
  int status;
  json body;
};

class Push : public ::testing::Test {
 protected:
  Push() : server_(std::nullopt, 0, {"--push-services", push_.origin()}) {}

  std::string registered(const std::string& name) {
    const std::string reg = http_request(
        server_.port(), "POST", "/api/v1/register", "Content-Type: application/json\r\n",
        json{{"username", name}, {"password", "a long enough password"}}.dump());
    EXPECT_TRUE(reg.starts_with("HTTP/1.1 201")) << reg;
    return cookie_token(reg);
  }
  Answer post(const std::string& path, const std::string& token, const json& body) {
    const std::string raw = http_request(
        server_.port(), "POST", path,
        "Content-Type: application/json\r\nAuthorization: Bearer " + token + "\r\n", body.dump());
    const int status = std::stoi(raw.substr(9, 3));
    const std::string text = body_of(raw);
    return {status, text.empty() ? json() : json::parse(text, nullptr, false)};
  }

  TempPush push_;
  ServerProcess server_;
};

TEST_F(Push, YourMoveAndAGameStartingReachTheDevicesThatWantThemEncryptedAndSigned) {
  const json key = json::parse(body_of(http_request(server_.port(), "GET", "/api/v1/push")));
  ASSERT_EQ(key["enabled"], true);
  const std::string vapid = key["key"];
  EXPECT_EQ(vapid.size(), 87u) << "a P-256 point in base64url";

  const auto alice = registered("alice");
  const auto bob = registered("bob");
  const auto phone = push_.device("/push/alice-phone");
  auto subscribe = phone.subscription();
  subscribe["game_start"] = false;  // alice wants only "your move" on her phone
  auto answer = post("/api/v1/me/push/subscribe", alice, subscribe);
  ASSERT_EQ(answer.status, 200) << answer.body;
  EXPECT_EQ(answer.body, (json{{"subscribed", true},
                               {"your_move", true},
                               {"game_start", false},
                               {"round_start", true},
                               {"opponent_back", true}}));
  const auto tablet = push_.device("/push/bob-tablet");
  ASSERT_EQ(post("/api/v1/me/push/subscribe", bob, tablet.subscription()).status, 200);
  answer = post("/api/v1/me/push/device", alice, {{"endpoint", phone.endpoint}});
  EXPECT_EQ(answer.body["subscribed"], true);
  answer = post("/api/v1/me/push/device", bob, {{"endpoint", phone.endpoint}});
  EXPECT_EQ(answer.body["subscribed"], false) << "not bob's device";

  WsClient a(server_.port(), WsClientOptions{alice, "", "/ws/v1"});
  WsClient b(server_.port(), WsClientOptions{bob, "", "/ws/v1"});
  const json correspondence = {{"width", 9},
                               {"time", {{"system", "correspondence"}, {"per_move_ms", 2 * kDay}}}};
  const auto game = start_game(a, b, correspondence);
  // Both are told the game started (bob wants it; alice does not on that device), and alice,
  // Black, that it is her move.
  auto messages = push_.take(2);
  ASSERT_EQ(messages.size(), 2u);
  std::sort(messages.begin(), messages.end(),
            [](const json& x, const json& y) { return x["path"] < y["path"]; });
  for (const auto& m : messages) {
    EXPECT_EQ(m["vapid"], "ok") << m;
    EXPECT_EQ(m["vapid_key"], vapid);
    EXPECT_EQ(m["encoding"], "aes128gcm");
    EXPECT_EQ(m["status"], 201);
    EXPECT_FALSE(m.contains("error")) << m;
  }
  EXPECT_EQ(messages[0]["path"], "/push/alice-phone");
  EXPECT_EQ(messages[0]["payload"],
            (json{{"kind", "your_move"}, {"game", game}, {"opponent", "bob"}, {"moves", 0}}));
  EXPECT_EQ(messages[0]["topic"], "game-" + std::to_string(game));
  EXPECT_EQ(messages[1]["path"], "/push/bob-tablet");
  EXPECT_EQ(messages[1]["payload"],
            (json{{"kind", "game_start"}, {"game", game}, {"opponent", "alice"}}));
  EXPECT_EQ(messages[1]["urgency"], "high");

  expect_ack(a.command(play(game, "E5")));
  messages = push_.take(1);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["path"], "/push/bob-tablet");
  EXPECT_EQ(messages[0]["payload"]["kind"], "your_move");
  EXPECT_EQ(messages[0]["payload"]["moves"], 1);
  EXPECT_EQ(messages[0]["ttl"], "86400");

  ASSERT_EQ(post("/api/v1/me/push/test", alice, {{"endpoint", phone.endpoint}}).status, 202);
  messages = push_.take(1);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["payload"], (json{{"kind", "test"}}));

  // Unsubscribed: nothing more to that device.
  ASSERT_EQ(post("/api/v1/me/push/unsubscribe", bob, {{"endpoint", tablet.endpoint}}).status, 200);
  expect_ack(b.command(play(game, "C3")));
  messages = push_.take(1);  // alice's, only
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["path"], "/push/alice-phone");
}

TEST_F(Push, AnOpponentComingBackToALiveGameIsToldToThePlayerWaiting) {
  const auto alice = registered("alice");
  const auto bob = registered("bob");
  const auto laptop = push_.device("/push/bob-laptop");
  auto subscribe = laptop.subscription();
  subscribe["game_start"] = false;
  ASSERT_EQ(post("/api/v1/me/push/subscribe", bob, subscribe).body["opponent_back"], true);
  WsClient b(server_.port(), WsClientOptions{bob, "", "/ws/v1"});
  std::int64_t game = 0;
  {
    WsClient a(server_.port(), WsClientOptions{alice, "", "/ws/v1"});
    game = start_game(a, b, {{"width", 9}});  // live, untimed
    expect_ack(a.command(play(game, "E5")));
  }  // alice's page is gone
  b.wait_type("player_left");
  WsClient again(server_.port(), WsClientOptions{alice, "", "/ws/v1"});
  expect_ack(again.command({{"type", "join"}, {"game", game}}));
  const auto messages = push_.take(1);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["path"], "/push/bob-laptop");
  EXPECT_EQ(messages[0]["payload"],
            (json{{"kind", "opponent_back"}, {"game", game}, {"opponent", "alice"}}));
  EXPECT_EQ(messages[0]["ttl"], "300") << "stale after a few minutes";
  EXPECT_EQ(messages[0]["urgency"], "high");
  EXPECT_EQ(messages[0]["vapid"], "ok");
}

TEST_F(Push, AGoneDeviceIsForgottenAndOneWhoseServiceIsBusyKept) {
  const auto carol = registered("carol");
  const auto gone = push_.device("/gone/carol-old");
  const auto busy = push_.device("/busy/carol-new");
  ASSERT_EQ(post("/api/v1/me/push/subscribe", carol, gone.subscription()).status, 200);
  ASSERT_EQ(post("/api/v1/me/push/subscribe", carol, busy.subscription()).status, 200);
  ASSERT_EQ(post("/api/v1/me/push/test", carol, {{"endpoint", gone.endpoint}}).status, 202);
  auto messages = push_.take(1);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["status"], 410);
  // Forgotten: asked about, it is not subscribed any more (the answer came before the next
  // request: the pusher's thread dropped it before taking another message).
  ASSERT_EQ(post("/api/v1/me/push/test", carol, {{"endpoint", busy.endpoint}}).status, 202);
  messages = push_.take(1);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["status"], 503);
  EXPECT_EQ(post("/api/v1/me/push/device", carol, {{"endpoint", gone.endpoint}}).body["subscribed"],
            false);
  EXPECT_EQ(post("/api/v1/me/push/test", carol, {{"endpoint", gone.endpoint}}).status, 409);
  // A 503 is tried again later (30 s, then doubling: not waited for here), the device kept.
  EXPECT_EQ(post("/api/v1/me/push/device", carol, {{"endpoint", busy.endpoint}}).body["subscribed"],
            true);
}

TEST_F(Push, EndpointsAndKeysThatAreNotABrowsersAreRefused) {
  const auto dave = registered("dave");
  auto device = push_.device("/push/dave").subscription();
  auto elsewhere = device;
  elsewhere["endpoint"] = "https://attacker.example.org/collect";
  auto answer = post("/api/v1/me/push/subscribe", dave, elsewhere);
  EXPECT_EQ(answer.status, 400);
  EXPECT_EQ(answer.body["error"]["code"], "bad_endpoint");
  elsewhere["endpoint"] = "http://127.0.0.1:1/internal";
  EXPECT_EQ(post("/api/v1/me/push/subscribe", dave, elsewhere).body["error"]["code"],
            "bad_endpoint");
  auto bad_key = device;
  bad_key["keys"]["p256dh"] =
      "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
  answer = post("/api/v1/me/push/subscribe", dave, bad_key);
  EXPECT_EQ(answer.status, 400);
  EXPECT_EQ(answer.body["error"]["code"], "bad_keys");
  auto extra = device;
  extra["colour"] = "blue";
  EXPECT_EQ(post("/api/v1/me/push/subscribe", dave, extra).body["error"]["message"],
            "unknown field 'colour'");
  EXPECT_EQ(post("/api/v1/me/push/subscribe", "not-a-token", device).status, 401);
  EXPECT_EQ(
      post("/api/v1/me/push/device", dave, {{"endpoint", device["endpoint"]}}).body["subscribed"],
      false)
      << "nothing was kept";
}

}  // namespace
}  // namespace tengen::testing
