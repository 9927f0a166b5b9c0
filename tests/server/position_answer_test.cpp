// The engine's answers to a browser (rooms/position_answer.h), the code the server and the
// WebAssembly build (wasm/) share: the local board's game read as a game (turns, two passes end
// play, resignation), its count and the engine's guess at the dead stones, and every refusal in
// words with the state unchanged (there is none: each answer replays the moves it is given).
#include "rooms/position_answer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tengen {
namespace {

using json = nlohmann::json;

struct Reply {
  int status;
  json body;
};
Reply local(const json& query) {
  const auto answer = answer_local_game(query.dump());
  return {answer.status, json::parse(answer.body)};
}
json moves(std::initializer_list<std::pair<const char*, const char*>> list) {
  json out = json::array();
  for (const auto& [color, vertex] : list) out.push_back({{"color", color}, {"vertex", vertex}});
  return out;
}

TEST(LocalGame, MovesAreJudgedAsAGameAndTwoPassesStopPlay) {
  auto r = local({{"width", 9},
                  {"height", 9},
                  {"moves", moves({{"black", "B1"}, {"white", "A1"}, {"black", "A2"}})}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body["phase"], "playing");
  EXPECT_EQ(r.body["position"]["captured"], json::array({"A1"}));
  EXPECT_EQ(r.body["position"]["captures"]["black"], 1);
  EXPECT_EQ(r.body["position"]["to_move"], "white");

  r = local({{"width", 9},
             {"height", 9},
             {"moves", moves({{"black", "E5"}, {"white", "pass"}, {"black", "pass"}})}});
  EXPECT_EQ(r.body["phase"], "scoring");
  EXPECT_FALSE(r.body["position"].contains("score"));  // the count waits for the dead stones
}

TEST(LocalGame, TheWrongColourAndAnOccupiedPointAreRefusedInWords) {
  auto r =
      local({{"width", 9}, {"height", 9}, {"moves", moves({{"black", "E5"}, {"black", "D4"}})}});
  EXPECT_EQ(r.status, 422);
  EXPECT_EQ(r.body["error"]["code"], "illegal_move");
  EXPECT_NE(r.body["error"]["message"].get<std::string>().find("move 2"), std::string::npos);
  r = local({{"width", 9}, {"height", 9}, {"moves", moves({{"black", "E5"}, {"white", "E5"}})}});
  EXPECT_EQ(r.status, 422);
  EXPECT_EQ(r.body["error"]["reason"], "occupied");
}

TEST(LocalGame, HandicapStonesAreTheRulesAndWhiteMovesFirst) {
  auto r = local({{"width", 9}, {"height", 9}, {"handicap", 4}, {"moves", json::array()}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body["position"]["to_move"], "white");
  const std::string board = r.body["position"]["board"];
  EXPECT_EQ(std::count(board.begin(), board.end(), 'b'), 4);
  r = local({{"width", 3}, {"height", 3}, {"handicap", 9}, {"moves", json::array()}});
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body["error"]["message"].get<std::string>().find("cannot take 9"), std::string::npos);
}

TEST(LocalGame, TheCountNamesTheDeadAndTheEngineGuessesThem) {
  // Black's wall on the fifth line; a lone White stone deep in Black's side.
  json list = json::array();
  const char* black[] = {"A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5", "J5"};
  const char* white[] = {"A6", "B6", "C6", "D6", "E6", "F6", "G6", "H6", "J6"};
  for (int i = 0; i < 9; ++i) {
    list.push_back({{"color", "black"}, {"vertex", black[i]}});
    list.push_back({{"color", "white"}, {"vertex", white[i]}});
  }
  list.push_back({{"color", "black"}, {"vertex", "pass"}});
  list.push_back({{"color", "white"}, {"vertex", "C2"}});
  list.push_back({{"color", "black"}, {"vertex", "pass"}});
  list.push_back({{"color", "white"}, {"vertex", "pass"}});
  auto r = local({{"width", 9},
                  {"height", 9},
                  {"ruleset", "japanese"},
                  {"moves", list},
                  {"suggest_dead", true},
                  {"dead", {"C2"}}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body["phase"], "scoring");
  EXPECT_EQ(r.body["suggested_dead"], json::array({"C2"}));
  const auto& score = r.body["position"]["score"];
  EXPECT_EQ(score["black"], 36 + 1);  // 4 rows of 9 below the wall, and the dead stone taken
  EXPECT_EQ(score["white"], 27 + 6.5);
  EXPECT_EQ(score["result"], "B+3.5");
  r = local({{"width", 9}, {"height", 9}, {"moves", list}, {"dead", {"D4"}}});
  EXPECT_EQ(r.status, 400);  // no stone there
}

TEST(LocalGame, TheCountWaitsForTheEndOfPlayAndResignationEndsIt) {
  auto r = local(
      {{"width", 9}, {"height", 9}, {"moves", moves({{"black", "E5"}})}, {"dead", json::array()}});
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(r.body["error"]["code"], "not_scoring");
  r = local(
      {{"width", 9}, {"height", 9}, {"moves", moves({{"black", "E5"}})}, {"resigned", "white"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body["phase"], "over");
  EXPECT_EQ(r.body["result"], "B+R");
}

TEST(LocalGame, MalformedQueriesAreRefusedByName) {
  for (const auto& [query, words] : std::vector<std::pair<json, std::string>>{
           {{{"moves", json::array()}, {"black", {"D4"}}}, "empty board"},
           {{{"moves", json::array()}, {"resigned", "green"}}, "'resigned'"},
           {{{"moves", json::array()}, {"suggest_dead", 1}}, "'suggest_dead'"},
           {{{"width", 26}, {"moves", json::array()}}, "'width'"},
           {json::array(), "JSON object"},
       }) {
    const auto r = local(query);
    EXPECT_EQ(r.status, 400) << query;
    EXPECT_NE(r.body["error"]["message"].get<std::string>().find(words), std::string::npos)
        << r.body;
  }
}

}  // namespace
}  // namespace tengen
