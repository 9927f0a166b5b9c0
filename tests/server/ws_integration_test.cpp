// The server stack started inside the test on 127.0.0.1, spoken to over real WebSockets.
#include <gtest/gtest.h>

#include <csignal>
#include <future>
#include <set>
#include <thread>

#include "support/live_server.h"
#include "support/server_process.h"
#include "support/temp_database.h"
#include "support/ws_client.h"
#include "ws/frames.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using testing::WsClient;

class LiveServer : public ::testing::Test {
 protected:
  void start(ConnectionLimits limits = testing::LiveStack::limits(), RoomOptions room = {}) {
    stack_.emplace(temp_.path(), limits, room);
    port_ = stack_->port();
  }
  void TearDown() override { stack_.reset(); }
  std::string token_for(const std::string& name) { return stack_->token_for(name); }
  std::unique_ptr<WsClient> connect(const std::string& token = "") {
    auto c = std::make_unique<WsClient>(port_, WsClient::Options{token, "", "/ws/v1"});
    const json welcome = c->wait_type("welcome");
    EXPECT_EQ(welcome["server_version"], TENGEN_VERSION);
    c->wait_type("lobby");
    return c;
  }

  testing::TempDatabase temp_;
  std::optional<testing::LiveStack> stack_;
  int port_ = 0;
};

json play(std::int64_t game, const std::string& vertex) {
  return {{"type", "play"}, {"game", game}, {"vertex", vertex}};
}

void expect_ack(const json& reply) {
  EXPECT_EQ(reply["type"], "ack") << reply.dump();
}

TEST_F(LiveServer, AWholeGameWithEverythingThatHappensInOne) {
  start();
  const auto black_token = token_for("shusaku");
  const auto white_token = token_for("gennan");
  const auto watcher_token = token_for("jowa");
  auto black = connect(black_token);
  auto white = connect(white_token);

  // Shusaku opens a challenge; Gennan sees it live and accepts.
  const json created =
      black->command({{"type", "create_challenge"},
                      {"settings", {{"width", 9}, {"ruleset", "japanese"}, {"color", "black"}}}});
  expect_ack(created);
  const auto challenge = created["challenge"].get<std::int64_t>();
  EXPECT_EQ(white->wait_type("challenge_opened")["challenge"]["id"], challenge);
  const json accepted = white->command({{"type", "accept_challenge"}, {"challenge", challenge}});
  expect_ack(accepted);
  const auto game = accepted["game"].get<std::int64_t>();
  EXPECT_EQ(black->wait_type("game_started")["black"]["name"], "shusaku");
  EXPECT_EQ(black->wait_type("challenge_closed")["reason"], "accepted");
  EXPECT_EQ(black->command({{"type", "join"}, {"game", game}})["seq"], 0);
  EXPECT_EQ(black->wait_type("snapshot")["role"], "black");
  expect_ack(white->command({{"type", "join"}, {"game", game}}));

  // Build a ko in the top-left corner; Black takes it, White may not retake at once.
  const char* moves[] = {"B9", "C9", "A8", "B8", "B7", "D8", "J1", "C7"};
  for (int i = 0; i < 8; ++i)
    expect_ack((i % 2 == 0 ? black : white)->command(play(game, moves[i])));
  const json take = black->command(play(game, "C8"));
  expect_ack(take);
  const json taken = white->wait_event(game, take["seq"]);
  EXPECT_EQ(taken["captured"], json::array({"B8"}));
  const json ko = white->command(play(game, "B8"));
  EXPECT_EQ(ko["code"], "illegal_move");
  EXPECT_EQ(ko["message"], "ko: retaking at once is not allowed; play elsewhere first");
  EXPECT_EQ(ko["reason"], "ko");  // for a client that says it in its own language
  EXPECT_EQ(black->command(play(game, "E5"))["code"], "not_your_turn");

  // White plays elsewhere, thinks better of it, and Black grants the undo.
  expect_ack(white->command(play(game, "J9")));
  expect_ack(white->command({{"type", "undo_request"}, {"game", game}}));
  EXPECT_EQ(black->wait_type("undo_requested")["by"], "white");
  const json undone = black->command({{"type", "undo_answer"}, {"game", game}, {"accept", true}});
  expect_ack(undone);
  EXPECT_EQ(white->wait_event(game, undone["seq"])["moves_taken_back"], 1);
  expect_ack(white->command(play(game, "H1")));

  // Chat between the players; a spectator arrives late and sees everything so far.
  expect_ack(black->command({{"type", "chat"}, {"game", game}, {"text", "nice ko"}}));
  auto watcher = connect(watcher_token);
  expect_ack(watcher->command({{"type", "join"}, {"game", game}}));
  const json snap = watcher->wait_type("snapshot");
  EXPECT_EQ(snap["role"], "spectator");
  EXPECT_EQ(snap["moves"].size(), 10u);
  EXPECT_EQ(snap["moves"][9]["vertex"], "H1");
  EXPECT_EQ(snap["captures"]["black"], 1);
  EXPECT_EQ(snap["chat"][0]["text"], "nice ko");
  // Spectators' chat is not shown to the players during the game.
  const json whisper =
      watcher->command({{"type", "chat"}, {"game", game}, {"text", "black is winning"}});
  expect_ack(whisper);

  // Black moves, then its connection drops; White answers; Black comes back and gets exactly
  // what it missed.
  const auto before_drop = black->command(play(game, "E5"));
  expect_ack(before_drop);
  const auto last_seen = before_drop["seq"].get<std::uint64_t>();
  black->close();
  black.reset();
  const json missed = white->command(play(game, "G3"));
  expect_ack(missed);
  black = connect(black_token);
  expect_ack(black->command({{"type", "join"}, {"game", game}, {"since", last_seen}}));
  const json resumed = black->wait([](const json& m) {
    return m["type"] == "move" || m["type"] == "chat" || m["type"] == "snapshot";
  });
  EXPECT_EQ(resumed["type"], "move")
      << "the spectators' chat must be skipped, and no snapshot sent";
  EXPECT_EQ(resumed["vertex"], "G3");
  EXPECT_EQ(resumed["seq"], missed["seq"]);

  // A resent command is acknowledged again, not applied twice.
  const json first =
      black->command({{"type", "play"}, {"game", game}, {"vertex", "F5"}, {"cid", "same"}});
  const json again =
      black->command({{"type", "play"}, {"game", game}, {"vertex", "F5"}, {"cid", "same"}});
  expect_ack(first);
  EXPECT_EQ(first, again);
  EXPECT_EQ(white->wait_event(game, first["seq"])["vertex"], "F5");

  // White resigns; everyone in the room hears it, and the game takes no more moves.
  const json resigned = white->command({{"type", "resign"}, {"game", game}});
  expect_ack(resigned);
  for (auto* c : {black.get(), white.get(), watcher.get()}) {
    const json ended = c->wait_type("game_ended");
    EXPECT_EQ(ended["result"], "B+R");
    EXPECT_EQ(ended["reason"], "resignation");
  }
  EXPECT_EQ(black->command(play(game, "A1"))["code"], "game_over");
  // After the game the players may read the spectators' chat.
  expect_ack(black->command({{"type", "join"}, {"game", game}}));
  EXPECT_EQ(black->wait_type("snapshot")["chat"].size(), 2u);

  // Fourteen moves were accepted: the undone one counts, the refused and the resent ones do not.
  EXPECT_EQ(stack_->metrics().moves_total.load(), 14u);
  EXPECT_EQ(stack_->metrics().games_started_total.load(), 1u);
  EXPECT_EQ(stack_->metrics().ws_connections.load(), 3);
  const auto gauges = stack_->centre().gauges();
  EXPECT_EQ(gauges.games_active, 0);
  EXPECT_EQ(gauges.users_online, 3);
}

TEST_F(LiveServer, BadInputGetsTypedErrorsAndKeepsTheConnection) {
  start();
  auto alice = connect(token_for("alice"));
  alice->send_text("{not json");
  EXPECT_EQ(alice->wait_type("error")["code"], "bad_json");
  alice->send_text(R"({"type":"warp","cid":"1"})");
  EXPECT_EQ(alice->wait_type("error")["code"], "unknown_type");
  EXPECT_EQ(alice->command({{"type", "play"}, {"game", "x"}, {"vertex", "D4"}})["message"],
            "field 'game' must be an integer");
  EXPECT_EQ(alice->command({{"type", "play"}, {"game", 99}, {"vertex", "D4"}})["code"],
            "not_found");
  const json bad = alice->command({{"type", "create_challenge"}, {"settings", {{"width", 30}}}});
  EXPECT_EQ(bad["code"], "bad_settings");
  EXPECT_EQ(bad["message"], "board size must be between 2 and 25 on each side, not 30x30");
  EXPECT_EQ(alice->command({{"type", "create_challenge"},
                            {"settings", json::object()},
                            {"opponent", "nobody"}})["message"],
            "no user named 'nobody'");
  alice->send_binary("\x01\x02");
  EXPECT_EQ(alice->wait_type("error")["message"], "binary frames are not accepted: send JSON text");
  const json pong = alice->command({{"type", "ping"}, {"t", 42}});
  EXPECT_EQ(pong["type"], "pong");
  EXPECT_EQ(pong["t"], 42);
}

TEST_F(LiveServer, ArrivalsAndDeparturesAreToldTogether) {
  start();
  auto watcher = connect(token_for("jowa"));
  stack_->advance(Lobby::kPresenceInterval);
  json told = watcher->wait_type("presence");
  ASSERT_EQ(told["online"].size(), 1u);
  EXPECT_EQ(told["online"][0]["name"], "jowa");

  // Three connections of two users arrive: one message says so, once the interval has passed.
  auto shusaku = connect(token_for("shusaku"));
  const auto gennan_token = token_for("gennan");
  auto gennan = connect(gennan_token);
  auto gennan_again = connect(gennan_token);
  stack_->advance(Lobby::kPresenceInterval);
  told = watcher->wait_type("presence");
  ASSERT_EQ(told["online"].size(), 2u) << told.dump();
  EXPECT_EQ(told["online"][0]["name"], "shusaku");
  EXPECT_EQ(told["online"][1]["name"], "gennan");
  EXPECT_TRUE(told["offline"].empty());
  EXPECT_EQ(watcher->kept().size(), 0u) << "no message per arrival besides";

  // Gennan keeps one connection, so only Shusaku goes offline. The server notices a close on
  // the connection's strand; the connection gauge drops once the hub has been told.
  gennan_again->close();
  shusaku->close();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (stack_->metrics().ws_connections.load() > 2 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  ASSERT_EQ(stack_->metrics().ws_connections.load(), 2);
  stack_->advance(Lobby::kPresenceInterval);
  const json gone = watcher->wait_type("presence");
  ASSERT_EQ(gone["offline"].size(), 1u) << gone.dump();
  EXPECT_EQ(gone["offline"][0]["name"], "shusaku");
  EXPECT_TRUE(gone["online"].empty());

  // A later arrival sees who is online in its lobby snapshot.
  auto late =
      std::make_unique<WsClient>(port_, WsClient::Options{token_for("dosaku"), "", "/ws/v1"});
  const json lobby = late->wait_type("lobby");
  std::set<std::string> names;
  for (const auto& u : lobby["online"]) names.insert(u["name"].get<std::string>());
  EXPECT_EQ(names, (std::set<std::string>{"jowa", "gennan", "dosaku"}));
}

TEST_F(LiveServer, GuestsMayWatchButNotPlay) {
  start();
  auto guest = connect();
  const json reply = guest->command({{"type", "create_challenge"}, {"settings", json::object()}});
  EXPECT_EQ(reply["code"], "not_authenticated");
  EXPECT_EQ(reply["message"], "guests may watch but not play: log in first");
}

TEST_F(LiveServer, OversizedFramesCloseTheConnectionWithTooBig) {
  start();
  auto c = connect();
  c->send_text(std::string(9000, ' '));
  EXPECT_EQ(c->read_until_closed(), 1009);
}

// A frame as a browser sends it: masked (RFC 6455 §5.3).
std::string masked_frame(std::uint8_t first_byte, const std::string& payload) {
  std::string out;
  ws::append_raw_frame(out, first_byte, payload, "\x0F\x1E\x2D\x3C");
  return out;
}

std::string upgrade_request(const std::string& version) {
  return "GET /ws/v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: " +
         version + "\r\n\r\n";
}

TEST_F(LiveServer, TheHandshakeIsRfc6455sAndMessagesMayComeInFragments) {
  start();
  // Sent before any answer: the upgrade, then a ping command in two fragments with a ping frame
  // between them, then a half-close: the server answers what it owes and closes.
  const std::string command = R"({"type":"ping","cid":"p1","t":7})";
  const auto out = testing::exchange_raw(
      port_,
      upgrade_request("13") + masked_frame(0x01, command.substr(0, 10)) +
          masked_frame(0x89, "hello") + masked_frame(0x80, command.substr(10)),
      std::chrono::seconds(10), /*half_close=*/true);
  EXPECT_TRUE(out.closed);
  EXPECT_TRUE(out.received.starts_with("HTTP/1.1 101 Switching Protocols\r\n")) << out.received;
  EXPECT_NE(out.received.find("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"),
            std::string::npos)
      << "the answer to RFC 6455's example key";
  EXPECT_NE(out.received.find("\x8A\x05hello"), std::string::npos)
      << "the ping frame is answered with its payload";
  EXPECT_NE(out.received.find(R"("type":"pong")"), std::string::npos)
      << "the fragmented command was read whole";
}

// A client that sends its last commands and half-closes its TCP connection once lost the replies
// still on their way through the journal: challenges opened and never acknowledged. They are
// sent, then the connection closes.
TEST_F(LiveServer, AfterAHalfCloseTheRepliesOwedAreSentThenTheConnectionCloses) {
  start();
  const std::string token = token_for("leaving");
  std::string bytes =
      "GET /ws/v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
      "Authorization: Bearer " +
      token + "\r\n\r\n";
  for (int i = 1; i <= 5; ++i) {
    bytes += masked_frame(0x81, R"({"type":"create_challenge","cid":"owed-)" + std::to_string(i) +
                                    R"(","settings":{"width":9}})");
  }
  const auto out = testing::exchange_raw(port_, bytes, std::chrono::seconds(10), true);
  EXPECT_TRUE(out.closed) << "the server closes once the replies are out";
  for (int i = 1; i <= 5; ++i) {
    EXPECT_NE(out.received.find(R"("cid":"owed-)" + std::to_string(i) + R"(")"), std::string::npos)
        << "the reply to owed-" << i << " is missing:\n"
        << out.received;
  }
  // And they were applied: the lobby has the five challenges.
  auto c = connect();
  EXPECT_EQ(c->command({{"type", "create_challenge"}, {"settings", {{"width", 9}}}})["type"],
            "error")
      << "a guest";
  EXPECT_EQ(stack_->games().open_challenges().size(), 5u);
}

TEST_F(LiveServer, AClientsCloseIsAnsweredWithItsCode) {
  start();
  const auto out = testing::exchange_raw(port_,
                                         upgrade_request("13") + masked_frame(0x88,
                                                                              "\x0F\xA0"
                                                                              "bye"),
                                         std::chrono::seconds(10));
  EXPECT_TRUE(out.closed) << "the server closes the connection after its close frame";
  EXPECT_TRUE(out.received.ends_with("\x88\x02\x0F\xA0")) << "close code 4000 echoed, last";
}

TEST_F(LiveServer, ABrokenFrameIsAnsweredWithProtocolErrorAndWhatFollowsIsIgnored) {
  start();
  const std::string unmasked = std::string("\x81\x02", 2) + "hi";  // clients must mask
  const auto out =
      testing::exchange_raw(port_, upgrade_request("13") + unmasked + std::string(64 * 1024, 'x'),
                            std::chrono::seconds(10));
  EXPECT_TRUE(out.closed);
  const auto close = out.received.find("\x88");
  ASSERT_NE(close, std::string::npos) << "a close frame";
  EXPECT_EQ(out.received.substr(close + 2, 2), "\x03\xEA") << "1002, protocol error";
  EXPECT_EQ(stack_->metrics().ws_errors_total.load(), 1u);
}

TEST_F(LiveServer, OtherWebSocketVersionsAreToldWhichOneIsSpoken) {
  start();
  const auto out = testing::exchange_raw(port_, upgrade_request("8"), std::chrono::seconds(10));
  EXPECT_TRUE(out.received.starts_with("HTTP/1.1 426 Upgrade Required\r\n")) << out.received;
  EXPECT_NE(out.received.find("Sec-WebSocket-Version: 13\r\n"), std::string::npos);
}

TEST_F(LiveServer, TextThatIsNotUtf8ClosesTheConnectionWithInvalidData) {
  start();
  auto c = connect();
  c->send_text("{\"type\":\"ping\",\"cid\":\"\xC3\x28\"}");
  EXPECT_EQ(c->read_until_closed(), 1007);
}

TEST_F(LiveServer, FloodsAreRateLimitedThenDropped) {
  ConnectionLimits limits = testing::LiveStack::limits();
  limits.message_burst = 5;
  limits.abuse_strikes = 20;
  start(limits);
  auto c = connect(token_for("flooder"));
  for (int i = 0; i < 5; ++i) c->send_text(R"({"type":"chat","cid":"x","game":1,"text":"hi"})");
  c->send_text(R"({"type":"chat","cid":"y","game":1,"text":"hi"})");
  const json limited =
      c->wait([](const json& m) { return m["type"] == "error" && m["code"] == "rate_limited"; });
  EXPECT_EQ(limited["message"], "too many messages: at most 20 a second; this one was not applied");
  EXPECT_EQ(limited["cid"], "y")
      << "the refused command is named, so that the client may send it again";
  for (int i = 0; i < 30; ++i) {
    try {
      c->send_text(R"({"type":"ping","cid":"z"})");
    } catch (const boost::system::system_error&) {
      break;  // already dropped
    }
  }
  EXPECT_EQ(c->read_until_closed(), -1) << "an abusive client is dropped";
  EXPECT_EQ(stack_->metrics().ws_dropped_total.load(), 1u);
}

// The drop counter once never decayed: a client refused now and then over hours was dropped
// as "far over the rate limit". Refusals count against an allowance that comes back with time.
TEST_F(LiveServer, OnlyAFloodNowIsDroppedNotRefusalsSpreadOverTime) {
  ConnectionLimits limits = testing::LiveStack::limits();
  limits.message_burst = 5;
  limits.abuse_strikes = 20;
  start(limits);
  auto c = connect(token_for("eager"));
  for (int round = 0; round < 3; ++round) {  // 15 refusals each time: 45 in all, never 20 at once
    for (int i = 0; i < 5; ++i) c->send_text(R"({"type":"chat","cid":"ok","game":1,"text":"hi"})");
    const std::string last = "refused-" + std::to_string(round);
    for (int i = 0; i < 15; ++i) {
      c->send_text(R"({"type":"chat","cid":")" + (i == 14 ? last : std::string("r")) +
                   R"(","game":1,"text":"hi"})");
    }
    c->wait([&](const json& m) {
      return m.value("code", "") == "rate_limited" && m.value("cid", "") == last;
    });
    stack_->advance(std::chrono::seconds(30));
  }
  c->send_text(R"({"type":"ping","cid":"still-here"})");
  EXPECT_EQ(c->wait_type("pong")["cid"], "still-here");
  EXPECT_EQ(stack_->metrics().ws_dropped_total.load(), 0u);
}

// Logging out, or revoking a session from another device, once left the WebSockets opened with
// it acting as that user. They now close at once (1008), and only they do.
TEST_F(LiveServer, EndingASessionClosesTheConnectionsOpenedWithIt) {
  start();
  const std::string phone = token_for("traveller");  // the first session: registration
  const std::string laptop = testing::cookie_token(
      testing::http_request(port_, "POST", "/api/v1/login", "Content-Type: application/json\r\n",
                            R"({"username":"traveller","password":"a fine password"})"));
  ASSERT_EQ(laptop.size(), 43u);
  const json sessions = json::parse(testing::body_of(testing::http_request(
      port_, "GET", "/api/v1/sessions", "Authorization: Bearer " + phone + "\r\n")));
  std::int64_t phone_session = 0;
  for (const auto& s : sessions["sessions"]) {
    if (s["current"]) phone_session = s["id"];
  }
  ASSERT_NE(phone_session, 0) << sessions.dump();
  auto on_phone = connect(phone);
  auto on_laptop = connect(laptop);
  auto as_guest = connect();

  // From the laptop, the phone's session is revoked: the phone's connection closes.
  const auto revoked =
      testing::http_request(port_, "DELETE", "/api/v1/sessions/" + std::to_string(phone_session),
                            "Authorization: Bearer " + laptop + "\r\n");
  ASSERT_TRUE(revoked.starts_with("HTTP/1.1 204")) << revoked;
  EXPECT_EQ(on_phone->read_until_closed(), 1008);
  on_laptop->send_text(R"({"type":"ping","cid":"laptop"})");
  EXPECT_EQ(on_laptop->wait_type("pong")["cid"], "laptop");

  // The laptop logs out: its connection closes too; a guest's is untouched.
  ASSERT_TRUE(testing::http_request(port_, "POST", "/api/v1/logout",
                                    "Authorization: Bearer " + laptop + "\r\n")
                  .starts_with("HTTP/1.1 204"));
  EXPECT_EQ(on_laptop->read_until_closed(), 1008);
  as_guest->send_text(R"({"type":"ping","cid":"guest"})");
  EXPECT_EQ(as_guest->wait_type("pong")["cid"], "guest");
}

TEST_F(LiveServer, ForeignOriginsAndUnknownPathsAreRefused) {
  start();
  EXPECT_THROW(WsClient(port_, {"", "https://evil.example.com", "/ws/v1"}),
               boost::system::system_error);
  EXPECT_NO_THROW(WsClient(port_, {"", "https://club.example.org", "/ws/v1"}));
  EXPECT_NO_THROW(WsClient(port_, {"", "http://127.0.0.1:" + std::to_string(port_), "/ws/v1"}));
  EXPECT_THROW(WsClient(port_, {"", "", "/ws/v2"}), boost::system::system_error);
}

TEST_F(LiveServer, ConnectionsPerAddressAreCapped) {
  ConnectionLimits limits = testing::LiveStack::limits();
  limits.connections_per_address = 3;
  start(limits);
  std::vector<std::unique_ptr<WsClient>> held;
  for (int i = 0; i < 3; ++i) held.push_back(connect());
  EXPECT_THROW(WsClient(port_, {}), boost::system::system_error);
  held.pop_back();
  // The server notices the close on its own strand; the next connection may need a retry.
  bool admitted = false;
  for (int attempt = 0; attempt < 50 && !admitted; ++attempt) {
    try {
      WsClient again(port_, {});
      admitted = true;
    } catch (const boost::system::system_error&) {
    }
  }
  EXPECT_TRUE(admitted);
}

TEST_F(LiveServer, AClientThatSendsNoRequestIsClosedAfterTheHandshakeTimeout) {
  ConnectionLimits limits = testing::LiveStack::limits();
  limits.handshake_timeout = std::chrono::milliseconds(300);
  start(limits);
  const std::string partial = "GET /ws/v1 HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  EXPECT_EQ(testing::send_raw_and_wait_for_close(port_, partial, std::chrono::seconds(10)), "eof")
      << "the server kept a connection that never finished its request";
}

// The pings and the idle timeout run on the injected clock: time moves only when the test says.
TEST_F(LiveServer, AClientThatAnswersNoPingsIsClosedAfterTheIdleTimeout) {
  ConnectionLimits limits = testing::LiveStack::limits();
  limits.idle_timeout = std::chrono::milliseconds(400);
  start(limits);
  auto silent = connect();  // its WebSocket answered the first ping while reading the welcome
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (stack_->metrics().ws_pongs_total < 1 && std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
  ASSERT_EQ(stack_->metrics().ws_pongs_total, 1u) << "the answer is read before time moves";
  stack_->advance(std::chrono::milliseconds(200));  // a ping, unanswered
  stack_->advance(std::chrono::milliseconds(200));  // 400 ms without a word
  EXPECT_TRUE(silent->raw_read_until_eof(std::chrono::seconds(10)));
}

TEST_F(LiveServer, PingsKeepAnAnsweringClientConnectedPastTheIdleTimeout) {
  ConnectionLimits limits = testing::LiveStack::limits();
  limits.idle_timeout = std::chrono::milliseconds(400);
  start(limits);
  auto quiet = connect();
  // The client sends nothing but its answers to the server's pings (one at the start, then one
  // every 200 ms). Time moves on only once the server has read the last answer; four moves span
  // twice the idle timeout.
  std::uint64_t answered = 1;
  const bool connected = quiet->read_while(
      [&] {
        if (stack_->metrics().ws_pongs_total < answered) return true;  // not read yet
        if (answered == 5) return false;
        stack_->advance(std::chrono::milliseconds(200));
        ++answered;
        return true;
      },
      std::chrono::seconds(10));
  EXPECT_TRUE(connected) << stack_->metrics().ws_pongs_total << " answers read";
  EXPECT_EQ(quiet->pings(), 5);
}

TEST_F(LiveServer, TheServerPingsToMeasureTheRoundTrip) {
  ConnectionLimits limits = testing::LiveStack::limits();
  limits.rtt_ping_interval = std::chrono::milliseconds(50);
  start(limits);
  auto client = connect();
  stack_->advance(std::chrono::milliseconds(50));  // the second ping
  ASSERT_TRUE(client->answer_pings(2, std::chrono::seconds(10)));
  // "t" and the server's steady time in ms: the pong brings it back for the lag estimate.
  const std::string payload = client->last_ping_payload();
  ASSERT_GE(payload.size(), 2u);
  EXPECT_EQ(payload[0], 't');
  EXPECT_EQ(payload.find_first_not_of("0123456789", 1), std::string::npos) << payload;
}

TEST_F(LiveServer, ASlowReaderIsDroppedAndTheOthersCarryOn) {
  ConnectionLimits limits = testing::LiveStack::limits();
  limits.max_queued_bytes = 32 * 1024;
  limits.messages_per_second = 1'000'000;
  limits.message_burst = 1'000'000;
  RoomOptions talkative;  // chat is the flood here: its own limits are lifted
  talkative.chat_burst = 1'000'000;
  talkative.chat_lines_per_person = 1'000'000;
  start(limits, talkative);
  auto black = connect(token_for("black"));
  auto white = connect(token_for("white"));
  const json created = black->command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
  const json accepted =
      white->command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
  const auto game = accepted["game"].get<std::int64_t>();
  expect_ack(black->command({{"type", "join"}, {"game", game}}));
  auto slow = connect(token_for("slow"));
  expect_ack(slow->command({{"type", "join"}, {"game", game}}));
  // The slow spectator stops reading; Black chats until the server gives up on it.
  const std::string line(400, 'x');
  int sent = 0;
  std::uint64_t last_seq = 0;
  while (stack_->metrics().ws_dropped_total == 0 && sent < 20'000) {
    const json ack = black->command({{"type", "chat"}, {"game", game}, {"text", line}});
    expect_ack(ack);
    last_seq = ack["seq"].get<std::uint64_t>();
    ++sent;
    black->forget();
  }
  EXPECT_EQ(stack_->metrics().ws_dropped_total, 1) << "after " << sent << " chat lines";
  EXPECT_TRUE(slow->raw_read_until_eof(std::chrono::seconds(10)));
  // The game goes on for everyone else.
  expect_ack(white->command({{"type", "join"}, {"game", game}, {"since", last_seq}}));
  expect_ack(black->command(play(game, "E5")));
  EXPECT_EQ(white->wait([](const json& m) { return m["type"] == "move"; })["vertex"], "E5");
}

// The dead-stone suggestion (up to a quarter of a second on 19×19) once ran under the lobby's one
// lock, stalling every game on the server. It runs on the worker now: while it is held back,
// other games play on, and the scoring phase starts when it comes.
TEST_F(LiveServer, OtherGamesPlayOnWhileADeadStoneSuggestionIsComputed) {
  start();
  auto new_game = [&](WsClient& black, WsClient& white) {
    const json created = black.command(
        {{"type", "create_challenge"}, {"settings", {{"width", 19}, {"color", "black"}}}});
    const auto game =
        white.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}})["game"]
            .get<std::int64_t>();
    expect_ack(black.command({{"type", "join"}, {"game", game}}));
    expect_ack(white.command({{"type", "join"}, {"game", game}}));
    return game;
  };
  auto a_black = connect(token_for("a-black"));
  auto a_white = connect(token_for("a-white"));
  auto b_black = connect(token_for("b-black"));
  auto b_white = connect(token_for("b-white"));
  const auto a = new_game(*a_black, *a_white);
  const auto b = new_game(*b_black, *b_white);
  expect_ack(a_black->command(play(a, "D4")));
  expect_ack(a_white->command(play(a, "Q16")));

  stack_->worker().close();
  expect_ack(a_black->command({{"type", "pass"}, {"game", a}}));
  expect_ack(a_white->command({{"type", "pass"}, {"game", a}}));
  EXPECT_EQ(stack_->worker().held(), 1u) << "the suggestion waits on the worker";
  for (const auto& [who, vertex] : std::vector<std::pair<WsClient*, const char*>>{
           {b_black.get(), "D4"}, {b_white.get(), "Q16"}, {b_black.get(), "Q4"}}) {
    expect_ack(who->command(play(b, vertex)));
  }
  EXPECT_EQ(b_white->wait(
                [](const json& m) { return m["type"] == "move" && m["vertex"] == "Q4"; })["color"],
            "black");
  const json early =
      a_black->command({{"type", "mark"}, {"game", a}, {"vertex", "D4"}, {"dead", true}});
  EXPECT_EQ(early["code"], "conflict") << early.dump();

  stack_->worker().open();
  const json started = a_black->wait_type("scoring_started");
  EXPECT_EQ(started["marking"]["version"], 1);
  expect_ack(a_black->command({{"type", "mark"}, {"game", a}, {"vertex", "D4"}, {"dead", true}}));
}

// A server told to stop before run() has begun (a test's stack made and dropped at once) still
// stops: the wait for a signal, begun after the stop, must not keep run() going (it did, under
// ASan's slower start, one run in a few).
TEST(HttpServerStop, AServerToldToStopBeforeItRunsStillStops) {
  Config config;
  config.address = "127.0.0.1";
  config.port = 0;
  testing::ManualTimers timers;
  Metrics metrics;
  HttpServer server(config,
                    HttpServer::Handlers{.health_json = [] { return std::string("{}"); },
                                         .not_ready = {},
                                         .api = nullptr,
                                         .accounts = nullptr,
                                         .dispatcher = nullptr,
                                         .clock = nullptr,
                                         .connection_timers = &timers,
                                         .metrics_text = {},
                                         .metrics = &metrics,
                                         .session_ended = {}},
                    testing::LiveStack::limits());
  server.stop();
  auto ran = std::async(std::launch::async, [&] { server.run(); });
  const bool stopped = ran.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
  EXPECT_TRUE(stopped) << "run() kept waiting for a signal after stop()";
  if (!stopped) std::raise(SIGTERM);  // the server's own signal wait ends it, for the next tests
}

}  // namespace
}  // namespace tengen
