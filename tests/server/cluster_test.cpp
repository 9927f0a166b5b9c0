// Several nodes over one PostgreSQL (docs/cluster.md). With the real server binary: a node that
// another has taken a game from (it was paused past its lease) can write nothing more of it and
// stops without acknowledging; restarted, it takes the game back and play goes on with every
// acknowledged move. In one process, with a real NATS between them: players on two nodes play a
// game that a spectator on a third node watches, the hub on the first; a tournament across
// nodes; big messages across the bus. A SQLite server's data moved to PostgreSQL.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <set>

#include "cluster/forwarding.h"
#include "cluster/hub_reads.h"
#include "cluster/nats_bus.h"
#include "store/postgres.h"
#include "store/postgres_leases.h"
#include "support/front_node.h"
#include "support/game_commands.h"
#include "support/live_server.h"
#include "support/node_processes.h"
#include "support/paths.h"
#include "support/run_program.h"
#include "support/server_process.h"
#include "support/temp_nats.h"
#include "support/temp_postgres.h"
#include "support/ws_client.h"

namespace tengen {
namespace {

using namespace std::chrono_literals;
using json = nlohmann::json;
using testing::WsClient;

using testing::register_user;

std::int64_t count(store::pg::Connection& db, const std::string& sql) {
  return db.query(sql).int64(0, 0);
}

TEST(Cluster, ANodeWhoseGameWasTakenOverStopsWithoutAcknowledgingAndItsRestartPlaysOn) {
  const std::string uri = testing::TempPostgres::instance().new_database_uri();
  const std::vector<std::string> node_a{"--database", uri, "--node", "a", "--lease-ttl", "60000"};
  std::optional<testing::ServerProcess> server(std::in_place, std::nullopt, 0, node_a);
  const std::string black_token = register_user(server->port(), "black");
  const std::string white_token = register_user(server->port(), "white");
  std::optional<WsClient> black(std::in_place, server->port(),
                                WsClient::Options{black_token, "", "/ws/v1"});
  std::optional<WsClient> white(std::in_place, server->port(),
                                WsClient::Options{white_token, "", "/ws/v1"});
  const json created = black->command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
  ASSERT_EQ(created["type"], "ack") << created.dump();
  const json accepted =
      white->command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
  ASSERT_EQ(accepted["type"], "ack") << accepted.dump();
  const std::int64_t game = accepted["game"];
  ASSERT_EQ(black->command({{"type", "play"}, {"game", game}, {"vertex", "E5"}})["type"], "ack");

  store::pg::Connection db(uri);
  EXPECT_EQ(count(db, "SELECT epoch FROM game_leases WHERE game_id = " + std::to_string(game)), 1)
      << "the creating node owns the game from its first row";
  // Node a is paused past its lease (as far as the others can tell), and b takes the game.
  db.exec("UPDATE nodes SET expires_at = now() - interval '1 millisecond' WHERE name = 'a'");
  store::PostgresLeases b(uri, {"b", 60s, false});
  ASSERT_EQ(b.take(game), 2);

  // a wakes up and is sent a move: the store refuses it, and a stops; the move is never
  // acknowledged, so its player will send it again wherever the game is served next.
  white->send_text(json{{"type", "play"}, {"cid", "w-1"}, {"game", game}, {"vertex", "C3"}}.dump());
  EXPECT_EQ(server->wait_for_exit(30s), 4) << "exit code 4: another node took its game";
  bool acknowledged = false;
  for (const auto& m : white->kept()) acknowledged |= m.value("cid", "") == "w-1";
  EXPECT_FALSE(acknowledged);
  const std::string moves =
      "SELECT count(*) FROM game_events WHERE kind = 'move' AND game_id = " + std::to_string(game);
  EXPECT_EQ(count(db, moves), 1) << "nothing of the stale owner's after the takeover";

  // a restarts (alone again, as one server per database still is) and serves the game: the
  // resent move is played once.
  black.reset();
  white.reset();
  server.reset();
  server.emplace(std::nullopt, 0, node_a);
  white.emplace(server->port(), WsClient::Options{white_token, "", "/ws/v1"});
  const json resent =
      white->command({{"type", "play"}, {"cid", "w-1"}, {"game", game}, {"vertex", "C3"}});
  EXPECT_EQ(resent["type"], "ack") << resent.dump();
  EXPECT_EQ(count(db, moves), 2);
  EXPECT_EQ(count(db, "SELECT epoch FROM game_leases WHERE game_id = " + std::to_string(game)), 3)
      << "taken from b, whose liveness the only server ended";
  EXPECT_EQ(server->terminate(), 0);
}

// Nodes in one process, with a real NATS and PostgreSQL between them: the hub (a whole server
// stack) and front nodes made on demand.
class NodesInOneProcess : public ::testing::Test {
 protected:
  NodesInOneProcess() { hub_bus_.flush(); }
  testing::FrontNode& front(std::int64_t node) {
    fronts_.push_back(std::make_unique<testing::FrontNode>(hub_, nats_.url(), node));
    return *fronts_.back();
  }
  // Says `messages` to the hub's gateway as if a node had, and returns once the gateway has
  // handled them: a barrier of a node that does not exist (77), answered on a subject this test
  // listens to, comes after them.
  void tell_gateway(const std::vector<protocol::bus::ToHub>& messages) {
    std::promise<void> answered;
    auto listening = hub_bus_.subscribe(protocol::bus::node_subject(77),
                                        [&](std::string_view) { answered.set_value(); });
    hub_bus_.flush();
    for (const auto& m : messages)
      hub_bus_.publish(protocol::bus::hub_subject(), protocol::bus::encode(m));
    hub_bus_.publish(protocol::bus::hub_subject(),
                     protocol::bus::encode(protocol::bus::ToHub{
                         protocol::bus::ToHub::Op::Barrier, 77, 1, {}, {}, ""}));
    ASSERT_EQ(answered.get_future().wait_for(10s), std::future_status::ready);
  }

  testing::TempNats nats_;
  testing::LiveStack hub_{testing::TempPostgres::instance().new_database_uri()};
  cluster::NatsBus hub_bus_{nats_.url(), "hub"};
  cluster::Gateway gateway_{hub_bus_, hub_.centre().router()};
  std::unique_ptr<cluster::Bus::Subscription> hub_answers_ =
      cluster::answer_hub_reads(hub_bus_, hub_.reads());
  std::vector<std::unique_ptr<testing::FrontNode>> fronts_;
};

TEST_F(NodesInOneProcess, PlayersOnTwoNodesPlayAGameThatASpectatorOnAThirdWatches) {
  auto& b = front(2);
  auto& c = front(3);

  WsClient black(hub_.port(), {hub_.token_for("black"), "", "/ws/v1"});
  black.wait_type("lobby");
  WsClient white(b.port(), {hub_.token_for("white"), "", "/ws/v1"});
  EXPECT_EQ(white.wait_type("lobby")["type"], "lobby") << "the hub's welcome, over the bus";
  WsClient watcher(c.port(), {hub_.token_for("watcher"), "", "/ws/v1"});
  watcher.wait_type("lobby");
  hub_.advance(Lobby::kPresenceInterval);
  const json presence = black.wait_type("presence");
  EXPECT_EQ(presence["online_count"], 3) << presence.dump() << ": the other nodes' players too";

  const json created = black.command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
  ASSERT_EQ(created["type"], "ack") << created.dump();
  EXPECT_EQ(white.wait_type("challenge_opened")["challenge"]["id"], created["challenge"]);
  const json accepted =
      white.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
  ASSERT_EQ(accepted["type"], "ack") << accepted.dump();
  const std::int64_t game = accepted["game"];
  EXPECT_EQ(black.wait_type("game_started")["game"], game);
  ASSERT_EQ(black.command({{"type", "join"}, {"game", game}})["type"], "ack");
  ASSERT_EQ(white.command({{"type", "join"}, {"game", game}})["type"], "ack");
  ASSERT_EQ(watcher.command({{"type", "join"}, {"game", game}})["type"], "ack");
  EXPECT_EQ(watcher.wait_type("snapshot")["game"], game);

  const char* moves[] = {"E5", "C3", "G7", "C7", "G3", "E3"};
  for (int i = 0; i < 6; ++i) {
    WsClient& mover = i % 2 == 0 ? black : white;
    const json ack = mover.command({{"type", "play"}, {"game", game}, {"vertex", moves[i]}});
    ASSERT_EQ(ack["type"], "ack") << moves[i] << ": " << ack.dump();
    const auto seq = ack["seq"].get<std::uint64_t>();
    // The same event, to the same byte, on all three nodes.
    const json seen = watcher.wait_event(game, seq);
    EXPECT_EQ(seen["vertex"], moves[i]);
    EXPECT_EQ((i % 2 == 0 ? white : black).wait_event(game, seq), seen);
    EXPECT_EQ(mover.wait_event(game, seq), seen);
  }
  ASSERT_EQ(white.command({{"type", "resign"}, {"game", game}})["type"], "ack");
  for (WsClient* client : {&black, &white, &watcher}) {
    EXPECT_EQ(client->wait_type("game_ended")["reason"], "resignation");
  }
  EXPECT_EQ(gateway_.connections(), 2u) << "white's and the watcher's, as the hub sees them";
  EXPECT_EQ(hub_.games().game(game)->result, "B+R") << "stored by the hub";
}

// The bus comes back after a cut (or the hub says again that it is the hub): a front node
// attaches its connections to the hub again without closing them. The client is told to resync
// on its socket, gets a fresh lobby, joins its game again from the last event it saw and plays
// on; the hub replaced the connection's stand-in rather than adding one.
TEST_F(NodesInOneProcess, AFrontNodeAttachesItsConnectionsAgainWithoutClosingThem) {
  auto& b = front(2);
  WsClient black(hub_.port(), {hub_.token_for("black"), "", "/ws/v1"});
  black.wait_type("lobby");
  WsClient white(b.port(), {hub_.token_for("white"), "", "/ws/v1"});
  white.wait_type("lobby");
  const json created = black.command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
  const json accepted =
      white.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
  ASSERT_EQ(accepted["type"], "ack") << accepted.dump();
  const std::int64_t game = accepted["game"];
  ASSERT_EQ(black.command({{"type", "join"}, {"game", game}})["type"], "ack");
  ASSERT_EQ(white.command({{"type", "join"}, {"game", game}})["type"], "ack");
  const json e5 = black.command({{"type", "play"}, {"game", game}, {"vertex", "E5"}});
  ASSERT_EQ(e5["type"], "ack") << e5.dump();
  white.wait_event(game, e5["seq"]);
  ASSERT_EQ(gateway_.connections(), 1u);

  EXPECT_EQ(b.dispatcher().reattach("bus"), 1u);
  EXPECT_EQ(white.wait_type("resync")["reason"], "bus");
  EXPECT_EQ(white.wait_type("lobby")["type"], "lobby") << "a fresh lobby from the hub";
  EXPECT_EQ(gateway_.connections(), 1u) << "the stand-in replaced, not added";
  const json rejoined = white.command({{"type", "join"}, {"game", game}, {"since", e5["seq"]}});
  ASSERT_EQ(rejoined["type"], "ack") << rejoined.dump();
  const json c3 = white.command({{"type", "play"}, {"game", game}, {"vertex", "C3"}});
  ASSERT_EQ(c3["type"], "ack") << c3.dump();
  EXPECT_EQ(black.wait_event(game, c3["seq"])["vertex"], "C3");
  const json g7 = black.command({{"type", "play"}, {"game", game}, {"vertex", "G7"}});
  EXPECT_EQ(white.wait_event(game, g7["seq"])["vertex"], "G7") << "events reach the new stand-in";
  hub_.advance(Lobby::kPresenceInterval);
  EXPECT_EQ(black.wait_type("presence")["online_count"], 2) << "both still online, once each";
}

// The hub still holds a connection of a front node's that the front node no longer holds (its
// departure lost with the bus, or the node's last life): a ghost in the lobby's presence and in
// its rooms, which would keep its player "present" in a game for ever. The front node's roll
// call, when it attaches its connections again, lets it go.
TEST_F(NodesInOneProcess, ARollCallLetsGoOfAFrontNodesConnectionsItNoLongerHolds) {
  auto& b = front(2);
  WsClient black(hub_.port(), {hub_.token_for("black"), "", "/ws/v1"});
  black.wait_type("lobby");
  WsClient white(b.port(), {hub_.token_for("white"), "", "/ws/v1"});
  white.wait_type("lobby");
  hub_.token_for("ghost");
  const auto ghost = hub_.accounts().find_user("ghost");
  ASSERT_TRUE(ghost);
  // The ghost: node 2's connection 999, announced and never said gone.
  using protocol::bus::ToHub;
  tell_gateway(
      {ToHub{ToHub::Op::Connected, 2, 999, protocol::bus::User{ghost->id, "ghost"}, {}, ""}});
  EXPECT_EQ(gateway_.connections(), 2u) << "white's, and the ghost";
  hub_.advance(Lobby::kPresenceInterval);
  EXPECT_EQ(black.wait_type("presence")["online_count"], 3) << "the ghost counted";

  EXPECT_EQ(b.dispatcher().reattach("bus"), 1u);
  EXPECT_EQ(white.wait_type("resync")["reason"], "bus");
  // Through the hub after the roll call's end: the hub has it.
  ASSERT_EQ(white.command({{"type", "my_games"}})["type"], "ack");
  EXPECT_EQ(gateway_.connections(), 1u) << "the ghost let go";
  hub_.advance(Lobby::kPresenceInterval);
  EXPECT_EQ(black.wait_type("presence")["online_count"], 2) << "black and white only";
}

// The hub does not know a connection a front node holds (its announcement lost on the bus; here
// a roll call of none, made by the test as if from the front node, let it go): a command from
// it is not dropped in silence. The hub tells the front node, which attaches it again and tells
// its client to resync; the command sent again is answered.
TEST_F(NodesInOneProcess, AConnectionTheHubDoesNotKnowIsAttachedAgain) {
  auto& b = front(2);
  WsClient white(b.port(), {hub_.token_for("white"), "", "/ws/v1"});
  white.wait_type("lobby");
  ASSERT_EQ(gateway_.connections(), 1u);
  using protocol::bus::ToHub;
  tell_gateway(
      {ToHub{ToHub::Op::RollCall, 2, 0, {}, {}, ""}, ToHub{ToHub::Op::RollEnd, 2, 0, {}, {}, ""}});
  ASSERT_EQ(gateway_.connections(), 0u) << "the hub let go of it";

  const std::string asked = json{{"type", "my_games"}, {"cid", "w-1"}}.dump();
  white.send_text(asked);
  EXPECT_EQ(white.wait_type("resync")["reason"], "lost");
  white.send_text(asked);  // as the web client does: what was not answered, again
  EXPECT_EQ(white.wait([](const json& m) { return m.value("cid", "") == "w-1"; })["type"], "ack");
  EXPECT_EQ(gateway_.connections(), 1u);
}

// A tournament whose players sit on two front nodes: they register there, its round's games
// start there, and their results finish it on the hub_.
TEST_F(NodesInOneProcess, ATournamentRoundSpansNodes) {
  auto& b = front(2);
  auto& c = front(3);
  std::map<std::string, std::unique_ptr<WsClient>> players;
  const std::map<std::string, int> node_of{{"tdir", hub_.port()},
                                           {"amy", b.port()},
                                           {"bob", b.port()},
                                           {"cat", c.port()},
                                           {"dan", c.port()}};
  for (const auto& [name, port] : node_of) {
    players[name] =
        std::make_unique<WsClient>(port, WsClient::Options{hub_.token_for(name), "", "/ws/v1"});
    players[name]->wait_type("lobby");
  }
  const json created =
      players["tdir"]->command({{"type", "create_tournament"},
                                {"settings",
                                 {{"name", "Across"},
                                  {"system", "swiss"},
                                  {"rounds", 1},
                                  {"game", {{"width", 9}, {"time", {{"system", "none"}}}}}}}});
  ASSERT_EQ(created["type"], "ack") << created.dump();
  const auto id = created["tournament"];
  for (const char* name : {"amy", "bob", "cat", "dan"}) {
    const json registered =
        players[name]->command({{"type", "tournament_register"}, {"tournament", id}});
    ASSERT_EQ(registered["type"], "ack") << name << ": " << registered.dump();
  }
  ASSERT_EQ(players["tdir"]->command({{"type", "tournament_start"}, {"tournament", id}})["type"],
            "ack");
  // Each player hears of their game on their own node; Black resigns each.
  std::set<std::int64_t> games;
  for (const char* name : {"amy", "bob", "cat", "dan"}) {
    const json started = players[name]->wait_type("game_started");
    games.insert(started["game"].get<std::int64_t>());
    if (started["black"]["name"] == name) {
      const json resigned = players[name]->command({{"type", "resign"}, {"game", started["game"]}});
      ASSERT_EQ(resigned["type"], "ack") << name << ": " << resigned.dump();
    }
  }
  EXPECT_EQ(games.size(), 2u);
  const std::string page = "/api/v1/tournaments/" + id.dump();
  const json view = json::parse(testing::body_of(testing::http_get(hub_.port(), page)));
  EXPECT_EQ(view["status"], "finished") << view.dump();
  int wins = 0;
  for (const auto& g : view["round_list"][0]["games"]) wins += g["result"] == "white";
  EXPECT_EQ(wins, 2) << view.dump();
  EXPECT_EQ(gateway_.connections(), 4u);
  // The tournament's pages are the same whichever node serves them (the front nodes ask the hub).
  for (const auto* front : {&b, &c}) {
    EXPECT_EQ(json::parse(testing::body_of(testing::http_get(front->port(), page))), view);
    EXPECT_EQ(testing::body_of(testing::http_get(front->port(), "/api/v1/tournaments?limit=5")),
              testing::body_of(testing::http_get(hub_.port(), "/api/v1/tournaments?limit=5")));
  }
}

// What only the hub's memory holds, asked of a front node's HTTP API: the record of a game in
// play comes from the hub over the bus, to the byte; a private game's record still only to its
// players; no such game is 404; and with no hub answering, 503 with a Retry-After at once.
TEST_F(NodesInOneProcess, AFrontNodeServesTheRecordOfAGameInPlayFromTheHub) {
  auto& b = front(2);
  const std::string black_token = hub_.token_for("black");
  WsClient black(hub_.port(), {black_token, "", "/ws/v1"});
  WsClient white(b.port(), {hub_.token_for("white"), "", "/ws/v1"});
  white.wait_type("lobby");
  std::int64_t games[2];
  for (bool is_private : {false, true}) {
    const json created =
        black.command({{"type", "create_challenge"},
                       {"settings", {{"width", 9}, {"color", "black"}, {"private", is_private}}}});
    ASSERT_EQ(created["type"], "ack") << created.dump();
    const json accepted =
        white.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
    ASSERT_EQ(accepted["type"], "ack") << accepted.dump();
    const std::int64_t game = accepted["game"];
    games[is_private] = game;
    ASSERT_EQ(black.command({{"type", "play"}, {"game", game}, {"vertex", "E5"}})["type"], "ack");
    ASSERT_EQ(white.command({{"type", "play"}, {"game", game}, {"vertex", "C3"}})["type"], "ack");
  }
  const auto sgf = [](int port, std::int64_t game, const std::string& token = "") {
    return testing::http_request(port, "GET", "/api/v1/games/" + std::to_string(game) + ".sgf",
                                 token.empty() ? "" : "Authorization: Bearer " + token + "\r\n",
                                 "");
  };
  const std::string from_hub = sgf(hub_.port(), games[0]);
  const std::string from_front = sgf(b.port(), games[0]);
  EXPECT_NE(from_front.find("200 OK"), std::string::npos) << from_front;
  EXPECT_NE(testing::body_of(from_front).find(";B[ee];W[cg]"), std::string::npos) << from_front;
  EXPECT_EQ(testing::body_of(from_front), testing::body_of(from_hub));
  EXPECT_NE(sgf(b.port(), games[1]).find("404"), std::string::npos) << "private: not to a guest";
  EXPECT_NE(sgf(b.port(), games[1], black_token).find("200 OK"), std::string::npos)
      << "private: to its player";
  EXPECT_NE(sgf(b.port(), 999).find("404"), std::string::npos);

  // The private game's review, asked of the front node: the hub answers as the asker may see.
  ASSERT_EQ(black.command({{"type", "resign"}, {"game", games[1]}})["type"], "ack");
  hub_.journal().barrier().wait();
  const std::string opened = testing::http_request(
      b.port(), "POST", "/api/v1/reviews",
      "Content-Type: application/json\r\nAuthorization: Bearer " + black_token + "\r\n",
      json{{"game", games[1]}}.dump());
  ASSERT_NE(opened.find("201"), std::string::npos) << opened;
  const auto review = json::parse(testing::body_of(opened))["review"]["id"].get<std::int64_t>();
  const auto get = [&](const std::string& target, const std::string& token = "") {
    return testing::http_request(b.port(), "GET", target,
                                 token.empty() ? "" : "Authorization: Bearer " + token + "\r\n",
                                 "");
  };
  const std::string review_sgf = "/api/v1/reviews/" + std::to_string(review) + ".sgf";
  EXPECT_EQ(json::parse(testing::body_of(get("/api/v1/reviews")))["reviews"].size(), 0U);
  EXPECT_EQ(json::parse(testing::body_of(get("/api/v1/reviews", black_token)))["reviews"].size(),
            1U);
  EXPECT_NE(get(review_sgf).find("404"), std::string::npos) << "not to a guest";
  EXPECT_NE(get(review_sgf, black_token).find("200 OK"), std::string::npos) << "to its player";
  WsClient guest(b.port(), {"", "", "/ws/v1"});
  guest.wait_type("lobby");
  EXPECT_EQ(guest.command({{"type", "review_join"}, {"review", review}})["code"], "not_found");
  EXPECT_EQ(white.command({{"type", "review_join"}, {"review", review}})["type"], "ack");

  hub_answers_.reset();  // the hub stops answering (as while a hub is changing over)
  const std::string refused = sgf(b.port(), games[0]);
  EXPECT_NE(refused.find("503"), std::string::npos) << refused;
  EXPECT_NE(refused.find("Retry-After: 2"), std::string::npos) << refused;
  EXPECT_NE(testing::body_of(refused).find("did not answer"), std::string::npos) << refused;
  const std::string list = testing::http_get(b.port(), "/api/v1/tournaments");
  EXPECT_NE(list.find("503"), std::string::npos) << list;
  EXPECT_NE(testing::http_get(b.port(), "/api/v1/games?status=live").find("200 OK"),
            std::string::npos)
      << "what the store holds, any node answers by itself";
}

// A review board opened, listed, followed and downloaded through a front node: the hub holds it
// (docs/reviews.md), the front node asks over the bus and forwards the WebSocket commands.
// Moderation through a front node (docs/moderation.md): a block reaches the hub's lobby, and an
// administrator's deletion of a chat line reaches the hub's room, both over the bus.
TEST_F(NodesInOneProcess, BlocksAndAnAdministratorsActionTravelFromAFrontNodeToTheHub) {
  auto& b = front(2);
  const std::string calm = hub_.token_for("calm");
  hub_.clock().advance(std::chrono::seconds(6));
  const std::string pest = hub_.token_for("pest");
  hub_.clock().advance(std::chrono::seconds(6));
  const std::string root = hub_.token_for("root");
  ASSERT_TRUE(hub_.moderation().set_admin(hub_.accounts().find_user("root")->id, true,
                                          {.at_ms = 1, .action = "make_admin"}));
  const auto post = [&](const std::string& token, const std::string& target,
                        const std::string& body) {
    return testing::http_request(
        b.port(), "POST", target,
        "Content-Type: application/json\r\nAuthorization: Bearer " + token + "\r\n", body);
  };
  ASSERT_NE(post(calm, "/api/v1/blocks", R"({"user":"pest"})").find("200 OK"), std::string::npos);
  WsClient p(b.port(), {pest, "", "/ws/v1"});
  p.wait_type("lobby");
  const json refused = p.command({{"type", "create_challenge"},
                                  {"opponent", "calm"},
                                  {"settings", {{"width", 9}, {"color", "black"}}}});
  EXPECT_EQ(refused["code"], "forbidden") << "the hub knows the block: " << refused.dump();

  WsClient c(b.port(), {root, "", "/ws/v1"});
  c.wait_type("lobby");
  const json created =
      p.command({{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
  const std::int64_t game =
      c.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}})["game"];
  ASSERT_EQ(c.command({{"type", "join"}, {"game", game}})["type"], "ack");
  ASSERT_EQ(p.command({{"type", "chat"}, {"game", game}, {"text", "rude"}})["type"], "ack");
  const std::int64_t line = c.wait_type("chat")["line"]["seq"];
  const std::string deleted = post(root, "/api/v1/admin/games/" + std::to_string(game),
                                   json{{"action", "delete_chat"}, {"line", line}}.dump());
  EXPECT_NE(deleted.find("200 OK"), std::string::npos) << deleted;
  EXPECT_EQ(c.wait_type("chat_deleted")["line"], line);
}

TEST_F(NodesInOneProcess, AReviewIsOpenedAndFollowedThroughAFrontNode) {
  auto& b = front(2);
  const std::string token = hub_.token_for("teacher");
  const std::string opened = testing::http_request(
      b.port(), "POST", "/api/v1/reviews",
      "Content-Type: application/json\r\nAuthorization: Bearer " + token + "\r\n",
      R"x({"sgf": "(;SZ[9]GN[Ladder];B[cc](;W[dd])(;W[gg]))"})x");
  ASSERT_NE(opened.find("201"), std::string::npos) << opened;
  const auto id = json::parse(testing::body_of(opened))["review"]["id"].get<std::int64_t>();
  const std::string list = testing::http_get(b.port(), "/api/v1/reviews");
  EXPECT_NE(list.find("\"title\":\"Ladder\""), std::string::npos) << list;
  WsClient teacher(b.port(), {token, "", "/ws/v1"});
  teacher.wait_type("lobby");
  ASSERT_EQ(teacher.command({{"type", "review_join"}, {"review", id}})["type"], "ack");
  EXPECT_EQ(teacher.wait_type("review_snapshot")["nodes"].size(), 4U);
  ASSERT_EQ(teacher.command({{"type", "review_play"}, {"review", id}, {"vertex", "E5"}})["type"],
            "ack");
  const std::string sgf =
      testing::http_get(b.port(), "/api/v1/reviews/" + std::to_string(id) + ".sgf");
  EXPECT_NE(sgf.find("200 OK"), std::string::npos) << sgf;
  EXPECT_NE(sgf.find(";B[ee]"), std::string::npos) << sgf;
  EXPECT_NE(testing::http_get(b.port(), "/api/v1/reviews/999.sgf").find("404"), std::string::npos);
}

// An operator moves a server from its SQLite file to PostgreSQL with the real binary: stop it,
// --import-sqlite, start it on PostgreSQL; the players' sessions still hold and the game in play
// goes on from where it was.
TEST(Cluster, AServersSqliteDataMovesToPostgresAndTheGameGoesOn) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("tengen-import-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  const std::string uri = testing::TempPostgres::instance().new_database_uri();
  std::string white_token;
  std::int64_t game = 0;
  {
    testing::ServerProcess sqlite_server(dir / "sqlite");
    const std::string black_token = register_user(sqlite_server.port(), "black");
    white_token = register_user(sqlite_server.port(), "white");
    WsClient black(sqlite_server.port(), {black_token, "", "/ws/v1"});
    WsClient white(sqlite_server.port(), {white_token, "", "/ws/v1"});
    const json created = black.command(
        {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
    game =
        white.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}})["game"];
    ASSERT_EQ(black.command({{"type", "play"}, {"game", game}, {"vertex", "E5"}})["type"], "ack");
    black.close();
    white.close();
    ASSERT_EQ(sqlite_server.terminate(), 0);
  }
  const std::string command = tengen::testing::paths::server_binary() + " --import-sqlite " +
                              (dir / "sqlite" / "test.sqlite3").string() + " --database '" + uri +
                              "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string said;
  char buf[256];
  while (std::fgets(buf, sizeof buf, pipe)) said += buf;
  const int status = pclose(pipe);
  ASSERT_EQ(WEXITSTATUS(status), 0) << said;
  EXPECT_NE(said.find("users: 2 rows"), std::string::npos) << said;
  EXPECT_NE(said.find("game_events:"), std::string::npos) << said;

  testing::ServerProcess postgres_server(dir / "postgres", 0, {"--database", uri});
  WsClient white(postgres_server.port(), {white_token, "", "/ws/v1"});
  EXPECT_EQ(white.wait_type("welcome")["user"]["name"], "white") << "the session came along";
  ASSERT_EQ(white.command({{"type", "join"}, {"game", game}})["type"], "ack");
  EXPECT_EQ(white.wait_type("snapshot")["moves"].size(), 1u);
  const json played = white.command({{"type", "play"}, {"game", game}, {"vertex", "C3"}});
  EXPECT_EQ(played["type"], "ack") << played.dump();
  white.close();
  EXPECT_EQ(postgres_server.terminate(), 0);
  std::filesystem::remove_all(dir);
}

// What is bigger than one bus message carries (a resumption of a game with a long chat, sent at
// once) reaches a front node's client whole and in order.
TEST_F(NodesInOneProcess, AGamesLongChatReachesAFrontNodesSpectatorWholeAndInOrder) {
  auto& b = front(2);
  WsClient black(hub_.port(), {hub_.token_for("black"), "", "/ws/v1"});
  WsClient white(hub_.port(), {hub_.token_for("white"), "", "/ws/v1"});
  const json created = black.command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
  const std::int64_t game =
      white.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}})["game"];
  ASSERT_EQ(black.command({{"type", "join"}, {"game", game}})["type"], "ack");
  // Lines of 1,000 bytes that JSON writes in twice as many: ~400 KiB of events, which a
  // resumption still sends one by one (up to 512 KiB), in one go.
  constexpr int kLines = 200;
  for (int i = 0; i < kLines; ++i) {
    std::string line = std::to_string(i) + ":";
    line.resize(1000, '"');
    const json said = black.command({{"type", "chat"}, {"game", game}, {"text", line}});
    ASSERT_EQ(said["type"], "ack") << i << ": " << said.dump();
    hub_.advance(std::chrono::seconds(2));  // the chat limit's refill
  }
  WsClient watcher(b.port(), {hub_.token_for("watcher"), "", "/ws/v1"});
  watcher.wait_type("lobby");
  watcher.forget();
  const json joined = watcher.command({{"type", "join"}, {"game", game}, {"since", 0}});
  ASSERT_EQ(joined["type"], "ack") << joined.dump();
  ASSERT_EQ(black.command({{"type", "chat"}, {"game", game}, {"text", "after"}})["type"], "ack");
  // Every line, in the order said, then the one said after the join.
  std::size_t bytes = 0;
  int next = 0;
  for (;;) {
    const json m = watcher.wait_type("chat");
    bytes += m.dump().size();
    const auto text = m["line"]["text"].get<std::string>();
    if (text == "after") break;
    ASSERT_EQ(text.substr(0, text.find(':') + 1), std::to_string(next) + ":");
    ++next;
  }
  EXPECT_EQ(next, kLines);
  EXPECT_GT(bytes, 256u * 1024) << "more than one bus message carried it";
}

// Three tengen-server processes over one PostgreSQL and a NATS: the first to start is the hub,
// the others front nodes. Black plays through one front node, White through the other, a
// spectator watches on the hub; the hub is killed with SIGKILL mid-game; a front node becomes the
// hub, and the front nodes' clients are not closed: each is told to resync on its socket, gets
// a fresh lobby, sends the move that was in flight again under its cid (played once) and joins
// the game again from the last sequence number it saw; the spectator, whose node died, reconnects
// elsewhere; the game goes on to its end, rated once. (The other tests here run as clusters run
// by default: games on every node.)
class ThreeNodes : public ::testing::Test {
 protected:
  ThreeNodes() : uri_(testing::TempPostgres::instance().new_database_uri()) {}
  void start(int i, const std::vector<std::string>& extra = {}) {
    nodes_.start(i, uri_, nats_.url(), extra);
  }
  testing::ServerProcess& node(int i) { return nodes_.node(i); }
  json health(int i) { return nodes_.health(i); }

  testing::TempNats nats_;
  std::string uri_;
  testing::NodeProcesses nodes_{"cluster"};
};

TEST_F(ThreeNodes, TheHubIsKilledMidGameAndTheGameGoesOnThroughTheOthers) {
  // Every game on the hub (--games hub): the hub's own failover, its game taken over by the new
  // hub (every_node_test.cpp has the game played on a front node, which the hub's death spares).
  for (const int i : {0, 1, 2}) start(i, {"--games", "hub"});
  EXPECT_EQ(health(0)["role"], "hub");
  EXPECT_EQ(health(1)["role"], "front");
  EXPECT_EQ(health(2)["role"], "front");
  const std::string metrics = testing::body_of(testing::http_get(node(1).port(), "/metrics"));
  EXPECT_NE(metrics.find("\ntengen_node_is_hub 0\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("\ntengen_lease_renewals_total "), std::string::npos) << metrics;
  const std::string black_token = register_user(node(1).port(), "black");
  const std::string white_token = register_user(node(2).port(), "white");
  const std::string watcher_token = register_user(node(0).port(), "watcher");
  auto connect = [](int port, const std::string& token) {
    auto c = std::make_unique<WsClient>(port, WsClient::Options{token, "", "/ws/v1"});
    c->wait_type("lobby");
    return c;
  };
  auto black = connect(node(1).port(), black_token);
  auto white = connect(node(2).port(), white_token);
  auto watcher = connect(node(0).port(), watcher_token);

  const json created =
      black->command({{"type", "create_challenge"},
                      {"settings", {{"width", 9}, {"color", "black"}, {"rated", true}}}});
  ASSERT_EQ(created["type"], "ack") << created.dump();
  const json accepted =
      white->command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
  ASSERT_EQ(accepted["type"], "ack") << accepted.dump();
  const std::int64_t game = accepted["game"];
  for (auto* c : {black.get(), white.get(), watcher.get()})
    ASSERT_EQ(c->command({{"type", "join"}, {"game", game}})["type"], "ack");
  std::uint64_t seq = 0;
  const char* opening[] = {"E5", "C3", "G7", "C7"};
  for (int i = 0; i < 4; ++i) {
    WsClient& mover = i % 2 == 0 ? *black : *white;
    const json ack = mover.command({{"type", "play"}, {"game", game}, {"vertex", opening[i]}});
    ASSERT_EQ(ack["type"], "ack") << ack.dump();
    seq = ack["seq"];
    EXPECT_EQ(watcher->wait_event(game, seq)["vertex"], opening[i]) << "seen on the hub";
  }

  // Black sends a move, and the hub dies before (or after) applying it: no ack is awaited.
  // A game in play's record, the same from the hub and a front node (which asks the hub).
  const std::string record = "/api/v1/games/" + std::to_string(game) + ".sgf";
  const std::string sgf_before = testing::body_of(testing::http_get(node(0).port(), record));
  EXPECT_NE(sgf_before.find(";W[cc]"), std::string::npos) << sgf_before;
  EXPECT_EQ(testing::body_of(testing::http_get(node(2).port(), record)), sgf_before);

  black->send_text(json{{"type", "play"}, {"cid", "b-3"}, {"game", game}, {"vertex", "G3"}}.dump());
  const auto killed = std::chrono::steady_clock::now();
  node(0).kill9();
  // A front node takes the hub lock, recovers the game, and says so: both fronts' clients are
  // told to resync, on the sockets they have, and get the new hub's lobby.
  for (auto* c : {black.get(), white.get()}) {
    EXPECT_EQ(c->wait_type("resync")["reason"], "hub");
    EXPECT_EQ(c->wait_type("lobby")["type"], "lobby") << "from the new hub";
  }
  const auto reattached = std::chrono::steady_clock::now();
  const int new_hub = health(1)["role"] == "hub" ? 1 : 2;
  EXPECT_EQ(health(new_hub)["role"], "hub");
  EXPECT_EQ(health(3 - new_hub)["role"], "front");
  const std::string after = testing::body_of(testing::http_get(node(new_hub).port(), "/metrics"));
  EXPECT_NE(after.find("\ntengen_node_is_hub 1\n"), std::string::npos) << after;
  EXPECT_NE(after.find("\ntengen_games_taken_over_total 1\n"), std::string::npos) << after;
  for (const int i : {1, 2}) {  // each front node's one player, attached again once
    const std::string m = testing::body_of(testing::http_get(node(i).port(), "/metrics"));
    EXPECT_NE(m.find("\ntengen_bus_resyncs_total 1\n"), std::string::npos) << m;
    EXPECT_NE(m.find("\ntengen_ws_reattached_total 1\n"), std::string::npos) << m;
  }

  watcher = connect(node(3 - new_hub).port(), watcher_token);  // its node is gone: another one
  // The move in flight, again under its cid on the same socket: applied once, whether or not the
  // dead hub had.
  const json resent =
      black->command({{"type", "play"}, {"cid", "b-3"}, {"game", game}, {"vertex", "G3"}});
  ASSERT_EQ(resent["type"], "ack") << resent.dump();
  const auto played = std::chrono::steady_clock::now();
  EXPECT_EQ(resent["seq"], seq + 1);
  std::printf(
      "hub killed -> clients told to resync: %lld ms; -> the resent move played: %lld ms\n",
      static_cast<long long>(
          std::chrono::duration_cast<std::chrono::milliseconds>(reattached - killed).count()),
      static_cast<long long>(
          std::chrono::duration_cast<std::chrono::milliseconds>(played - killed).count()));

  ASSERT_EQ(black->command({{"type", "join"}, {"game", game}, {"since", seq + 1}})["type"], "ack");
  for (auto* c : {white.get(), watcher.get()}) {
    ASSERT_EQ(c->command({{"type", "join"}, {"game", game}, {"since", 0}})["type"], "ack");
    EXPECT_EQ(c->wait_event(game, seq + 1)["vertex"], "G3") << "every event, from the start";
  }
  const std::string sgf_after =
      testing::body_of(testing::http_get(node(3 - new_hub).port(), record));
  EXPECT_NE(sgf_after.find(";B[gg]"), std::string::npos)
      << "the front node that is left asks the new hub: " << sgf_after;
  const json e3 = white->command({{"type", "play"}, {"game", game}, {"vertex", "E3"}});
  ASSERT_EQ(e3["type"], "ack") << e3.dump();
  EXPECT_EQ(watcher->wait_event(game, e3["seq"])["vertex"], "E3");
  ASSERT_EQ(white->command({{"type", "resign"}, {"game", game}})["type"], "ack");
  EXPECT_EQ(black->wait_type("game_ended")["reason"], "resignation");
  EXPECT_EQ(watcher->wait_type("game_ended")["reason"], "resignation");

  store::pg::Connection db(uri_);
  EXPECT_EQ(count(db, "SELECT count(*) FROM game_events WHERE kind = 'move' AND game_id = " +
                          std::to_string(game)),
            6)
      << "four before, the resent one once, and White's";
  EXPECT_EQ(count(db, "SELECT epoch FROM game_leases WHERE game_id = " + std::to_string(game)), 2)
      << "taken over once";
  EXPECT_EQ(
      count(db, "SELECT count(*) FROM rating_history WHERE game_id = " + std::to_string(game)), 2)
      << "the rated game's ratings, applied once for each player";
  black.reset();
  white.reset();
  watcher.reset();
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(2).terminate(), 0);
}

// A front node killed with SIGKILL and never started again: its players' stand-ins on the hub
// leave their games and the lobby's presence once the hub has found the node dead for a lease
// (its row expired, or no session of its own in the database) — before, they stayed "present"
// for ever and the opponent could never claim the game. The opponent, on another node, is told
// Black left (the countdown starts), sees Black go offline, and is not closed nor told to
// resync; Black, back through the other front node, returns to the game.
TEST_F(ThreeNodes, AFrontNodeKilledAndNeverStartedAgainLeavesItsPlayersGamesAndPresence) {
  start(0);  // leases of one second (NodeProcesses)
  start(1);
  start(2);
  ASSERT_EQ(health(1)["role"], "front");
  const std::string black_token = register_user(node(1).port(), "black");
  const std::string white_token = register_user(node(2).port(), "white");
  auto black =
      std::make_unique<WsClient>(node(1).port(), WsClient::Options{black_token, "", "/ws/v1"});
  WsClient white(node(2).port(), {white_token, "", "/ws/v1"});
  black->wait_type("lobby");
  white.wait_type("lobby");
  const json created = black->command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
  ASSERT_EQ(created["type"], "ack") << created.dump();
  const json accepted =
      white.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
  ASSERT_EQ(accepted["type"], "ack") << accepted.dump();
  const std::int64_t game = accepted["game"];
  for (auto* c : {black.get(), &white})
    ASSERT_EQ(c->command({{"type", "join"}, {"game", game}})["type"], "ack");
  ASSERT_EQ(black->command({{"type", "play"}, {"game", game}, {"vertex", "E5"}})["type"], "ack");
  ASSERT_EQ(white.command({{"type", "play"}, {"game", game}, {"vertex", "C3"}})["type"], "ack");
  white.forget();

  const auto killed = std::chrono::steady_clock::now();
  node(1).kill9();
  black.reset();  // its socket went with the node
  const json left = white.wait_type("player_left");
  const auto told = std::chrono::steady_clock::now();
  EXPECT_EQ(left["game"], game);
  EXPECT_EQ(left["absence"]["color"], "black") << left.dump();
  EXPECT_TRUE(left["absence"].contains("claim_in_ms")) << "Black's move: the countdown runs";
  const json offline = white.wait([](const json& m) {
    return m["type"] == "presence" && !m["offline"].empty() && m["offline"][0]["name"] == "black";
  });
  EXPECT_EQ(offline["online_count"], 1) << offline.dump();
  const auto after = std::chrono::duration_cast<std::chrono::milliseconds>(told - killed).count();
  std::printf("front node killed -> its player's opponent told they left: %lld ms\n",
              static_cast<long long>(after));
  EXPECT_LT(after, 4000) << "a lease (1 s) and two looks, with room for a slow machine";
  for (const auto& m : white.kept())
    EXPECT_NE(m["type"], "resync") << "White's node lost nothing: " << m.dump();

  // Black comes back through the other front node, and is back in the game.
  WsClient back(node(2).port(), {black_token, "", "/ws/v1"});
  back.wait_type("lobby");
  ASSERT_EQ(back.command({{"type", "join"}, {"game", game}})["type"], "ack");
  EXPECT_EQ(white.wait_type("player_returned")["color"], "black");
  ASSERT_EQ(back.command({{"type", "play"}, {"game", game}, {"vertex", "G7"}})["type"], "ack");
  EXPECT_EQ(node(2).terminate(), 0);
  EXPECT_EQ(node(0).terminate(), 0);
}

// A class (docs/classes.md) made through a front node: the hub learns its protection over the bus
// (an outsider on the hub cannot challenge a student) and makes its round robin when the front
// node asks, the student on the front node getting the first game.
TEST_F(ThreeNodes, AClassMadeOnAFrontNodeIsKeptApartAndPlaysItsRoundRobinOnTheHub) {
  start(0, {"--teachers", "anyone"});
  start(1, {"--teachers", "anyone"});
  ASSERT_EQ(health(1)["role"], "front");
  const std::string teacher = register_user(node(1).port(), "tess");
  const auto post = [&](const std::string& path, const json& body) {
    return testing::http_request(
        node(1).port(), "POST", path,
        "Authorization: Bearer " + teacher + "\r\nContent-Type: application/json\r\n", body.dump());
  };
  const std::string made =
      post("/api/v1/classes", {{"name", "Group 7"}, {"students", {"Ann", "Ben"}}});
  ASSERT_TRUE(made.starts_with("HTTP/1.1 201")) << made;
  const json cards = json::parse(testing::body_of(made));
  const auto log_in = [&](const json& card) {
    return testing::cookie_token(testing::http_request(
        node(1).port(), "POST", "/api/v1/login", "Content-Type: application/json\r\n",
        json{{"username", card["user"]["name"]}, {"password", card["password"]}}.dump()));
  };
  WsClient ann(node(1).port(), WsClient::Options{log_in(cards["students"][0]), "", "/ws/v1"});
  ann.wait_type("lobby");
  WsClient outsider(node(0).port(),
                    WsClient::Options{register_user(node(0).port(), "olly"), "", "/ws/v1"});
  outsider.wait_type("lobby");
  const json refused = outsider.command({{"type", "create_challenge"},
                                         {"opponent", "Ann"},
                                         {"settings", {{"width", 9}, {"height", 9}}}});
  EXPECT_EQ(refused["type"], "error") << refused.dump();
  EXPECT_NE(refused["message"].get<std::string>().find("student of a class"), std::string::npos);

  const std::string rr =
      post("/api/v1/classes/" + std::to_string(cards["id"].get<std::int64_t>()) + "/round-robin",
           {{"settings", {{"width", 9}, {"height", 9}}}});
  ASSERT_TRUE(rr.starts_with("HTTP/1.1 201")) << rr;
  const json started = ann.wait_type("game_started");
  EXPECT_EQ(started["tournament"]["tournament"], json::parse(testing::body_of(rr))["id"]);
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(0).terminate(), 0);
}

// A simul announced, joined and started through front nodes (docs/events.md): every node answers
// the simul's API from PostgreSQL, the games start on the hub over the bus, and each first move
// has the simul's longer time (60 s and 20 s for the second board), not an ordinary game's.
TEST_F(ThreeNodes, ASimulStartedOnAFrontNodeOpensItsGamesOnTheHub) {
  start(0);
  start(1);
  ASSERT_EQ(health(1)["role"], "front");
  const std::string host = register_user(node(1).port(), "sensei");
  const std::string amy = register_user(node(0).port(), "amy");
  const std::string ben = register_user(node(1).port(), "ben");
  const auto post = [&](int n, const std::string& token, const std::string& path,
                        const json& body) {
    return testing::http_request(
        node(n).port(), "POST", path,
        "Authorization: Bearer " + token + "\r\nContent-Type: application/json\r\n", body.dump());
  };
  const std::string made =
      post(1, host, "/api/v1/simuls",
           {{"name", "Friday simul"}, {"boards", 2}, {"settings", {{"width", 9}, {"height", 9}}}});
  ASSERT_TRUE(made.starts_with("HTTP/1.1 201")) << made;
  const auto path = "/api/v1/simuls/" +
                    std::to_string(json::parse(testing::body_of(made))["id"].get<std::int64_t>());
  WsClient amy_ws(node(0).port(), WsClient::Options{amy, "", "/ws/v1"});
  amy_ws.wait_type("lobby");
  EXPECT_TRUE(post(0, amy, path + "/join", json::object()).starts_with("HTTP/1.1 204"));
  EXPECT_TRUE(post(1, ben, path + "/join", json::object()).starts_with("HTTP/1.1 204"));
  const json open = json::parse(testing::body_of(testing::http_get(node(0).port(), path)));
  EXPECT_EQ(open["boards"].size(), 2u) << open.dump();
  const std::string started = post(1, host, path + "/start", json::object());
  ASSERT_TRUE(started.starts_with("HTTP/1.1 200")) << started;
  EXPECT_EQ(json::parse(testing::body_of(started))["games"], 2);
  const json game_started = amy_ws.wait_type("game_started");
  EXPECT_EQ(game_started["black"]["name"], "amy");
  EXPECT_EQ(game_started["white"]["name"], "sensei");
  amy_ws.command({{"type", "join"}, {"game", game_started["game"]}});
  const json snapshot = amy_ws.wait_type("snapshot");
  EXPECT_EQ(snapshot["first_move_ms"], 80'000) << "60 s and 20 s for the second board";
  const json playing = json::parse(testing::body_of(testing::http_get(node(1).port(), path)));
  EXPECT_EQ(playing["simul"]["state"], "playing");
  EXPECT_EQ(playing["boards"][0]["game"], game_started["game"]);
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(0).terminate(), 0);
}

// A pair Go game across nodes (docs/events.md, "Pair Go"): announced and started on the front node,
// its game opens on the hub with the teams in its settings (they crossed the bus); a partner on
// the front node who plays out of turn is refused in words, and a team's line reaches the partner
// on the other node and not the opponents.
TEST_F(ThreeNodes, APairGoGameStartedOnAFrontNodeKeepsItsTeamsOnTheHub) {
  start(0);
  start(1);
  ASSERT_EQ(health(1)["role"], "front");
  const std::string host = register_user(node(1).port(), "hana");
  std::map<std::string, std::string> token;
  for (const auto* name : {"amy", "bob", "carl", "dora"})
    token[name] = register_user(node(std::string(name) == "bob" ? 1 : 0).port(), name);
  const auto post = [&](int n, const std::string& who, const std::string& path, const json& body) {
    return testing::http_request(
        node(n).port(), "POST", path,
        "Authorization: Bearer " + who + "\r\nContent-Type: application/json\r\n", body.dump());
  };
  const std::string made =
      post(1, host, "/api/v1/pairgo", {{"name", "Pair Go night"}, {"settings", {{"width", 9}}}});
  ASSERT_TRUE(made.starts_with("HTTP/1.1 201")) << made;
  const auto path = "/api/v1/pairgo/" +
                    std::to_string(json::parse(testing::body_of(made))["id"].get<std::int64_t>());
  for (const auto& [name, team] : std::vector<std::pair<std::string, std::string>>{
           {"amy", "black"}, {"carl", "white"}, {"bob", "black"}, {"dora", "white"}})
    ASSERT_TRUE(post(name == "bob" ? 1 : 0, token[name], path + "/join", {{"team", team}})
                    .starts_with("HTTP/1.1 204"))
        << name;
  WsClient amy(node(0).port(), WsClient::Options{token["amy"], "", "/ws/v1"});
  WsClient bob(node(1).port(), WsClient::Options{token["bob"], "", "/ws/v1"});
  WsClient carl(node(0).port(), WsClient::Options{token["carl"], "", "/ws/v1"});
  for (auto* ws : {&amy, &bob, &carl}) ws->wait_type("lobby");
  const std::string started = post(1, host, path + "/start", json::object());
  ASSERT_TRUE(started.starts_with("HTTP/1.1 200")) << started;
  const auto game = json::parse(testing::body_of(started))["game"];
  const json told = bob.wait_type("game_started");  // a second member, on the front node
  EXPECT_EQ(told["game"], game);
  EXPECT_EQ(told["settings"]["teams"]["black"][1]["name"], "bob");
  for (auto* ws : {&amy, &bob, &carl}) {
    ws->command({{"type", "join"}, {"game", game}});
    ws->wait_type("snapshot");
  }
  const json early = bob.command({{"type", "play"}, {"game", game}, {"vertex", "E5"}});
  EXPECT_EQ(early["type"], "error");
  EXPECT_EQ(early["message"],
            "it is your partner amy's move for black: in pair Go the partners play in turn");
  EXPECT_EQ(amy.command({{"type", "play"}, {"game", game}, {"vertex", "E5"}})["type"], "ack");
  EXPECT_EQ(carl.command({{"type", "play"}, {"game", game}, {"vertex", "C3"}})["type"], "ack");
  EXPECT_EQ(bob.command({{"type", "play"}, {"game", game}, {"vertex", "G7"}})["type"], "ack");
  EXPECT_EQ(
      amy.command({{"type", "chat"}, {"game", game}, {"text", "watch C3"}, {"team", true}})["type"],
      "ack");
  EXPECT_EQ(carl.command({{"type", "chat"}, {"game", game}, {"text", "hello"}})["type"], "ack");
  const json line = bob.wait_type("chat");
  EXPECT_EQ(line["line"]["text"], "watch C3");
  EXPECT_EQ(line["line"]["channel"], "team");
  EXPECT_EQ(carl.wait_type("chat")["line"]["text"], "hello") << "the team's line never came";
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(0).terminate(), 0);
}

// A relay (docs/events.md, "Relays") made and entered through a front node: its boards live on
// the hub (asked over the bus), its rows in PostgreSQL; a spectator on the hub follows the move
// and the commentary room goes along; the hub's refusal comes back in words.
TEST_F(ThreeNodes, ARelayEnteredOnAFrontNodeIsFollowedOnTheHub) {
  start(0);
  start(1);
  ASSERT_EQ(health(1)["role"], "front");
  const std::string director = register_user(node(1).port(), "tess");
  const std::string fan = register_user(node(0).port(), "sam");
  const auto post = [&](const std::string& path, const json& body) {
    return testing::http_request(
        node(1).port(), "POST", path,
        "Authorization: Bearer " + director + "\r\nContent-Type: application/json\r\n",
        body.dump());
  };
  const std::string made = post("/api/v1/relays", {{"event", "European Championship"},
                                                   {"round", 5},
                                                   {"black", "Ilya Shikshin"},
                                                   {"white", "Mateusz Surma"},
                                                   {"size", 9}});
  ASSERT_TRUE(made.starts_with("HTTP/1.1 201")) << made;
  const json relay = json::parse(testing::body_of(made));
  const auto moves = "/api/v1/relays/" + std::to_string(relay["id"].get<std::int64_t>()) + "/moves";
  WsClient sam(node(0).port(), WsClient::Options{fan, "", "/ws/v1"});
  sam.wait_type("lobby");
  for (const auto& review : {relay["board"], relay["commentary"]}) {
    EXPECT_EQ(sam.command({{"type", "review_join"}, {"review", review}})["type"], "ack");
    sam.wait_type("review_snapshot");
  }
  const std::string entered = post(moves, {{"move", "E5"}});
  ASSERT_TRUE(entered.starts_with("HTTP/1.1 200")) << entered;
  EXPECT_EQ(json::parse(testing::body_of(entered))["moves"], 1);
  for (const auto& review : {relay["board"], relay["commentary"]}) {
    const json added = sam.wait([&](const json& m) {
      return m["type"] == "review_update" && m["review"] == review && m["change"] == "node_added";
    });
    EXPECT_EQ(added["node"]["vertex"], "E5");
  }
  const std::string occupied = post(moves, {{"move", "E5"}});
  EXPECT_TRUE(occupied.starts_with("HTTP/1.1 409")) << occupied;
  EXPECT_NE(occupied.find("occupied: there is already a stone on E5"), std::string::npos)
      << occupied;
  // Listed the same on either node (PostgreSQL's rows).
  const json listed =
      json::parse(testing::body_of(testing::http_get(node(0).port(), "/api/v1/relays")));
  ASSERT_EQ(listed["relays"].size(), 1U);
  EXPECT_EQ(listed["relays"][0]["moves"], 1);
  EXPECT_EQ(listed["relays"][0]["last_move"], "E5");
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(0).terminate(), 0);
}

// OpenGotha's file imported through a front node (docs/tournaments.md, "Importing OpenGotha's
// file"): the front node reads it, the hub makes the tournament by the director's commands, and
// the front node serves it; a file the hub's director refuses comes back in words.
TEST_F(ThreeNodes, AnOpenGothaFileImportedOnAFrontNodeIsMadeByTheHub) {
  start(0);
  start(1);
  ASSERT_EQ(health(1)["role"], "front");
  const std::string director = register_user(node(1).port(), "anna");
  std::ifstream in(testing::paths::fixtures() + "/opengotha/club-mcmahon-latin1.xml",
                   std::ios::binary);
  const std::string xml(std::istreambuf_iterator<char>(in), {});
  const auto import = [&](const std::string& body) {
    return testing::http_request(
        node(1).port(), "POST", "/api/v1/tournaments/import",
        "Authorization: Bearer " + director + "\r\nContent-Type: application/xml\r\n", body);
  };
  const std::string made = import(xml);
  ASSERT_TRUE(made.starts_with("HTTP/1.1 201")) << made.substr(0, 400);
  const auto id = json::parse(testing::body_of(made))["tournament"].get<std::int64_t>();
  const json page = json::parse(testing::body_of(
      testing::http_get(node(1).port(), "/api/v1/tournaments/" + std::to_string(id))));
  EXPECT_EQ(page["director"]["name"], "anna");
  EXPECT_EQ(page["entrants"].size(), 6u);
  ASSERT_EQ(page["round_list"].size(), 2u);
  EXPECT_TRUE(page["round_list"][0]["games"][1]["forfeit"].get<bool>());
  // The director's own limit (5 tournaments not over), checked on the hub, comes back in words.
  for (int more = 0; more < 4; ++more) ASSERT_TRUE(import(xml).starts_with("HTTP/1.1 201")) << more;
  const std::string refused = import(xml);
  EXPECT_TRUE(refused.starts_with("HTTP/1.1 409")) << refused.substr(0, 400);
  EXPECT_NE(refused.find("you direct 5 tournaments that are not over"), std::string::npos)
      << testing::body_of(refused);
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(0).terminate(), 0);
}

// Analysis in a cluster (docs/analysis.md): the queue is in PostgreSQL, so a game played across
// the nodes is asked for on a front node, analysed by a worker talking to the other node (the
// hub here), and its result read from either; a review board (the hub's) asks the engine about
// a position through a front node, which reads the board over the bus.
TEST_F(ThreeNodes, AnAnalysisAskedOnOneNodeIsDoneByAWorkerOfAnotherAndSeenFromEither) {
  start(0);
  start(1);
  ASSERT_EQ(health(1)["role"], "front");
  const std::string black_token = register_user(node(1).port(), "black");
  const std::string white_token = register_user(node(0).port(), "white");
  std::int64_t game = 0;
  {
    WsClient black(node(1).port(), WsClient::Options{black_token, "", "/ws/v1"});
    WsClient white(node(0).port(), WsClient::Options{white_token, "", "/ws/v1"});
    game = testing::start_game(black, white, {{"width", 9}, {"height", 9}, {"komi", 6.5}});
    const std::vector<std::string> moves{"E5", "C3", "G3", "C6"};
    for (std::size_t i = 0; i < moves.size(); ++i)
      testing::expect_ack((i % 2 == 0 ? black : white).command(testing::play(game, moves[i])));
    testing::expect_ack(black.command(testing::cmd("resign", game)));
  }
  const auto call = [](int port, const std::string& method, const std::string& path,
                       const std::string& token, const json& body = nullptr) {
    const auto reply =
        testing::http_request(port, method, path,
                              "Authorization: Bearer " + token + "\r\n" +
                                  (body.is_null() ? "" : "Content-Type: application/json\r\n"),
                              body.is_null() ? "" : body.dump());
    return std::make_pair(std::stoi(reply.substr(9, 3)),
                          json::parse(testing::body_of(reply), nullptr, false));
  };
  const std::string at = "/api/v1/games/" + std::to_string(game) + "/analysis";
  const auto asked = call(node(1).port(), "POST", at, white_token, json::object());
  ASSERT_EQ(asked.first, 202) << asked.second;
  // The board, opened on the front node (the hub holds it), asked about after two moves.
  const auto opened =
      call(node(1).port(), "POST", "/api/v1/reviews", black_token, json{{"game", game}});
  ASSERT_EQ(opened.first, 201) << opened.second;
  const auto review = opened.second["review"]["id"].get<std::int64_t>();
  const json line =
      json::array({{{"color", "black"}, {"vertex", "E5"}}, {{"color", "white"}, {"vertex", "C3"}}});
  const std::string board = "/api/v1/reviews/" + std::to_string(review) + "/analysis";
  const auto position =
      call(node(1).port(), "POST", board, black_token, json{{"node", 2}, {"line", line}});
  ASSERT_EQ(position.first, 202) << position.second;

  // A worker with a key made by the server's command line on the shared database, talking to
  // the hub: the position first, then the game.
  const auto made = testing::output_of(testing::paths::server_binary() + " --database '" + uri_ +
                                       "' --make-worker-key cluster-box");
  const auto key_at = made.find("tw_");
  ASSERT_NE(key_at, std::string::npos) << made;
  const auto key_file = node(0).dir() / "worker.key";
  std::ofstream(key_file) << made.substr(key_at, made.find('\n', key_at) - key_at) << "\n";
  for (int job = 0; job < 2; ++job)
    ASSERT_EQ(
        testing::run_program({testing::paths::analysis_binary(), "--server",
                              "http://127.0.0.1:" + std::to_string(node(0).port()), "--key-file",
                              key_file.string(), "--once", "--level", "1", "--log-level", "warn"},
                             std::chrono::seconds(120)),
        0);
  for (const int n : {0, 1}) {
    const auto view = call(node(n).port(), "GET", at, black_token);
    ASSERT_EQ(view.first, 200) << view.second;
    EXPECT_EQ(view.second["state"], "done") << "node " << n << ": " << view.second;
    EXPECT_EQ(view.second["positions"].size(), 5u);
    const auto answered =
        call(node(n).port(), "GET",
             board + "/" + std::to_string(position.second["id"].get<std::int64_t>()), black_token);
    EXPECT_EQ(answered.second["state"], "done") << "node " << n << ": " << answered.second;
    EXPECT_EQ(answered.second["position"]["move"], 2);
  }
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(0).terminate(), 0);
}

// The limit on login attempts counts every node's (docs/limits.md): an address's attempts, made
// on two nodes in turn, run out after ten in all (the registration's included), as on one
// server; before, each node gave the address ten of its own.
TEST_F(ThreeNodes, LoginAttemptsFromOneAddressAreCountedAcrossNodes) {
  start(0);
  start(1);
  register_user(node(0).port(), "keeper");
  int refused_at = -1;
  std::string refusal;
  for (int i = 0; i < 14 && refused_at < 0; ++i) {
    const std::string reply = testing::http_request(
        node(i % 2).port(), "POST", "/api/v1/login", "Content-Type: application/json\r\n",
        R"({"username":"keeper","password":"not the password"})");
    if (reply.starts_with("HTTP/1.1 429")) {
      refused_at = i;
      refusal = reply;
    } else {
      EXPECT_TRUE(reply.starts_with("HTTP/1.1 401")) << reply;
    }
  }
  EXPECT_EQ(refused_at, 9) << "ten attempts in all, whichever node took them";
  EXPECT_NE(refusal.find("Retry-After: 6"), std::string::npos) << refusal;
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(0).terminate(), 0);
}

// A session ended on one node ends on every node: a player logged in on two devices whose
// connections sit on different nodes revokes the phone's session from the laptop, and the phone's
// connection on the other node closes (1008); a logout on the hub closes the laptop's on the
// front node. Another player's connection on the same node goes on.
TEST_F(ThreeNodes, ALogoutOrRevocationOnOneNodeClosesTheSessionsWebSocketsOnTheOthers) {
  start(0);
  start(1);
  ASSERT_EQ(health(1)["role"], "front");
  const std::string phone = register_user(node(0).port(), "traveller");
  const std::string laptop = testing::cookie_token(testing::http_request(
      node(1).port(), "POST", "/api/v1/login", "Content-Type: application/json\r\n",
      R"({"username":"traveller","password":"a fine password"})"));
  const json sessions = json::parse(testing::body_of(testing::http_request(
      node(1).port(), "GET", "/api/v1/sessions", "Authorization: Bearer " + phone + "\r\n")));
  std::int64_t phone_session = 0;
  for (const auto& s : sessions["sessions"]) {
    if (s["current"]) phone_session = s["id"];
  }
  ASSERT_NE(phone_session, 0) << sessions.dump();
  auto connect = [](int port, const std::string& token) {
    auto c = std::make_unique<WsClient>(port, WsClient::Options{token, "", "/ws/v1"});
    c->wait_type("lobby");
    return c;
  };
  auto on_phone = connect(node(1).port(), phone);    // a front node
  auto on_laptop = connect(node(1).port(), laptop);  // the same front node
  auto other = connect(node(1).port(), register_user(node(1).port(), "neighbour"));

  // Revoked through the hub's HTTP API: the phone's connection on the front node closes.
  const std::string revoked = testing::http_request(
      node(0).port(), "DELETE", "/api/v1/sessions/" + std::to_string(phone_session),
      "Authorization: Bearer " + laptop + "\r\n");
  ASSERT_TRUE(revoked.starts_with("HTTP/1.1 204")) << revoked;
  EXPECT_EQ(on_phone->read_until_closed(), 1008);
  on_laptop->send_text(R"({"type":"ping","cid":"laptop"})");
  EXPECT_EQ(on_laptop->wait_type("pong")["cid"], "laptop");

  // The laptop logs out through the hub: its connection on the front node closes too.
  ASSERT_TRUE(testing::http_request(node(0).port(), "POST", "/api/v1/logout",
                                    "Authorization: Bearer " + laptop + "\r\n")
                  .starts_with("HTTP/1.1 204"));
  EXPECT_EQ(on_laptop->read_until_closed(), 1008);
  other->send_text(R"({"type":"ping","cid":"other"})");
  EXPECT_EQ(other->wait_type("pong")["cid"], "other");
  other.reset();
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(0).terminate(), 0);
}

}  // namespace
}  // namespace tengen
