// Analysis after the game through the real parts (docs/analysis.md): the real server binary, the
// real worker (tengen-analysis) with Debian's GNU Go, and with stand-ins speaking KataGo's analysis
// protocol and GTP's kata-analyze from a fixture (tests/analysis/), worker keys made and revoked
// with the server's own commands, a worker killed with SIGKILL mid-job, and hostile results.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/child_start.h"
#include "support/game_commands.h"
#include "support/paths.h"
#include "support/run_program.h"
#include "support/server_process.h"
#include "support/ws_client.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;

struct Answer {
  int status = 0;
  json body;
};

class Analysis : public ::testing::Test {
 protected:
  Analysis()
      : server_(std::nullopt, 0, {"--analysis-worker", "off", "--analysis-claim-seconds", "1"}) {}

  Answer call(const std::string& method, const std::string& path, const std::string& token,
              const std::string& body = "") {
    const std::string headers =
        (token.empty() ? "" : "Authorization: Bearer " + token + "\r\n") +
        std::string(body.empty() && method == "GET" ? "" : "Content-Type: application/json\r\n");
    const auto reply = http_request(server_.port(), method, path, headers, body);
    Answer a;
    a.status = std::stoi(reply.substr(9, 3));
    const auto text = body_of(reply);
    a.body = json::parse(text, nullptr, false);
    if (a.body.is_discarded()) a.body = text;
    return a;
  }
  std::string database() const { return (server_.dir() / "test.sqlite3").string(); }
  // A worker key made with the server's command line.
  std::string key(const std::string& name) {
    const auto out = output_of(paths::server_binary() + " --database " + database() +
                               " --make-worker-key " + name);
    const auto at = out.find("tw_");
    EXPECT_NE(at, std::string::npos) << out;
    return out.substr(at, out.find('\n', at) - at);
  }
  std::string key_file(const std::string& key) {
    const auto path = server_.dir() / ("key-" + std::to_string(++keys_));
    std::ofstream(path) << key << "\n";
    return path.string();
  }
  // A 9x9 game between two new players, `moves` long, that Black then resigns: its id.
  std::int64_t finished_game(const std::vector<std::string>& moves, bool end = true,
                             json settings = {{"width", 9}, {"height", 9}, {"komi", 6.5}}) {
    // The same two players every time: an address may register only a few accounts a minute.
    if (black_.empty()) {
      black_ = register_user(server_.port(), "black");
      white_ = register_user(server_.port(), "white");
    }
    WsClient b(server_.port(), WsClientOptions{black_, "", "/ws/v1"});
    WsClient w(server_.port(), WsClientOptions{white_, "", "/ws/v1"});
    const auto game = start_game(b, w, settings);
    for (std::size_t i = 0; i < moves.size(); ++i)
      expect_ack((i % 2 == 0 ? b : w).command(play(game, moves[i])));
    if (end) expect_ack(b.command(cmd("resign", game)));
    return game;
  }
  std::vector<std::string> worker(const std::string& file, std::vector<std::string> more = {}) {
    std::vector<std::string> args{paths::analysis_binary(),
                                  "--server",
                                  "http://127.0.0.1:" + std::to_string(server_.port()),
                                  "--key-file",
                                  file,
                                  "--once",
                                  "--log-level",
                                  "warn"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }

  // `game`'s analysis asked for and done by the real worker, with the GTP stand-in (a KataGo or,
  // with "--lz", a Leela Zero answering from the 12 moves' fixture) on a new key: the analysis.
  json analysed_by_gtp_standin(std::int64_t game, const std::string& key_name,
                               const std::string& standin_flags = "") {
    const std::string at = "/api/v1/games/" + std::to_string(game) + "/analysis";
    EXPECT_EQ(call("POST", at, white_).status, 202);
    EXPECT_EQ(
        run_program(worker(key_file(key(key_name)),
                           {"--engine", "gtp", "--visits", "50", "--gtp",
                            "python3 " + paths::gtp_analyze_standin() + " " + paths::fixtures() +
                                "/analysis/katago-12-moves.json" + standin_flags}),
                    std::chrono::seconds(60)),
        0);
    const auto done = call("GET", at, "");
    EXPECT_EQ(done.body["state"], "done") << done.body;
    return done.body;
  }

  ServerProcess server_;
  std::string black_, white_;
  int keys_ = 0;
};

const std::vector<std::string> kTwelveMoves{"E5", "C3", "G3", "C6", "G6", "D4",
                                            "E7", "F4", "C7", "E3", "B6", "F3"};

TEST_F(Analysis, GnuGoAnalysesAFinishedGameThroughTheRealWorkerAndTheSgfCarriesIt) {
  const auto watcher = register_user(server_.port(), "watcher");
  // Never while the game is played, not even for a spectator.
  const auto playing = finished_game({"E5", "C3"}, /*end=*/false);
  auto refused = call("POST", "/api/v1/games/" + std::to_string(playing) + "/analysis", watcher);
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_EQ(refused.body["error"]["code"], "game_in_play");

  const auto game = finished_game(kTwelveMoves);
  const std::string at = "/api/v1/games/" + std::to_string(game) + "/analysis";
  EXPECT_EQ(call("GET", at, "").body["state"], "none");
  auto asked = call("POST", at, watcher);  // anyone, for a public game
  ASSERT_EQ(asked.status, 202) << asked.body;
  EXPECT_EQ(asked.body["state"], "queued");
  EXPECT_EQ(asked.body["total"], 13);
  EXPECT_EQ(asked.body["ahead"], 0);
  // Asking again is the same job, not a second one.
  EXPECT_EQ(call("POST", at, black_).body["state"], "queued");

  ASSERT_EQ(
      run_program(worker(key_file(key("house")), {"--level", "1"}), std::chrono::seconds(120)), 0);
  const auto done = call("GET", at, "");
  ASSERT_EQ(done.status, 200) << done.body;
  EXPECT_EQ(done.body["state"], "done") << done.body;
  EXPECT_EQ(done.body["done"], 13);
  EXPECT_TRUE(done.body["engine"].get<std::string>().starts_with("GNU Go 3.")) << done.body;
  EXPECT_TRUE(done.body["engine"].get<std::string>().ends_with(", level 1")) << done.body;
  const auto& positions = done.body["positions"];
  ASSERT_EQ(positions.size(), 13u);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    EXPECT_EQ(positions[i]["move"], i);
    EXPECT_TRUE(positions[i]["score"].is_number());
    EXPECT_FALSE(positions[i].contains("winrate"));  // GNU Go gives none
    EXPECT_LE(positions[i]["line"].size(), 1u);
  }
  EXPECT_EQ(positions[0]["line"].size(), 1u);
  // A second request shows the stored analysis.
  EXPECT_EQ(call("POST", at, white_).status, 200);

  // The SGF download carries it: a comment on each move with the score and the better move.
  const auto sgf =
      body_of(http_get(server_.port(), "/api/v1/games/" + std::to_string(game) + ".sgf"));
  EXPECT_NE(sgf.find("GNU Go 3."), std::string::npos) << sgf;
  EXPECT_NE(sgf.find("ahead; this move"), std::string::npos) << sgf;
}

TEST_F(Analysis, KataGosProtocolThroughAStandInGivesScoresWinRatesAndLines) {
  const auto game = finished_game(kTwelveMoves);
  const std::string at = "/api/v1/games/" + std::to_string(game) + "/analysis";
  ASSERT_EQ(call("POST", at, black_).status, 202);
  const auto file = key_file(key("gpu-box"));
  ASSERT_EQ(run_program(worker(file, {"--engine", "katago", "--visits", "50", "--katago",
                                      "python3 " + paths::katago_standin() + " " +
                                          paths::fixtures() + "/analysis/katago-12-moves.json"}),
                        std::chrono::seconds(60)),
            0);
  const auto done = call("GET", at, "");
  ASSERT_EQ(done.body["state"], "done") << done.body;
  EXPECT_EQ(done.body["engine"], "KataGo 1.15.3, 50 visits");
  const auto& p = done.body["positions"];
  ASSERT_EQ(p.size(), 13u);
  // The fixture speaks for the side to move; the server keeps Black's side.
  EXPECT_DOUBLE_EQ(p[0]["score"].get<double>(), 0.4);  // Black to move: as said
  EXPECT_DOUBLE_EQ(p[0]["winrate"].get<double>(), 0.52);
  EXPECT_DOUBLE_EQ(p[1]["score"].get<double>(), 1.2);    // White to move, said -1.2
  EXPECT_DOUBLE_EQ(p[1]["winrate"].get<double>(), 0.6);  // said 0.4
  EXPECT_EQ(p[0]["line"], json({"E5", "C3", "G3"}));
  const auto sgf =
      body_of(http_get(server_.port(), "/api/v1/games/" + std::to_string(game) + ".sgf"));
  EXPECT_NE(sgf.find("SBKV[60.0]"), std::string::npos) << sgf;
  // White's C6 (move 4) lost 5 points: its comment names the better move, and the engine's line
  // (D5 D6) stands beside it as a variation.
  EXPECT_NE(sgf.find("this move -5.0; better: D5"), std::string::npos) << sgf;
  EXPECT_NE(sgf.find(";W[de]C[The engine's line (KataGo 1.15.3, 50 visits)];B[dd])"),
            std::string::npos)
      << sgf;
  // A review board opened from the game carries the analysis too.
  const auto review =
      http_request(server_.port(), "POST", "/api/v1/reviews",
                   "Content-Type: application/json\r\nAuthorization: Bearer " + black_ + "\r\n",
                   json{{"game", game}}.dump());
  ASSERT_TRUE(review.starts_with("HTTP/1.1 201")) << review;
  const auto id = json::parse(body_of(review))["review"]["id"].get<std::int64_t>();
  const auto reviewed =
      body_of(http_request(server_.port(), "GET", "/api/v1/reviews/" + std::to_string(id) + ".sgf",
                           "Authorization: Bearer " + black_ + "\r\n"));
  EXPECT_NE(reviewed.find("The engine's line (KataGo"), std::string::npos) << reviewed;
}

TEST_F(Analysis, TheAdminPageListsTheQueueWhatWaitsFirstThenWhatEnded) {
  const auto done = finished_game(kTwelveMoves);
  analysed_by_gtp_standin(done, "gpu-box");  // asked for by white
  const auto waiting = finished_game(kTwelveMoves);
  ASSERT_EQ(call("POST", "/api/v1/games/" + std::to_string(waiting) + "/analysis", black_).status,
            202);
  const std::string at = "/api/v1/admin/analysis-jobs";
  EXPECT_EQ(call("GET", at, black_).status, 403) << "administrators only";
  const auto made =
      output_of(paths::server_binary() + " --database " + database() + " --make-admin black");
  const auto list = call("GET", at, black_);
  ASSERT_EQ(list.status, 200) << list.body << made;
  const auto& jobs = list.body["jobs"];
  ASSERT_EQ(jobs.size(), 2u) << jobs;
  EXPECT_EQ(jobs[0]["game"], waiting);
  EXPECT_EQ(jobs[0]["state"], "queued");
  EXPECT_EQ(jobs[0]["requested_by"], "black");
  EXPECT_TRUE(jobs[0]["worker"].is_null());
  EXPECT_TRUE(jobs[0]["finished_at_ms"].is_null());
  EXPECT_EQ(jobs[1]["game"], done);
  EXPECT_EQ(jobs[1]["state"], "done");
  EXPECT_EQ(jobs[1]["requested_by"], "white");
  EXPECT_EQ(jobs[1]["worker"], "gpu-box");
  EXPECT_EQ(jobs[1]["engine"], "KataGo 1.15.3, 50 visits");
  EXPECT_EQ(jobs[1]["moves_done"], jobs[1]["moves_total"]);
  EXPECT_EQ(jobs[1]["attempts"], 1);
  EXPECT_TRUE(jobs[1]["finished_at_ms"].is_number());
  EXPECT_FALSE(jobs[1].contains("result")) << "the list does not carry the analyses";
  EXPECT_EQ(call("POST", at, black_, "{}").status, 405);
}

TEST_F(Analysis, AGtpEngineWithKataAnalyzeGivesTheSameThroughTheRealWorker) {
  const auto game = finished_game(kTwelveMoves);
  const auto done = analysed_by_gtp_standin(game, "gtp-box");
  EXPECT_EQ(done["engine"], "KataGo 1.15.3, 50 visits");
  const auto& p = done["positions"];
  ASSERT_EQ(p.size(), 13u);
  EXPECT_DOUBLE_EQ(p[1]["score"].get<double>(), 1.2);  // White to move, said -1.2
  EXPECT_DOUBLE_EQ(p[3]["score"].get<double>(), -2.0);
  EXPECT_EQ(p[3]["line"], json({"D5", "D6"}));  // order 0's pv, not the pass listed first
}

TEST_F(Analysis, LeelaZerosLzAnalyzeGivesWinRatesOnlyAndTheSwingsAreInWinRate) {
  const auto game = finished_game(kTwelveMoves);
  const auto done = analysed_by_gtp_standin(game, "leela-box", " --lz");
  EXPECT_EQ(done["engine"], "Leela Zero 1.15.3, 50 visits");
  const auto& p = done["positions"];
  ASSERT_EQ(p.size(), 13u);
  for (const auto& position : p) EXPECT_FALSE(position.contains("score")) << position;
  EXPECT_DOUBLE_EQ(p[0]["winrate"].get<double>(), 0.52);  // Black to move: as said (5200)
  EXPECT_DOUBLE_EQ(p[1]["winrate"].get<double>(), 0.6);   // White to move, said 4000
  EXPECT_EQ(p[3]["line"], json({"D5", "D6"}));            // order 0's pv, not the pass first
  // The record speaks of chances, not points.
  const auto sgf =
      body_of(http_get(server_.port(), "/api/v1/games/" + std::to_string(game) + ".sgf"));
  EXPECT_NE(sgf.find("Leela Zero 1.15.3, 50 visits: B 60% to win; this move"), std::string::npos)
      << sgf;
  EXPECT_EQ(sgf.find("ahead"), std::string::npos) << sgf;
  EXPECT_NE(sgf.find("SBKV[60.0]"), std::string::npos) << sgf;
}

TEST_F(Analysis, AReviewBoardAsksTheEngineAboutThePositionItShowsThroughTheRealWorker) {
  const auto game = finished_game(kTwelveMoves);
  const auto review =
      http_request(server_.port(), "POST", "/api/v1/reviews",
                   "Content-Type: application/json\r\nAuthorization: Bearer " + black_ + "\r\n",
                   json{{"game", game}}.dump());
  ASSERT_TRUE(review.starts_with("HTTP/1.1 201")) << review;
  const auto id = json::parse(body_of(review))["review"]["id"].get<std::int64_t>();
  const std::string at = "/api/v1/reviews/" + std::to_string(id) + "/analysis";
  const json line = json::array({{{"color", "black"}, {"vertex", "E5"}},
                                 {{"color", "white"}, {"vertex", "C3"}},
                                 {{"color", "black"}, {"vertex", "G3"}},
                                 {{"color", "white"}, {"vertex", "C6"}}});
  // A line the board does not have is refused, saying which move.
  auto wrong = line;
  wrong[2]["vertex"] = "A1";
  const auto refused = call("POST", at, black_, json{{"node", 3}, {"line", wrong}}.dump());
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_NE(refused.body["error"]["message"].get<std::string>().find("move 3 of the line (A1)"),
            std::string::npos)
      << refused.body;
  EXPECT_EQ(call("POST", at, "", json{{"node", 4}, {"line", line}}.dump()).status, 401);
  EXPECT_EQ(
      call("POST", "/api/v1/reviews/999/analysis", black_, json{{"node", 4}, {"line", line}}.dump())
          .status,
      404);
  // A game's analysis waits too: a worker written before positions (acquire {}) gets the game,
  // one that takes positions gets the position first.
  ASSERT_EQ(call("POST", "/api/v1/games/" + std::to_string(game) + "/analysis", white_).status,
            202);
  const auto asked = call("POST", at, black_, json{{"node", 4}, {"line", line}}.dump());
  ASSERT_EQ(asked.status, 202) << asked.body;
  EXPECT_EQ(asked.body["state"], "queued");
  EXPECT_EQ(asked.body["node"], 4);
  const auto job = asked.body["id"].get<std::int64_t>();
  // Asked again (by anyone who sees the board), the same job.
  EXPECT_EQ(call("POST", at, white_, json{{"node", 4}, {"line", line}}.dump()).body["id"], job);
  ASSERT_EQ(
      run_program(worker(key_file(key("house")), {"--level", "1"}), std::chrono::seconds(120)), 0);
  const auto view = call("GET", at + "/" + std::to_string(job), "");
  ASSERT_EQ(view.status, 200) << view.body;
  EXPECT_EQ(view.body["state"], "done") << view.body;
  EXPECT_TRUE(view.body["engine"].get<std::string>().starts_with("GNU Go 3.")) << view.body;
  EXPECT_EQ(view.body["position"]["move"], 4);  // the position after the line's four moves
  EXPECT_TRUE(view.body["position"]["score"].is_number()) << view.body;
  EXPECT_EQ(view.body["position"]["line"].size(), 1u);
  EXPECT_EQ(call("GET", "/api/v1/games/" + std::to_string(game) + "/analysis", "").body["state"],
            "queued");  // the game waits for the next job
  // /metrics counts what waits (the game) and the workers seen (the one that just worked).
  const auto metrics = body_of(http_get(server_.port(), "/metrics"));
  EXPECT_NE(metrics.find("\ntengen_analysis_unfinished 1\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("\ntengen_analysis_workers_seen 1\n"), std::string::npos) << metrics;
  // Done: asked again, the stored answer at once.
  const auto again = call("POST", at, white_, json{{"node", 4}, {"line", line}}.dump());
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(again.body["id"], job);
  EXPECT_EQ(call("GET", "/api/v1/reviews/" + std::to_string(id) + "/analysis/999", "").status, 404);

  // A worker's result must be the one position asked for.
  const auto k = key("hostile");
  const json five = json::array({{{"color", "black"}, {"vertex", "E5"}}});
  const auto other = call("POST", at, black_, json{{"node", 1}, {"line", five}}.dump());
  ASSERT_EQ(other.status, 202) << other.body;
  const auto taken = call("POST", "/api/v1/analysis/acquire", k, R"({"positions":true})");
  ASSERT_EQ(taken.status, 200) << taken.body;
  EXPECT_EQ(taken.body["position"], other.body["id"]);
  EXPECT_EQ(taken.body["from"], 1);
  EXPECT_EQ(taken.body["positions"], 1);
  const auto sent = call("POST",
                         "/api/v1/analysis/positions/" +
                             std::to_string(other.body["id"].get<std::int64_t>()) + "/result",
                         k, R"({"engine":"x","positions":[{"move":0,"score":1}]})");
  EXPECT_EQ(sent.status, 400) << sent.body;
  EXPECT_NE(sent.body["error"]["message"].get<std::string>().find("must be number 1"),
            std::string::npos)
      << sent.body;
  EXPECT_EQ(call("GET", at + "/" + std::to_string(other.body["id"].get<std::int64_t>()), "")
                .body["state"],
            "failed");

  // Fair play: while one plays a game (not correspondence), the engine answers no position.
  const auto playing = finished_game({"E5"}, /*end=*/false);
  const auto now = call("POST", at, black_, json{{"node", 4}, {"line", line}}.dump());
  EXPECT_EQ(now.status, 409) << now.body;
  EXPECT_EQ(now.body["error"]["code"], "playing_now");
  EXPECT_NE(now.body["error"]["message"].get<std::string>().find(std::to_string(playing)),
            std::string::npos);
}

TEST_F(Analysis, WithAnalyseEveryGameTheServerQueuesFinishedGamesByItself) {
  const auto long_game = finished_game(kTwelveMoves);
  const auto short_game = finished_game({"E5", "C3"});  // fewer than 10 moves: left alone
  const auto playing = finished_game(kTwelveMoves, /*end=*/false);
  ASSERT_EQ(server_.terminate(), 0);
  // Started again with the setting: before it listens it has queued the games of the last day.
  ServerProcess again(server_.dir(), 0, {"--analysis-worker", "off", "--analyse-every-game", "on"});
  const auto state = [&](std::int64_t game) {
    return json::parse(body_of(http_get(again.port(),
                                        "/api/v1/games/" + std::to_string(game) + "/analysis")))
        .value("state", "");
  };
  EXPECT_EQ(state(long_game), "queued");
  EXPECT_EQ(state(short_game), "none");
  EXPECT_EQ(state(playing), "");  // 409: never a game in play
}

TEST_F(Analysis, ARevokedKeyIsRefusedAndAWorkerWithoutOneNeverGetsAJob) {
  const auto game = finished_game({"E5", "C3"});
  ASSERT_EQ(call("POST", "/api/v1/games/" + std::to_string(game) + "/analysis", black_).status,
            202);
  EXPECT_EQ(call("POST", "/api/v1/analysis/acquire", "tw_made-up").status, 401);
  EXPECT_EQ(call("POST", "/api/v1/analysis/acquire", black_).status, 401);  // a player's session
  const auto k = key("old-box");
  EXPECT_EQ(output_of(paths::server_binary() + " --database " + database() +
                      " --revoke-worker-key old-box"),
            "the key of the analysis worker 'old-box' no longer works\n");
  EXPECT_EQ(call("POST", "/api/v1/analysis/acquire", k).status, 401);
  EXPECT_EQ(run_program(worker(key_file(k)), std::chrono::seconds(30)), 2);
  EXPECT_EQ(call("GET", "/api/v1/games/" + std::to_string(game) + "/analysis", "").body["state"],
            "queued");
}

TEST_F(Analysis, HostileAndMalformedResultsAreRefusedWithTheReason) {
  const auto k = key("hostile");
  for (const auto& [body, reason] : std::vector<std::pair<std::string, std::string>>{
           {R"({"engine":"x","positions":[{"move":0,"score":1}]})", "the game has 3 positions"},
           {R"({"engine":"x","positions":[{"move":0,"score":1},{"move":1,"score":2},)"
            R"({"move":2,"score":3,"line":["E5"]}]})",
            "position 2: move 1 of the line (E5) is not legal there"},
           {R"({"engine":"x","positions":[{"move":0,"score":1e9}]})", "between -1000 and 1000"},
           {R"({"engine":"a\u0007b","positions":[{"move":0,"score":1}]})", "printable"},
           {R"({"engine":"x","positions":[{"move":0,"score":1,"winrate":1.5}]})", "from 0 to 1"},
           {R"({"engine":"x","positions":[{"move":0,"score":1,"line":["<b>"]}]})", "such as"},
           {R"({"engine":"x","positions":[{"move":0,"score":1,"line":["J10"]},)"
            R"({"move":1,"score":2},{"move":2,"score":3}]})",
            "not on the board"},
           {R"({"engine":"x","positions":[{"move":0,"score":1}],"html":"<script>"})",
            "unknown field 'html'"},
           {"not json", "JSON object"}}) {
    const auto game = finished_game({"E5", "C3"});
    ASSERT_EQ(call("POST", "/api/v1/games/" + std::to_string(game) + "/analysis", black_).status,
              202);
    const auto job = call("POST", "/api/v1/analysis/acquire", k);
    ASSERT_EQ(job.status, 200) << job.body;
    ASSERT_EQ(job.body["game"], game);
    const auto sent = call("POST", "/api/v1/analysis/" + std::to_string(game) + "/result", k, body);
    EXPECT_EQ(sent.status, 400) << body;
    EXPECT_NE(sent.body["error"]["message"].get<std::string>().find(reason), std::string::npos)
        << sent.body << " for " << body;
    const auto view = call("GET", "/api/v1/games/" + std::to_string(game) + "/analysis", "");
    EXPECT_EQ(view.body["state"], "failed");
    EXPECT_FALSE(view.body.contains("positions"));
    // Asked again, a failed analysis waits for a worker again (afresh); the hostile worker's
    // late result for it is refused.
    const auto again = call("POST", "/api/v1/games/" + std::to_string(game) + "/analysis", black_);
    EXPECT_EQ(again.status, 202) << again.body;
    EXPECT_EQ(again.body["state"], "queued");
    EXPECT_EQ(again.body["error"], "");
    EXPECT_EQ(call("POST", "/api/v1/analysis/" + std::to_string(game) + "/result", k, body).status,
              409);
    // Failed again, so that the account has no more than three waiting in the next case.
    ASSERT_EQ(call("POST", "/api/v1/analysis/acquire", k).body["game"], game);
    call("POST", "/api/v1/analysis/" + std::to_string(game) + "/result", k, "not json");
  }
}

TEST_F(Analysis, AWorkerKilledMidJobLosesItToAnotherAndNothingIsDoubled) {
  const auto game = finished_game(kTwelveMoves);
  const std::string at = "/api/v1/games/" + std::to_string(game) + "/analysis";
  ASSERT_EQ(call("POST", at, black_).status, 202);
  // The first worker's engine (the KataGo stand-in) takes the query and says nothing more: the
  // worker is mid-job when it is killed with SIGKILL (its engine goes with it).
  const auto hung = server_.dir() / "engine-has-the-query";
  auto args = worker(key_file(key("first")),
                     {"--engine", "katago", "--katago",
                      "python3 " + paths::katago_standin() + " " + paths::fixtures() +
                          "/analysis/katago-12-moves.json --hang " + hung.string()});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ChildStart watch(server_.dir().string());
  pid_t first = fork();
  if (first == 0) {
    execv(argv[0], argv.data());
    _exit(127);
  }
  ASSERT_TRUE(watch.wait(first, [&] { return fs::exists(hung); }));
  EXPECT_EQ(call("GET", at, "").body["state"], "running");
  kill(first, SIGKILL);
  waitpid(first, nullptr, 0);
  // Another worker asks (every 50 ms) until the first one's claim (1 s here) has run out; then
  // the job is its.
  ASSERT_EQ(run_program(worker(key_file(key("second")), {"--level", "1", "--poll-ms", "50"}),
                        std::chrono::seconds(120)),
            0);
  const auto done = call("GET", at, "");
  EXPECT_EQ(done.body["state"], "done");
  EXPECT_EQ(done.body["positions"].size(), 13u);
  EXPECT_TRUE(done.body["engine"].get<std::string>().starts_with("GNU Go"));
  // A worker that still thinks it holds the job (the first, had it lived) is refused.
  const auto third = key("third");
  EXPECT_EQ(call("POST", "/api/v1/analysis/" + std::to_string(game) + "/result", third,
                 R"({"engine":"x","positions":[{"move":0,"score":1}]})")
                .status,
            409);
  EXPECT_EQ(
      call("POST", "/api/v1/analysis/" + std::to_string(game) + "/progress", third, R"({"done":3})")
          .status,
      409);
  EXPECT_EQ(call("GET", at, "").body["engine"], done.body["engine"]);
}

TEST_F(Analysis, PrivateGamesArePlayersOnlyAndAllowancesAreKept) {
  const auto other = register_user(server_.port(), "other");
  std::vector<std::int64_t> games;
  for (int i = 0; i < 4; ++i) games.push_back(finished_game({"E5", "C3"}));
  // Three waiting at once per account; the fourth waits for one of them.
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(call("POST", "/api/v1/games/" + std::to_string(games[i]) + "/analysis", other).status,
              202);
  const auto fourth =
      call("POST", "/api/v1/games/" + std::to_string(games[3]) + "/analysis", other);
  EXPECT_EQ(fourth.status, 429);
  EXPECT_EQ(fourth.body["error"]["code"], "analysis_waiting");
  EXPECT_EQ(
      call("GET", "/api/v1/games/" + std::to_string(games[2]) + "/analysis", "").body["ahead"], 2);
  EXPECT_EQ(call("POST", "/api/v1/games/99999/analysis", other).status, 404);
  // A private game is its players' alone: to anyone else it does not exist.
  const auto secret = finished_game({"E5"}, true, {{"width", 9}, {"height", 9}, {"private", true}});
  const std::string at = "/api/v1/games/" + std::to_string(secret) + "/analysis";
  EXPECT_EQ(call("POST", at, other).status, 404);
  EXPECT_EQ(call("GET", at, "").status, 404);
  EXPECT_EQ(call("POST", at, black_).status, 202);
  EXPECT_EQ(call("GET", at, white_).body["state"], "queued");
  EXPECT_EQ(call("GET", at, other).status, 404);
}

}  // namespace
}  // namespace tengen::testing
