// Tournaments through the real stack (SQLite file, hub, WebSockets on loopback): scripted
// clients register, play their rounds and see the standings, across a restart mid-round.
#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <map>
#include <memory>
#include <optional>

#include "store/sqlite.h"
#include "support/game_commands.h"
#include "support/live_server.h"
#include "support/server_process.h"
#include "support/temp_database.h"
#include "support/ws_client.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

class Tournament : public ::testing::Test {
 protected:
  void start() {
    stack_.emplace(temp_.path());
    for (const auto& name : names_) {
      if (!tokens_.contains(name)) tokens_[name] = stack_->token_for(name);
      clients_[name] = std::make_unique<WsClient>(stack_->port(),
                                                  WsClient::Options{tokens_[name], "", "/ws/v1"});
      clients_[name]->wait_type("welcome");
    }
  }
  void stop() {
    clients_.clear();
    stack_.reset();
  }
  void TearDown() override { stop(); }

  WsClient& as(const std::string& name) { return *clients_.at(name); }
  json view(int id = 1) {
    return json::parse(
        body_of(http_get(stack_->port(), "/api/v1/tournaments/" + std::to_string(id))));
  }
  static json swiss_settings(bool rated = false) {
    return {{"name", "Swiss"},
            {"system", "swiss"},
            {"rounds", 2},
            {"game", {{"width", 9}, {"time", {{"system", "none"}}}, {"rated", rated}}}};
  }
  // A 2-round Swiss of amy, bob, cat and dan directed by tdir, its first round in play, and eve
  // watching it; its id.
  int running_swiss(bool rated = false) {
    names_ = {"tdir", "amy", "bob", "cat", "dan", "eve"};
    start();
    const int id = as("tdir").command(
        {{"type", "create_tournament"}, {"settings", swiss_settings(rated)}})["tournament"];
    for (const auto* n : {"amy", "bob", "cat", "dan"})
      expect_ack(as(n).command({{"type", "tournament_register"}, {"tournament", id}}));
    expect_ack(as("tdir").command({{"type", "tournament_start"}, {"tournament", id}}));
    expect_ack(as("eve").command({{"type", "watch_tournaments"}, {"tournament", id}}));
    return id;
  }
  // The name behind a user id in the view.
  static std::string name_of(const json& user) { return user["name"].get<std::string>(); }

  TempDatabase temp_;
  std::optional<LiveStack> stack_;
  std::vector<std::string> names_;
  std::map<std::string, std::string> tokens_;
  std::map<std::string, std::unique_ptr<WsClient>> clients_;
};

json mcmahon_settings() {
  return {{"name", "Club McMahon"},
          {"system", "mcmahon"},
          {"rounds", 4},
          {"game",
           {{"width", 9}, {"height", 9}, {"ruleset", "japanese"}, {"time", {{"system", "none"}}}}},
          {"mcmahon", {{"bar", "1d"}, {"floor", "20k"}}},
          {"tie_breaks", {"score", "sos", "sosos"}},
          {"no_show_ms", 60000}};
}

// The standings as the rules say, computed here from the rounds the server reports: McMahon
// score = start score + wins; SOS sums the opponents' scores (a bye counts the player's own);
// SOSOS sums the opponents' SOS; ties by seed.
std::vector<std::string> expected_order(const json& v) {
  std::map<std::string, double> start, score;
  std::map<std::string, int> seed;
  std::map<std::string, std::vector<std::optional<std::string>>> opponents;
  int s = 0;
  for (const auto& e : v["entrants"]) {
    start[e["name"]] = e["start_score"].get<double>();
    seed[e["name"]] = s++;
  }
  for (const auto& round : v["round_list"]) {
    for (const auto& g : round["games"]) {
      const std::string b = g["black"]["name"], w = g["white"]["name"];
      opponents[b].push_back(w);
      opponents[w].push_back(b);
      if (g["result"] == "black") score[b] += 1;
      if (g["result"] == "white") score[w] += 1;
    }
    for (const auto& bye : round["byes"]) {
      score[bye["name"]] += 1;
      opponents[bye["name"]].push_back(std::nullopt);
    }
  }
  std::map<std::string, double> mms, sos, sosos;
  for (const auto& [name, st] : start) mms[name] = st + score[name];
  for (const auto& [name, list] : opponents) {
    for (const auto& o : list) sos[name] += o ? mms[*o] : mms[name];
  }
  for (const auto& [name, list] : opponents) {
    for (const auto& o : list) sosos[name] += o ? sos[*o] : sos[name];
  }
  std::vector<std::string> order;
  for (const auto& [name, st] : start) order.push_back(name);
  std::sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
    if (mms[a] != mms[b]) return mms[a] > mms[b];
    if (sos[a] != sos[b]) return sos[a] > sos[b];
    if (sosos[a] != sosos[b]) return sosos[a] > sosos[b];
    return seed[a] < seed[b];
  });
  return order;
}

TEST_F(Tournament, NinePlayersPlayAFourRoundMcMahonToTheStandingsTheTieBreaksPredict) {
  names_ = {"director", "pl1", "pl2", "pl3", "pl4", "pl5", "pl6", "pl7", "pl8", "pl9"};
  start();
  const std::map<std::string, std::string> ranks{{"pl1", "3d"},  {"pl2", "1d"},  {"pl3", "1k"},
                                                 {"pl4", "2k"},  {"pl5", "5k"},  {"pl6", "8k"},
                                                 {"pl7", "12k"}, {"pl8", "15k"}, {"pl9", "25k"}};
  const auto created =
      as("director").command({{"type", "create_tournament"}, {"settings", mcmahon_settings()}});
  ASSERT_EQ(created["type"], "ack") << created.dump();
  const int id = created["tournament"];
  for (const auto& [name, rank] : ranks) {
    expect_ack(
        as(name).command({{"type", "tournament_register"}, {"tournament", id}, {"rank", rank}}));
  }
  // Only the director starts it.
  EXPECT_EQ(as("pl1").command({{"type", "tournament_start"}, {"tournament", id}})["code"],
            "forbidden");
  expect_ack(as("director").command({{"type", "tournament_start"}, {"tournament", id}}));
  EXPECT_EQ(as("pl1").command({{"type", "tournament_register"}, {"tournament", id}})["code"],
            "conflict");

  // Start scores: bar 1d (3d and 1d start level), floor 20k (25k starts at 0).
  json v = view(id);
  ASSERT_EQ(v["status"], "running");
  std::map<std::string, double> start_scores;
  for (const auto& e : v["entrants"]) start_scores[e["name"]] = e["start_score"];
  EXPECT_EQ(start_scores["pl1"], 20);
  EXPECT_EQ(start_scores["pl2"], 20);
  EXPECT_EQ(start_scores["pl3"], 19);
  EXPECT_EQ(start_scores["pl9"], 0);
  EXPECT_EQ(v["entrants"][0]["name"], "pl1");

  std::set<std::string> had_bye;
  std::set<std::pair<std::string, std::string>> met;
  int forfeits = 0;
  for (int round = 1; round <= 4; ++round) {
    v = view(id);
    ASSERT_EQ(v["round_list"].size(), static_cast<std::size_t>(round)) << v.dump();
    const json r = v["round_list"][round - 1];
    ASSERT_TRUE(r["started"].get<bool>());
    ASSERT_EQ(r["games"].size(), 4u);
    ASSERT_EQ(r["byes"].size(), 1u);
    EXPECT_TRUE(had_bye.insert(name_of(r["byes"][0])).second)
        << "a second bye for " << r["byes"][0].dump();
    if (round == 2) {  // a restart with the round's games under way
      stop();
      start();
      ASSERT_EQ(view(id)["round_list"].dump(), v["round_list"].dump());
    }
    std::optional<json> no_show;
    for (const auto& g : r["games"]) {
      const std::string black = name_of(g["black"]), white = name_of(g["white"]);
      EXPECT_TRUE(met.insert(std::minmax(black, white)).second)
          << black << " and " << white << " met twice";
      const std::int64_t game = g["game"];
      if (round == 3 && (black == "pl9" || white == "pl9")) {  // p9 does not show up
        no_show = g;
        if (white == "pl9") expect_ack(as(black).command(play(game, "E5")));
        continue;
      }
      // The player listed first in ranks (the stronger) wins, except that pl5 beats anyone.
      const bool black_wins =
          black == "pl5" ||
          (white != "pl5" && ranks.find(black)->second != ranks.find(white)->second &&
           std::distance(ranks.begin(), ranks.find(black)) <
               std::distance(ranks.begin(), ranks.find(white)));
      expect_ack(as(black_wins ? white : black).command(cmd("resign", game)));
    }
    if (no_show) {
      stack_->advance(61s);  // the no-show's time runs out: a forfeit, and the next round starts
      const auto after = view(id)["round_list"][round - 1]["games"];
      for (const auto& g : after) {
        if (g["game"] == (*no_show)["game"]) {
          ++forfeits;
          EXPECT_EQ(g["result"], name_of(g["black"]) == "pl9" ? "white" : "black");
          EXPECT_TRUE(g["forfeit"].get<bool>());
        }
      }
    }
  }
  EXPECT_EQ(forfeits, 1) << "pl9 played in round 3 and did not show up";
  v = view(id);
  EXPECT_EQ(v["status"], "finished");
  const auto order = expected_order(v);
  ASSERT_EQ(v["standings"].size(), 9u);
  for (std::size_t i = 0; i < order.size(); ++i)
    EXPECT_EQ(name_of(v["standings"][i]["player"]), order[i]) << "place " << i + 1;
  // Every line of the crosstable has four rounds; the audit names the director's start.
  EXPECT_EQ(v["standings"][0]["rounds"].size(), 4u);
  const auto started = std::find_if(v["audit"].begin(), v["audit"].end(),
                                    [](const json& a) { return a["kind"] == "started"; });
  ASSERT_NE(started, v["audit"].end());
  EXPECT_EQ((*started)["by"], "director");
  // The games were created with the tournament's settings and show in the archive.
  const auto game = json::parse(body_of(
      http_get(stack_->port(), "/api/v1/games/" + v["round_list"][0]["games"][0]["game"].dump())));
  EXPECT_EQ(game["game"]["settings"]["width"], 9) << game.dump();
  const auto list = json::parse(body_of(http_get(stack_->port(), "/api/v1/tournaments")));
  EXPECT_EQ(list["tournaments"][0]["name"], "Club McMahon");
}

TEST_F(Tournament, DirectorWithdrawsAdjudicatesAndRepairsAndEveryActionIsAudited) {
  names_ = {"tdir", "amy", "bob", "cat", "dan", "eve"};
  start();
  json settings = {{"name", "Scheduled Swiss"},
                   {"system", "swiss"},
                   {"rounds", 3},
                   {"game", {{"width", 9}, {"time", {{"system", "none"}}}}},
                   {"round_start", {{"mode", "after_previous"}, {"gap_ms", 600000}}}};
  const int id =
      as("tdir").command({{"type", "create_tournament"}, {"settings", settings}})["tournament"];
  for (const auto* n : {"amy", "bob", "cat", "dan", "eve"})
    expect_ack(as(n).command({{"type", "tournament_register"}, {"tournament", id}}));
  expect_ack(as("eve").command(
      {{"type", "tournament_leave"}, {"tournament", id}}));  // unregisters before the start
  expect_ack(as("tdir").command({{"type", "tournament_start"}, {"tournament", id}}));
  json v = view(id);
  ASSERT_EQ(v["entrants"].size(), 4u);
  const auto r1 = v["round_list"][0]["games"];
  // Board 1 is adjudicated by the director while it is in play; board 2 is resigned.
  expect_ack(as("tdir").command({{"type", "tournament_set_result"},
                                 {"tournament", id},
                                 {"round", 1},
                                 {"board", 1},
                                 {"result", "white"}}));
  EXPECT_EQ(as("amy").command({{"type", "tournament_set_result"},
                               {"tournament", id},
                               {"round", 1},
                               {"board", 1},
                               {"result", "black"}})["code"],
            "forbidden");
  EXPECT_EQ(as("tdir").command({{"type", "tournament_set_result"},
                                {"tournament", id},
                                {"round", 9},
                                {"board", 1},
                                {"result", "black"}})["code"],
            "not_found");
  const std::int64_t board2 = r1[1]["game"];
  expect_ack(as(name_of(r1[1]["black"])).command(cmd("resign", board2)));
  v = view(id);
  EXPECT_EQ(v["round_list"][0]["games"][0]["result"], "white");
  EXPECT_EQ(v["round_list"][0]["games"][1]["result"], "white");
  // The adjudicated game itself ended.
  const auto g1 =
      json::parse(body_of(http_get(stack_->port(), "/api/v1/games/" + r1[0]["game"].dump())));
  EXPECT_EQ(g1["game"]["result"], "W+F") << g1.dump();
  // Round 2 is paired and waits ten minutes; a withdrawal, then a re-pairing before it starts.
  ASSERT_EQ(v["round_list"].size(), 2u);
  EXPECT_FALSE(v["round_list"][1]["started"].get<bool>());
  const std::string leaver = name_of(v["round_list"][1]["games"][0]["black"]);
  expect_ack(as("tdir").command(
      {{"type", "tournament_withdraw"}, {"tournament", id}, {"player", leaver}}));
  expect_ack(as("tdir").command({{"type", "tournament_repair"}, {"tournament", id}}));
  v = view(id);
  EXPECT_EQ(v["round_list"][1]["games"].size(), 1u);
  EXPECT_EQ(v["round_list"][1]["byes"].size(), 1u);
  for (const auto& g : v["round_list"][1]["games"]) {
    EXPECT_NE(name_of(g["black"]), leaver);
    EXPECT_NE(name_of(g["white"]), leaver);
  }
  stack_->advance(600s);
  v = view(id);
  EXPECT_TRUE(v["round_list"][1]["started"].get<bool>());
  EXPECT_EQ(as("tdir").command({{"type", "tournament_repair"}, {"tournament", id}})["code"],
            "conflict");
  std::vector<std::string> kinds;
  for (const auto& a : v["audit"]) {
    if (!a["by"].is_null() && a["by"] == "tdir") kinds.push_back(a["kind"]);
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"started", "result", "withdrawn", "paired"}));
  const auto standing = std::find_if(v["standings"].begin(), v["standings"].end(),
                                     [&](const json& s) { return name_of(s["player"]) == leaver; });
  ASSERT_NE(standing, v["standings"].end());
  EXPECT_TRUE((*standing)["withdrawn"].get<bool>());
}

// A tournament game plays on while the lobby is busy; its end goes to its tournament
// as a message (Centre::commit_ended, Lobby::tournament_game_ended), and is submitted with the
// tournament's news, once the lobby is free: its ack and the tournament's change leave together,
// and the tournament never shows a stale result to someone who saw the game end. The games are
// rated: the ratings' owner holds its mailbox meanwhile (Mailbox::hold), and the rating is written.
TEST_F(Tournament, AGamePlaysOnWhileTheLobbyIsBusyAndItsEndIsToldWithItsTournamentsNews) {
  const int id = running_swiss(true);
  const auto games = view(id)["round_list"][0]["games"];
  ASSERT_EQ(games.size(), 2u);

  // The director creates another tournament, and the lobby's turn stops half-way on its
  // mailbox (the lobby arms the new tournament's start there).
  stack_->timers().hold(TournamentStart{id + 1});
  auto creating = std::async(std::launch::async, [&] {
    return as("tdir").command({{"type", "create_tournament"}, {"settings", swiss_settings()}});
  });
  // Let go on the way out whatever happens, before `creating` waits for its answer.
  const std::shared_ptr<void> let_go(nullptr, [&](void*) { stack_->timers().release(); });
  stack_->timers().wait_until_held();

  // Meanwhile the games go on: if their actors waited for the lobby, this would wait, and the
  // client's read would time out. One ends: its end waits in the lobby's mailbox (no thread of
  // the server's waits for it).
  const std::int64_t first = games[0]["game"];
  const std::int64_t second = games[1]["game"];
  expect_ack(as(name_of(games[1]["black"])).command(play(second, "E5")));
  WsClient& resigner = as(name_of(games[0]["black"]));
  resigner.send_text(json{{"type", "resign"}, {"cid", "resigned"}, {"game", first}}.dump());
  expect_ack(as(name_of(games[1]["white"])).command(play(second, "C3")));  // still going

  // Once the lobby is free, the game's end and the tournament's news are made together.
  stack_->timers().release();
  expect_ack(creating.get());
  expect_ack(resigner.wait([](const json& m) { return m.value("cid", "") == "resigned"; }));
  EXPECT_EQ(view(id)["round_list"][0]["games"][0]["result"], "white");
  EXPECT_EQ(view(id)["round_list"][0]["games"][1]["result"], nullptr);
  const json changed = as("eve").wait_type("tournament_changed");
  EXPECT_EQ(changed["tournament"], id);
  const json history = json::parse(body_of(
      http_get(stack_->port(), "/api/v1/users/" + name_of(games[0]["white"]) + "/ratings")));
  ASSERT_EQ(history["history"].size(), 1u) << history.dump();
  EXPECT_EQ(history["history"][0]["game"], first);
  EXPECT_GT(history["history"][0]["rating"].get<double>(), 1500);
}

// A store written before 2026-11-27 kept a game's end and its tournament's news in two
// transactions, and a crash in between (made here by deleting the tournament's events from its
// result on) left a finished game whose result the tournament does not know: the restart tells
// it, once.
TEST_F(Tournament, AGameThatEndedJustBeforeACrashIsToldToItsTournamentAtTheRestart) {
  const int id = running_swiss();
  const auto games = view(id)["round_list"][0]["games"];
  expect_ack(as(name_of(games[0]["black"])).command(cmd("resign", games[0]["game"])));
  as("eve").wait_type("tournament_changed");
  ASSERT_EQ(view(id)["round_list"][0]["games"][0]["result"], "white");
  stop();

  auto results = [&] {
    store::Database db(temp_.path());
    store::Statement count(db,
                           "SELECT count(*) FROM tournament_events WHERE tournament_id = ?1 AND "
                           "kind = 'result'");
    count.bind(1, std::int64_t{id});
    count.step();
    return count.column_int(0);
  };
  ASSERT_EQ(results(), 1);
  {
    store::Database db(temp_.path());
    db.exec("DELETE FROM tournament_events WHERE tournament_id = " + std::to_string(id) +
            " AND seq >= (SELECT min(seq) FROM tournament_events WHERE kind = 'result')");
  }
  ASSERT_EQ(results(), 0);

  start();
  EXPECT_EQ(view(id)["round_list"][0]["games"][0]["result"], "white");
  EXPECT_EQ(view(id)["round_list"][0]["games"][1]["result"], nullptr);
  stop();
  EXPECT_EQ(results(), 1);
}

TEST_F(Tournament, BadSettingsAndCommandsGetSpecificErrors) {
  names_ = {"tdir", "xavier"};
  start();
  json bad = mcmahon_settings();
  bad["rounds"] = 0;
  auto reply = as("tdir").command({{"type", "create_tournament"}, {"settings", bad}});
  EXPECT_EQ(reply["code"], "bad_settings");
  EXPECT_NE(reply["message"].get<std::string>().find("rounds"), std::string::npos);
  bad = mcmahon_settings();
  bad["system"] = "knockout";
  EXPECT_EQ(as("tdir").command({{"type", "create_tournament"}, {"settings", bad}})["code"],
            "bad_field");
  bad = mcmahon_settings();
  bad["mcmahon"]["bar"] = "12x";
  EXPECT_EQ(as("tdir").command({{"type", "create_tournament"}, {"settings", bad}})["code"],
            "bad_field");
  EXPECT_EQ(as("xavier").command({{"type", "tournament_register"}, {"tournament", 7}})["code"],
            "not_found");
  const int id = as("tdir").command(
      {{"type", "create_tournament"}, {"settings", mcmahon_settings()}})["tournament"];
  EXPECT_EQ(as("tdir").command({{"type", "tournament_start"}, {"tournament", id}})["code"],
            "conflict");  // too few players
  EXPECT_EQ(as("xavier").command(
                {{"type", "tournament_register"}, {"tournament", id}, {"rank", "40k"}})["code"],
            "bad_field");
  expect_ack(as("xavier").command({{"type", "tournament_register"}, {"tournament", id}}));
  EXPECT_EQ(as("xavier").command({{"type", "tournament_register"}, {"tournament", id}})["code"],
            "conflict");
  EXPECT_EQ(
      json::parse(body_of(http_get(stack_->port(), "/api/v1/tournaments/99")))["error"]["code"],
      "not_found");
}

// A start ~300 years ahead once pinned the timer thread (the steady-clock conversion overflowed
// into the past, so the timer fired at once, for ever) and was stored, so it came back after
// every restart. Times more than a year ahead are refused; one already stored is armed a year
// ahead at most.
TEST_F(Tournament, TimesFarAheadAreRefusedAndAStoredOneIsArmedAYearAheadAtMost) {
  names_ = {"tdir"};
  start();
  const std::int64_t now = stack_->clock().unix_ms();
  constexpr std::int64_t kYear = 366LL * 24 * 3600 * 1000;
  constexpr std::int64_t kCenturies = 300LL * 365 * 24 * 3600 * 1000;
  const auto refused = [&](json settings, const std::string& field) {
    const auto reply = as("tdir").command({{"type", "create_tournament"}, {"settings", settings}});
    EXPECT_EQ(reply["code"], "bad_settings") << reply.dump();
    EXPECT_EQ(reply["message"], field + " more than a year ahead") << reply.dump();
  };
  json s = mcmahon_settings();
  s["starts_at_ms"] = now + kCenturies;
  refused(s, "starts_at_ms is");
  s = mcmahon_settings();
  s["starts_at_ms"] = now + kYear + 1;
  refused(s, "starts_at_ms is");
  s = mcmahon_settings();
  s["registration_closes_ms"] = now + kCenturies;
  refused(s, "registration_closes_ms is");
  s = mcmahon_settings();
  s["round_start"] = {
      {"mode", "scheduled"},
      {"times_ms", {now + 3600000, now + 7200000, now + kCenturies, now + kCenturies + 1}}};
  refused(s, "round_start.times_ms reach");

  s = mcmahon_settings();
  s["starts_at_ms"] = now + kYear - 1000;  // within the bound: taken
  const int id = as("tdir").command({{"type", "create_tournament"}, {"settings", s}})["tournament"];
  auto armed = stack_->timers().armed(TournamentStart{id});
  ASSERT_TRUE(armed);
  EXPECT_EQ(*armed - stack_->clock().steady_now(), std::chrono::milliseconds(kYear - 1000));

  // Stored before the bound existed: 300 years ahead. After a restart it is armed a year ahead,
  // in the future, not in the past.
  stop();
  {
    store::Database db(temp_.path());
    db.exec("UPDATE tournaments SET settings = json_set(settings, '$.starts_at_ms', " +
            std::to_string(now + kCenturies) + ")");
  }
  start();
  armed = stack_->timers().armed(TournamentStart{id});
  ASSERT_TRUE(armed);
  EXPECT_EQ(*armed - stack_->clock().steady_now(), std::chrono::milliseconds(kYear));
  stack_->advance(std::chrono::milliseconds(kYear));  // it fires, finds it early, arms again
  EXPECT_EQ(view(id)["status"], "registering");
  armed = stack_->timers().armed(TournamentStart{id});
  ASSERT_TRUE(armed);
  EXPECT_GT(*armed, stack_->clock().steady_now());
}

TEST_F(Tournament, ElimininationStartsWhenFullAndEndsWithAWinner) {
  names_ = {"tdir", "seed1", "seed2", "seed3"};
  start();
  json settings = {{"name", "Cup"},
                   {"system", "single_elimination"},
                   {"max_players", 3},
                   {"start_when_full", true},
                   {"game", {{"width", 9}, {"time", {{"system", "none"}}}}}};
  const int id =
      as("tdir").command({{"type", "create_tournament"}, {"settings", settings}})["tournament"];
  expect_ack(
      as("seed1").command({{"type", "tournament_register"}, {"tournament", id}, {"rank", "1d"}}));
  expect_ack(
      as("seed2").command({{"type", "tournament_register"}, {"tournament", id}, {"rank", "5k"}}));
  expect_ack(
      as("seed3").command({{"type", "tournament_register"}, {"tournament", id}, {"rank", "9k"}}));
  json v = view(id);
  ASSERT_EQ(v["status"], "running");
  ASSERT_EQ(v["round_list"][0]["byes"][0]["name"], "seed1");  // the top seed's bye
  const auto g = v["round_list"][0]["games"][0];
  expect_ack(as("seed3").command(cmd("resign", g["game"].get<std::int64_t>())));
  // Round 1 is final once the final is paired: the bracket was built on it.
  const auto changed = as("tdir").command({{"type", "tournament_set_result"},
                                           {"tournament", id},
                                           {"round", 1},
                                           {"board", 1},
                                           {"result", "white"}});
  EXPECT_EQ(changed["code"], "conflict") << changed.dump();
  v = view(id);
  const auto final_game = v["round_list"][1]["games"][0];
  expect_ack(as("seed2").command(cmd("resign", final_game["game"].get<std::int64_t>())));
  v = view(id);
  EXPECT_EQ(v["status"], "finished");
  EXPECT_EQ(v["standings"][0]["player"]["name"], "seed1");
  EXPECT_FALSE(v["standings"][0]["eliminated"].get<bool>());
  EXPECT_TRUE(v["standings"][1]["eliminated"].get<bool>());
}

TEST_F(Tournament, StartsOnTimeAfterARestartAndCancelsWhenTooFewCame) {
  names_ = {"tdir", "amy", "bob", "cat"};
  start();
  const std::int64_t t0 = stack_->clock().unix_ms();
  json settings = {{"name", "Round robin at eight"},
                   {"system", "round_robin"},
                   {"game", {{"width", 9}, {"time", {{"system", "none"}}}}},
                   {"registration_closes_ms", t0 + 50 * 60000},
                   {"starts_at_ms", t0 + 60 * 60000}};
  const int rr =
      as("tdir").command({{"type", "create_tournament"}, {"settings", settings}})["tournament"];
  settings["name"] = "Nobody came";
  const int empty =
      as("tdir").command({{"type", "create_tournament"}, {"settings", settings}})["tournament"];
  for (const auto* n : {"amy", "bob", "cat"}) {
    expect_ack(as(n).command(
        {{"type", "tournament_register"}, {"tournament", rr}, {"cid", std::string("reg-") + n}}));
  }
  expect_ack(as("amy").command({{"type", "tournament_register"}, {"tournament", empty}}));
  stack_->advance(55min);
  EXPECT_EQ(as("tdir").command({{"type", "tournament_register"}, {"tournament", rr}})["code"],
            "conflict");  // closed
  // A restart before the start: the start is armed again from the store.
  stop();
  start();
  stack_->clock().advance(55min);  // the new stack's clock starts where the old one did
  // A command resent after the restart is answered again, not applied again.
  const auto again =
      as("amy").command({{"type", "tournament_register"}, {"tournament", rr}, {"cid", "reg-amy"}});
  EXPECT_EQ(again["type"], "ack") << again.dump();
  EXPECT_EQ(again["tournament"], rr);
  EXPECT_EQ(view(rr)["entrants"].size(), 3u);
  EXPECT_EQ(view(rr)["status"], "registering");
  stack_->advance(6min);
  json v = view(rr);
  ASSERT_EQ(v["status"], "running");
  EXPECT_EQ(view(empty)["status"], "cancelled");
  // Three players: three rounds of one game and a bye each.
  std::map<std::string, int> byes;
  for (int round = 1; round <= 3; ++round) {
    v = view(rr);
    ASSERT_EQ(v["round_list"].size(), static_cast<std::size_t>(round));
    const auto r = v["round_list"][round - 1];
    ASSERT_EQ(r["games"].size(), 1u);
    ++byes[name_of(r["byes"][0])];
    const auto g = r["games"][0];
    expect_ack(as(name_of(g["white"])).command(cmd("resign", g["game"].get<std::int64_t>())));
  }
  v = view(rr);
  EXPECT_EQ(v["status"], "finished");
  EXPECT_EQ(byes, (std::map<std::string, int>{{"amy", 1}, {"bob", 1}, {"cat", 1}}));
  for (const auto& s : v["standings"])
    EXPECT_EQ(s["points"], 2) << "Black won every game, and a bye is a win";
}

}  // namespace
}  // namespace tengen::testing
