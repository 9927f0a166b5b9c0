// Games on every node (docs/cluster.md, "Games on every node"): three real tengen-server
// processes with `--games every-node` over one PostgreSQL and a NATS. A live challenge's game is
// played on the node of the player who accepted it: its commands go there from every
// node (the hub's own connections included), and it goes on while the hub is dead. A node killed
// has its games given to the running nodes, whose players are told to resync and play on there.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>

#include "store/postgres.h"
#include "support/node_processes.h"
#include "support/server_process.h"
#include "support/temp_nats.h"
#include "support/temp_postgres.h"
#include "support/ws_client.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using testing::register_user;
using testing::WsClient;

std::int64_t count(store::pg::Connection& db, const std::string& sql) {
  return db.query(sql).int64(0, 0);
}

long long ms_since(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               since)
      .count();
}

class EveryNode : public ::testing::Test {
 protected:
  EveryNode() : uri_(testing::TempPostgres::instance().new_database_uri()) {}
  void start(int i) { nodes_.start(i, uri_, nats_.url(), {"--games", "every-node"}); }
  testing::ServerProcess& node(int i) { return nodes_.node(i); }
  std::int64_t node_id(int i) { return nodes_.health(i)["node_id"].get<std::int64_t>(); }
  std::unique_ptr<WsClient> connect(int i, const std::string& token) {
    auto c = std::make_unique<WsClient>(node(i).port(), WsClient::Options{token, "", "/ws/v1"});
    c->wait_type("lobby");
    return c;
  }
  // Black challenges (a live 9×9, unrated unless `rated`), White accepts: the game.
  static std::int64_t start_game(WsClient& black, WsClient& white, bool rated = false) {
    const json created =
        black.command({{"type", "create_challenge"},
                       {"settings", {{"width", 9}, {"color", "black"}, {"rated", rated}}}});
    EXPECT_EQ(created["type"], "ack") << created.dump();
    const json accepted =
        white.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
    EXPECT_EQ(accepted["type"], "ack") << accepted.dump();
    return accepted["game"].get<std::int64_t>();
  }
  static ::testing::AssertionResult joined(WsClient& c, std::int64_t game) {
    const json reply = c.command({{"type", "join"}, {"game", game}});
    if (reply["type"] == "ack") return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "join: " << reply.dump();
  }
  std::int64_t owner_of(std::int64_t game) {
    store::pg::Connection db(uri_);
    return count(db, "SELECT node_id FROM game_leases WHERE game_id = " + std::to_string(game));
  }

  testing::TempNats nats_;
  std::string uri_;
  testing::NodeProcesses nodes_{"every-node"};
};

// The hub on node 0; Black on node 1, White (who accepts) on node 2, a spectator on the hub. The
// game is node 2's; Black's node learns it from the hub's word on the bus or, started only after
// the game, from the hub when its first command of the game reaches it. The hub is killed: the
// game goes on between the two other nodes at once, before a new hub has even been chosen, and
// its lease never changes hands.
TEST_F(EveryNode, AGameIsPlayedOnTheNodeOfThePlayerWhoAcceptedItAndOutlivesTheHub) {
  start(0);
  start(2);
  const std::string black_token = register_user(node(0).port(), "black");
  const std::string white_token = register_user(node(2).port(), "white");
  const std::string watcher_token = register_user(node(0).port(), "watcher");
  auto black = connect(0, black_token);
  auto white = connect(2, white_token);
  const std::int64_t game = start_game(*black, *white);
  EXPECT_EQ(owner_of(game), node_id(2)) << "played where White accepted";

  // Black moves to node 1, started now: it never heard where the game is played.
  start(1);
  black = connect(1, black_token);
  auto watcher = connect(0, watcher_token);
  for (auto* c : {black.get(), white.get(), watcher.get()}) ASSERT_TRUE(joined(*c, game));
  // "N watching" counts the spectators of every node: one on the hub, one on node 1, told to
  // White on node 2, where the game is played.
  auto watcher2 = connect(1, register_user(node(1).port(), "watcher2"));
  ASSERT_TRUE(joined(*watcher2, game));
  const json watching = white->wait([&](const json& m) {
    return m["type"] == "watching" && m["game"] == game && m["count"] == 2;
  });
  EXPECT_EQ(watching["count"], 2) << watching.dump();
  watcher2.reset();
  const char* opening[] = {"E5", "C3", "G7", "C7"};
  std::uint64_t seq = 0;
  for (int i = 0; i < 4; ++i) {
    WsClient& mover = i % 2 == 0 ? *black : *white;
    const json ack = mover.command({{"type", "play"}, {"game", game}, {"vertex", opening[i]}});
    ASSERT_EQ(ack["type"], "ack") << ack.dump();
    seq = ack["seq"];
    EXPECT_EQ(watcher->wait_event(game, seq)["vertex"], opening[i]) << "seen from the hub";
    EXPECT_EQ((i % 2 == 0 ? *white : *black).wait_event(game, seq)["vertex"], opening[i]);
  }
  EXPECT_EQ(owner_of(game), node_id(2));
  // What is read of the game elsewhere: Black's list of games (asked of the hub, which asks the
  // game's node), its record in play from any node.
  black->forget();
  ASSERT_EQ(black->command({{"type", "my_games"}})["type"], "ack");
  const json listed = black->wait_type("my_games");
  ASSERT_EQ(listed["games"].size(), 1u) << listed.dump();
  EXPECT_EQ(listed["games"][0]["game"], game);
  EXPECT_EQ(listed["games"][0]["your_move"], true) << listed.dump();
  const std::string record = "/api/v1/games/" + std::to_string(game) + ".sgf";
  for (const int i : {0, 1, 2}) {
    const std::string sgf = testing::body_of(testing::http_get(node(i).port(), record));
    EXPECT_NE(sgf.find(";W[cc]"), std::string::npos) << "from node " << i << ": " << sgf;
  }
  const std::string hub_metrics = testing::body_of(testing::http_get(node(0).port(), "/metrics"));
  EXPECT_NE(hub_metrics.find("\ntengen_games_active 0\n"), std::string::npos)
      << "the hub plays no game: " << hub_metrics;

  // The hub dies. The game's moves do not go through it: both are played at once.
  const auto killed = std::chrono::steady_clock::now();
  node(0).kill9();
  watcher.reset();
  const json g3 = black->command({{"type", "play"}, {"game", game}, {"vertex", "G3"}});
  ASSERT_EQ(g3["type"], "ack") << g3.dump();
  const json e3 = white->command({{"type", "play"}, {"game", game}, {"vertex", "E3"}});
  ASSERT_EQ(e3["type"], "ack") << e3.dump();
  const auto both = ms_since(killed);
  EXPECT_EQ(e3["seq"], seq + 2);
  EXPECT_EQ(black->wait_event(game, e3["seq"])["vertex"], "E3");
  std::printf("hub killed -> a move each played on the game's node: %lld ms\n", both);
  // Meanwhile a node became the hub; both players are told to resync their lobby, and their game
  // is where it was.
  for (auto* c : {black.get(), white.get()}) EXPECT_EQ(c->wait_type("resync")["reason"], "hub");
  ASSERT_EQ(black->command({{"type", "join"}, {"game", game}, {"since", seq + 2}})["type"], "ack");
  ASSERT_EQ(white->command({{"type", "resign"}, {"game", game}})["type"], "ack");
  EXPECT_EQ(black->wait_type("game_ended")["reason"], "resignation");

  store::pg::Connection db(uri_);
  EXPECT_EQ(count(db, "SELECT count(*) FROM game_events WHERE kind = 'move' AND game_id = " +
                          std::to_string(game)),
            6);
  EXPECT_EQ(count(db, "SELECT epoch FROM game_leases WHERE game_id = " + std::to_string(game)), 1)
      << "never taken over";
  EXPECT_EQ(count(db, "SELECT count(*) FROM games WHERE ended_at IS NOT NULL AND id = " +
                          std::to_string(game)),
            1);
  black.reset();
  white.reset();
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(2).terminate(), 0);
}

// Whether `done` comes true within 10 s, asked every 10 ms (what it reads is another process's).
bool within_10_s(const std::function<bool()>& done) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// The hub rates a rated game another node played once that node says its end is durable; it is
// told on the bus, and the rows that say a game is still to rate tell it anyway. Waits for that
// (asynchronous) rating, up to 10 s: true once the game's two rows of history are there.
bool rated_by_the_hub(const std::string& uri, std::int64_t game) {
  store::pg::Connection db(uri);
  const std::string id = std::to_string(game);
  return within_10_s([&] {
    return count(db, "SELECT count(*) FROM rating_history WHERE game_id = " + id) == 2 &&
           count(db, "SELECT count(*) FROM ratings_due WHERE game_id = " + id) == 0;
  });
}

// A rated game is played where it was accepted too (the hub rates it once its node says it
// ended), after one the hub played and rated itself: the hub's ratings count both (a node rating
// with a book of its own would have counted one). A quick match's game is played on the node of
// the player who sought last. Every rated game's players are rated once. Then a rated game ends
// while there is no hub (the hub killed a moment before): the node's word is lost, and the new
// hub rates it from the row left in the store.
TEST_F(EveryNode, RatedAndQuickMatchGamesArePlayedElsewhereAndRatedOnceByTheHub) {
  start(0);
  start(1);
  auto black = connect(0, register_user(node(0).port(), "black"));
  auto white = connect(1, register_user(node(1).port(), "white"));
  store::pg::Connection db(uri_);
  const auto rated_games_of = [&](const char* name) {
    return count(db, std::string("SELECT games FROM ratings r JOIN users u ON u.id = r.user_id"
                                 " WHERE u.username = '") +
                         name + "'");
  };
  // White's challenge (White takes Black), accepted on the hub's node: played and rated there.
  const std::int64_t on_hub = start_game(*white, *black, true);
  EXPECT_EQ(owner_of(on_hub), node_id(0));
  ASSERT_TRUE(joined(*white, on_hub));
  ASSERT_EQ(white->command({{"type", "resign"}, {"game", on_hub}})["type"], "ack");
  ASSERT_TRUE(rated_by_the_hub(uri_, on_hub));

  const std::int64_t rated = start_game(*black, *white, true);
  EXPECT_EQ(owner_of(rated), node_id(1)) << "rated, and played where White accepted";
  for (auto* c : {black.get(), white.get()}) ASSERT_TRUE(joined(*c, rated));
  const json e5 = black->command({{"type", "play"}, {"game", rated}, {"vertex", "E5"}});
  ASSERT_EQ(e5["type"], "ack") << e5.dump();
  EXPECT_EQ(white->wait_event(rated, e5["seq"])["vertex"], "E5");
  ASSERT_EQ(white->command({{"type", "resign"}, {"game", rated}})["type"], "ack");
  // Rated by the hub a moment after its end: both players' pages are told once it is stored (the
  // hub's own game before was rated with its end, and said nothing more).
  for (auto* c : {black.get(), white.get()}) {
    const json told = c->wait_type("ratings_changed");
    EXPECT_EQ(told["users"].size(), 2u) << told.dump();
    EXPECT_EQ(
        count(db, "SELECT count(*) FROM rating_history WHERE game_id = " + std::to_string(rated)),
        2)
        << "stored when told";
  }
  ASSERT_TRUE(rated_by_the_hub(uri_, rated));
  EXPECT_EQ(rated_games_of("black"), 2) << "rated by the hub, after the hub's own game";
  EXPECT_EQ(rated_games_of("white"), 2);
  // An administrator annuls it through node 1 (which asks the hub, which asks node 1, the game's
  // node, which has the hub rebuild every rating): as if never played.
  const std::string root = register_user(node(1).port(), "root");
  db.query("UPDATE users SET is_admin = true WHERE username = 'root'");
  const std::string annulled = testing::http_request(
      node(1).port(), "POST", "/api/v1/admin/games/" + std::to_string(rated),
      "Content-Type: application/json\r\nAuthorization: Bearer " + root + "\r\n",
      R"({"action":"annul","reason":"a test"})");
  ASSERT_NE(annulled.find("200 OK"), std::string::npos) << annulled;
  EXPECT_EQ(json::parse(testing::body_of(annulled))["ratings_rebuilt"], 2) << "the hub's game";
  EXPECT_EQ(rated_games_of("black"), 1) << "rebuilt by the hub";
  EXPECT_EQ(
      count(db, "SELECT count(*) FROM rating_history WHERE game_id = " + std::to_string(rated)), 0);

  // Quick match: White waits on the hub's node, Black's seek (on node 1) makes the pair.
  const json seek = {{"type", "seek"}, {"size", 9}, {"speed", "blitz"}};
  auto white2 = connect(0, register_user(node(0).port(), "white2"));
  ASSERT_EQ(white2->command(seek)["type"], "ack");
  white2->wait_type("seeking");
  auto black2 = connect(1, register_user(node(1).port(), "black2"));
  ASSERT_EQ(black2->command(seek)["type"], "ack");
  const json started = black2->wait_type("game_started");
  const std::int64_t matched = started["game"];
  EXPECT_EQ(started["settings"]["rated"], true);
  EXPECT_EQ(owner_of(matched), node_id(1)) << "played where the last seek came from";
  for (auto* c : {black2.get(), white2.get()}) ASSERT_TRUE(joined(*c, matched));
  WsClient& first = started["black"]["name"] == "black2" ? *black2 : *white2;
  WsClient& second = &first == black2.get() ? *white2 : *black2;
  const json d4 = first.command({{"type", "play"}, {"game", matched}, {"vertex", "D4"}});
  ASSERT_EQ(d4["type"], "ack") << d4.dump();
  EXPECT_EQ(second.wait_event(matched, d4["seq"])["vertex"], "D4");
  ASSERT_EQ(second.command({{"type", "resign"}, {"game", matched}})["type"], "ack");
  ASSERT_TRUE(rated_by_the_hub(uri_, matched));
  // A correspondence game accepted on node 1 is the hub's (its reminders read the hub's games),
  // and stays there should its node die: not movable. The others may be given to any node.
  const json by_mail = black->command(
      {{"type", "create_challenge"},
       {"settings",
        {{"width", 9},
         {"color", "black"},
         {"time", {{"system", "correspondence"}, {"per_move_ms", 2 * 86'400'000}}}}}});
  ASSERT_EQ(by_mail["type"], "ack") << by_mail.dump();
  const json slow =
      white->command({{"type", "accept_challenge"}, {"challenge", by_mail["challenge"]}});
  ASSERT_EQ(slow["type"], "ack") << slow.dump();
  EXPECT_EQ(owner_of(slow["game"]), node_id(0)) << "correspondence: on the hub";
  const auto movable = [&](std::int64_t game) {
    return db.query("SELECT movable FROM game_leases WHERE game_id = $1", {game}).boolean(0, 0);
  };
  EXPECT_FALSE(movable(slow["game"]));
  for (const auto g : {on_hub, rated, matched}) EXPECT_TRUE(movable(g)) << "game " << g;
  ASSERT_EQ(white->command({{"type", "resign"}, {"game", slow["game"]}})["type"], "ack");

  // A rated game on node 1; the hub dies; White resigns at once, before node 1 is the hub.
  const std::int64_t orphan = start_game(*black, *white, true);
  ASSERT_EQ(owner_of(orphan), node_id(1));
  ASSERT_TRUE(joined(*white, orphan));
  const auto killed = std::chrono::steady_clock::now();
  node(0).kill9();
  black.reset();
  white2.reset();
  ASSERT_EQ(white->command({{"type", "resign"}, {"game", orphan}})["type"], "ack");
  const bool hub_already = nodes_.health(1)["role"] == "hub";
  ASSERT_TRUE(rated_by_the_hub(uri_, orphan));
  std::printf("a rated game ended %s: rated %lld ms after the hub's death\n",
              hub_already ? "once node 1 was the hub" : "with no hub", ms_since(killed));
  EXPECT_EQ(rated_games_of("black"), 2);
  EXPECT_EQ(count(db, "SELECT count(*) FROM rating_history"), 6)
      << "four games, each rated once, one annulled";
  EXPECT_EQ(count(db, "SELECT count(*) FROM ratings_due"), 0);
  white.reset();
  black2.reset();
  EXPECT_EQ(node(1).terminate(), 0);
}

// The node that plays two games is killed: once its lease has run out the hub gives its games to
// the running nodes, each to the one with the fewest games (the hub last on a tie): one to the
// other front node, one to the hub. The players who sent them commands there are told to resync;
// they join them where they are played now and play on with every acknowledged move, the last one
// resent under its cid answered, not played again.
TEST_F(EveryNode, ANodeKilledHasItsGamesSpreadOverTheOthersAndItsPlayersPlayOn) {
  start(0);
  start(1);
  start(2);
  const std::string black_token = register_user(node(1).port(), "black");
  const std::string white_token = register_user(node(2).port(), "white");
  const std::string dave_token = register_user(node(2).port(), "dave");
  auto black = connect(1, black_token);
  auto white = connect(2, white_token);
  auto carol = connect(0, register_user(node(0).port(), "carol"));
  auto dave = connect(2, dave_token);
  const std::int64_t game = start_game(*black, *white);
  const std::int64_t second = start_game(*carol, *dave);
  ASSERT_EQ(owner_of(game), node_id(2));
  ASSERT_EQ(owner_of(second), node_id(2));
  for (auto* c : {black.get(), white.get()}) ASSERT_TRUE(joined(*c, game));
  for (auto* c : {carol.get(), dave.get()}) ASSERT_TRUE(joined(*c, second));
  ASSERT_EQ(black->command({{"type", "play"}, {"game", game}, {"vertex", "E5"}})["type"], "ack");
  const json c3 =
      white->command({{"type", "play"}, {"cid", "w-c3"}, {"game", game}, {"vertex", "C3"}});
  ASSERT_EQ(c3["type"], "ack") << c3.dump();
  const std::uint64_t seq = c3["seq"];
  black->forget();
  ASSERT_EQ(carol->command({{"type", "play"}, {"game", second}, {"vertex", "D4"}})["type"], "ack");
  carol->forget();

  const auto killed = std::chrono::steady_clock::now();
  node(2).kill9();
  white.reset();
  dave.reset();
  EXPECT_EQ(black->wait_type("resync")["reason"], "game moved");
  const auto told = ms_since(killed);
  ASSERT_EQ(black->command({{"type", "join"}, {"game", game}, {"since", seq}})["type"], "ack");
  white = connect(1, white_token);
  ASSERT_TRUE(joined(*white, game));
  // White's last move again under its cid, as a client does whose ack was lost with the node:
  // answered as applied, not played again.
  const json again =
      white->command({{"type", "play"}, {"cid", "w-c3"}, {"game", game}, {"vertex", "C3"}});
  ASSERT_EQ(again["type"], "ack") << again.dump();
  EXPECT_EQ(again["seq"], seq);
  const json g7 = black->command({{"type", "play"}, {"game", game}, {"vertex", "G7"}});
  ASSERT_EQ(g7["type"], "ack") << g7.dump();
  EXPECT_EQ(white->wait_event(game, g7["seq"])["vertex"], "G7");
  std::printf("the game's node killed -> its player told to resync: %lld ms; -> playing: %lld ms\n",
              told, ms_since(killed));
  // The second game, on the hub now: Carol (on the hub's node) told to resync too.
  EXPECT_EQ(carol->wait_type("resync")["reason"], "game moved");
  ASSERT_TRUE(joined(*carol, second));
  dave = connect(0, dave_token);
  ASSERT_TRUE(joined(*dave, second));
  const json f6 = dave->command({{"type", "play"}, {"game", second}, {"vertex", "F6"}});
  ASSERT_EQ(f6["type"], "ack") << f6.dump();
  EXPECT_EQ(carol->wait_event(second, f6["seq"])["vertex"], "F6");

  EXPECT_EQ(owner_of(game), node_id(1)) << "given to the front node that was left";
  EXPECT_EQ(owner_of(second), node_id(0)) << "then to the hub: one game each";
  store::pg::Connection db(uri_);
  for (const auto g : {game, second})
    EXPECT_EQ(count(db, "SELECT epoch FROM game_leases WHERE game_id = " + std::to_string(g)), 2);
  EXPECT_EQ(count(db, "SELECT count(*) FROM game_events WHERE kind = 'move' AND game_id = " +
                          std::to_string(game)),
            3);
  EXPECT_EQ(count(db, "SELECT count(*) FROM game_events WHERE kind = 'move' AND game_id = " +
                          std::to_string(second)),
            2);
  for (auto* c : {&black, &white, &carol, &dave}) c->reset();
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(0).terminate(), 0);
}

// The lines of chat `node` counted as posted on other nodes (its /metrics), once at least `lines`.
bool counted_elsewhere(testing::ServerProcess& node, int lines) {
  const std::string name = "tengen_chat_lines_elsewhere_total ";
  return within_10_s([&] {
    const auto metrics = testing::body_of(testing::http_get(node.port(), "/metrics"));
    const auto at = metrics.find("\n" + name);
    return at != std::string::npos && std::stoi(metrics.substr(at + 1 + name.size())) >= lines;
  });
}

// One chat rate for an account across the cluster: Ann plays one game on node b and one on node
// c; her five lines in the first (the burst) count on node c too, and her next line, in the
// second game, is refused there. Carol, her opponent on node c, chats on.
TEST_F(EveryNode, AnAccountsChatRateHoldsAcrossTheNodesThatPlayItsGames) {
  start(0);
  start(1);
  start(2);
  auto ann = connect(0, register_user(node(0).port(), "ann"));
  auto bob = connect(1, register_user(node(1).port(), "bob"));
  auto carol = connect(2, register_user(node(2).port(), "carol"));
  const std::int64_t on_b = start_game(*ann, *bob);
  const std::int64_t on_c = start_game(*ann, *carol);
  ASSERT_EQ(owner_of(on_b), node_id(1));
  ASSERT_EQ(owner_of(on_c), node_id(2));
  for (const auto g : {on_b, on_c}) ASSERT_TRUE(joined(*ann, g));
  ASSERT_TRUE(joined(*carol, on_c));
  const auto chat = [](std::int64_t game, const std::string& text) {
    return json{{"type", "chat"}, {"game", game}, {"text", text}};
  };
  for (int i = 0; i < 5; ++i) {
    const json posted = ann->command(chat(on_b, "line " + std::to_string(i)));
    ASSERT_EQ(posted["type"], "ack") << posted.dump();
  }
  ASSERT_TRUE(counted_elsewhere(node(2), 5)) << "node c heard of her five lines";
  const json refused = ann->command(chat(on_c, "one more, elsewhere"));
  EXPECT_EQ(refused["code"], "rate_limited") << refused.dump();
  EXPECT_EQ(carol->command(chat(on_c, "hello"))["type"], "ack") << "her rate, not Carol's";
  for (auto* c : {&ann, &bob, &carol}) c->reset();
  for (const int i : {1, 2, 0}) EXPECT_EQ(node(i).terminate(), 0);
}

// A node started after a game was placed never heard where it is played; when the hub dies,
// whichever node becomes the hub finds it (the new hub reads where the running nodes' games are;
// another node asks the hub, which sends its commands on), and it goes on where it was.
TEST_F(EveryNode, AGamePlacedBeforeANodeStartedIsFoundThroughItWhenTheHubChanges) {
  start(0);
  start(2);
  const std::string black_token = register_user(node(0).port(), "black");
  auto black = connect(0, black_token);
  auto white = connect(2, register_user(node(2).port(), "white"));
  const std::int64_t game = start_game(*black, *white);
  ASSERT_EQ(owner_of(game), node_id(2));
  ASSERT_EQ(black->command({{"type", "play"}, {"game", game}, {"vertex", "E5"}})["type"], "ack");
  start(1);
  node(0).kill9();
  black.reset();
  black = connect(1, black_token);  // once a new hub is there: its lobby arrives
  const bool b_is_hub = nodes_.health(1)["role"] == "hub";
  ASSERT_TRUE(joined(*black, game));
  ASSERT_TRUE(joined(*white, game));
  const json c3 = white->command({{"type", "play"}, {"game", game}, {"vertex", "C3"}});
  ASSERT_EQ(c3["type"], "ack") << c3.dump();
  EXPECT_EQ(black->wait_event(game, c3["seq"])["vertex"], "C3");
  const json g7 = black->command({{"type", "play"}, {"game", game}, {"vertex", "G7"}});
  ASSERT_EQ(g7["type"], "ack") << g7.dump();
  std::printf("the new hub: node %s\n", b_is_hub ? "b (started after the game)" : "c (its node)");
  EXPECT_EQ(owner_of(game), node_id(2));
  store::pg::Connection db(uri_);
  EXPECT_EQ(count(db, "SELECT epoch FROM game_leases WHERE game_id = " + std::to_string(game)), 1);
  black.reset();
  white.reset();
  EXPECT_EQ(node(1).terminate(), 0);
  EXPECT_EQ(node(2).terminate(), 0);
}

}  // namespace
}  // namespace tengen
