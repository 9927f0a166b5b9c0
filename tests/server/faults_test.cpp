// The faults of the services a server stands on, made for real (docs/cluster.md, "Faults"): a
// PostgreSQL of the test's own restarted with `pg_ctl restart -m fast`, stopped with `-m
// immediate` and started again, stopped for 10 s; a NATS server stopped for 5 s. With the real
// server binary, one server and three nodes, players on every node: every acknowledged move is
// kept, moves flow again within 2 s of the database's return, no process restarts, /healthz says
// 503 while a node cannot serve and 200 after, and a hub killed after a database restart is
// replaced as usual. The times are printed; docs/cluster.md has them.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "store/postgres.h"
#include "support/node_processes.h"
#include "support/paths.h"
#include "support/server_process.h"
#include "support/temp_nats.h"
#include "support/temp_postgres.h"
#include "support/ws_client.h"

namespace tengen {
namespace {

using namespace std::chrono_literals;
using json = nlohmann::json;
using testing::WsClient;
using Clock = std::chrono::steady_clock;

long long ms_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

using testing::register_user;

int status_of(const std::string& response) {
  if (!response.starts_with("HTTP/1.1 ")) return 0;
  return std::stoi(response.substr(9, 3));
}

int health(int port) {
  return status_of(testing::http_get(port, "/healthz"));
}

// Until /healthz answers `status`, asking every 20 ms for at most `deadline`: the node's own
// account of what it can do, which changes on its keeper's next tick (250 ms).
bool health_becomes(int port, int status, std::chrono::milliseconds deadline = 10s) {
  const auto start = Clock::now();
  while (Clock::now() - start < deadline) {
    if (health(port) == status) return true;
    std::this_thread::sleep_for(20ms);
  }
  return false;
}

// A WebSocket upgrade as a browser sends it: the status line of the answer.
int upgrade_status(int port) {
  return status_of(testing::exchange_raw(port,
                                         "GET /ws/v1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                         "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                         "Sec-WebSocket-Version: 13\r\n"
                                         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
                                         5s)
                       .received);
}

// Two players in one 9×9 game, Black up the A and B columns, White up H and J: no stone is ever
// captured, so every move is legal. Each may sit on another node.
class Game {
 public:
  Game(int black_port, int white_port, const std::string& tag) {
    tokens_[0] = register_user(black_port, "black" + tag);
    tokens_[1] = register_user(white_port, "white" + tag);
    connect(black_port, white_port);
    const json created = players_[0]->command(
        {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
    EXPECT_EQ(created["type"], "ack") << created.dump();
    const json accepted =
        players_[1]->command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
    EXPECT_EQ(accepted["type"], "ack") << accepted.dump();
    id_ = accepted["game"];
  }

  void connect(int black_port, int white_port) {
    for (int i = 0; i < 2; ++i) {
      players_[static_cast<std::size_t>(i)] = std::make_unique<WsClient>(
          i == 0 ? black_port : white_port,
          WsClient::Options{tokens_[static_cast<std::size_t>(i)], "", "/ws/v1"});
      players_[static_cast<std::size_t>(i)]->wait_type("lobby");
    }
  }
  WsClient& player(int i) { return *players_[static_cast<std::size_t>(i)]; }
  WsClient& to_move() { return player(moves_ % 2); }

  // Sends the next move under its own cid (or `cid`: the move sent again), without waiting.
  std::string send_next(std::string cid = "") {
    if (cid.empty()) cid = "m" + std::to_string(moves_);
    last_sent_ =
        json{{"type", "play"}, {"cid", cid}, {"game", id_}, {"vertex", vertex(moves_)}}.dump();
    to_move().send_text(last_sent_);
    return cid;
  }
  // Waits for the ack of the move sent last; counts it. Told to resync meanwhile (the hub
  // changed, the bus came back: docs/cluster.md), it sends the move again under its cid, as the
  // web client does.
  json acked(const std::string& cid) {
    for (;;) {
      const json m = to_move().wait([&](const json& message) {
        return message.value("cid", "") == cid || message.value("type", "") == "resync";
      });
      if (m["type"] == "resync") {
        ++resyncs_;
        to_move().send_text(last_sent_);
        continue;
      }
      if (m["type"] == "ack") ++moves_;
      return m;
    }
  }
  // Resyncs seen while waiting for acks.
  int resyncs() const { return resyncs_; }
  json play() { return acked(send_next()); }
  int moves() const { return moves_; }
  std::int64_t id() const { return id_; }

 private:
  static std::string vertex(int n) {
    const int i = n / 2;  // the colour's i-th stone
    const char* columns = n % 2 == 0 ? "AB" : "HJ";
    return std::string(1, columns[i / 9]) + std::to_string(i % 9 + 1);
  }

  std::array<std::string, 2> tokens_;
  std::array<std::unique_ptr<WsClient>, 2> players_;
  std::int64_t id_ = 0;
  int moves_ = 0;
  std::string last_sent_;
  int resyncs_ = 0;
};

std::int64_t moves_stored(const std::string& uri, std::int64_t game) {
  store::pg::Connection db(uri);
  return db.query("SELECT count(*) FROM game_events WHERE kind = 'move' AND game_id = $1", {game})
      .int64(0, 0);
}

TEST(Faults, OneServerOnPostgresPlaysOnThroughARestartAndAnImmediateStop) {
  const auto pg = testing::TempPostgres::own();
  const std::string uri = pg->new_database_uri();
  testing::ServerProcess server(std::nullopt, 0, {"--database", uri, "--lease-ttl", "1000"});
  Game game(server.port(), server.port(), "");
  for (int i = 0; i < 4; ++i) ASSERT_EQ(game.play()["type"], "ack");

  // pg_ctl restart -m fast: every session ends; the next move is played as if nothing happened.
  pg->restart_fast();
  const auto restarted = Clock::now();
  const json after_restart = game.play();
  EXPECT_EQ(after_restart["type"], "ack") << after_restart.dump();
  const auto restart_pause = ms_since(restarted);
  EXPECT_LT(restart_pause, 2000);
  // Ready again at once, or within a retry of the lease keeper's (which may have met the
  // database still starting up while the move's commit met it up).
  EXPECT_TRUE(health_becomes(server.port(), 200, 500ms));

  // A crash of PostgreSQL (-m immediate: no checkpoint, recovery at the next start), a move sent
  // while it is down: not acknowledged, and the node says it cannot serve.
  pg->stop_immediate();
  const std::string cid = game.send_next();
  EXPECT_TRUE(health_becomes(server.port(), 503));
  const std::string body = testing::body_of(testing::http_get(server.port(), "/healthz"));
  EXPECT_NE(body.find("\"reason\":\"the database cannot be reached\""), std::string::npos) << body;
  EXPECT_EQ(status_of(testing::http_get(server.port(), "/livez")), 200) << "alive all the same";
  EXPECT_EQ(upgrade_status(server.port()), 503) << "no WebSocket it would drop at once";
  const std::string api = testing::http_get(server.port(), "/api/v1/games?limit=5");
  EXPECT_EQ(status_of(api), 503) << api;
  EXPECT_NE(api.find("database_unavailable"), std::string::npos) << api;
  EXPECT_NE(api.find("Retry-After: 2"), std::string::npos) << api;
  for (const auto& m : game.to_move().kept()) EXPECT_NE(m.value("cid", ""), cid) << m.dump();
  const json degraded = game.player(1).wait_type("service");  // the other player is told too
  EXPECT_EQ(degraded["state"], "degraded") << degraded.dump();
  EXPECT_EQ(degraded["reason"], "database");
  // A command that needs the database at once (a challenge to a player by name: the name is
  // looked up) is refused, nothing of it kept; its refusal leaves in turn, after the replies
  // waiting for the database before it.
  WsClient& other = game.player(1 - game.moves() % 2);
  other.send_text(json{{"type", "create_challenge"},
                       {"cid", "named"},
                       {"opponent", "black"},
                       {"settings", {{"width", 9}, {"color", "black"}}}}
                      .dump());

  pg->start();
  const auto started = Clock::now();
  const json waited = game.acked(cid);
  EXPECT_EQ(waited["type"], "ack") << waited.dump();
  const auto start_pause = ms_since(started);
  const json named = other.wait([](const json& m) { return m.value("cid", "") == "named"; });
  EXPECT_EQ(named["type"], "error") << named.dump();
  EXPECT_EQ(named["code"], "unavailable") << named.dump();
  // and the connection goes on: its next command is answered.
  EXPECT_EQ(other.command({{"type", "ping"}})["type"], "pong");
  EXPECT_LT(start_pause, 2000) << "the waiting move, committed after the database's return";
  EXPECT_TRUE(health_becomes(server.port(), 200));
  EXPECT_EQ(game.player(1).wait_type("service")["state"], "ok");
  for (int i = 0; i < 2; ++i) ASSERT_EQ(game.play()["type"], "ack");
  EXPECT_EQ(moves_stored(uri, game.id()), game.moves()) << "every acknowledged move, once";
  std::printf(
      "one server: restart -m fast -> next move played in %lld ms; stop -m immediate, "
      "start -> the waiting move played %lld ms after the start\n",
      static_cast<long long>(restart_pause), static_cast<long long>(start_pause));

  EXPECT_EQ(server.wait_for_exit(0ms), -2000) << "never restarted: the same process throughout";
  EXPECT_EQ(server.terminate(), 0);

  // A server started while PostgreSQL is down waits for it (the services of a compose file
  // start together), and serves once it is up: the game is there.
  pg->stop_fast();
  auto starting = std::async(std::launch::async, [&] {
    return std::make_unique<testing::ServerProcess>(
        std::nullopt, 0, std::vector<std::string>{"--database", uri, "--lease-ttl", "1000"});
  });
  pg->start();
  const auto again = starting.get();
  EXPECT_EQ(health(again->port()), 200);
  Game after(again->port(), again->port(), "2");
  ASSERT_EQ(after.play()["type"], "ack");
  EXPECT_EQ(moves_stored(uri, game.id()), game.moves()) << "the first game's moves, all there";
  EXPECT_EQ(again->terminate(), 0);

  // One that waits longer than --database-wait gives up, saying so, with exit code 3.
  pg->stop_fast();
  const auto waited_from = Clock::now();
  const int status = std::system((tengen::testing::paths::server_binary() + " --database '" + uri +
                                  "' --database-wait 1 --port 0 --address 127.0.0.1 --bots off"
                                  " --log-level warn > /dev/null 2>&1")
                                     .c_str());
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 3) << "the database did not come: exit code 3";
  EXPECT_GE(ms_since(waited_from), 1000) << "after waiting the second it was given";
}

// Three nodes over a PostgreSQL and a NATS of the test's own: the first the hub, Black on the
// second, White on the third.
class ThreeNodesAndTheirFaults : public ::testing::Test {
 protected:
  ThreeNodesAndTheirFaults() : pg_(testing::TempPostgres::own()), uri_(pg_->new_database_uri()) {
    for (int i = 0; i < 3; ++i) nodes_.start(i, uri_, nats_.url());
  }
  testing::ServerProcess& node(int i) { return nodes_.node(i); }
  std::string role(int i) { return nodes_.health(i).value("role", ""); }
  void expect_all_running() {
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(node(i).wait_for_exit(0ms), -2000) << "node " << i << " exited";
  }

  std::unique_ptr<testing::TempPostgres> pg_;
  std::string uri_;
  testing::TempNats nats_;
  testing::NodeProcesses nodes_{"faults"};
};

TEST_F(ThreeNodesAndTheirFaults, ARestartAndATenSecondOutageOfTheDatabaseCostAPauseNotTheHub) {
  ASSERT_EQ(role(0), "hub");
  Game game(node(1).port(), node(2).port(), "");
  for (int i = 0; i < 4; ++i) ASSERT_EQ(game.play()["type"], "ack");

  pg_->restart_fast();
  const auto restarted = Clock::now();
  for (int i = 0; i < 2; ++i) {  // one move through each front node
    const json ack = game.play();
    ASSERT_EQ(ack["type"], "ack") << ack.dump();
  }
  const auto restart_pause = ms_since(restarted);
  EXPECT_LT(restart_pause, 2000);

  // Ten seconds without the database, ten leases: every node waits, not ready; none stops.
  pg_->stop_immediate();
  const auto stopped = Clock::now();
  const std::string cid = game.send_next();
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(health_becomes(node(i).port(), 503)) << "node " << i;
  std::this_thread::sleep_for(10s - (Clock::now() - stopped));  // the outage itself
  expect_all_running();
  pg_->start();
  const auto started = Clock::now();
  const json waited = game.acked(cid);
  EXPECT_EQ(waited["type"], "ack") << waited.dump();
  const auto outage_pause = ms_since(started);
  EXPECT_LT(outage_pause, 2000);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(health_becomes(node(i).port(), 200)) << "node " << i;
  EXPECT_EQ(role(0), "hub") << "the hub took its lock back; the front nodes left it to it";
  EXPECT_EQ(role(1), "front");
  EXPECT_EQ(role(2), "front");
  for (int i = 0; i < 2; ++i) ASSERT_EQ(game.play()["type"], "ack");
  expect_all_running();

  // The hub killed after all that: a front node takes over as usual; the players, on the front
  // nodes, keep their connections and are told to resync.
  const std::string cid_in_flight = game.send_next();
  const auto killed = Clock::now();
  node(0).kill9();
  EXPECT_EQ(game.player(1 - game.moves() % 2).wait_type("resync")["reason"], "hub");
  // The one to move sends the move in flight again under its cid when told: played once,
  // whether or not the dead hub had played it.
  const json resent = game.acked(cid_in_flight);
  const auto takeover = ms_since(killed);
  EXPECT_EQ(resent["type"], "ack") << resent.dump();
  ASSERT_EQ(game.play()["type"], "ack");
  EXPECT_EQ(moves_stored(uri_, game.id()), game.moves()) << "every acknowledged move, once";
  std::printf(
      "three nodes: restart -m fast -> moves through both fronts in %lld ms; 10 s outage "
      "-> the waiting move played %lld ms after the start; hub killed afterwards -> "
      "the move in flight played in %lld ms, no connection closed\n",
      static_cast<long long>(restart_pause), static_cast<long long>(outage_pause),
      static_cast<long long>(takeover));
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(2).terminate(), 0);
}

TEST_F(ThreeNodesAndTheirFaults, ANatsOutageClosesTheFrontNodesPlayersAtOnceAndTheyComeBack) {
  Game game(node(1).port(), node(2).port(), "");
  for (int i = 0; i < 2; ++i) ASSERT_EQ(game.play()["type"], "ack");
  nats_.stop();
  const auto stopped = Clock::now();
  // Told at once: 1013, try again later (the web client waits, then reconnects).
  EXPECT_EQ(game.player(0).read_until_closed(), 1013);
  EXPECT_EQ(game.player(1).read_until_closed(), 1013);
  const auto told = ms_since(stopped);
  EXPECT_TRUE(health_becomes(node(1).port(), 503));
  EXPECT_EQ(upgrade_status(node(2).port()), 503);
  EXPECT_EQ(health(node(0).port()), 200) << "the hub serves its own players without the bus";
  std::this_thread::sleep_for(5s - (Clock::now() - stopped));  // the outage itself
  nats_.restart();
  const auto back = Clock::now();
  EXPECT_TRUE(health_becomes(node(1).port(), 200));
  EXPECT_TRUE(health_becomes(node(2).port(), 200));
  // The bus's return makes every node attach its connections to the hub again (the hub says
  // again that it is the hub, docs/cluster.md), which may come just after this test connected:
  // those clients are told to resync, and the move is sent again under its cid.
  game.connect(node(1).port(), node(2).port());
  const json resumed_ack = game.acked(game.send_next("after-" + std::to_string(game.moves())));
  ASSERT_EQ(resumed_ack.value("type", ""), "ack") << resumed_ack.dump();
  ASSERT_EQ(game.play()["type"], "ack") << "and the other player's";
  const auto resumed = ms_since(back);
  EXPECT_EQ(moves_stored(uri_, game.id()), game.moves());
  expect_all_running();
  std::printf("NATS stopped: front players told in %lld ms; started: play resumed in %lld ms\n",
              static_cast<long long>(told), static_cast<long long>(resumed));
}

}  // namespace
}  // namespace tengen
