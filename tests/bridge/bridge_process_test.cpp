// The bridge end to end: the real server, the real tengen-gtp-bridge and GNU Go (Debian's gnugo),
// with a scripted human on a real WebSocket.
#include "support/bridge_process.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>

#include "support/paths.h"
#include "support/server_process.h"
#include "support/ws_client.h"

namespace {

using namespace tengen::testing;
using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kGnuGo = "/usr/games/gnugo";
// How long to wait for the next message: the bot reconnects with backoff after a server
// restart, and sanitizer builds on a busy machine are slow.
constexpr std::chrono::seconds kPatience{30};

struct Account {
  std::string token;
  std::int64_t id = 0;
};

Account register_human(int port, const std::string& name) {
  const auto reply =
      http_request(port, "POST", "/api/v1/register", "Content-Type: application/json\r\n",
                   json{{"username", name}, {"password", "a fine password"}}.dump());
  const json body = json::parse(body_of(reply));
  return {body.at("token"), body.at("user").at("id")};
}

json gnugo(int level) {
  return {kGnuGo, "--mode", "gtp", "--level", std::to_string(level)};
}

json bot_config(int port, const std::string& name, const json& engine) {
  return {{"server", "http://127.0.0.1:" + std::to_string(port)},
          {"username", name},
          {"password", "gtp bridge password"},
          {"engine", engine},
          {"accept", {{"board_sizes", {9}}, {"max_games", 3}}},
          {"log_gtp", true}};
}

json settings_9x9(const std::string& color, const json& time) {
  return {{"width", 9}, {"height", 9}, {"ruleset", "japanese"}, {"color", color}, {"time", time}};
}

// A directory for one test's databases, configurations and logs.
struct TempDir {
  fs::path path =
      fs::temp_directory_path() / ("tengen-bridge-" + std::to_string(getpid()) + "-" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

void wait_online(WsClient& client, const std::string& name) {
  const json lobby = client.wait_type("lobby");
  for (const auto& u : lobby["online"]) {
    if (u["name"] == name) return;
  }
  client.wait([&](const json& m) {
    if (m["type"] != "presence") return false;
    for (const auto& u : m["online"]) {
      if (u["name"] == name) return true;
    }
    return false;
  });
}

// Challenges the bot directly and returns the game once it has accepted, joined so that every
// event of the game arrives as an event. The bot joins and acts (greets, places handicap
// stones, resigns) as soon as it has accepted, possibly before this client joins: a plain join
// would show that in a snapshot, and a test waiting for the event would wait for ever (the
// "stall" once put down to the server). Joining with `since` 0 replays the game's events.
std::int64_t challenge(WsClient& client, const std::string& bot, const json& settings) {
  const json ack =
      client.command({{"type", "create_challenge"}, {"settings", settings}, {"opponent", bot}});
  EXPECT_EQ(ack["type"], "ack") << ack.dump();
  const json started = client.wait_type("game_started");
  const std::int64_t game = started["game"];
  EXPECT_EQ(client.command({{"type", "join"}, {"game", game}, {"since", 0}})["type"], "ack");
  return game;
}

// Plays the first point of a shuffled board the server takes.
void play_somewhere(WsClient& client, std::int64_t game, std::mt19937& rng) {
  std::vector<std::string> points;
  for (const char column : std::string("ABCDEFGHJ")) {
    for (int row = 1; row <= 9; ++row) points.push_back(column + std::to_string(row));
  }
  std::shuffle(points.begin(), points.end(), rng);
  for (const auto& p : points) {
    const json reply = client.command({{"type", "play"}, {"game", game}, {"vertex", p}});
    if (reply["type"] == "ack") return;
    ASSERT_EQ(reply["code"], "illegal_move") << reply.dump();
  }
  FAIL() << "no legal point";
}

bool is_event(const json& m, std::int64_t game, std::initializer_list<const char*> types) {
  if (!m.contains("game") || m["game"] != game) return false;
  return std::any_of(types.begin(), types.end(), [&](const char* t) { return m["type"] == t; });
}

// The human answers a scoring phase by accepting whatever the bot accepted.
json agree_with_bot(WsClient& client, std::int64_t game, const std::string& bot_color) {
  std::uint64_t latest = 0;
  for (;;) {
    const json m = client.wait([&](const json& e) {
      return is_event(
          e, game, {"scoring_started", "marking", "score_accepted", "game_ended", "play_resumed"});
    });
    if (m["type"] == "game_ended") return m;
    if (m["type"] == "scoring_started" || m["type"] == "marking") latest = m["marking"]["version"];
    if (m["type"] == "play_resumed")
      ADD_FAILURE() << "the bot resumed play against a marking it made";
    if (m["type"] == "score_accepted" && m["by"] == bot_color && m["version"] == latest) {
      EXPECT_EQ(
          client.command({{"type", "accept_score"}, {"game", game}, {"version", latest}})["type"],
          "ack");
    }
  }
}

TEST(GtpBridge, AHumanPlaysGnuGoToTheEndThroughAServerRestart) {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(dir.path);
  const int port = server->port();
  const Account human = register_human(port, "shusaku");
  json config = bot_config(port, "gnugo", gnugo(1));
  config["greeting"] = "Hello from GNU Go";
  config["accept"]["time_systems"] = {"byoyomi", "fischer"};
  BridgeProcess bot(dir.path, "gnugo", config);

  auto client = std::make_unique<WsClient>(port, WsClient::Options{human.token, "", "/ws/v1"});
  client->set_read_timeout(kPatience);
  wait_online(*client, "gnugo");
  // Refused, in the bot's words in its log: not a time system it accepts.
  const json untimed = client->command({{"type", "create_challenge"},
                                        {"settings", settings_9x9("black", {{"system", "none"}})},
                                        {"opponent", "gnugo"}});
  client->wait([&](const json& m) {
    return m["type"] == "challenge_closed" && m["challenge"] == untimed["challenge"] &&
           m["reason"] == "declined";
  });

  const json byoyomi = {
      {"system", "byoyomi"}, {"main_ms", 60000}, {"periods", 3}, {"period_ms", 10000}};
  const std::int64_t game = challenge(*client, "gnugo", settings_9x9("black", byoyomi));
  const json hello = client->wait([&](const json& m) { return is_event(m, game, {"chat"}); });
  EXPECT_EQ(hello["line"]["text"], "Hello from GNU Go");
  EXPECT_EQ(hello["line"]["from"]["name"], "gnugo");
  std::mt19937 rng(7);
  int human_moves = 0;
  int bot_moves = 0;
  bool restarted = false;
  for (int turn = 0; turn < 150; ++turn) {
    const bool human_passes = human_moves >= 6;
    if (!human_passes) {
      play_somewhere(*client, game, rng);
      ++human_moves;
    } else {
      const json reply = client->command({{"type", "pass"}, {"game", game}});
      ASSERT_EQ(reply["type"], "ack") << reply.dump();
    }
    const json reply = client->wait([&](const json& m) {
      return is_event(m, game, {"scoring_started", "game_ended"}) ||
             (is_event(m, game, {"move"}) && m["color"] == "white");
    });
    if (reply["type"] != "move") {
      ASSERT_EQ(reply["type"], "scoring_started") << reply.dump();
      break;
    }
    ++bot_moves;
    EXPECT_TRUE(reply["clock"].is_object());
    if (human_passes && reply["vertex"] == "pass") break;  // two passes: the scoring phase
    if (bot_moves == 3 && !restarted) {
      // The server goes down and comes back; the bot finds its game again by itself.
      restarted = true;
      client.reset();
      ASSERT_EQ(server->terminate(), 0);
      server = std::make_unique<ServerProcess>(dir.path, port);
      client = std::make_unique<WsClient>(port, WsClient::Options{human.token, "", "/ws/v1"});
      client->set_read_timeout(kPatience);
      ASSERT_EQ(client->command({{"type", "join"}, {"game", game}})["type"], "ack");
    }
  }
  ASSERT_TRUE(restarted);
  const json ended = agree_with_bot(*client, game, "white");
  EXPECT_EQ(ended["reason"], "score") << ended.dump();

  const std::string log = bot.log();
  EXPECT_NE(log.find("> time_settings 60 10 1"), std::string::npos)
      << "byo-yomi as Canadian periods of one stone";
  EXPECT_NE(log.find("> time_left white "), std::string::npos);
  EXPECT_NE(log.find("> final_status_list dead"), std::string::npos);
  EXPECT_NE(log.find("declining challenge"), std::string::npos);
  EXPECT_NE(log.find("connection lost to 127.0.0.1"), std::string::npos)
      << "the restart was noticed";
  const std::string sgf = body_of(http_get(port, "/api/v1/games/" + std::to_string(game) + ".sgf"));
  EXPECT_NE(sgf.find("PW[gnugo]"), std::string::npos) << sgf;
  EXPECT_NE(sgf.find("RE[" + ended["result"].get<std::string>() + "]"), std::string::npos) << sgf;
  EXPECT_NE(body_of(http_get(port, "/api/v1/users/gnugo")).find("\"bot\":true"), std::string::npos);
  EXPECT_EQ(bot.terminate(), 0);
}

TEST(GtpBridge, AnEngineThatFailsResignsItsGameAndTheOthersGoOn) {
  TempDir dir;
  ServerProcess server(dir.path);
  const int port = server.port();
  const Account human = register_human(port, "gennan");
  // Engines start in this order: the bridge's check at start, game 1's GNU Go, game 2's
  // babbler, game 3's crasher.
  std::ofstream(dir.path / "kinds") << "gnugo\ngnugo\ngarbage\ncrash\n";
  BridgeProcess bot(
      dir.path, "flaky",
      bot_config(port, "flaky",
                 {tengen::testing::paths::test_engine(), (dir.path / "kinds").string()}));
  WsClient client(port, WsClient::Options{human.token, "", "/ws/v1"});
  client.set_read_timeout(kPatience);
  wait_online(client, "flaky");
  const json untimed = {{"system", "none"}};

  const std::int64_t first = challenge(client, "flaky", settings_9x9("black", untimed));
  std::mt19937 rng(11);
  play_somewhere(client, first, rng);
  client.wait([&](const json& m) { return is_event(m, first, {"move"}) && m["color"] == "white"; });

  // The human takes White: the bot's engine must move first, and fails.
  for (const char* how : {"babbled", "crashed"}) {
    const std::int64_t game = challenge(client, "flaky", settings_9x9("white", untimed));
    const json ended =
        client.wait([&](const json& m) { return is_event(m, game, {"game_ended"}); });
    EXPECT_EQ(ended["result"], "W+R") << how;
    EXPECT_EQ(ended["reason"], "resignation") << how;
  }
  // The first game goes on.
  play_somewhere(client, first, rng);
  client.wait([&](const json& m) { return is_event(m, first, {"move"}) && m["color"] == "white"; });
  ASSERT_EQ(client.command({{"type", "resign"}, {"game", first}})["type"], "ack");

  const std::string log = bot.log();
  EXPECT_NE(log.find("game 2: resigning: the engine answered 'genmove' with not a GTP response: "
                     "'I would play the centre'"),
            std::string::npos);
  EXPECT_NE(
      log.find(
          "game 3: resigning: the engine closed its output at 'genmove' (it exited with status 3)"),
      std::string::npos);
  EXPECT_EQ(bot.terminate(), 0);
}

TEST(GtpBridge, AnEngineThatCannotRunStopsTheBridgeBeforeItPlays) {
  TempDir dir;
  ServerProcess server(dir.path);
  BridgeProcess bot(dir.path, "broken",
                    bot_config(server.port(), "broken", {"/nonexistent/gnugo", "--mode", "gtp"}));
  EXPECT_EQ(bot.wait(), 2);
  EXPECT_NE(
      bot.log().find(
          "the engine does not work: cannot run '/nonexistent/gnugo': No such file or directory"),
      std::string::npos);
}

TEST(GtpBridge, TheBotPlacesFreeHandicapStonesAndGrantsAnUndo) {
  TempDir dir;
  ServerProcess server(dir.path);
  const int port = server.port();
  const Account human = register_human(port, "honinbo");
  json config = bot_config(port, "gnugo", gnugo(1));
  config["accept_undo"] = true;
  BridgeProcess bot(dir.path, "gnugo", config);
  WsClient client(port, WsClient::Options{human.token, "", "/ws/v1"});
  client.set_read_timeout(kPatience);
  wait_online(client, "gnugo");

  json settings =
      settings_9x9("white", {{"system", "fischer"}, {"main_ms", 300000}, {"increment_ms", 5000}});
  settings["ruleset"] = "chinese";
  settings["handicap"] = 3;
  settings["placement"] = "free";
  const std::int64_t game = challenge(client, "gnugo", settings);
  std::vector<std::string> stones;
  while (stones.size() < 3) {
    const json m = client.wait([&](const json& e) { return is_event(e, game, {"move"}); });
    EXPECT_EQ(m["color"], "black");
    stones.push_back(m["vertex"]);
  }
  std::mt19937 rng(3);
  play_somewhere(client, game, rng);
  client.wait([&](const json& m) { return is_event(m, game, {"move"}) && m["color"] == "black"; });
  ASSERT_EQ(client.command({{"type", "undo_request"}, {"game", game}})["type"], "ack");
  const json answered =
      client.wait([&](const json& m) { return is_event(m, game, {"undo_answered"}); });
  EXPECT_EQ(answered["accepted"], true);
  EXPECT_EQ(answered["moves_taken_back"], 2) << "White's move and Black's reply";
  // The engine follows the position back: it answers a new move from there.
  play_somewhere(client, game, rng);
  client.wait([&](const json& m) { return is_event(m, game, {"move"}) && m["color"] == "black"; });
  ASSERT_EQ(client.command({{"type", "resign"}, {"game", game}})["type"], "ack");

  const std::string log = bot.log();
  EXPECT_NE(log.find("> place_free_handicap 3"), std::string::npos);
  EXPECT_NE(log.find("> time_settings 300 0 0"), std::string::npos)
      << "Fischer as absolute time, the bank told each move";
  const std::string sgf = body_of(http_get(port, "/api/v1/games/" + std::to_string(game) + ".sgf"));
  EXPECT_NE(sgf.find("HA[3]"), std::string::npos) << sgf;
  EXPECT_EQ(std::set<std::string>(stones.begin(), stones.end()).size(), 3u);
  EXPECT_EQ(bot.terminate(), 0);
}

TEST(GtpBridge, TwoBotsPlayEachOtherToARecordedResult) {
  TempDir dir;
  ServerProcess server(dir.path);
  const int port = server.port();
  WsClient spectator(port);  // a guest
  spectator.set_read_timeout(kPatience);
  spectator.wait_type("lobby");

  const json byoyomi = {
      {"system", "byoyomi"}, {"main_ms", 120000}, {"periods", 3}, {"period_ms", 10000}};
  json low = bot_config(port, "gnugo-low", gnugo(1));
  low["accept"]["direct"] = false;
  low["challenge"] = settings_9x9("nigiri", byoyomi);
  low["challenge"]["rated"] = true;
  json high = bot_config(port, "gnugo-high", gnugo(6));
  high["accept"]["open"] = true;
  high["accept"]["max_games"] = 1;
  BridgeProcess poster(dir.path, "low", low);
  BridgeProcess taker(dir.path, "high", high);

  const json accepted = spectator.wait(
      [](const json& m) { return m["type"] == "challenge_closed" && m["reason"] == "accepted"; });
  const std::int64_t game = accepted["game"];
  // From the first event: the nigiri may be done before this join (see challenge()).
  ASSERT_EQ(spectator.command({{"type", "join"}, {"game", game}, {"since", 0}})["type"], "ack");
  int moves = 0;
  json ended;
  for (;;) {
    const json m = spectator.wait([&](const json& e) {
      return is_event(e, game, {"move", "game_ended", "nigiri_done"});
    });
    if (m["type"] == "game_ended") {
      ended = m;
      break;
    }
    if (m["type"] == "move") ++moves;
    if (m["type"] == "nigiri_done") {
      EXPECT_GE(m["nigiri"]["stones"], 1) << "the nigiri was revealed";
    }
  }
  EXPECT_GT(moves, 20);
  const std::string reason = ended["reason"];
  EXPECT_TRUE(reason == "score" || reason == "resignation" || reason == "resumption_limit")
      << ended.dump();
  const std::string result = ended["result"];
  EXPECT_TRUE(result.starts_with("B+") || result.starts_with("W+")) << result;

  // The record: both bots, the result, every move.
  const std::string sgf = body_of(http_get(port, "/api/v1/games/" + std::to_string(game) + ".sgf"));
  EXPECT_NE(sgf.find("RE[" + result + "]"), std::string::npos) << sgf;
  const bool low_black = sgf.find("PB[gnugo-low]") != std::string::npos;
  EXPECT_NE(sgf.find(low_black ? "PW[gnugo-high]" : "PB[gnugo-high]"), std::string::npos) << sgf;
  int recorded = 0;
  for (std::size_t at = 0; (at = sgf.find(';', at)) != std::string::npos; ++at)
    recorded += sgf.compare(at + 1, 2, "B[") == 0 || sgf.compare(at + 1, 2, "W[") == 0;
  EXPECT_EQ(recorded, moves) << sgf;
  // Rated: both bots have a rating from it, and are shown as bots.
  for (const char* name : {"gnugo-low", "gnugo-high"}) {
    const json user =
        json::parse(body_of(http_get(port, std::string("/api/v1/users/") + name + "/ratings")));
    EXPECT_EQ(user["user"]["bot"], true) << name;
    EXPECT_EQ(user["history"].size(), 1u) << name;
  }
  EXPECT_EQ(poster.terminate(), 0);
  EXPECT_EQ(taker.terminate(), 0);
}

// The processes the server started whose command line mentions `needle` (the house bots'
// bridges name their configuration file, BOT.json).
std::vector<pid_t> children_of(pid_t parent, const std::string& needle) {
  std::vector<pid_t> found;
  for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(parent) + "/task")) {
    std::ifstream children(task.path() / "children");
    for (pid_t child = 0; children >> child;) {
      std::ifstream cmdline("/proc/" + std::to_string(child) + "/cmdline");
      const std::string text((std::istreambuf_iterator<char>(cmdline)), {});
      if (text.find(needle) != std::string::npos) found.push_back(child);
    }
  }
  return found;
}

// A server started with no set-up brings its own GNU Go players (--bots on here: tests run with
// them off), accounts and all; a bridge that dies is started again and finds its game.
TEST(HouseBots, TheServerBringsItsBotsAndStartsADeadOneAgain) {
  TempDir dir;
  ServerProcess server(dir.path, 0,
                       {"--bots", "on", "--bot-bridge", tengen::testing::paths::bridge_binary()});
  const int port = server.port();
  for (const char* name : {"gnugo-easy", "gnugo-medium", "gnugo-strong"}) {
    const json user = json::parse(body_of(http_get(port, std::string("/api/v1/users/") + name)));
    EXPECT_EQ(user["user"]["bot"], true) << name;
  }
  const Account human = register_human(port, "newcomer");
  WsClient client(port, WsClient::Options{human.token, "", "/ws/v1"});
  client.set_read_timeout(kPatience);
  wait_online(client, "gnugo-easy");

  // What the lobby's "Play a bot" sends: a direct challenge, here untimed and rated.
  json settings = settings_9x9("black", {{"system", "none"}});
  settings["rated"] = true;
  const std::int64_t game = challenge(client, "gnugo-easy", settings);
  std::mt19937 rng(11);
  const auto bot_answers = [&] {
    play_somewhere(client, game, rng);
    client.wait(
        [&](const json& m) { return is_event(m, game, {"move"}) && m["color"] == "white"; });
  };
  bot_answers();

  const auto bridges = children_of(server.pid(), "gnugo-easy.json");
  ASSERT_EQ(bridges.size(), 1u);
  ASSERT_EQ(kill(bridges[0], SIGKILL), 0);
  // Its next move comes from a bridge the server started again, which found the game by itself.
  bot_answers();
  const auto again = children_of(server.pid(), "gnugo-easy.json");
  ASSERT_EQ(again.size(), 1u);
  EXPECT_NE(again[0], bridges[0]);
  EXPECT_EQ(children_of(server.pid(), "gnugo-strong.json").size(), 1u);

  // SIGTERM: the server ends its bridges and exits cleanly.
  EXPECT_EQ(server.terminate(), 0);
  for (pid_t p : again) EXPECT_NE(kill(p, 0), 0) << "bridge " << p << " outlived the server";
}

}  // namespace
