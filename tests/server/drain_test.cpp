// A rolling restart of a cluster (docs/cluster.md, "Stopping a node"): three real tengen-server
// processes over one PostgreSQL and a NATS, each stopped in turn with SIGTERM and started again
// under its name, the hub last, while two players on the front nodes play one game as fast as
// their acks come back. A player whose node stops is closed (1001) and reconnects at once to
// another node, as a proxy would send it, and sends its move again under its cid; a player on a
// node that keeps running is never closed, only told to resync when the hub moves. The longest
// pause between two acknowledged moves is measured for each node's restart (printed; the target
// is 1 s), and every acknowledged move is in the database once.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "store/postgres.h"
#include "support/node_processes.h"
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

using testing::register_user;

// Both players of one 19×19 game, moving in turn on a thread of their own for as long as the
// test lets them, one move every kPace: Black up the columns A to H, White down T to K, J left
// empty, so every move is legal. Each keeps
// one connection to one node; when it is closed, it connects to the first node that is up and
// takes it, and sends the move again under the same cid.
class Players {
 public:
  Players(testing::NodeProcesses& nodes, std::array<int, 2> on) : nodes_(nodes), on_(on) {
    for (int i = 0; i < 2; ++i) {
      tokens_[i] = register_user(nodes_.node(on_[i]).port(), i == 0 ? "black" : "white");
      ws_[i] = connect(on_[i], i);
    }
    const json created = ws_[0]->command(
        {{"type", "create_challenge"}, {"settings", {{"width", 19}, {"color", "black"}}}});
    const json accepted =
        ws_[1]->command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
    game_ = accepted.at("game");
  }
  ~Players() { stop(); }

  void start() {
    thread_ = std::thread([this] { play(); });
  }
  void stop() {
    stopping_ = true;
    if (thread_.joinable()) thread_.join();
  }
  // Node i stops (false) or serves again (true): nobody connects to it meanwhile.
  void set_up(int node, bool up) { up_[static_cast<std::size_t>(node)] = up; }
  // Waits until `more` moves past the current count are acknowledged; false after 20 s.
  bool wait_for_moves(int more) {
    std::unique_lock lock(mutex_);
    const int target = moves_ + more;
    return moved_.wait_for(lock, 20s, [&] { return moves_ >= target || failed_; }) && !failed_;
  }
  // The longest time between two acknowledged moves since the last call, and starts afresh.
  long long longest_pause_ms() {
    std::lock_guard lock(mutex_);
    return std::exchange(longest_, Clock::duration{}) / 1ms;
  }
  int moves() {
    std::lock_guard lock(mutex_);
    return moves_;
  }
  int closed(int player) const { return closed_[static_cast<std::size_t>(player)]; }
  int resyncs(int player) const { return resyncs_[static_cast<std::size_t>(player)]; }
  std::string failure() {
    std::lock_guard lock(mutex_);
    return failure_;
  }
  std::int64_t game() const { return game_; }

 private:
  static constexpr auto kPace = 50ms;  // 20 moves a second in this one game

  std::unique_ptr<WsClient> connect(int node, int player) {
    auto c = std::make_unique<WsClient>(nodes_.node(node).port(),
                                        WsClient::Options{tokens_[player], "", "/ws/v1"});
    c->wait_type("lobby");
    on_[static_cast<std::size_t>(player)] = node;
    return c;
  }
  // Another node that is up, taking the connection (a node starting may refuse it: the next).
  void reconnect(int player) {
    for (int attempt = 0; attempt < 100; ++attempt) {
      for (const int node : {1, 2, 0}) {  // the front nodes first, as a proxy would spread them
        if (!up_[static_cast<std::size_t>(node)]) continue;
        try {
          ws_[static_cast<std::size_t>(player)] = connect(node, player);
          return;
        } catch (const std::exception&) {
          // not ready yet, or stopping: the next
        }
      }
    }
    throw std::runtime_error("no node took the connection");
  }

  void play() {
    try {
      auto last = Clock::now();
      while (!stopping_) {
        const int n = moves();
        const std::size_t p = static_cast<std::size_t>(n % 2);
        const int i = n / 2;
        const std::string vertex = std::string(1, (p == 0 ? "ABCDEFGH" : "TSRQPONMLK")[i / 19]) +
                                   std::to_string(i % 19 + 1);
        const std::string text = json{
            {"type", "play"},
            {"cid", "m" + std::to_string(n)},
            {"game", game_},
            {"vertex", vertex}}.dump();
        ws_[p]->send_text(text);
        for (;;) {
          json m;
          try {
            m = ws_[p]->wait([&](const json& message) {
              return message.value("cid", "") == "m" + std::to_string(n) ||
                     message.value("type", "") == "resync";
            });
          } catch (const boost::system::system_error&) {  // closed: its node is stopping
            ++closed_[p];
            reconnect(static_cast<int>(p));
            ws_[p]->send_text(text);
            continue;
          }
          if (m["type"] == "resync") {
            ++resyncs_[p];
            ws_[p]->send_text(text);
            continue;
          }
          if (m["type"] != "ack") throw std::runtime_error("refused: " + m.dump());
          break;
        }
        const auto now = Clock::now();
        {
          std::lock_guard lock(mutex_);
          longest_ = std::max(longest_, now - last);
          ++moves_;
        }
        last = now;
        moved_.notify_all();
        if (moves() >= 300) break;  // their columns are full; the test asks for fewer
        std::this_thread::sleep_for(kPace);
      }
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex_);
      failed_ = true;
      failure_ = e.what();
    }
    moved_.notify_all();
  }

  testing::NodeProcesses& nodes_;
  std::array<int, 2> on_;
  std::array<std::string, 2> tokens_;
  std::array<std::unique_ptr<WsClient>, 2> ws_;
  std::array<std::atomic<bool>, 3> up_{true, true, true};
  std::array<std::atomic<int>, 2> closed_{0, 0};
  std::array<std::atomic<int>, 2> resyncs_{0, 0};
  std::int64_t game_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable moved_;
  int moves_ = 0;
  bool failed_ = false;
  std::string failure_;
  Clock::duration longest_{};
};

TEST(Drain, ARollingRestartOfEveryNodePausesTheGameBrieflyAndClosesOnlyTheStoppingNodes) {
  const std::string uri = testing::TempPostgres::instance().new_database_uri();
  testing::TempNats nats;
  testing::NodeProcesses nodes("drain");
  for (int i = 0; i < 3; ++i) nodes.start(i, uri, nats.url());
  ASSERT_EQ(nodes.health(0)["role"], "hub");

  Players players(nodes, {1, 2});
  players.start();
  ASSERT_TRUE(players.wait_for_moves(10)) << players.failure();

  std::array<long long, 3> pauses{};
  for (const int node : {1, 2, 0}) {  // the front nodes, then the hub
    const std::array<int, 2> closed{players.closed(0), players.closed(1)};
    players.longest_pause_ms();  // from here
    players.set_up(node, false);
    EXPECT_EQ(nodes.node(node).terminate(), 0) << "node " << node << " stops cleanly";
    ASSERT_TRUE(players.wait_for_moves(4)) << players.failure();
    nodes.start(node, uri, nats.url());
    players.set_up(node, true);
    ASSERT_TRUE(players.wait_for_moves(6)) << players.failure();
    const auto pause = players.longest_pause_ms();
    pauses[static_cast<std::size_t>(node)] = pause;
    // The target is 1 s (docs/cluster.md has the figures, about a tenth of it); twice that fails
    // as a stall, with room for the sanitizers' builds.
    EXPECT_LT(pause, 2000) << "node " << node;
    if (node == 1) {
      EXPECT_EQ(players.closed(0), closed[0] + 1) << "Black, on the stopping node, closed once";
      EXPECT_EQ(players.closed(1), closed[1]) << "White, on another node, not closed";
    }
    if (node == 0) {
      EXPECT_EQ(players.closed(0), closed[0]) << "nobody on the hub: nobody closed";
      EXPECT_EQ(players.closed(1), closed[1]) << "nobody on the hub: nobody closed";
    }
  }
  players.stop();
  ASSERT_EQ(players.failure(), "");
  EXPECT_NE(nodes.health(0)["role"], "hub") << "the hub moved, and the old one came back a front";
  EXPECT_GE(players.resyncs(0) + players.resyncs(1), 1) << "told to resync when the hub moved";

  store::pg::Connection db(uri);
  EXPECT_EQ(db.query("SELECT count(*) FROM game_events WHERE kind = 'move' AND game_id = $1",
                     {players.game()})
                .int64(0, 0),
            players.moves())
      << "every acknowledged move, once";
  std::printf(
      "rolling restart: the longest pause while node b restarted %lld ms, node c %lld ms, the "
      "hub (a) %lld ms; players closed %d and %d times, told to resync %d and %d times\n",
      pauses[1], pauses[2], pauses[0], players.closed(0), players.closed(1), players.resyncs(0),
      players.resyncs(1));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(nodes.node(i).terminate(), 0);
}

}  // namespace
}  // namespace tengen
