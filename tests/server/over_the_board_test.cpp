// Over-the-board tournaments through the real stack (SQLite file, WebSockets on loopback): a
// 24-player McMahon whose players have no accounts but two, registered by the director with
// clubs, countries and EGD PINs, each round published with its tables, results entered by the
// director, a late registration before round 2, a withdrawal, a restart mid-event, and the EGD's
// .h9 file read back field by field against the tournament's own pairings (docs/tournaments.md,
// "Over the board").
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "support/game_commands.h"
#include "support/live_server.h"
#include "support/paths.h"
#include "support/server_process.h"
#include "support/temp_database.h"
#include "support/ws_client.h"
#include "tournaments/federation.h"
#include "tournaments/opengotha.h"
#include "tournaments/player_list.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;

constexpr int kGuests = 22;

class OverTheBoard : public ::testing::Test {
 protected:
  void start() {
    stack_.emplace(temp_.path());
    for (const auto* name : {"tdir", "amy", "bob", "cat", "dan"}) {
      if (!tokens_.contains(name)) tokens_[name] = stack_->token_for(name);
      clients_[name] = std::make_unique<WsClient>(stack_->port(),
                                                  WsClient::Options{tokens_[name], "", "/ws/v1"});
      clients_[name]->wait_type("welcome");
    }
    // The director's commands go out over several connections, as from several tabs: one
    // connection may send 20 a second (ws/limits.h), and this director is quick.
    desks_.clear();
    for (int i = 0; i < 8; ++i) {
      desks_.push_back(std::make_unique<WsClient>(
          stack_->port(), WsClient::Options{tokens_["tdir"], "", "/ws/v1"}));
      desks_.back()->wait_type("welcome");
    }
  }
  void TearDown() override {
    desks_.clear();
    clients_.clear();
    stack_.reset();
  }
  WsClient& as(const std::string& name) { return *clients_.at(name); }
  json view(int id) {
    return json::parse(
        body_of(http_get(stack_->port(), "/api/v1/tournaments/" + std::to_string(id))));
  }
  json director(json message) {
    return desks_[next_desk_++ % desks_.size()]->command(std::move(message));
  }

  static json settings(bool on_boards) {
    json s{{"name", "Leiden weekend"},
           {"system", "mcmahon"},
           {"rounds", 4},
           {"game",
            {{"width", 19},
             {"komi", 6.5},
             {"time",
              {{"system", "byoyomi"},
               {"main_ms", 3'600'000},
               {"periods", 5},
               {"period_ms", 30'000}}}}},
           {"mcmahon", {{"bar", "2d"}, {"floor", "20k"}}},
           {"handicap", {{"by_score_gap", true}, {"correction", 2}, {"ceiling", 9}}},
           {"country", "NL"},
           {"city", "Leiden"}};
    if (on_boards) s["over_the_board"] = true;
    return s;
  }

  TempDatabase temp_;
  std::optional<LiveStack> stack_;
  std::map<std::string, std::string> tokens_;
  std::map<std::string, std::unique_ptr<WsClient>> clients_;
  std::vector<std::unique_ptr<WsClient>> desks_;
  std::size_t next_desk_ = 0;
};

// The guests' names and ranks: "Family<i> Given<i>", from 4d down to 17k, clubs and countries
// in turn, every third with an EGD PIN.
json guest(int tournament, int i) {
  static const char* clubs[] = {"Leid", "Amst", "Haag", "Utr"};
  static const char* countries[] = {"nl", "DE", "BE"};
  json g{{"type", "tournament_add_player"},
         {"tournament", tournament},
         {"family_name", "Family" + std::to_string(i)},
         {"given_name", "Given" + std::to_string(i)},
         {"rank", i < 4 ? std::to_string(4 - i) + "d" : std::to_string(i - 3) + "k"},
         {"club", clubs[i % 4]},
         {"country", countries[i % 3]}};
  if (i % 3 == 0) g["egd_pin"] = std::to_string(10000000 + i);
  if (i % 4 == 1) g["aga_id"] = std::to_string(2000 + i);
  return g;
}

// Who wins a board: the stronger by seed mostly, a jigo now and then, the weaker every fifth.
std::string outcome_of(int round, int board) {
  if ((round + board) % 7 == 0) return "jigo";
  return (round * 3 + board) % 5 == 0 ? "white" : "black";
}

// OpenGotha's file against the tournament's page (the format: docs/tournaments.md, "OpenGotha"):
// every player's fields and participation, every game by OpenGotha's player keys, the byes, the
// parameters.
void check_opengotha_file(const std::string& xml, const json& v) {
  namespace pt = boost::property_tree;
  pt::ptree doc;
  std::istringstream in(xml);
  pt::read_xml(in, doc);
  const auto& root = doc.get_child("Tournament");
  std::map<std::int64_t, std::string> key_of;
  std::vector<const pt::ptree*> players;
  for (const auto& [tag, p] : root.get_child("Players")) {
    if (tag == "Player") players.push_back(&p);
  }
  ASSERT_EQ(players.size(), v["entrants"].size());
  for (std::size_t i = 0; i < players.size(); ++i) {
    const auto& p = *players[i];
    const json& e = v["entrants"][i];
    const auto attr = [&](const char* name) {
      return p.get<std::string>("<xmlattr>." + std::string(name));
    };
    const bool account = e["account"];
    const std::string family =
        account ? e["name"].get<std::string>() : e["family_name"].get<std::string>();
    const std::string given = account ? "" : e.value("given_name", std::string());
    EXPECT_EQ(attr("name"), family);
    EXPECT_EQ(attr("firstName"), given);
    std::string rank = e["rank"];
    for (auto& c : rank) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(attr("rank"), rank);
    EXPECT_EQ(attr("grade"), rank);
    EXPECT_EQ(attr("club"), e.value("club", std::string()));
    EXPECT_EQ(attr("country"), e.value("country", std::string()));
    EXPECT_EQ(attr("egfPin"), e.value("egd_pin", std::string()));
    EXPECT_EQ(attr("agaId"), e.value("aga_id", std::string()));
    EXPECT_EQ(attr("registeringStatus"), "FIN");
    // 1d is 2100 and each rank 100 points (OpenGotha's ranks from EGF ratings).
    const int index = *protocol::parse_rank(e["rank"].get<std::string>());
    EXPECT_EQ(std::stoi(attr("rating")), 2100 + (index - 30) * 100);
    const std::string participating = attr("participating");
    ASSERT_EQ(participating.size(), 20u);
    for (std::size_t r = 0; r < 4; ++r) {
      bool paired = false;
      for (const auto& g : v["round_list"][r]["games"])
        paired = paired || g["black"]["id"] == e["id"] || g["white"]["id"] == e["id"];
      for (const auto& b : v["round_list"][r]["byes"]) paired = paired || b["id"] == e["id"];
      EXPECT_EQ(participating[r], paired ? '1' : '0') << family << " round " << r + 1;
    }
    std::string key;  // name and first name, no spaces, upper case
    for (const char c : family + given) {
      if (c != ' ') key += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    key_of[e["id"]] = key;
  }
  std::size_t games = 0;
  for (const auto& [tag, g] : root.get_child("Games")) {
    if (tag != "Game") continue;
    const auto attr = [&](const char* name) {
      return g.get<std::string>("<xmlattr>." + std::string(name));
    };
    const int round = std::stoi(attr("roundNumber"));
    const int table = std::stoi(attr("tableNumber"));
    ASSERT_GE(round, 1);
    ASSERT_LE(round, 4);
    const json& game = v["round_list"][round - 1]["games"][table - 1];
    EXPECT_EQ(attr("blackPlayer"), key_of.at(game["black"]["id"]));
    EXPECT_EQ(attr("whitePlayer"), key_of.at(game["white"]["id"]));
    EXPECT_EQ(std::stoi(attr("handicap")), game["handicap"].get<int>());
    const std::string result = game["result"];
    std::string expected = result == "black"   ? "RESULT_BLACKWINS"
                           : result == "white" ? "RESULT_WHITEWINS"
                           : result == "jigo"  ? "RESULT_EQUAL"
                                               : "RESULT_BOTHLOOSE";
    if (game["forfeit"].get<bool>()) expected += "_BYDEF";
    EXPECT_EQ(attr("result"), expected);
    ++games;
  }
  std::size_t expected_games = 0, byes = 0;
  for (const auto& r : v["round_list"]) expected_games += r["games"].size();
  EXPECT_EQ(games, expected_games);
  for (const auto& [tag, b] : root.get_child("ByePlayer")) {
    if (tag != "ByePlayer") continue;
    const int round = b.get<int>("<xmlattr>.roundNumber");
    EXPECT_EQ(b.get<std::string>("<xmlattr>.player"),
              key_of.at(v["round_list"][round - 1]["byes"][0]["id"]));
    ++byes;
  }
  EXPECT_EQ(byes, 1u);  // round 2's
  const auto& general = root.get_child("TournamentParameterSet.GeneralParameterSet.<xmlattr>");
  EXPECT_EQ(general.get<std::string>("name"), "Leiden weekend");
  EXPECT_EQ(general.get<std::string>("location"), "Leiden");
  EXPECT_EQ(general.get<int>("numberOfRounds"), 4);
  EXPECT_EQ(general.get<int>("size"), 19);
  EXPECT_EQ(general.get<std::string>("komi"), "6.5");
  EXPECT_EQ(general.get<int>("basicTime"), 60);
  EXPECT_EQ(general.get<std::string>("complementaryTimeSystem"), "STDBYOYOMI");
  EXPECT_EQ(general.get<int>("stdByoYomiTime"), 30);
  EXPECT_EQ(general.get<std::string>("genMMBar"), "2D");
  EXPECT_EQ(general.get<std::string>("genMMFloor"), "20K");
  EXPECT_EQ(general.get<std::string>("bInternet"), "false");
  const auto& handicap = root.get_child("TournamentParameterSet.HandicapParameterSet.<xmlattr>");
  EXPECT_EQ(handicap.get<std::string>("hdBasedOnMMS"), "true");
  EXPECT_EQ(handicap.get<int>("hdCorrection"), 2);
  EXPECT_EQ(handicap.get<int>("hdCeiling"), 9);
  std::vector<std::string> criteria;
  for (const auto& [tag, c] :
       root.get_child("TournamentParameterSet.PlacementParameterSet.PlacementCriteria"))
    criteria.push_back(c.get<std::string>("<xmlattr>.name"));
  EXPECT_EQ(criteria, (std::vector<std::string>{"MMS", "SOSM", "SOSOSM", "NULL", "NULL", "NULL"}));
}

TEST_F(OverTheBoard, AWeekendMcMahonOnPhysicalBoardsEndsInAnEgdFileThatMatchesItsPairings) {
  start();
  // What an online tournament refuses, and a player may not do.
  const int online =
      director({{"type", "create_tournament"}, {"settings", settings(false)}})["tournament"];
  auto refused = director(guest(online, 0));
  EXPECT_EQ(refused["code"], "conflict");
  EXPECT_NE(refused["message"].get<std::string>().find("over the board"), std::string::npos);

  const int id =
      director({{"type", "create_tournament"}, {"settings", settings(true)}})["tournament"];
  EXPECT_EQ(as("amy").command(guest(id, 0))["code"], "forbidden");
  auto bad_country = guest(id, 0);
  bad_country["country"] = "NLD";
  refused = director(bad_country);
  EXPECT_EQ(refused["code"], "bad_field");
  EXPECT_NE(refused["message"].get<std::string>().find("country"), std::string::npos);
  auto bad_pin = guest(id, 0);
  bad_pin["egd_pin"] = "12a";
  EXPECT_EQ(director(bad_pin)["code"], "bad_field");

  for (int i = 0; i < kGuests; ++i) expect_ack(director(guest(id, i)));
  refused = director(guest(id, 5));
  EXPECT_EQ(refused["code"], "conflict");
  EXPECT_NE(refused["message"].get<std::string>().find("Family5 Given5"), std::string::npos);
  expect_ack(
      as("amy").command({{"type", "tournament_register"}, {"tournament", id}, {"rank", "1k"}}));
  expect_ack(
      as("bob").command({{"type", "tournament_register"}, {"tournament", id}, {"rank", "9k"}}));
  json v = view(id);
  ASSERT_EQ(v["entrants"].size(), 24u);
  EXPECT_TRUE(v["over_the_board"].get<bool>());
  const json& first = v["entrants"][0];
  EXPECT_EQ(first["name"], "Family0 Given0");
  EXPECT_LT(first["id"].get<std::int64_t>(), 0);
  EXPECT_FALSE(first["account"].get<bool>());
  EXPECT_EQ(first["country"], "NL");  // written as the federations do
  EXPECT_EQ(first["club"], "Leid");
  EXPECT_EQ(first["egd_pin"], "10000000");
  EXPECT_EQ(v["entrants"][1].count("egd_pin"), 0u);
  EXPECT_EQ(
      director({{"type", "tournament_publish_round"}, {"tournament", id}, {"round", 1}})["code"],
      "conflict");  // not running yet

  expect_ack(director({{"type", "tournament_start"}, {"tournament", id}}));
  v = view(id);
  ASSERT_EQ(v["round_list"].size(), 1u);
  EXPECT_FALSE(v["round_list"][0]["started"].get<bool>());  // paired, not yet published
  refused = director({{"type", "tournament_set_result"},
                      {"tournament", id},
                      {"round", 1},
                      {"board", 1},
                      {"result", "black"}});
  EXPECT_EQ(refused["code"], "conflict");
  EXPECT_EQ(refused["message"], "round 1 is not published yet");

  const int withdraw_after = 2;  // Family7 Given7 leaves after round 2
  for (int round = 1; round <= 4; ++round) {
    refused =
        director({{"type", "tournament_publish_round"}, {"tournament", id}, {"round", round + 1}});
    EXPECT_EQ(refused["code"], "conflict");
    expect_ack(
        director({{"type", "tournament_publish_round"}, {"tournament", id}, {"round", round}}));
    EXPECT_EQ(
        director(
            {{"type", "tournament_publish_round"}, {"tournament", id}, {"round", round}})["code"],
        "conflict");  // published already
    v = view(id);
    const json& games = v["round_list"][round - 1]["games"];
    ASSERT_GE(games.size(), 11u);
    for (const auto& g : games) EXPECT_TRUE(g["game"].is_null());  // nothing online
    if (round == 3) {  // a restart between publishing and the results: nothing is lost
      desks_.clear();
      clients_.clear();
      stack_.reset();
      start();
      EXPECT_EQ(view(id)["round_list"], v["round_list"]);
      EXPECT_EQ(view(id)["entrants"], v["entrants"]);  // the late player's start score too
    }
    if (round == 1) {  // no one joins a round being played
      auto late = guest(id, 40);
      late["rank"] = "10k";
      refused = director(late);
      EXPECT_EQ(refused["code"], "conflict");
      EXPECT_EQ(refused["message"],
                "round 1 is being played: add the player once its results are in");
    }
    for (std::size_t b = 0; b < games.size(); ++b) {
      expect_ack(director({{"type", "tournament_set_result"},
                           {"tournament", id},
                           {"round", round},
                           {"board", b + 1},
                           {"result", outcome_of(round, static_cast<int>(b + 1))}}));
    }
    if (round == 1) {  // a late player, before round 2 is published: it is paired again
      auto late = guest(id, 40);
      late["family_name"] = "Late";
      late["given_name"] = "Comer";
      late["rank"] = "10k";
      expect_ack(director(late));
      v = view(id);
      ASSERT_EQ(v["entrants"].size(), 25u);
      EXPECT_EQ(v["entrants"][24]["name"], "Late Comer");
      EXPECT_EQ(v["entrants"][24]["start_score"], 10);  // 10k between the floor (20k) and the bar
      bool paired = false;
      for (const auto& g : v["round_list"][1]["games"])
        paired = paired || g["black"]["name"] == "Late Comer" || g["white"]["name"] == "Late Comer";
      for (const auto& b : v["round_list"][1]["byes"]) paired = paired || b["name"] == "Late Comer";
      EXPECT_TRUE(paired);
      EXPECT_FALSE(v["round_list"][1]["started"].get<bool>());
    }
    if (round == withdraw_after) {
      expect_ack(director(
          {{"type", "tournament_withdraw"}, {"tournament", id}, {"player", "Family7 Given7"}}));
      // The next round was paired with them as the last result came in: paired again.
      expect_ack(director({{"type", "tournament_repair"}, {"tournament", id}}));
    }
  }
  v = view(id);
  EXPECT_EQ(v["status"], "finished");
  // Round 2: 25 players (the late one), so a bye; round 3 on: 24 (a withdrawal), none.
  EXPECT_EQ(v["round_list"][1]["byes"].size(), 1u);
  EXPECT_EQ(v["round_list"][2]["byes"].size(), 0u);

  // The director's actions are in the audit log, with who did them.
  int published = 0, entered = 0;
  for (const auto& line : v["audit"]) {
    if (line["kind"] == "round_started" && line["by"] == "tdir") ++published;
    if (line["kind"] == "result" && line["by"] == "tdir") ++entered;
  }
  EXPECT_EQ(published, 4);
  EXPECT_GE(entered, 44);

  // ---- the EGD file, read back field by field ----
  const std::string reply =
      http_get(stack_->port(), "/api/v1/tournaments/" + std::to_string(id) + "/egd.h9");
  ASSERT_NE(reply.find("200 OK"), std::string::npos) << reply.substr(0, 300);
  EXPECT_NE(reply.find("Content-Type: text/plain"), std::string::npos);
  EXPECT_NE(reply.find("attachment; filename=\"tengen-tournament-" + std::to_string(id) + ".h9\""),
            std::string::npos);
  const std::string h9 = body_of(reply);
  std::istringstream in(h9);
  std::string line;
  std::map<std::string, std::string> header;
  std::vector<std::string> players;
  const std::regex header_line(R"(^; ([A-Z]{2})\[(.*)\]$)");
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, header_line)) {
      header[m[1]] = m[2];
    } else if (!line.empty() && line[0] != ';') {
      players.push_back(line);
    }
  }
  EXPECT_EQ(header["CL"], "A");  // 60 min + 45 × 30 s over the board
  EXPECT_EQ(header["EV"], "Leiden weekend");
  EXPECT_EQ(header["PC"], "NL,Leiden");
  EXPECT_TRUE(std::regex_match(header["DT"], std::regex(R"(\d{4}-\d\d-\d\d,\d{4}-\d\d-\d\d)")));
  EXPECT_EQ(header["HA"], "h2");
  EXPECT_EQ(header["KM"], "6.5");
  EXPECT_EQ(header["TM"], "82");  // 3600 + 45 × 30 = 4950 s
  ASSERT_EQ(players.size(), 25u);

  // Each line: number, family, given, rank, country, club, MMS, SOS, SOSOS, four results.
  const std::regex result_re(R"(^(\d+)([+\-=])(?:/([bw])(\d?))?$)");
  std::map<std::string, int> number_of;  // name → line number
  std::vector<std::vector<std::string>> fields;
  for (const auto& p : players) {
    std::istringstream words(p.substr(0, p.find(';')));
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    ASSERT_EQ(w.size(), 13u) << p;
    fields.push_back(w);
  }
  for (std::size_t i = 0; i < v["standings"].size(); ++i)
    number_of[v["standings"][i]["player"]["name"]] = static_cast<int>(i + 1);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& w = fields[i];
    EXPECT_EQ(std::stoi(w[0]), static_cast<int>(i + 1));
    const json& row = v["standings"][i];
    const std::string name = row["player"]["name"];
    const json* entrant = nullptr;
    for (const auto& e : v["entrants"]) {
      if (e["id"] == row["player"]["id"]) entrant = &e;
    }
    ASSERT_NE(entrant, nullptr);
    // Family and given name as registered; an account's name, and "-" for the given name.
    if ((*entrant)["account"].get<bool>()) {
      EXPECT_EQ(w[1], name);
      EXPECT_EQ(w[2], "-");
    } else {
      EXPECT_EQ(w[1], (*entrant)["family_name"]);
      EXPECT_EQ(w[2], (*entrant)["given_name"]);
    }
    EXPECT_EQ(w[3], row["rank"].get<std::string>());
    // The entrant's country and club as registered (accounts have none: "--" and "-").
    EXPECT_EQ(w[4], entrant->value("country", std::string("--")));
    EXPECT_EQ(w[5], entrant->value("club", std::string("-")));
    EXPECT_EQ(std::stod(w[6]), row["score"].get<double>());
    EXPECT_EQ(std::stod(w[7]), row["sos"].get<double>());
    EXPECT_EQ(std::stod(w[8]), row["sosos"].get<double>());
    if (entrant->contains("egd_pin")) {
      EXPECT_NE(players[i].find("; EGD PIN " + (*entrant)["egd_pin"].get<std::string>()),
                std::string::npos);
    }
    // Every result against the tournament's own pairing of that round.
    for (int r = 0; r < 4; ++r) {
      const std::string cell = w[9 + r];
      const json& round = v["round_list"][r];
      const json* game = nullptr;
      for (const auto& g : round["games"]) {
        if (g["black"]["id"] == row["player"]["id"] || g["white"]["id"] == row["player"]["id"])
          game = &g;
      }
      bool bye = false;
      for (const auto& b : round["byes"]) bye = bye || b["id"] == row["player"]["id"];
      if (bye) {
        EXPECT_EQ(cell, "0+") << name << " round " << r + 1;
        continue;
      }
      if (!game) {  // withdrawn, or not yet registered: a round without an opponent
        EXPECT_EQ(cell, "0-") << name << " round " << r + 1;
        EXPECT_TRUE(row["withdrawn"].get<bool>() || (name == "Late Comer" && r == 0));
        continue;
      }
      std::smatch m;
      ASSERT_TRUE(std::regex_match(cell, m, result_re)) << cell;
      const bool black = (*game)["black"]["id"] == row["player"]["id"];
      const std::string opponent = (*game)[black ? "white" : "black"]["name"];
      EXPECT_EQ(std::stoi(m[1]), number_of.at(opponent)) << name << " round " << r + 1;
      EXPECT_EQ(m[3], black ? "b" : "w");
      const int handicap = (*game)["handicap"];
      EXPECT_EQ(m[4], handicap > 0 ? std::to_string(handicap) : "");
      const std::string result = (*game)["result"];
      EXPECT_EQ(m[2], result == "jigo" ? "=" : ((result == "black") == black ? "+" : "-"));
    }
  }
  // ---- the AGA's results file, read back line by line ----
  const std::string aga_reply =
      http_get(stack_->port(), "/api/v1/tournaments/" + std::to_string(id) + "/aga.txt");
  ASSERT_NE(aga_reply.find("200 OK"), std::string::npos) << aga_reply.substr(0, 300);
  std::istringstream aga(body_of(aga_reply));
  std::vector<std::string> aga_lines;
  for (std::string l; std::getline(aga, l);) aga_lines.push_back(l);
  ASSERT_GT(aga_lines.size(), 30u);
  EXPECT_EQ(aga_lines[0], "TOURNEY Leiden weekend, Leiden, NL");
  EXPECT_TRUE(std::regex_match(aga_lines[1], std::regex(R"(\tstart=\d{1,2}/\d{1,2}/\d{4})")));
  EXPECT_TRUE(std::regex_match(aga_lines[2], std::regex(R"(\tfinish=\d{1,2}/\d{1,2}/\d{4})")));
  EXPECT_EQ(aga_lines[3], "\trules=Japanese");
  EXPECT_EQ(aga_lines[4], "PLAYERS");
  std::map<std::string, std::string> aga_id_of;  // tournament name → the file's number
  const std::regex aga_player(
      R"(^ *(\d+) (.+?) +(\d{1,2}[kd])(  # no AGA ID: a temporary number)?$)");
  std::size_t at = 5;
  for (const auto& e : v["entrants"]) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(aga_lines[at], m, aga_player)) << aga_lines[at];
    const bool account = e["account"];
    EXPECT_EQ(m[2], account ? e["name"].get<std::string>()
                            : e["family_name"].get<std::string>() + ", " +
                                  e["given_name"].get<std::string>());
    EXPECT_EQ(m[3], e["rank"].get<std::string>());
    if (e.contains("aga_id")) {
      EXPECT_EQ(m[1], e["aga_id"].get<std::string>());
      EXPECT_FALSE(m[4].matched);
    } else {
      EXPECT_EQ(m[1].str().size(), 7u);  // 9000001 on: outside the AGA's numbers
      EXPECT_TRUE(m[4].matched);
    }
    aga_id_of[e["name"]] = m[1];
    ++at;
  }
  ASSERT_EQ(aga_lines[at++], "GAMES");
  std::size_t rated = 0;
  for (const auto& round : v["round_list"]) {
    for (const auto& g : round["games"]) {
      const std::string result = g["result"];
      if ((result != "black" && result != "white") || g["forfeit"].get<bool>()) {
        EXPECT_EQ(aga_lines[at].rfind("# round ", 0), 0u) << aga_lines[at];
        ++at;
        continue;
      }
      const int handicap = g["handicap"];
      const std::string expected =
          aga_id_of.at(g["white"]["name"]) + " " + aga_id_of.at(g["black"]["name"]) + " " +
          (result == "white" ? "w" : "b") + " " + std::to_string(handicap >= 2 ? handicap : 0) +
          " " + (handicap >= 1 ? "0.5" : "6.5");
      EXPECT_EQ(aga_lines[at], expected);
      ++at;
      ++rated;
    }
    for (std::size_t b = 0; b < round["byes"].size(); ++b, ++at)
      EXPECT_EQ(aga_lines[at].rfind("# round ", 0), 0u) << aga_lines[at];
  }
  EXPECT_GT(rated, 30u);
  EXPECT_EQ(at, aga_lines.size());

  // ---- OpenGotha's file, read back with an XML parser, field by field ----
  const std::string og_reply =
      http_get(stack_->port(), "/api/v1/tournaments/" + std::to_string(id) + "/opengotha.xml");
  ASSERT_NE(og_reply.find("200 OK"), std::string::npos) << og_reply.substr(0, 300);
  EXPECT_NE(og_reply.find("Content-Type: application/xml"), std::string::npos);
  check_opengotha_file(body_of(og_reply), v);

  // ---- The round trip: the file imported makes the same tournament, exported the same ----
  const std::string exported = body_of(og_reply);
  const auto import = [&](const std::string& body, const std::string& token) {
    return http_request(
        stack_->port(), "POST", "/api/v1/tournaments/import",
        "Content-Type: application/xml\r\n" +
            (token.empty() ? std::string() : "Authorization: Bearer " + token + "\r\n"),
        body);
  };
  EXPECT_NE(import(exported, "").find("401"), std::string::npos);
  const std::string as_text =  // what a form on another site could send: refused
      http_request(stack_->port(), "POST", "/api/v1/tournaments/import",
                   "Content-Type: text/plain\r\nAuthorization: Bearer " + tokens_["tdir"] + "\r\n",
                   exported);
  EXPECT_NE(as_text.find("415"), std::string::npos) << as_text.substr(0, 200);
  const std::string imported_reply = import(exported, tokens_["tdir"]);
  ASSERT_NE(imported_reply.find("201"), std::string::npos) << imported_reply.substr(0, 400);
  const auto imported = json::parse(body_of(imported_reply))["tournament"].get<int>();
  EXPECT_NE(imported, id);
  const json w = view(imported);
  EXPECT_EQ(w["status"], "finished");
  EXPECT_TRUE(w["over_the_board"].get<bool>());
  EXPECT_EQ(w["director"]["name"], "tdir");
  ASSERT_EQ(w["entrants"].size(), v["entrants"].size());
  for (std::size_t i = 0; i < v["entrants"].size(); ++i) {  // the same seeds and start scores
    const auto& a = v["entrants"][i];
    const auto& b = w["entrants"][i];
    EXPECT_EQ(b["name"], a["name"]);
    EXPECT_EQ(b["rank"], a["rank"]);
    EXPECT_EQ(b["start_score"], a["start_score"]) << a["name"];
    EXPECT_EQ(b.value("withdrawn", false), a.value("withdrawn", false)) << a["name"];
    for (const char* key : {"club", "country", "egd_pin", "aga_id"})
      EXPECT_EQ(b.value(key, std::string()), a.value(key, std::string())) << a["name"] << key;
  }
  ASSERT_EQ(w["round_list"].size(), v["round_list"].size());
  const auto named = [](const json& round) {  // a round by names: ids differ
    json out = json::array();
    for (const auto& g : round["games"])
      out.push_back({g["board"], g["black"]["name"], g["white"]["name"], g["handicap"], g["result"],
                     g["forfeit"]});
    for (const auto& b : round["byes"]) out.push_back(b["name"]);
    return out;
  };
  for (std::size_t r = 0; r < v["round_list"].size(); ++r)
    EXPECT_EQ(named(w["round_list"][r]), named(v["round_list"][r])) << "round " << r + 1;
  ASSERT_EQ(w["standings"].size(), v["standings"].size());
  for (std::size_t i = 0; i < v["standings"].size(); ++i) {
    for (const char* key : {"place", "score", "points", "sos", "sosos", "withdrawn"})
      EXPECT_EQ(w["standings"][i][key], v["standings"][i][key]) << i << key;
    EXPECT_EQ(w["standings"][i]["player"]["name"], v["standings"][i]["player"]["name"]);
  }
  const std::string again = body_of(http_get(
      stack_->port(), "/api/v1/tournaments/" + std::to_string(imported) + "/opengotha.xml"));
  const auto section = [](const std::string& xml, const std::string& tag) {
    const auto from = xml.find("<" + tag + ">");
    const auto to = xml.find("</" + tag + ">");
    return from == std::string::npos || to == std::string::npos ? std::string("missing " + tag)
                                                                : xml.substr(from, to - from);
  };
  for (const char* tag : {"Players", "Games", "ByePlayer", "PlacementParameterSet"}) {
    EXPECT_EQ(section(again, tag), section(exported, tag)) << tag;
    EXPECT_GT(section(exported, tag).size(), 40u) << tag;  // there, and not empty
  }
  // The general parameters but the new tournament's short name.
  const auto general = [](const std::string& xml) {
    const auto from = xml.find("<GeneralParameterSet");
    return std::regex_replace(xml.substr(from, xml.find("/>", from) - from),
                              std::regex("shortName=\"[^\"]*\""), "");
  };
  EXPECT_EQ(general(again), general(exported));
  const auto handicap = [](const std::string& xml) {
    const auto from = xml.find("<HandicapParameterSet");
    return xml.substr(from, xml.find("/>", from) - from);
  };
  EXPECT_EQ(handicap(again), handicap(exported));
  // The audit log says the director imported it: their commands, one after another.
  int pairings_by_hand = 0;
  for (const auto& event : w["audit"]) {
    if (event["kind"] == "paired" && event["record"].value("by_hand", false)) ++pairings_by_hand;
  }
  EXPECT_EQ(pairings_by_hand, 4);

  // Files that are not OpenGotha's, or not whole, are refused in words; nothing is made.
  const auto refusal = [&](const std::string& body) {
    const std::string answer = import(body, tokens_["tdir"]);
    EXPECT_NE(answer.find("422"), std::string::npos) << answer.substr(0, 300);
    return json::parse(body_of(answer))["error"]["message"].get<std::string>();
  };
  EXPECT_NE(refusal("not xml at all <").find("not XML"), std::string::npos);
  EXPECT_NE(refusal("<Other/>").find("<Tournament>"), std::string::npos);
  std::string unknown_player = exported;
  const auto game_at = unknown_player.find("blackPlayer=\"") + 13;
  unknown_player.insert(game_at, "NOBODY");
  EXPECT_NE(refusal(unknown_player).find("is not among the players"), std::string::npos);
  std::string bad_rank = exported;
  bad_rank.replace(bad_rank.find("rank=\"") + 6, 2, "zz");
  EXPECT_NE(refusal(bad_rank).find("is not a rank"), std::string::npos);
  std::string both_win = exported;
  both_win.replace(both_win.find("RESULT_BLACKWINS"), 16, "RESULT_BOTHWIN");
  EXPECT_NE(refusal(both_win).find("both players win"), std::string::npos);
  EXPECT_EQ(
      json::parse(body_of(http_get(stack_->port(), "/api/v1/tournaments")))["tournaments"].size(),
      3u);

  // Registering: no file yet.
  const int empty =
      director({{"type", "create_tournament"}, {"settings", settings(true)}})["tournament"];
  EXPECT_NE(http_get(stack_->port(), "/api/v1/tournaments/" + std::to_string(empty) + "/egd.h9")
                .find("409"),
            std::string::npos);
  EXPECT_NE(http_get(stack_->port(), "/api/v1/tournaments/" + std::to_string(id) + "/other.txt")
                .find("404"),
            std::string::npos);
}

// The director pairs a round by hand before publishing it: all of it, or some tables and the rest
// as the system pairs them; what cannot be a pairing is refused in words and changes nothing.
TEST_F(OverTheBoard, TheDirectorPairsARoundByHandOrPinsTablesAndLetsTheSystemPairTheRest) {
  start();
  auto s = settings(true);
  s["system"] = "swiss";
  s["rounds"] = 3;
  s.erase("mcmahon");
  s.erase("handicap");
  const int id = director({{"type", "create_tournament"}, {"settings", s}})["tournament"];
  for (int i = 0; i < 7; ++i) expect_ack(director(guest(id, i)));
  const auto pair = [&](json tables, json byes, bool rest, int round = 1) {
    return director({{"type", "tournament_pair_round"},
                     {"tournament", id},
                     {"round", round},
                     {"tables", std::move(tables)},
                     {"byes", std::move(byes)},
                     {"pair_rest", rest}});
  };
  EXPECT_EQ(pair(json::array(), json::array(), true)["message"], "the tournament is not running");
  expect_ack(director({{"type", "tournament_start"}, {"tournament", id}}));
  json v = view(id);
  std::vector<std::int64_t> ids;  // in seed order: 4d first
  for (const auto& e : v["entrants"]) ids.push_back(e["id"]);
  const auto table = [](std::int64_t black, std::int64_t white, int handicap = 0) {
    return json{{"black", black}, {"white", white}, {"handicap", handicap}};
  };
  const auto before = v["round_list"];
  const auto refused_with = [&](const json& reply, const std::string& words) {
    EXPECT_NE(reply.value("message", std::string()).find(words), std::string::npos)
        << reply.dump() << " (wanted: " << words << ")";
  };
  refused_with(pair(json::array({table(ids[0], ids[1])}), json::array(), false),
               "Family2 Given2 is not paired");
  refused_with(pair(json::array({table(ids[0], ids[0])}), json::array(), true),
               "table 1: a player cannot play themselves");
  refused_with(
      pair(json::array({table(ids[0], ids[1]), table(ids[2], ids[1])}), json::array(), true),
      "table 2: Family1 Given1 is paired twice");
  refused_with(pair(json::array({table(ids[0], -99)}), json::array(), true),
               "table 1: player -99 is not registered in this tournament");
  refused_with(pair(json::array({table(ids[0], ids[1])}), json::array({ids[0]}), true),
               "the byes: Family0 Given0 is paired twice");
  refused_with(pair(json::array({table(ids[0], ids[1])}), json::array(), true, 2),
               "round 1 is the one paired last, not 2");
  EXPECT_EQ(as("amy").command({{"type", "tournament_pair_round"},
                               {"tournament", id},
                               {"round", 1},
                               {"pair_rest", true}})["code"],
            "forbidden");
  EXPECT_EQ(view(id)["round_list"], before);  // nothing changed

  // The strongest two kept apart: 1 against 3 and 2 against 4 by hand, the others by the system.
  expect_ack(
      pair(json::array({table(ids[2], ids[0]), table(ids[3], ids[1], 1)}), json::array(), true));
  v = view(id);
  const auto& games = v["round_list"][0]["games"];
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(games[0]["black"]["id"], ids[2]);
  EXPECT_EQ(games[0]["white"]["id"], ids[0]);
  EXPECT_EQ(games[1]["handicap"], 1);
  std::set<std::int64_t> seated{ids[0], ids[1], ids[2], ids[3]};
  for (std::size_t b = 2; b < games.size(); ++b) {
    seated.insert(games[b]["black"]["id"].get<std::int64_t>());
    seated.insert(games[b]["white"]["id"].get<std::int64_t>());
  }
  ASSERT_EQ(v["round_list"][0]["byes"].size(), 1u);
  seated.insert(v["round_list"][0]["byes"][0]["id"].get<std::int64_t>());
  EXPECT_EQ(seated.size(), 7u);  // everyone once
  EXPECT_FALSE(v["round_list"][0]["started"].get<bool>());
  EXPECT_EQ(v["audit"].back()["kind"], "paired");
  EXPECT_EQ(v["audit"].back()["by"], "tdir");

  // All of it by hand, with the bye the director chose; it survives a restart.
  expect_ack(
      pair(json::array({table(ids[0], ids[1]), table(ids[2], ids[3]), table(ids[4], ids[5])}),
           json::array({ids[6]}), false));
  desks_.clear();
  clients_.clear();
  stack_.reset();
  start();
  v = view(id);
  ASSERT_EQ(v["round_list"][0]["games"].size(), 3u);
  EXPECT_EQ(v["round_list"][0]["games"][2]["white"]["id"], ids[5]);
  EXPECT_EQ(v["round_list"][0]["byes"][0]["id"], ids[6]);
  expect_ack(director({{"type", "tournament_publish_round"}, {"tournament", id}, {"round", 1}}));
  refused_with(pair(json::array(), json::array(), true), "round 1 is published already");

  // A forfeit entered by the director (a no-show at table 3): marked so in the round.
  const auto result = [&](int board, const char* outcome, bool forfeit) {
    return director({{"type", "tournament_set_result"},
                     {"tournament", id},
                     {"round", 1},
                     {"board", board},
                     {"result", outcome},
                     {"forfeit", forfeit}});
  };
  refused_with(result(3, "jigo", true), "a forfeit has a winner, or both players lose");
  expect_ack(result(3, "black", true));
  expect_ack(result(1, "white", false));
  v = view(id);
  EXPECT_TRUE(v["round_list"][0]["games"][2]["forfeit"].get<bool>());
  EXPECT_FALSE(v["round_list"][0]["games"][0]["forfeit"].get<bool>());

  // An online tournament's rounds are the system's.
  const int online =
      director({{"type", "create_tournament"}, {"settings", settings(false)}})["tournament"];
  refused_with(director({{"type", "tournament_pair_round"},
                         {"tournament", online},
                         {"round", 1},
                         {"pair_rest", true}}),
               "pairing by hand is for rounds over the board");
}

// "Not playing round N" (docs/tournaments.md): a player who misses a round stays registered,
// is paired in no game and given no bye in it, and scores nothing for it; the round waiting to
// be published is paired again; the files say so, and OpenGotha's comes back the same.
TEST_F(OverTheBoard, APlayerNotPlayingARoundIsLeftOutOfItAndTheFilesSaySo) {
  start();
  auto s = settings(true);
  s["system"] = "swiss";
  s["rounds"] = 5;
  s.erase("mcmahon");
  s.erase("handicap");
  const int id = director({{"type", "create_tournament"}, {"settings", s}})["tournament"];
  for (int i = 0; i < 5; ++i) expect_ack(director(guest(id, i)));
  const auto absent = [&](const std::string& player, int round, bool is_absent = true) {
    return director({{"type", "tournament_set_absent"},
                     {"tournament", id},
                     {"player", player},
                     {"round", round},
                     {"absent", is_absent}});
  };
  const auto refused_with = [&](const json& reply, const std::string& words) {
    EXPECT_NE(reply.value("message", std::string()).find(words), std::string::npos)
        << reply.dump() << " (wanted: " << words << ")";
  };
  const auto name = [](int i) {
    return "Family" + std::to_string(i) + " Given" + std::to_string(i);
  };
  const auto in_round = [](const json& round, const std::string& who) {
    for (const auto& g : round["games"])
      if (g["black"]["name"] == who || g["white"]["name"] == who) return true;
    for (const auto& b : round["byes"])
      if (b["name"] == who) return true;
    return false;
  };
  const auto absent_of = [&](const json& v, const std::string& who) {
    for (const auto& e : v["entrants"])
      if (e["name"] == who) return e.value("absent", json::array());
    return json("missing");
  };

  // Before the start: one player will miss round 1, another round 2.
  expect_ack(absent(name(4), 1));
  expect_ack(absent(name(4), 1));  // said twice: the same
  expect_ack(absent(name(1), 2));
  refused_with(absent("Nobody Here", 1), "'Nobody Here' is not registered in this tournament");
  refused_with(absent(name(2), 6), "the tournament has 5 rounds, not 6");
  EXPECT_EQ(as("amy").command({{"type", "tournament_set_absent"},
                               {"tournament", id},
                               {"player", name(2)},
                               {"round", 1},
                               {"absent", true}})["code"],
            "forbidden");
  expect_ack(director({{"type", "tournament_start"}, {"tournament", id}}));
  json v = view(id);
  EXPECT_EQ(absent_of(v, name(4)), json::array({1}));
  ASSERT_EQ(v["round_list"].size(), 1u);
  EXPECT_EQ(v["round_list"][0]["games"].size(), 2u);  // four players, no bye
  EXPECT_TRUE(v["round_list"][0]["byes"].empty());
  EXPECT_FALSE(in_round(v["round_list"][0], name(4)));

  // Pairing them by hand is refused; a player marked absent from the waiting round, then
  // playing it after all, re-pairs it each time.
  refused_with(director({{"type", "tournament_pair_round"},
                         {"tournament", id},
                         {"round", 1},
                         {"tables", json::array({{{"black", v["entrants"][4]["id"]},
                                                  {"white", v["entrants"][0]["id"]}}})},
                         {"pair_rest", true}}),
               "table 1: Family4 Given4 is not playing round 1: mark them as playing it first");
  expect_ack(absent(name(2), 1));
  v = view(id);
  EXPECT_EQ(v["round_list"][0]["games"].size(), 1u);
  EXPECT_EQ(v["round_list"][0]["byes"].size(), 1u);
  EXPECT_FALSE(in_round(v["round_list"][0], name(2)));
  expect_ack(absent(name(2), 1, false));
  v = view(id);
  EXPECT_EQ(v["round_list"][0]["games"].size(), 2u);
  EXPECT_TRUE(in_round(v["round_list"][0], name(2)));
  EXPECT_EQ(absent_of(v, name(2)), json::array());

  // A round to come: Family0 misses round 3, Family3 round 4.
  expect_ack(absent(name(0), 3));
  expect_ack(absent(name(3), 4));
  const auto play = [&](int round) {
    expect_ack(
        director({{"type", "tournament_publish_round"}, {"tournament", id}, {"round", round}}));
    const auto tables = view(id)["round_list"][round - 1]["games"].size();
    for (std::size_t b = 1; b <= tables; ++b) {
      expect_ack(director({{"type", "tournament_set_result"},
                           {"tournament", id},
                           {"round", round},
                           {"board", b},
                           {"result", "black"}}));
    }
  };
  play(1);
  refused_with(absent(name(2), 1),
               "round 1 is published already: a player who does not come to their game loses it "
               "by forfeit");
  v = view(id);
  for (const auto& row : v["standings"]) {  // a round missed scores nothing: it is not a bye
    if (row["player"]["name"] == name(4)) {
      EXPECT_EQ(row["points"], 0);
    }
  }
  ASSERT_EQ(v["round_list"].size(), 2u);
  EXPECT_FALSE(in_round(v["round_list"][1], name(1)));
  EXPECT_TRUE(in_round(v["round_list"][1], name(4)));
  play(2);
  v = view(id);
  ASSERT_EQ(v["round_list"].size(), 3u);  // paired, not published
  EXPECT_FALSE(in_round(v["round_list"][2], name(0)));
  EXPECT_TRUE(in_round(v["round_list"][2], name(1)));
  EXPECT_EQ(v["round_list"][2]["games"].size(), 2u);
  EXPECT_TRUE(v["round_list"][2]["byes"].empty());
  bool audited = false;
  for (const auto& a : v["audit"])
    audited = audited || (a["kind"] == "absence" && a["by"] == "tdir");
  EXPECT_TRUE(audited);

  // It survives a restart.
  desks_.clear();
  clients_.clear();
  stack_.reset();
  start();
  v = view(id);
  EXPECT_EQ(absent_of(v, name(0)), json::array({3}));
  EXPECT_EQ(absent_of(v, name(3)), json::array({4}));

  // The EGD file: round 1 missed, "0-" (no opponent, no point).
  const std::string h9 =
      body_of(http_get(stack_->port(), "/api/v1/tournaments/" + std::to_string(id) + "/egd.h9"));
  std::istringstream lines(h9);
  bool seen = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("Family4") == std::string::npos || line.starts_with(";")) continue;
    std::istringstream words(line);
    const std::regex cell(R"(^\d+[+\-=].*)");
    for (std::string w; words >> w;) {
      if (!std::regex_match(w, cell)) continue;
      EXPECT_EQ(w, "0-") << line;
      seen = true;
      break;
    }
  }
  EXPECT_TRUE(seen) << h9;
  // OpenGotha's file: participation per round; imported, the same absences, exported the same.
  const std::string exported = body_of(
      http_get(stack_->port(), "/api/v1/tournaments/" + std::to_string(id) + "/opengotha.xml"));
  const auto participating = [](const std::string& xml, const std::string& first_name) {
    const auto at = xml.find("firstName=\"" + first_name + "\"");
    const auto p = xml.find("participating=\"", at);
    return at == std::string::npos ? std::string("missing") : xml.substr(p + 15, 5);
  };
  EXPECT_EQ(participating(exported, "Given4"), "01111");
  EXPECT_EQ(participating(exported, "Given1"), "10111");
  EXPECT_EQ(participating(exported, "Given0"), "11011");
  EXPECT_EQ(participating(exported, "Given3"), "11101");
  const std::string reply = http_request(
      stack_->port(), "POST", "/api/v1/tournaments/import",
      "Content-Type: application/xml\r\nAuthorization: Bearer " + tokens_["tdir"] + "\r\n",
      exported);
  ASSERT_NE(reply.find("201"), std::string::npos) << reply.substr(0, 400);
  const int imported = json::parse(body_of(reply))["tournament"];
  const json w = view(imported);
  EXPECT_EQ(absent_of(w, name(1)), json::array({2}));
  EXPECT_EQ(absent_of(w, name(0)), json::array({3}));
  EXPECT_EQ(absent_of(w, name(3)), json::array({4}));
  ASSERT_EQ(w["round_list"].size(), 3u);
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < 5; ++i)
      EXPECT_EQ(in_round(w["round_list"][r], name(i)), in_round(v["round_list"][r], name(i)))
          << "round " << r + 1 << ", " << name(i);
  }
  const std::string again = body_of(http_get(
      stack_->port(), "/api/v1/tournaments/" + std::to_string(imported) + "/opengotha.xml"));
  const auto section = [](const std::string& xml, const std::string& tag) {
    const auto from = xml.find("<" + tag + ">");
    const auto to = xml.find("</" + tag + ">");
    return from == std::string::npos ? std::string("missing ") + tag : xml.substr(from, to - from);
  };
  EXPECT_EQ(section(again, "Players"), section(exported, "Players"));
  EXPECT_EQ(section(again, "Games"), section(exported, "Games"));

  // A round needs two players.
  for (int i = 0; i < 3; ++i) expect_ack(absent(name(i), 5));
  refused_with(absent(name(3), 5), "without Family3 Given3, too few players play round 5");

  // A round robin and an elimination pair everyone: no absence, no pairing by hand.
  s["system"] = "round_robin";
  s.erase("rounds");  // a round robin's follow from its players
  const int robin = director({{"type", "create_tournament"}, {"settings", s}})["tournament"];
  for (int i = 0; i < 4; ++i) expect_ack(director(guest(robin, i)));
  refused_with(director({{"type", "tournament_set_absent"},
                         {"tournament", robin},
                         {"player", name(0)},
                         {"round", 1},
                         {"absent", true}}),
               "a round robin pairs every player in every round: withdraw a player who cannot "
               "play on");
  expect_ack(director({{"type", "tournament_start"}, {"tournament", robin}}));
  refused_with(director({{"type", "tournament_pair_round"},
                         {"tournament", robin},
                         {"round", 1},
                         {"pair_rest", true}}),
               "a round robin's rounds follow its tables: pairing by hand is for a Swiss or "
               "McMahon");
}

// The director corrects a registration (docs/tournaments.md, "Correcting a registration"): a
// player without an account renamed everywhere, a player with an account given their real names
// for the federation files; the rank only before the seeding.
TEST_F(OverTheBoard, TheDirectorCorrectsARegistrationAndGivesAnAccountItsRealNames) {
  start();
  const int id =
      director({{"type", "create_tournament"}, {"settings", settings(true)}})["tournament"];
  for (int i = 0; i < 4; ++i) expect_ack(director(guest(id, i)));
  expect_ack(
      as("amy").command({{"type", "tournament_register"}, {"tournament", id}, {"rank", "3k"}}));
  const auto edit = [&](json fields) {
    fields["type"] = "tournament_edit_player";
    fields["tournament"] = id;
    return director(std::move(fields));
  };
  const auto refused_with = [&](const json& reply, const std::string& words) {
    EXPECT_NE(reply.value("message", std::string()).find(words), std::string::npos)
        << reply.dump() << " (wanted: " << words << ")";
  };
  const auto entrant = [&](const std::string& name) {
    const json v = view(id);  // (a range over a temporary's member would not keep it alive)
    for (const auto& e : v["entrants"])
      if (e["name"] == name) return e;
    return json();
  };
  // A misspelt player: renamed, ranked again, their club changed; the fields left out cleared.
  expect_ack(edit({{"player", "Family1 Given1"},
                   {"family_name", "Familie"},
                   {"given_name", "Een"},
                   {"rank", "5d"},
                   {"club", "Haag"}}));
  json e = entrant("Familie Een");
  ASSERT_TRUE(e.is_object());
  EXPECT_EQ(e["rank"], "5d");
  EXPECT_EQ(e["club"], "Haag");
  EXPECT_FALSE(e.contains("country"));
  EXPECT_FALSE(e.contains("aga_id"));
  EXPECT_TRUE(entrant("Family1 Given1").is_null());
  refused_with(
      edit({{"player", "Familie Een"}, {"family_name", "Family2"}, {"given_name", "Given2"}}),
      "'Family2 Given2' is registered already");
  refused_with(edit({{"player", "Nobody"}, {"family_name", "X"}}),
               "'Nobody' is not registered in this tournament");
  refused_with(edit({{"player", "Familie Een"},
                     {"family_name", std::string(30, 'a')},
                     {"given_name", std::string(15, 'b')}}),
               "the family and given names are longer than 40 bytes together");
  EXPECT_EQ(as("bob").command({{"type", "tournament_edit_player"},
                               {"tournament", id},
                               {"player", "amy"},
                               {"family_name", "Amsterdam"}})["code"],
            "forbidden");
  // A player with an account: their real names for the files; the pages keep "amy".
  expect_ack(edit({{"player", "amy"},
                   {"family_name", "Amsterdam"},
                   {"given_name", "Amy"},
                   {"country", "nl"},
                   {"egd_pin", "12345678"}}));
  e = entrant("amy");
  EXPECT_EQ(e["family_name"], "Amsterdam");
  EXPECT_EQ(e["country"], "NL");
  EXPECT_TRUE(e["account"].get<bool>());

  expect_ack(director({{"type", "tournament_start"}, {"tournament", id}}));
  json v = view(id);
  EXPECT_EQ(v["entrants"][0]["name"], "Familie Een");  // seeded first, at 5d
  refused_with(edit({{"player", "Familie Een"},
                     {"family_name", "Familie"},
                     {"given_name", "Een"},
                     {"rank", "1d"}}),
               "the players were seeded at the start by their ranks: a rank changes before it");
  expect_ack(edit({{"player", "Familie Een"},
                   {"family_name", "Familie"},
                   {"given_name", "Een"},
                   {"rank", "5d"},
                   {"club", "Utr"}}));  // the same rank: taken, with the club
  EXPECT_EQ(entrant("Familie Een")["club"], "Utr");
  bool audited = false;
  const json after = view(id);
  for (const auto& a : after["audit"])
    audited = audited ||
              (a["kind"] == "edited" && a["by"] == "tdir" && a["record"]["user"]["name"] == "amy");
  EXPECT_TRUE(audited);

  // After a restart, and in the files: the real names and the PIN.
  desks_.clear();
  clients_.clear();
  stack_.reset();
  start();
  EXPECT_EQ(entrant("amy")["given_name"], "Amy");
  const std::string h9 =
      body_of(http_get(stack_->port(), "/api/v1/tournaments/" + std::to_string(id) + "/egd.h9"));
  std::istringstream lines(h9);
  bool seen = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("Amsterdam") == std::string::npos) continue;
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    ASSERT_GE(w.size(), 6u) << line;
    EXPECT_EQ(w[1], "Amsterdam") << line;
    EXPECT_EQ(w[2], "Amy") << line;
    EXPECT_EQ(w[4], "NL") << line;
    EXPECT_NE(line.find("; EGD PIN 12345678"), std::string::npos) << line;
    seen = true;
  }
  EXPECT_TRUE(seen) << h9;
  const std::string xml = body_of(
      http_get(stack_->port(), "/api/v1/tournaments/" + std::to_string(id) + "/opengotha.xml"));
  EXPECT_NE(xml.find("firstName=\"Amy\""), std::string::npos);
  EXPECT_NE(xml.find("name=\"Amsterdam\""), std::string::npos);
  EXPECT_NE(xml.find("name=\"Familie\""), std::string::npos);
}

// A tournament keeps at most 20,000 changes (docs/limits.md): past 10,000 its players no longer
// register or leave (one registering and leaving without end would grow the page everyone
// watching is sent), past 20,000 its director no longer changes it either. The events are
// written into the SQLite file as a long event would have made them, and the server reads them
// back at its start.
TEST_F(OverTheBoard, ATournamentKeepsAtMostTwentyThousandChanges) {
  start();
  auto s = settings(true);
  s["system"] = "swiss";
  s.erase("mcmahon");
  s.erase("handicap");
  const int id = director({{"type", "create_tournament"}, {"settings", s}})["tournament"];
  for (int i = 0; i < 4; ++i) expect_ack(director(guest(id, i)));
  const auto mark = [&](bool absent) {
    return director({{"type", "tournament_set_absent"},
                     {"tournament", id},
                     {"player", "Family0 Given0"},
                     {"round", 2},
                     {"absent", absent}});
  };
  expect_ack(mark(true));
  // The director's marks, back and forth, up to `total` events.
  const auto fill_to = [&](int total) {
    desks_.clear();
    clients_.clear();
    stack_.reset();
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(temp_.path().c_str(), &db), SQLITE_OK);
    const std::string last =
        "(SELECT MAX(seq) FROM tournament_events WHERE tournament_id = " + std::to_string(id) + ")";
    const std::string sql =
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) "
        "INSERT INTO tournament_events (tournament_id, seq, kind, record, at) SELECT " +
        std::to_string(id) + ", " + last +
        " + i, 'absence', json_object('user', json_object('id', -1, 'name', 'Family0 Given0'), "
        "'round', 2, 'absent', json(CASE i % 2 WHEN 0 THEN 'true' ELSE 'false' END)), 0 FROM n "
        "WHERE " +
        last + " + i <= " + std::to_string(total);
    char* problem = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &problem), SQLITE_OK)
        << (problem ? problem : "");
    sqlite3_free(problem);
    sqlite3_close(db);
    start();
  };
  const auto register_amy = [&] {
    return as("amy").command({{"type", "tournament_register"}, {"tournament", id}});
  };
  fill_to(10'000);
  ASSERT_EQ(view(id)["audit"].size(), 10'000u);
  json refused = register_amy();
  EXPECT_EQ(refused["code"], "too_large") << refused.dump();
  EXPECT_EQ(refused["message"],
            "this tournament has recorded 10000 changes, as many as its players may make: ask the "
            "director");
  expect_ack(director(guest(id, 4)));  // the director still may
  EXPECT_EQ(view(id)["audit"].size(), 10'001u);

  fill_to(20'000);
  ASSERT_EQ(view(id)["audit"].size(), 20'000u);
  refused = mark(true);
  EXPECT_EQ(refused["code"], "too_large") << refused.dump();
  EXPECT_EQ(refused["message"],
            "this tournament has recorded 20000 changes, as many as it keeps: nothing more can "
            "be changed");
  EXPECT_EQ(register_amy()["code"], "too_large");
  EXPECT_EQ(view(id)["audit"].size(), 20'000u);  // nothing more recorded
}

std::string opengotha_fixture() {
  std::ifstream in(paths::fixtures() + "/opengotha/club-mcmahon-latin1.xml", std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A file saved by OpenGotha 3.48 (as written for these tests from the format: ISO-8859-1, games
// out of round order, a forfeit, a jigo, a bye, a late player, a game not decided yet) becomes a
// running tournament here, and the director plays its last round on Tengen.
TEST_F(OverTheBoard, AnOpenGothaFileFromElsewhereIsImportedAndItsLastRoundPlayedHere) {
  start();
  const std::string xml = opengotha_fixture();
  ASSERT_GT(xml.size(), 1000u);
  const std::string reply = http_request(
      stack_->port(), "POST", "/api/v1/tournaments/import",
      "Content-Type: application/xml\r\nAuthorization: Bearer " + tokens_["tdir"] + "\r\n", xml);
  ASSERT_NE(reply.find("201"), std::string::npos) << reply.substr(0, 400);
  const int id = json::parse(body_of(reply))["tournament"];
  json v = view(id);
  EXPECT_EQ(v["name"], "Club McMahon \"Autumn\"");
  EXPECT_EQ(v["status"], "running");
  ASSERT_EQ(v["entrants"].size(), 6u);
  std::map<std::string, json> by_name;
  for (const auto& e : v["entrants"]) by_name[e["name"]] = e;
  ASSERT_TRUE(by_name.contains("Dupré Clémence"));  // Latin-1 read as such, kept as UTF-8
  EXPECT_EQ(by_name["Dupré Clémence"]["rank"], "3d");
  EXPECT_EQ(by_name["Dupré Clémence"]["egd_pin"], "12345678");
  EXPECT_EQ(by_name["Dupré Clémence"]["start_score"], 22);  // at the bar (3d)
  EXPECT_EQ(by_name["O'Brien Seán"]["aga_id"], "12345");
  EXPECT_EQ(by_name["Late Lena"]["start_score"], 12);  // 8k over a 20k floor, registered late
  ASSERT_EQ(v["round_list"].size(), 2u);
  const auto& r1 = v["round_list"][0];
  ASSERT_EQ(r1["games"].size(), 2u);
  EXPECT_EQ(r1["games"][0]["black"]["name"], "Janssen Pieter");
  EXPECT_EQ(r1["games"][0]["result"], "white");
  EXPECT_EQ(r1["games"][1]["result"], "black");
  EXPECT_TRUE(r1["games"][1]["forfeit"].get<bool>());
  ASSERT_EQ(r1["byes"].size(), 1u);
  EXPECT_EQ(r1["byes"][0]["name"], "O'Brien Seán");
  const auto& r2 = v["round_list"][1];
  EXPECT_TRUE(r2["started"].get<bool>());  // published: it has results
  ASSERT_EQ(r2["games"].size(), 3u);
  EXPECT_EQ(r2["games"][0]["result"], "jigo");
  EXPECT_TRUE(r2["games"][1]["result"].is_null());  // still being played
  EXPECT_EQ(r2["games"][2]["handicap"], 2);
  EXPECT_EQ(r2["games"][2]["black"]["name"], "Late Lena");

  // The last game of round 2 ends; round 3 is paired here, published and played.
  expect_ack(director({{"type", "tournament_set_result"},
                       {"tournament", id},
                       {"round", 2},
                       {"board", 2},
                       {"result", "black"}}));
  v = view(id);
  ASSERT_EQ(v["round_list"].size(), 3u);
  const std::size_t tables = v["round_list"][2]["games"].size();
  EXPECT_EQ(tables, 3u);
  expect_ack(director({{"type", "tournament_publish_round"}, {"tournament", id}, {"round", 3}}));
  for (std::size_t b = 1; b <= tables; ++b) {
    expect_ack(director({{"type", "tournament_set_result"},
                         {"tournament", id},
                         {"round", 3},
                         {"board", b},
                         {"result", "white"}}));
  }
  v = view(id);
  EXPECT_EQ(v["status"], "finished");
  // Exported again: the names as OpenGotha keys them, the late player's first round not played.
  const std::string again = body_of(
      http_get(stack_->port(), "/api/v1/tournaments/" + std::to_string(id) + "/opengotha.xml"));
  EXPECT_NE(again.find("blackPlayer=\"KIMJI-WOO\" handicap=\"0\" knownColor=\"true\" "
                       "result=\"RESULT_BLACKWINS_BYDEF\""),
            std::string::npos);
  EXPECT_NE(again.find("firstName=\"Lena\""), std::string::npos);
  EXPECT_NE(again.find("participating=\"01111111111111111111\""), std::string::npos);
  EXPECT_NE(again.find("<ByePlayer player=\"O'BRIENSEÁN\" roundNumber=\"1\"/>"), std::string::npos);
}

TEST(Federation, AnOpenGothaFileIsReadWithItsSettingsAndRefusedInWordsWhenItCannotBe) {
  const auto read = federation::read_opengotha(opengotha_fixture());
  ASSERT_TRUE(std::holds_alternative<federation::OpenGothaFile>(read))
      << std::get<std::string>(read);
  const auto& file = std::get<federation::OpenGothaFile>(read);
  const auto& s = file.settings;
  EXPECT_TRUE(s.over_the_board);
  EXPECT_EQ(s.system, tournament::System::McMahon);
  EXPECT_EQ(s.rounds, 3);
  EXPECT_EQ(s.city, "Amsterdam & Zaandam");
  EXPECT_EQ(s.game.width, 19);
  EXPECT_EQ(s.game.komi, 7.5);
  EXPECT_EQ(s.game.time.system, protocol::TimeControl::System::ByoYomi);
  EXPECT_EQ(s.game.time.main_ms, 45 * 60'000);
  EXPECT_EQ(s.game.time.period_ms, 30'000);
  EXPECT_EQ(s.bar, *protocol::parse_rank("3d"));
  EXPECT_EQ(s.floor, *protocol::parse_rank("20k"));
  EXPECT_TRUE(s.handicap.by_score_gap);
  EXPECT_EQ(s.handicap.correction, 1);
  EXPECT_EQ(s.tie_breaks, (std::vector<tournament::TieBreak>{tournament::TieBreak::Score,
                                                             tournament::TieBreak::Sos,
                                                             tournament::TieBreak::Sosos}));
  ASSERT_EQ(file.players.size(), 6u);
  EXPECT_EQ(file.players[2].entry.given_name, "Jürgen");
  EXPECT_EQ(file.players[2].key, "WEISSJÜRGEN");
  ASSERT_EQ(file.games.size(), 5u);
  EXPECT_EQ(file.games[0].round, 1);  // sorted by round, then table
  EXPECT_EQ(file.games[4].table, 3);
  EXPECT_FALSE(file.games[3].result.has_value());

  const auto refusal = [](std::string xml) {
    const auto r = federation::read_opengotha(xml);
    return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : "read";
  };
  std::string text = opengotha_fixture();
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string copy = text;
    copy.replace(copy.find(from), from.size(), to);
    return copy;
  };
  EXPECT_EQ(refusal(replaced("club=\"75Pa\"", "club=\"Paris Go Club 75\"")),
            "player 'Dupré Clémence': club is longer than 10 bytes");
  EXPECT_EQ(refusal(replaced("country=\"KR\"", "country=\"KOR\"")),
            "player 'Kim Ji-woo': country must be a two-letter country code like \"NL\"");
  EXPECT_EQ(refusal(replaced("roundNumber=\"2\" tableNumber=\"3\" whitePlayer=\"O'BRIENSE",
                             "roundNumber=\"2\" tableNumber=\"3\" whitePlayer=\"LATELENA\" x=\"")),
            "round 2 pairs 'LATELENA' with themselves");
  EXPECT_EQ(refusal(replaced("numberOfRounds=\"3\"", "numberOfRounds=\"1\"")),
            "the file has games in round 2 of 1");
  EXPECT_EQ(refusal(replaced("handicap=\"2\"", "handicap=\"12\"")),
            "round 2, table 3: the handicap is not 0 to 9");
  EXPECT_EQ(refusal(replaced("result=\"RESULT_EQUAL\"", "result=\"RESULT_EQUAL_BYDEF\"")),
            "round 2, table 1: a jigo by forfeit, which a tournament here cannot record");
  EXPECT_EQ(refusal(replaced("<ByePlayer player=\"O'BRIENSE",
                             "<ByePlayer player=\"DUPR\xC9"
                             "CL\xC9MENCE\" x=\"")),
            "round 1 pairs 'DUPRÉCLÉMENCE' twice");
  EXPECT_EQ(refusal(replaced("result=\"RESULT_WHITEWINS\" roundNumber=\"1\"",
                             "result=\"RESULT_UNKNOWN\" roundNumber=\"1\"")),
            "round 1, table 1 has no result, but round 2 is paired: enter it in OpenGotha first");
  EXPECT_EQ(refusal(std::string(federation::kMaxOpenGothaBytes + 1, ' ')),
            "the file is larger than 1 MiB");
  EXPECT_EQ(refusal("<Tournament><TournamentParameterSet/></Tournament>"),
            "the file has no <GeneralParameterSet>");
  // ISO-8859-1 made UTF-8 once (the declaration says so after), and Latin-1 bytes in a file
  // that says UTF-8 refused rather than shown garbled.
  const std::string utf8 = federation::opengotha_as_utf8(text);
  EXPECT_TRUE(utf8.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\""));
  EXPECT_NE(utf8.find("name=\"Dupré\""), std::string::npos);
  EXPECT_EQ(federation::opengotha_as_utf8(utf8), utf8);
  EXPECT_EQ(refusal(utf8), "read");
  EXPECT_EQ(refusal(replaced("ISO-8859-1", "UTF-8")),
            "the file is neither UTF-8 nor ISO-8859-1 as its first line says: save it again from "
            "OpenGotha");
}

// A registration list from a spreadsheet (docs/tournaments.md, "A list of players from a
// spreadsheet"): semicolons, quotes, a byte-order mark, columns in any order and case, extra
// columns left out; each line checked as the form checks it, refused by line.
TEST_F(OverTheBoard, TheDirectorRegistersAListOfPlayersFromASpreadsheetAllOrNone) {
  start();
  const int id =
      director({{"type", "create_tournament"}, {"settings", settings(true)}})["tournament"];
  expect_ack(director(guest(id, 0)));  // Family0 Given0, registered by hand
  const auto send = [&](const std::string& csv, const std::string& token,
                        const std::string& type = "text/csv") {
    return http_request(
        stack_->port(), "POST", "/api/v1/tournaments/" + std::to_string(id) + "/players",
        "Content-Type: " + type + "\r\nAuthorization: Bearer " + token + "\r\n", csv);
  };
  const std::string list =
      "Family name,Given name,Rank,Club,Country\n"
      "Jansen,Piet,2k,Ams,NL\n"
      "Family0,Given0,4d,,\n"  // registered already: nobody is added
      "Ito,,15k,,JP\n";
  std::string reply = send(list, tokens_["tdir"]);
  EXPECT_NE(reply.find("409"), std::string::npos) << reply.substr(0, 300);
  EXPECT_NE(reply.find("line 3: 'Family0 Given0' is registered already"), std::string::npos);
  EXPECT_EQ(view(id)["entrants"].size(), 1u);
  EXPECT_NE(send(list, tokens_["tdir"], "text/plain").find("415"), std::string::npos);
  reply = send("name,rank\nIto,5x\n", tokens_["tdir"]);
  EXPECT_NE(reply.find("422"), std::string::npos);
  EXPECT_NE(reply.find("line 2: rank '5x' is not a rank"), std::string::npos);
  // Only the director registers players.
  reply = send("name,rank\nIto,5k\n", tokens_["amy"]);
  EXPECT_NE(reply.find("409"), std::string::npos) << reply.substr(0, 300);
  EXPECT_NE(reply.find("only the tournament's director"), std::string::npos) << body_of(reply);

  reply = send("Family name,Given name,Rank,Club,Country\nJansen,Piet,2k,Ams,NL\nIto,,15k,,JP\n",
               tokens_["tdir"]);
  ASSERT_NE(reply.find("201"), std::string::npos) << reply.substr(0, 300);
  EXPECT_EQ(json::parse(body_of(reply))["added"], 2);
  const json v = view(id);
  ASSERT_EQ(v["entrants"].size(), 3u);
  EXPECT_EQ(v["entrants"][1]["name"], "Jansen Piet");
  EXPECT_EQ(v["entrants"][1]["club"], "Ams");
  EXPECT_EQ(v["entrants"][2]["name"], "Ito");
  EXPECT_EQ(v["entrants"][2]["country"], "JP");
  int registered_by_director = 0;
  for (const auto& line : v["audit"])
    registered_by_director += line["kind"] == "registered" && line["by"] == "tdir";
  EXPECT_EQ(registered_by_director, 3);
}

TEST(Federation, APlayerListFromASpreadsheetIsReadByItsHeaderAndRefusedByLine) {
  const std::string csv =
      "\xEF\xBB\xBF"
      "First name;Surname;Grade;Club;Country;EGF PIN;Paid\r\n"
      "Anna;de Vries;3 dan;Leid;nl;12345678;yes\r\n"
      "\"Jean; \"\"JC\"\"\";Dupont;5K;;FR;;no\r\n"
      ";;;;;;\r\n"
      "Mei;Wang;12 kyu;;;;\r\n";
  const auto read = federation::read_player_list(csv, 7);
  ASSERT_TRUE(std::holds_alternative<std::vector<federation::ListedPlayer>>(read))
      << std::get<std::string>(read);
  const auto& list = std::get<std::vector<federation::ListedPlayer>>(read);
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].line, 2);
  EXPECT_EQ(list[0].entry.tournament, 7);
  EXPECT_EQ(list[0].entry.family_name, "de Vries");
  EXPECT_EQ(list[0].entry.given_name, "Anna");
  EXPECT_EQ(list[0].entry.rank, "3d");
  EXPECT_EQ(list[0].entry.club, "Leid");
  EXPECT_EQ(list[0].entry.country, "nl");
  EXPECT_EQ(list[0].entry.egd_pin, "12345678");
  EXPECT_EQ(list[1].entry.given_name, "Jean; \"JC\"");
  EXPECT_EQ(list[1].entry.rank, "5k");
  EXPECT_FALSE(list[1].entry.club.has_value());
  EXPECT_EQ(list[2].line, 5);  // the empty line 4 skipped
  EXPECT_EQ(list[2].entry.rank, "12k");

  const auto refusal = [](const std::string& text) {
    const auto r = federation::read_player_list(text, 7);
    return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : "read";
  };
  EXPECT_EQ(refusal("name,rank\nIto,5k\nSato,5x\n"),
            "line 3: rank '5x' is not a rank (like 5k or 2d)");
  EXPECT_EQ(refusal("name,rank,country\nIto,5k,JPN\n"),
            "line 2: the country must be a two-letter country code like \"NL\"");
  EXPECT_EQ(refusal("name,rank\nIto,5k\nIto,4k\n"), "line 3: 'Ito' is in the list twice");
  EXPECT_EQ(refusal("given name,grade\nIto,5k\n"),
            "the first row names the columns, and needs at least \"family name\" and \"rank\"");
  EXPECT_EQ(refusal("name,rank\n\"Ito,5k\n"), "line 2: a quote is not closed");
  EXPECT_EQ(refusal("name,rank\n\"Li\nMei\",5k\n"),
            "line 2: the family name must not hold control characters");
  EXPECT_EQ(refusal("name,rank,notes\nIto,5k,\"two\nlines\"\nSato,5x,\n"),
            "line 4: rank '5x' is not a rank (like 5k or 2d)");  // lines of the file, not rows
  EXPECT_EQ(refusal("name,rank\n,5k\n"), "line 2: the family name must not be empty");
  EXPECT_EQ(refusal("name,rank\n"), "the list has no players under its header row");
  EXPECT_EQ(refusal(""), "the list is empty: its first row names the columns");
}

// A club championship, half at the club and half online: a round robin of four members and two
// visitors without accounts. Odd rounds put the tables between two members on the server; the
// other tables are played at the club, their results reported by the players on their phones
// (both must say the same; a disagreement waits for the director) or entered by the director.
TEST_F(OverTheBoard, AHybridRoundRobinTakesResultsFromThePlayersTheDirectorAndTheServer) {
  start();
  json s = settings(true);
  s["system"] = "round_robin";
  s.erase("rounds");
  s.erase("mcmahon");
  s.erase("handicap");
  const int id = director({{"type", "create_tournament"}, {"settings", s}})["tournament"];
  for (const auto* name : {"amy", "bob", "cat", "dan"}) {
    expect_ack(
        as(name).command({{"type", "tournament_register"}, {"tournament", id}, {"rank", "5k"}}));
  }
  for (const auto* family : {"Ghost", "Spook"}) {
    expect_ack(director({{"type", "tournament_add_player"},
                         {"tournament", id},
                         {"family_name", family},
                         {"given_name", "Visitor"},
                         {"rank", "5k"}}));
  }
  expect_ack(director({{"type", "tournament_start"}, {"tournament", id}}));
  const auto account = [](const json& p) { return p["id"].get<std::int64_t>() > 0; };
  const auto report = [&](const std::string& who, int round, int table, const char* result) {
    return as(who).command({{"type", "tournament_report_result"},
                            {"tournament", id},
                            {"round", round},
                            {"board", table},
                            {"result", result}});
  };
  int online_games = 0, confirmed = 0, disputes = 0, by_director = 0;
  for (int round = 1; round <= 5; ++round) {
    json v = view(id);
    ASSERT_EQ(v["round_list"].size(), static_cast<std::size_t>(round)) << v.dump();
    const json games = v["round_list"][round - 1]["games"];
    ASSERT_EQ(games.size(), 3u);
    json online = json::array();
    int guest_table = 0;
    for (const auto& g : games) {
      const bool members = account(g["black"]) && account(g["white"]);
      if (members && round % 2 == 1) online.push_back(g["board"]);
      if (!members) guest_table = g["board"];
    }
    if (round == 1) {  // a visitor cannot play on the server
      auto refused = director({{"type", "tournament_publish_round"},
                               {"tournament", id},
                               {"round", 1},
                               {"online_tables", {guest_table}}});
      EXPECT_EQ(refused["code"], "conflict");
      EXPECT_NE(refused["message"].get<std::string>().find("has no account, so the game cannot"),
                std::string::npos)
          << refused.dump();
      refused = director({{"type", "tournament_publish_round"},
                          {"tournament", id},
                          {"round", 1},
                          {"online_tables", {4}}});
      EXPECT_EQ(refused["message"], "round 1 has no table 4");
      // Nothing is reported before the round is published.
      EXPECT_EQ(report("amy", 1, 1, "black")["message"], "round 1 is not published yet");
    }
    expect_ack(director({{"type", "tournament_publish_round"},
                         {"tournament", id},
                         {"round", round},
                         {"online_tables", online}}));
    v = view(id);
    for (const auto& g : v["round_list"][round - 1]["games"]) {
      const int table = g["board"];
      const bool on_server = std::find(online.begin(), online.end(), json(table)) != online.end();
      EXPECT_EQ(g["game"].is_null(), !on_server) << g.dump();
      const std::string black = g["black"]["name"], white = g["white"]["name"];
      // Someone from another table may not report this one.
      for (const auto* other : {"amy", "bob", "cat", "dan"}) {
        if (other == black || other == white) continue;
        const auto refused = report(other, round, table, "black");
        EXPECT_EQ(refused["code"], "forbidden");
        EXPECT_EQ(refused["message"], "you do not play at table " + std::to_string(table) +
                                          " in round " + std::to_string(round));
        break;
      }
      if (on_server) {  // played on the server: White wins by resignation
        const auto refused = report(black, round, table, "white");
        EXPECT_EQ(refused["message"], "table " + std::to_string(table) +
                                          " is played on the server: its result comes from the "
                                          "game");
        expect_ack(as(black).command(cmd("resign", g["game"].get<std::int64_t>())));
        ++online_games;
        continue;
      }
      if (!account(g["black"]) || !account(g["white"])) {
        // One player with an account says Black won; the visitor cannot confirm: the director.
        const std::string member = account(g["black"]) ? black : white;
        if (account(g["black"]) || account(g["white"])) {
          expect_ack(report(member, round, table, "black"));
          const json after = view(id)["round_list"][round - 1]["games"][table - 1];
          EXPECT_TRUE(after["result"].is_null());
          EXPECT_EQ(after["reports"][member == black ? "black" : "white"], "black");
          EXPECT_FALSE(after["disputed"].get<bool>());
        }
        expect_ack(director({{"type", "tournament_set_result"},
                             {"tournament", id},
                             {"round", round},
                             {"board", table},
                             {"result", "black"}}));
        ++by_director;
        continue;
      }
      if (round == 2) {  // they disagree: the director decides
        expect_ack(report(black, round, table, "black"));
        expect_ack(report(white, round, table, "white"));
        json after = view(id)["round_list"][round - 1]["games"][table - 1];
        EXPECT_TRUE(after["result"].is_null());
        EXPECT_TRUE(after["disputed"].get<bool>());
        EXPECT_EQ(after["reports"], (json{{"black", "black"}, {"white", "white"}}));
        expect_ack(director({{"type", "tournament_set_result"},
                             {"tournament", id},
                             {"round", round},
                             {"board", table},
                             {"result", "white"}}));
        after = view(id)["round_list"][round - 1]["games"][table - 1];
        EXPECT_EQ(after["result"], "white");
        EXPECT_FALSE(after["disputed"].get<bool>());
        const auto refused = report(black, round, table, "white");
        EXPECT_EQ(refused["code"], "conflict");
        EXPECT_EQ(refused["message"], "the result of table " + std::to_string(table) +
                                          " is recorded already: ask the director to correct it");
        ++disputes;
        continue;
      }
      // They agree (Black changes their mind first); in round 4 Black reaches the most answers
      // one may give, and a restart comes between the two reports.
      expect_ack(report(black, round, table, "white"));
      if (round == 4) {  // five answers at most: then the director
        for (const auto* again : {"black", "white", "black"})
          expect_ack(report(black, round, table, again));
      }
      expect_ack(report(black, round, table, "jigo"));
      if (round == 4) {
        const auto refused = report(black, round, table, "white");
        EXPECT_EQ(refused["message"], "you have reported table " + std::to_string(table) +
                                          " 5 times: ask the director");
        expect_ack(report(black, round, table, "jigo"));  // the same again: nothing new
      }
      if (round == 4) {
        desks_.clear();
        clients_.clear();
        stack_.reset();
        start();
        EXPECT_EQ(view(id)["round_list"][round - 1]["games"][table - 1]["reports"]["black"],
                  "jigo");
      }
      expect_ack(report(white, round, table, "jigo"));
      EXPECT_EQ(view(id)["round_list"][round - 1]["games"][table - 1]["result"], "jigo");
      ++confirmed;
    }
    v = view(id);
    for (const auto& g : v["round_list"][round - 1]["games"]) {
      EXPECT_FALSE(g["result"].is_null()) << "round " << round << ": " << g.dump();
      if (!g["game"].is_null()) {
        EXPECT_EQ(g["result"], "white");
      }
    }
  }
  const json v = view(id);
  EXPECT_EQ(v["status"], "finished");
  EXPECT_EQ(online_games + confirmed + disputes + by_director, 15);
  EXPECT_GE(online_games, 1);
  EXPECT_GE(confirmed, 1);
  EXPECT_GE(disputes, 1);
  EXPECT_GE(by_director, 5);  // every round has a visitor's table
  // The log says who reported what, and which results both players confirmed.
  int reported = 0, confirmed_lines = 0;
  for (const auto& line : v["audit"]) {
    if (line["kind"] == "reported") {
      EXPECT_NE(line["by"], "tdir");
      ++reported;
    }
    if (line["kind"] == "result" && line["record"].value("confirmed", false)) ++confirmed_lines;
  }
  EXPECT_EQ(confirmed_lines, confirmed);
  EXPECT_GE(reported, 3 * confirmed + 2 * disputes);
  // Played online, a table's game is in the archive with the tournament's settings.
  for (const auto& g : v["round_list"][0]["games"]) {
    if (g["game"].is_null()) continue;
    const json game =
        json::parse(body_of(http_get(stack_->port(), "/api/v1/games/" + g["game"].dump())));
    EXPECT_EQ(game["game"]["settings"]["width"], 19) << game.dump();
    EXPECT_EQ(game["game"]["result"], "W+R");
  }
}

TEST(Federation, OpenGothaKeysAreNamesWithoutSpacesInUpperCase) {
  EXPECT_EQ(federation::opengotha_key("de Vries", "Anna"), "DEVRIESANNA");
  EXPECT_EQ(federation::opengotha_key("Honoré", "Jean-Christophe"), "HONORÉJEAN-CHRISTOPHE");
  EXPECT_EQ(federation::opengotha_key("Lamôle", "Jérôme"), "LAMÔLEJÉRÔME");
  EXPECT_EQ(federation::opengotha_key("Müller", ""), "MÜLLER");
  EXPECT_EQ(federation::opengotha_key("Øster", "÷"), "ØSTER÷");  // ÷ has no upper case
}

TEST(Federation, TheEgfClassFollowsTheClockAndWhereTheGamesArePlayed) {
  protocol::TournamentSettings s;
  auto& t = s.game.time;
  s.over_the_board = true;
  t.system = protocol::TimeControl::System::ByoYomi;
  t.main_ms = 3'600'000;
  t.period_ms = 30'000;
  t.periods = 5;
  EXPECT_EQ(federation::adjusted_seconds(t), 3600 + 45 * 30);
  EXPECT_EQ(federation::egd_class(s), 'A');
  t.main_ms = 2'400'000;
  EXPECT_EQ(federation::egd_class(s), 'B');
  t.main_ms = 1'500'000;
  EXPECT_EQ(federation::egd_class(s), 'C');
  t.main_ms = 600'000;
  EXPECT_EQ(federation::egd_class(s), 'X');
  t.system = protocol::TimeControl::System::Canadian;
  t.main_ms = 2'400'000;
  t.period_ms = 300'000;
  t.stones = 15;
  EXPECT_EQ(federation::adjusted_seconds(t), 2400 + 60 * 300 / 15);
  EXPECT_EQ(federation::egd_class(s), 'B');  // 3600 s adjusted: B, not A (4500 s)
  t.system = protocol::TimeControl::System::Fischer;
  t.main_ms = 2'700'000;
  t.increment_ms = 15'000;
  EXPECT_EQ(federation::adjusted_seconds(t), 2700 + 120 * 15);
  EXPECT_EQ(federation::egd_class(s), 'A');
  s.over_the_board = false;  // online: D at best
  EXPECT_EQ(federation::egd_class(s), 'D');
  t.main_ms = 600'000;
  EXPECT_EQ(federation::egd_class(s), 'X');
  t.system = protocol::TimeControl::System::Correspondence;
  EXPECT_EQ(federation::egd_class(s), 'X');
}

}  // namespace
}  // namespace tengen::testing
