// Persistence (docs/persistence.md) through the real stack: the server stops, a new one starts on
// the same SQLite file, and every unfinished game, open challenge and session comes back; finished
// games are archived and served as SGF that GNU Go reads to the same final position.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "gtp_process.h"
#include "rooms/nigiri.h"
#include "support/game_commands.h"
#include "support/live_server.h"
#include "support/server_process.h"
#include "support/temp_database.h"
#include "support/temp_postgres.h"
#include "support/two_players.h"
#include "support/ws_client.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using std::chrono::milliseconds;
using testing::WsClient;

using testing::cmd;
using testing::expect_ack;
using testing::play;

// On both backends: a SQLite file, and a real PostgreSQL (docs/cluster.md).
class Persistence : public testing::TwoPlayers, public ::testing::WithParamInterface<std::string> {
 protected:
  Persistence() : TwoPlayers("black", "white") {
    if (GetParam() == "postgres") database_ = testing::TempPostgres::instance().new_database_uri();
  }
  std::int64_t new_game(json settings) {
    return testing::start_game(*black_, *white_, std::move(settings));
  }
  void join_both(std::int64_t game) {
    expect_ack(black_->command({{"type", "join"}, {"game", game}}));
    expect_ack(white_->command({{"type", "join"}, {"game", game}}));
  }
  json snapshot(WsClient& c, std::int64_t game) {
    c.forget();
    expect_ack(c.command({{"type", "join"}, {"game", game}}));
    return c.wait_type("snapshot");
  }

  std::unique_ptr<WsClient>& black_ = players_[0];
  std::unique_ptr<WsClient>& white_ = players_[1];
  const std::string& black_token_ = tokens_[0];
};

TEST_P(Persistence, ARestartBringsBackEveryUnfinishedGameChallengeAndSession) {
  start();
  // 1: a timed game with an accepted undo and a chat line.
  const auto timed = new_game(
      {{"width", 9},
       {"time",
        {{"system", "byoyomi"}, {"main_ms", 30'000}, {"periods", 3}, {"period_ms", 10'000}}}});
  expect_ack(black_->command(play(timed, "E5")));
  expect_ack(white_->command(play(timed, "C3")));
  stack_->advance(milliseconds(5'000));
  expect_ack(black_->command(play(timed, "G7")));
  stack_->advance(milliseconds(2'000));
  expect_ack(white_->command(play(timed, "C7")));
  const json chat_ack = black_->command(
      cmd("chat", timed, {{"text", "sorry, may I take that back?"}, {"cid", "chat-1"}}));
  expect_ack(chat_ack);
  expect_ack(black_->command(cmd("undo_request", timed)));
  expect_ack(white_->command(cmd("undo_answer", timed, {{"accept", true}})));
  stack_->advance(milliseconds(4'000));  // Black thinks, then the server stops: not charged
  // 2: a nigiri where only the holder has chosen.
  const json nigiri_created = black_->command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "nigiri"}}}});
  const auto nigiri = white_
                          ->command({{"type", "accept_challenge"},
                                     {"challenge", nigiri_created["challenge"]}})["game"]
                          .get<std::int64_t>();
  join_both(nigiri);
  expect_ack(black_->command(cmd("nigiri", nigiri, {{"seed", "holder-seed-1"}})));
  // 3: in the scoring phase, Black has accepted the suggestion.
  const auto scored = new_game({{"width", 5}, {"ruleset", "chinese"}});
  for (const auto& [who, vertex] :
       std::vector<std::pair<int, const char*>>{{0, "B3"}, {1, "D3"}, {0, "pass"}, {1, "pass"}}) {
    expect_ack((who == 0 ? black_ : white_)->command(play(scored, vertex)));
  }
  const json scoring = black_->wait_type("scoring_started");
  const auto version = scoring["marking"]["version"].get<std::uint64_t>();
  expect_ack(black_->command(cmd("accept_score", scored, {{"version", version}})));
  // 4: finished before the restart; 5: an open challenge.
  const auto finished = new_game({{"width", 9}});
  expect_ack(black_->command(play(finished, "E5")));
  expect_ack(white_->command(cmd("resign", finished)));
  const json open = white_->command(
      {{"type", "create_challenge"}, {"settings", {{"width", 13}, {"color", "white"}}}});
  expect_ack(open);

  const json before_timed = snapshot(*white_, timed);
  const json before_scored = snapshot(*white_, scored);
  const auto timed_seq = before_timed["seq"].get<std::uint64_t>();
  stop();

  start();  // a new server process, as far as the store can tell: the same file, nothing else
  EXPECT_EQ(stack_->recovered().games, 3u);
  EXPECT_EQ(stack_->recovered().challenges, 1u);
  ASSERT_EQ(lobby_["challenges"].size(), 1u);  // sessions and the open challenge are back
  EXPECT_EQ(lobby_["challenges"][0]["id"], open["challenge"]);
  EXPECT_EQ(lobby_["challenges"][0]["settings"]["width"], 13);

  // The timed game: same moves, chat and clocks; the downtime and the interrupted turn's 4 s are
  // not charged (Black's clock shows the 25 s it had when its turn began).
  const json after_timed = snapshot(*white_, timed);
  EXPECT_EQ(after_timed["moves"], before_timed["moves"]);
  EXPECT_EQ(after_timed["seq"], timed_seq + 2);  // both players left as the server stopped
  EXPECT_EQ(after_timed["chat"], before_timed["chat"]);
  EXPECT_EQ(after_timed["to_move"], "black");
  EXPECT_EQ(after_timed["clock"]["black"]["main_ms"], 25'000);
  EXPECT_EQ(after_timed["clock"]["white"]["main_ms"], 28'000);
  EXPECT_EQ(after_timed["clock"]["running"], "black");
  EXPECT_EQ(after_timed["absent"].size(), 2u);  // nobody has come back to the room yet
  // A client resuming from a sequence number gets the very bytes it would have got before.
  black_->forget();
  expect_ack(black_->command({{"type", "join"}, {"game", timed}, {"since", timed_seq - 1}}));
  const json resent = black_->wait_event(timed, timed_seq);
  EXPECT_EQ(resent["type"], "undo_answered");
  EXPECT_EQ(resent["moves_taken_back"], 2);
  stack_->advance(milliseconds(3'000));
  expect_ack(black_->command(play(timed, "G7")));
  const json moved = white_->wait_type("move");
  EXPECT_EQ(moved["vertex"], "G7");
  EXPECT_EQ(moved["clock"]["black"]["main_ms"], 22'000);
  // Its record has each mover's clock after the move (the undone G7 is gone with its reading).
  const std::string timed_sgf = get("/api/v1/games/" + std::to_string(timed) + ".sgf");
  EXPECT_NE(timed_sgf.find("TM[30]OT[3x10 byo-yomi]"), std::string::npos) << timed_sgf;
  EXPECT_NE(timed_sgf.find(";B[ee]BL[30];W[cg]WL[30];B[gc]BL[22]"), std::string::npos) << timed_sgf;

  // The nigiri: the holder's choice was kept; the guesser completes it and the draw verifies.
  const json nigiri_now = snapshot(*white_, nigiri);
  EXPECT_TRUE(nigiri_now["nigiri"]["holder_chose"].get<bool>());
  EXPECT_FALSE(nigiri_now["nigiri"]["guesser_chose"].get<bool>());
  expect_ack(
      white_->command(cmd("nigiri", nigiri, {{"seed", "guesser-seed-2"}, {"guess", "odd"}})));
  const json drawn = white_->wait_type("nigiri_done");
  const auto& n = drawn["nigiri"];
  EXPECT_EQ(n["holder_seed"], "holder-seed-1");
  const NigiriProof proof{
      n["commitment"],   n["secret"], n["nonce"],  n["holder_seed"],
      n["guesser_seed"], n["guess"],  n["stones"], drawn["black"]["name"] == "white"};
  EXPECT_TRUE(verify(proof));
  EXPECT_EQ(n["commitment"], nigiri_now["nigiri"]["commitment"]);  // committed before the restart

  // The scoring phase: the same marking version with Black's acceptance; White's ends it.
  const json after_scored = snapshot(*white_, scored);
  EXPECT_EQ(after_scored["phase"], "scoring");
  EXPECT_EQ(after_scored["marking"], before_scored["marking"]);
  EXPECT_EQ(after_scored["marking"]["accepted"]["black"], version);
  expect_ack(white_->command(cmd("accept_score", scored, {{"version", version}})));
  EXPECT_EQ(white_->wait_type("game_ended")["reason"], "score");

  // Commands resent after the restart are answered as before and not applied twice.
  EXPECT_EQ(black_->command(
                cmd("chat", timed, {{"text", "sorry, may I take that back?"}, {"cid", "chat-1"}})),
            chat_ack);
  EXPECT_EQ(white_->command({{"type", "create_challenge"},
                             {"settings", {{"width", 13}, {"color", "white"}}},
                             {"cid", open["cid"]}}),
            open);
  EXPECT_EQ(snapshot(*white_, timed)["chat"].size(), 1u);

  // New ids continue after the stored ones.
  const json again = black_->command({{"type", "create_challenge"}, {"settings", {{"width", 9}}}});
  EXPECT_GT(again["challenge"].get<std::int64_t>(), open["challenge"].get<std::int64_t>());
  const json accepted =
      black_->command({{"type", "accept_challenge"}, {"challenge", open["challenge"]}});
  EXPECT_EQ(accepted["game"], finished + 1);

  // The finished game is in the archive; the live ones are not "finished".
  const json list = json::parse(get("/api/v1/games"));
  ASSERT_EQ(list["games"].size(), 2u) << list.dump();
  EXPECT_EQ(list["games"][0]["id"], finished);  // newest id first
  EXPECT_EQ(list["games"][0]["result"], "B+R");
  EXPECT_EQ(list["games"][0]["end_reason"], "resignation");
  EXPECT_EQ(list["games"][1]["id"], scored);
  EXPECT_EQ(list["games"][1]["end_reason"], "score");
}

// A private game's record and details were once served to anyone by its (sequential) number.
// They go only to its two players; everyone else is told there is no such game.
TEST_P(Persistence, APrivateGamesRecordsGoOnlyToItsPlayers) {
  start();
  const std::string outsider = stack_->token_for("outsider");
  const auto game = new_game({{"width", 9}, {"private", true}});
  join_both(game);
  expect_ack(black_->command(testing::play(game, "E5")));
  for (const std::string& target :
       {"/api/v1/games/" + std::to_string(game), "/api/v1/games/" + std::to_string(game) + ".sgf",
        "/api/games/" + std::to_string(game) + ".sgf"}) {
    const std::string as_guest = testing::http_get(stack_->port(), target);
    EXPECT_TRUE(as_guest.starts_with("HTTP/1.1 404")) << target << ": " << as_guest;
    EXPECT_EQ(testing::body_of(as_guest), R"({"error":{"code":"not_found","message":"no game )" +
                                              std::to_string(game) + R"("}})");
    EXPECT_TRUE(testing::http_request(stack_->port(), "GET", target,
                                      "Authorization: Bearer " + outsider + "\r\n")
                    .starts_with("HTTP/1.1 404"))
        << target;
    for (const auto& token : tokens_) {
      const std::string as_player = testing::http_request(
          stack_->port(), "GET", target, "Authorization: Bearer " + token + "\r\n");
      EXPECT_TRUE(as_player.starts_with("HTTP/1.1 200")) << target << ": " << as_player;
    }
  }
  // Finished, it stays theirs.
  expect_ack(white_->command(cmd("resign", game)));
  const std::string sgf = "/api/v1/games/" + std::to_string(game) + ".sgf";
  EXPECT_TRUE(testing::http_get(stack_->port(), sgf).starts_with("HTTP/1.1 404"));
  const std::string record = testing::body_of(testing::http_request(
      stack_->port(), "GET", sgf, "Authorization: Bearer " + black_token_ + "\r\n"));
  EXPECT_NE(record.find("RE[B+R]"), std::string::npos) << record;
}

TEST_P(Persistence, TheArchiveListsPagesAndServesSgfThatGnuGoReads) {
  start();
  // A 9x9 game with a capture: E4 is taken by E3.
  const auto game = new_game({{"width", 9}, {"ruleset", "japanese"}});
  const std::vector<const char*> moves{"D4", "E4", "E5", "G7", "F4", "C7", "E3"};
  for (std::size_t i = 0; i < moves.size(); ++i)
    expect_ack((i % 2 == 0 ? black_ : white_)->command(play(game, moves[i])));
  expect_ack(white_->command(cmd("resign", game)));
  for (int i = 0; i < 2; ++i) {  // two more, to page through
    const auto g = new_game({{"width", 9}});
    expect_ack(black_->command(cmd("resign", g)));
  }
  const auto live = new_game({{"width", 9}});
  expect_ack(black_->command(play(live, "C3")));

  const std::string response =
      testing::http_get(stack_->port(), "/api/games/" + std::to_string(game) + ".sgf");
  ASSERT_TRUE(response.starts_with("HTTP/1.1 200")) << response;
  EXPECT_NE(response.find("Content-Type: application/x-go-sgf"), std::string::npos);
  const std::string sgf = testing::body_of(response);
  EXPECT_NE(sgf.find("RE[B+R]"), std::string::npos) << sgf;
  EXPECT_NE(sgf.find("PB[black]"), std::string::npos) << sgf;
  const auto file = std::filesystem::temp_directory_path() /
                    ("tengen-archive-" + std::to_string(getpid()) + ".sgf");
  std::ofstream(file) << sgf;
  {
    tools::GtpProcess gnugo({"/usr/games/gnugo", "--mode", "gtp", "--infile", file.string()});
    auto sorted = [](const std::string& words) {
      std::istringstream in(words);
      std::vector<std::string> list{std::istream_iterator<std::string>(in), {}};
      std::sort(list.begin(), list.end());
      return list;
    };
    EXPECT_EQ(sorted(gnugo.send("list_stones black").text),
              (std::vector<std::string>{"D4", "E3", "E5", "F4"}));
    EXPECT_EQ(sorted(gnugo.send("list_stones white").text), (std::vector<std::string>{"C7", "G7"}));
  }
  std::filesystem::remove(file);
  // A game in play has a record too, as far as it is durable.
  const std::string live_sgf = get("/api/v1/games/" + std::to_string(live) + ".sgf");
  EXPECT_NE(live_sgf.find(";B[cg]"), std::string::npos) << live_sgf;

  const json first = json::parse(get("/api/v1/users/black/games?limit=2"));
  ASSERT_EQ(first["games"].size(), 2u) << first.dump();
  EXPECT_EQ(first["games"][0]["id"], live);
  EXPECT_EQ(first["games"][0]["result"], nullptr);
  const json second =
      json::parse(get("/api/v1/users/black/games?limit=2&before=" + first["next_before"].dump()));
  ASSERT_EQ(second["games"].size(), 2u) << second.dump();
  EXPECT_EQ(second["games"][1]["id"], game);
  EXPECT_EQ(second["games"][1]["move_count"], 7);
  EXPECT_EQ(second["games"][1]["black"]["name"], "black");
  const json finished = json::parse(get("/api/v1/games?limit=10"));
  EXPECT_EQ(finished["games"].size(), 3u);
  EXPECT_EQ(finished["next_before"], nullptr);
  // Games in play are listed too; private ones only in their own players' lists.
  const auto hidden = new_game({{"width", 9}, {"private", true}});
  const json live_list = json::parse(get("/api/v1/games?status=live"));
  ASSERT_EQ(live_list["games"].size(), 1u) << live_list.dump();
  EXPECT_EQ(live_list["games"][0]["id"], live);
  const json public_view = json::parse(get("/api/v1/users/black/games?limit=1"));
  EXPECT_EQ(public_view["games"].size(), 0u) << public_view.dump();
  EXPECT_EQ(public_view["next_before"], hidden);  // paging goes on past it
  const json own_view = json::parse(testing::body_of(
      testing::http_request(stack_->port(), "GET", "/api/v1/users/black/games?limit=1",
                            "Authorization: Bearer " + black_token_ + "\r\n")));
  ASSERT_EQ(own_view["games"].size(), 1u) << own_view.dump();
  EXPECT_EQ(own_view["games"][0]["id"], hidden);
  EXPECT_EQ(
      get("/api/v1/games?status=open"),
      R"({"error":{"code":"bad_request","message":"'status' must be 'finished' or 'live'"}})");
  const json one = json::parse(get("/api/v1/games/" + std::to_string(game)));
  EXPECT_EQ(one["game"]["settings"]["width"], 9);

  // A finished game leaves memory once nobody watches it, and comes back from the store when
  // somebody does.
  const auto in_memory = stack_->centre().rooms_in_memory();
  expect_ack(black_->command(cmd("leave", game)));
  EXPECT_EQ(stack_->centre().rooms_in_memory(), in_memory);  // White still watches
  expect_ack(white_->command(cmd("leave", game)));
  EXPECT_EQ(stack_->centre().rooms_in_memory(), in_memory - 1);
  const json archived = snapshot(*black_, game);
  EXPECT_EQ(archived["phase"], "finished");
  EXPECT_EQ(archived["result"], "B+R");
  EXPECT_EQ(archived["moves"].size(), 7u);
  EXPECT_EQ(archived["captures"]["black"], 1);
  EXPECT_EQ(stack_->centre().rooms_in_memory(), in_memory);

  // Bad requests say what is wrong.
  EXPECT_EQ(
      get("/api/v1/games?limit=0"),
      R"({"error":{"code":"bad_request","message":"'limit' must be an integer from 1 to 100"}})");
  EXPECT_EQ(
      get("/api/v1/games/x.sgf"),
      R"({"error":{"code":"bad_request","message":"the game id must be a positive integer"}})");
  EXPECT_EQ(get("/api/v1/games/999.sgf"),
            R"({"error":{"code":"not_found","message":"no game 999"}})");
  EXPECT_EQ(get("/api/v1/users/nobody/games"),
            R"({"error":{"code":"not_found","message":"no user named 'nobody'"}})");
}

INSTANTIATE_TEST_SUITE_P(Backends, Persistence, ::testing::Values("sqlite", "postgres"),
                         [](const auto& backend) { return backend.param; });

}  // namespace
}  // namespace tengen
