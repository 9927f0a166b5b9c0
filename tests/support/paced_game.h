#pragma once

// One 19×19 game between two real players of a cluster's nodes (docs/cluster.md), moving in
// turn on a thread of its own at a steady pace for as long as a test lets them: Black up the
// columns A to H, White down T to K, J left empty, so that every move is legal. Each player keeps
// one connection to one node; when it is closed (its node stopped or was killed) it connects to
// the next node that is up and sends its move again under the same cid; when told to resync it
// sends it again on the same socket. Every acknowledged move's round trip is kept with the time
// it was sent, for the faults tests' figures (tests/server/under_load_test.cpp).
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/node_processes.h"
#include "support/server_process.h"
#include "support/ws_client.h"

namespace tengen::testing {

class PacedGame {
 public:
  using Clock = std::chrono::steady_clock;
  struct RoundTrip {
    Clock::time_point sent;
    Clock::duration took;
  };
  // Which nodes are up, shared by every game of a test: nobody connects to one that is down.
  using Up = std::array<std::atomic<bool>, 3>;

  // Registers `black` and `white` on their nodes (`on`), connects them, and starts the game.
  // `from`: the address they register and connect from, as a trusted proxy says it
  // (register_user, WsClientOptions::forwarded_for).
  PacedGame(NodeProcesses& nodes, const Up& up, std::array<int, 2> on,
            std::array<std::string, 2> names, Clock::duration pace, const std::string& from = "")
      : nodes_(nodes), up_(up), pace_(pace), from_(from) {
    for (std::size_t i = 0; i < 2; ++i) {
      tokens_[i] = register_user(nodes_.node(on[i]).port(), names[i], from);
      ws_[i] = connect(on[i], i);
    }
    const auto created = ws_[0]->command(
        {{"type", "create_challenge"}, {"settings", {{"width", 19}, {"color", "black"}}}});
    const auto accepted =
        ws_[1]->command({{"type", "accept_challenge"}, {"challenge", created.at("challenge")}});
    game_ = accepted.at("game");
  }
  ~PacedGame() { stop(); }
  PacedGame(const PacedGame&) = delete;
  PacedGame& operator=(const PacedGame&) = delete;

  void start() {
    thread_ = std::thread([this] { play(); });
  }
  void stop() {
    stopping_ = true;
    if (thread_.joinable()) thread_.join();
  }
  // Waits until `more` moves past the current count are acknowledged; false after 20 s.
  bool wait_for_moves(int more) { return wait_until_moves(moves() + more); }
  // Waits until `total` moves are acknowledged in all; false after 20 s.
  bool wait_until_moves(int total) {
    std::unique_lock lock(mutex_);
    return moved_.wait_for(lock, std::chrono::seconds(20), [&] {
      return moves_ >= total || failed_;
    }) && !failed_;
  }
  // The longest time between two acknowledged moves since the last call, and starts afresh.
  Clock::duration longest_pause() {
    std::lock_guard lock(mutex_);
    return std::exchange(longest_, Clock::duration{});
  }
  int moves() {
    std::lock_guard lock(mutex_);
    return moves_;
  }
  std::vector<RoundTrip> round_trips() {
    std::lock_guard lock(mutex_);
    return round_trips_;
  }
  // The node a player is connected to now.
  int on(int player) const { return on_[static_cast<std::size_t>(player)]; }
  int closed(int player) const { return closed_[static_cast<std::size_t>(player)]; }
  int resyncs(int player) const { return resyncs_[static_cast<std::size_t>(player)]; }
  std::string failure() {
    std::lock_guard lock(mutex_);
    return failure_;
  }
  std::int64_t game() const { return game_; }

 private:
  std::unique_ptr<WsClient> connect(int node, std::size_t player) {
    auto c = std::make_unique<WsClient>(nodes_.node(node).port(),
                                        WsClient::Options{tokens_[player], "", "/ws/v1"}, from_);
    c->wait_type("lobby");
    on_[player] = node;
    return c;
  }
  // Another node that is up takes the connection (a node starting may refuse it: the next); the
  // front nodes first, as a proxy would spread them.
  void reconnect(std::size_t player) {
    for (int attempt = 0; attempt < 100; ++attempt) {
      for (const int node : {1, 2, 0}) {
        if (!up_[static_cast<std::size_t>(node)]) continue;
        try {
          ws_[player] = connect(node, player);
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
        const std::string cid = "m" + std::to_string(n);
        const std::string text = nlohmann::json{
            {"type", "play"},
            {"cid", cid},
            {"game", game_},
            {"vertex", vertex}}.dump();
        const auto sent = Clock::now();
        ws_[p]->send_text(text);
        for (;;) {
          nlohmann::json m;
          try {
            m = ws_[p]->wait([&](const nlohmann::json& message) {
              return message.value("cid", "") == cid || message.value("type", "") == "resync";
            });
          } catch (const boost::system::system_error&) {  // closed: its node stopped
            ++closed_[p];
            reconnect(p);
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
        ws_[p]->forget();  // the events it kept meanwhile (the opponent's moves)
        const auto now = Clock::now();
        {
          std::lock_guard lock(mutex_);
          longest_ = std::max(longest_, now - last);
          round_trips_.push_back({sent, now - sent});
          ++moves_;
        }
        last = now;
        moved_.notify_all();
        if (moves() >= 300) break;  // their columns are full; tests ask for fewer
        std::this_thread::sleep_for(pace_);
      }
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex_);
      failed_ = true;
      failure_ = e.what();
    }
    moved_.notify_all();
  }

  NodeProcesses& nodes_;
  const Up& up_;
  const Clock::duration pace_;
  const std::string from_;
  std::array<std::atomic<int>, 2> on_{0, 0};
  std::array<std::string, 2> tokens_;
  std::array<std::unique_ptr<WsClient>, 2> ws_;
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
  std::vector<RoundTrip> round_trips_;
};

}  // namespace tengen::testing
