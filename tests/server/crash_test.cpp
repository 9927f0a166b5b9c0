// The crash test (docs/persistence.md): the real server binary runs many games at once over
// WebSockets, is killed with SIGKILL at random moments, and restarts on the same database (a
// SQLite file, or a real PostgreSQL: docs/cluster.md). Every
// event any client saw (acknowledged moves and the opponents' move events) must come back byte for
// byte, every game must replay without corruption, and play continues to the end.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "support/server_process.h"
#include "support/temp_postgres.h"
#include "support/ws_client.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using testing::WsClient;

constexpr int kGames = 8;
constexpr int kUsers =
    10;  // registrations per address are rate-limited; a user may have many connections
constexpr int kCrashes = 3;
constexpr int kSize = 9;

std::string vertex(int x, int y) {
  return std::string(1, "ABCDEFGHJ"[x]) + std::to_string(y + 1);
}

class CrashTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("tengen-crash-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    if (GetParam() == "postgres")
      database_ = {"--database", testing::TempPostgres::instance().new_database_uri()};
    start();
    for (int i = 0; i < kUsers; ++i) {
      const std::string body =
          R"({"username":"player)" + std::to_string(i) + R"(","password":"a fine password"})";
      const std::string reply = testing::http_request(server_->port(), "POST", "/api/v1/register",
                                                      "Content-Type: application/json\r\n", body);
      const json body_json = json::parse(testing::body_of(reply));
      ASSERT_TRUE(body_json.contains("token")) << reply;
      tokens_.push_back(body_json["token"]);
    }
  }
  void TearDown() override {
    clients_.clear();
    server_.reset();
    if (!database_.empty()) {
      EXPECT_FALSE(std::filesystem::exists(dir_ / "test.sqlite3")) << "it ran on PostgreSQL";
    }
    std::filesystem::remove_all(dir_);
  }
  void start() { server_.emplace(dir_, 0, database_); }
  void connect_all() {
    clients_.clear();
    for (int i = 0; i < 2 * kGames; ++i) {
      const auto& token = tokens_[static_cast<std::size_t>(i % kUsers)];
      clients_.push_back(
          std::make_unique<WsClient>(server_->port(), WsClient::Options{token, "", "/ws/v1"}));
      clients_.back()->wait_type("lobby");
    }
  }
  // Every move event a client has read so far is remembered as seen, with its exact text.
  void harvest(int client) {
    for (const auto& m : clients_[client]->kept()) {
      if (m["type"] == "move") note_seen(m);
    }
    clients_[client]->forget();
  }
  void note_seen(const json& event) {
    const auto game = event["game"].get<std::int64_t>();
    const auto seq = event["seq"].get<std::uint64_t>();
    const auto [it, fresh] = seen_[game].emplace(seq, event);
    if (!fresh) {
      EXPECT_EQ(it->second, event)
          << "two different events with seq " << seq << " in game " << game;
    }
  }
  // Sends a random move for the player to move in each game, then reads the replies of the
  // first `read` games (all: -1). Unread ones are in flight.
  void round(std::mt19937& rng, int read = -1) {
    std::vector<std::pair<int, std::string>> sent;  // client, cid
    for (int g = 0; g < kGames; ++g) {
      const int client = 2 * g + (to_move_[g] == "black" ? 0 : 1);
      const std::string cid = "m" + std::to_string(++cids_);
      std::uniform_int_distribution<int> coordinate(0, kSize - 1);
      clients_[client]->send_text(json{{"type", "play"},
                                       {"cid", cid},
                                       {"game", games_[g]},
                                       {"vertex", vertex(coordinate(rng), coordinate(rng))}}
                                      .dump());
      sent.emplace_back(client, cid);
    }
    for (int g = 0; g < kGames && (read < 0 || g < read); ++g) {
      const auto& [client, cid] = sent[g];
      const json reply = clients_[client]->wait(
          [&](const json& m) { return m.contains("cid") && m["cid"] == cid; });
      if (reply["type"] == "ack") {
        ++acked_;
        to_move_[g] = to_move_[g] == "black" ? "white" : "black";
        // The mover's own copy of the event came before the ack: it is seen too.
      } else {
        ASSERT_EQ(reply["code"], "illegal_move") << reply.dump();
      }
      harvest(client);
    }
  }
  // After a restart: each game's full event history must contain every event seen before.
  void verify_and_resume() {
    for (int g = 0; g < kGames; ++g) {
      WsClient& black = *clients_[2 * g];
      black.forget();
      const json ack = black.command({{"type", "join"}, {"game", games_[g]}, {"since", 0}});
      ASSERT_EQ(ack["type"], "ack") << ack.dump();
      std::map<std::uint64_t, json> history;
      for (const auto& m : black.kept()) {
        if (m.contains("game") && m["game"] == games_[g] && m.contains("seq"))
          history[m["seq"].get<std::uint64_t>()] = m;
      }
      black.forget();
      for (std::uint64_t seq = 1; seq <= ack["seq"].get<std::uint64_t>(); ++seq) {
        ASSERT_TRUE(history.contains(seq)) << "game " << games_[g] << ": no event " << seq;
      }
      for (const auto& [seq, event] : seen_[games_[g]]) {
        ASSERT_TRUE(history.contains(seq))
            << "game " << games_[g] << " lost event " << seq << ": " << event.dump();
        EXPECT_EQ(history[seq], event) << "game " << games_[g] << " event " << seq << " changed";
      }
      // The position replays: the snapshot lists exactly the moves of the history.
      WsClient& white = *clients_[2 * g + 1];
      white.forget();
      ASSERT_EQ(white.command({{"type", "join"}, {"game", games_[g]}})["type"], "ack");
      const json snapshot = white.wait_type("snapshot");
      std::size_t moves = 0;
      for (const auto& [seq, event] : history) moves += event["type"] == "move";
      EXPECT_EQ(snapshot["moves"].size(), moves) << "game " << games_[g];
      EXPECT_EQ(snapshot["phase"], "playing");
      to_move_[g] = snapshot["to_move"];
      white.forget();
    }
  }

  std::filesystem::path dir_;
  std::vector<std::string> database_;  // for PostgreSQL: the --database URI (else the SQLite file)
  std::optional<testing::ServerProcess> server_;
  std::vector<std::string> tokens_;
  std::vector<std::unique_ptr<WsClient>> clients_;  // game g: 2g plays Black, 2g+1 White
  std::vector<std::int64_t> games_;
  std::vector<std::string> to_move_;
  std::map<std::int64_t, std::map<std::uint64_t, json>> seen_;
  int cids_ = 0;
  int acked_ = 0;
};

TEST_P(CrashTest, KilledAtRandomMomentsTheServerLosesNothingItAcknowledged) {
  std::mt19937 rng(20261122);
  connect_all();
  for (int g = 0; g < kGames; ++g) {
    const json created = clients_[2 * g]->command(
        {{"type", "create_challenge"},
         {"settings", {{"width", kSize}, {"ruleset", "chinese"}, {"color", "black"}}}});
    ASSERT_EQ(created["type"], "ack") << created.dump();
    const json accepted = clients_[2 * g + 1]->command(
        {{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
    ASSERT_EQ(accepted["type"], "ack") << accepted.dump();
    games_.push_back(accepted["game"]);
    to_move_.push_back("black");
    for (int c : {2 * g, 2 * g + 1})
      ASSERT_EQ(clients_[c]->command({{"type", "join"}, {"game", games_[g]}})["type"], "ack");
  }
  for (int crash = 0; crash < kCrashes; ++crash) {
    const int rounds = std::uniform_int_distribution<int>(5, 15)(rng);
    for (int r = 0; r < rounds; ++r) round(rng);
    // Moves go out in every game; the server dies while some replies are still unread.
    round(rng, std::uniform_int_distribution<int>(0, kGames - 1)(rng));
    server_->kill9();
    clients_.clear();
    start();
    connect_all();
    verify_and_resume();
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(acked_, kCrashes * 5 * kGames / 2);
  // Play on to the end: a few more moves, two passes, both accept the score.
  for (int r = 0; r < 4; ++r) round(rng);
  for (int g = 0; g < kGames; ++g) {
    for (int p = 0; p < 2; ++p) {
      const int client = 2 * g + (to_move_[g] == "black" ? 0 : 1);
      ASSERT_EQ(clients_[client]->command({{"type", "pass"}, {"game", games_[g]}})["type"], "ack");
      to_move_[g] = to_move_[g] == "black" ? "white" : "black";
    }
    const json scoring = clients_[2 * g]->wait_type("scoring_started");
    const auto version = scoring["marking"]["version"];
    for (int c : {2 * g, 2 * g + 1}) {
      ASSERT_EQ(clients_[c]->command(
                    {{"type", "accept_score"}, {"game", games_[g]}, {"version", version}})["type"],
                "ack");
    }
    EXPECT_EQ(clients_[2 * g]->wait_type("game_ended")["reason"], "score");
  }
  const json finished =
      json::parse(testing::body_of(testing::http_get(server_->port(), "/api/v1/games?limit=100")));
  EXPECT_EQ(finished["games"].size(), static_cast<std::size_t>(kGames));
}

INSTANTIATE_TEST_SUITE_P(Backends, CrashTest, ::testing::Values("sqlite", "postgres"),
                         [](const auto& backend) { return backend.param; });

}  // namespace
}  // namespace tengen
