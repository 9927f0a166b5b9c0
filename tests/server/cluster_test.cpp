// Several nodes over one PostgreSQL (docs/cluster.md). With the real server binary: a node that
// another has taken a game from (it was paused past its lease) can write nothing more of it and
// stops without acknowledging; restarted, it takes the game back and play goes on with every
// acknowledged move. In one process, with a real NATS between them: players on two nodes play a
// game that a spectator on a third node watches, the hub on the first.
#include <gtest/gtest.h>

#include <chrono>

#include "cluster/forwarding.h"
#include "cluster/nats_bus.h"
#include "store/postgres.h"
#include "store/postgres_leases.h"
#include "support/front_node.h"
#include "support/live_server.h"
#include "support/server_process.h"
#include "support/temp_nats.h"
#include "support/temp_postgres.h"
#include "support/ws_client.h"

namespace tengen {
namespace {

using namespace std::chrono_literals;
using json = nlohmann::json;
using testing::WsClient;

std::string register_user(int port, const std::string& name) {
  const std::string reply =
      testing::http_request(port, "POST", "/api/v1/register", "Content-Type: application/json\r\n",
                            R"({"username":")" + name + R"(","password":"a fine password"})");
  return json::parse(testing::body_of(reply))["token"];
}

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
  EXPECT_EQ(server->wait_for_exit(30s), -SIGABRT);
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

TEST(Cluster, PlayersOnTwoNodesPlayAGameThatASpectatorOnAThirdWatches) {
  testing::TempNats nats;
  testing::LiveStack hub(testing::TempPostgres::instance().new_database_uri());
  cluster::NatsBus hub_bus(nats.url(), "hub");
  cluster::Gateway gateway(hub_bus, hub.hub());
  hub_bus.flush();
  testing::FrontNode b(hub, nats.url(), 2);
  testing::FrontNode c(hub, nats.url(), 3);

  WsClient black(hub.port(), {hub.token_for("black"), "", "/ws/v1"});
  black.wait_type("lobby");
  WsClient white(b.port(), {hub.token_for("white"), "", "/ws/v1"});
  EXPECT_EQ(white.wait_type("lobby")["type"], "lobby") << "the hub's welcome, over the bus";
  WsClient watcher(c.port(), {hub.token_for("watcher"), "", "/ws/v1"});
  watcher.wait_type("lobby");
  hub.advance(Hub::kPresenceInterval);
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
  EXPECT_EQ(gateway.connections(), 2u) << "white's and the watcher's, as the hub sees them";
  EXPECT_EQ(hub.games().game(game)->result, "B+R") << "stored by the hub";
}

}  // namespace
}  // namespace tengen
