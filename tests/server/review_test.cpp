// After the game: the analysis's positions (POST /api/v1/positions) through the real stack.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/many_players.h"
#include "support/server_process.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;

class Positions : public ManyPlayers {
 protected:
  // The status line's code and the body, parsed.
  std::pair<int, json> post(const std::string& body, const std::string& type = "application/json") {
    const std::string reply = http_request(stack_->port(), "POST", "/api/v1/positions",
                                           "Content-Type: " + type + "\r\n", body);
    const int status = std::stoi(reply.substr(9, 3));
    return {status, json::parse(body_of(reply), nullptr, false)};
  }
  static json moves(std::initializer_list<std::pair<const char*, const char*>> list) {
    json out = json::array();
    for (const auto& [color, vertex] : list) out.push_back({{"color", color}, {"vertex", vertex}});
    return out;
  }
};

TEST_F(Positions, ALineIsReplayedByTheRulesEngineWithItsCaptures) {
  // On 5x5, White's C3 stone is surrounded and taken by Black's last move at C2... with a pass
  // and two Black moves in a row, which an analysis may show.
  const json query = {{"width", 5},
                      {"height", 5},
                      {"ruleset", "japanese"},
                      {"black", {"B3"}},
                      {"moves", moves({{"white", "C3"},
                                       {"black", "C4"},
                                       {"white", "pass"},
                                       {"black", "D3"},
                                       {"black", "C2"}})}};
  const auto [status, answer] = post(query.dump());
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["captured"], json::array({"C3"}));
  EXPECT_EQ(answer["captures"], (json{{"black", 1}, {"white", 0}}));
  EXPECT_EQ(answer["to_move"], "white");
  EXPECT_EQ(answer["board"],
            "....."
            "..b.."
            ".b.b."
            "..b.."
            ".....");
}

TEST_F(Positions, AnIllegalMoveIsNamedInPlayersWords) {
  // A ko: Black takes at C3... White retakes at once.
  const json base = {{"width", 5},
                     {"height", 5},
                     {"black", {"B4", "A3", "B2"}},
                     {"white", {"C4", "B3", "D3", "C2"}}};
  json take = base;
  take["moves"] = moves({{"black", "C3"}});
  const auto [ok, taken] = post(take.dump());
  ASSERT_EQ(ok, 200) << taken.dump();
  EXPECT_EQ(taken["captured"], json::array({"B3"}));
  json retake = base;
  retake["moves"] = moves({{"black", "C3"}, {"white", "B3"}});
  const auto [status, refused] = post(retake.dump());
  EXPECT_EQ(status, 422);
  EXPECT_EQ(refused["error"]["code"], "illegal_move");
  EXPECT_EQ(refused["error"]["message"],
            "ko: retaking at once is not allowed; play elsewhere first (move 2, white)");
  json occupied = base;
  occupied["moves"] = moves({{"black", "C4"}});
  EXPECT_EQ(post(occupied.dump()).second["error"]["message"],
            "occupied: there is already a stone on C4 (move 1, black)");
}

TEST_F(Positions, BadQueriesAreRefusedWithTheReason) {
  auto message = [&](const std::string& body) {
    const auto [status, answer] = post(body);
    EXPECT_EQ(status, 400) << body;
    return answer["error"]["message"].get<std::string>();
  };
  EXPECT_EQ(message("[]"), "the body must be a JSON object");
  EXPECT_EQ(message("{}"), "missing field 'moves'");
  EXPECT_EQ(message(R"({"moves":[],"size":9})"), "unknown field 'size'");
  EXPECT_EQ(message(R"({"moves":[],"width":26})"),
            "field 'width' must be a whole number from 2 to 25");
  EXPECT_EQ(message(R"({"moves":[],"ruleset":"chess"})"),
            "field 'ruleset' must name a ruleset, such as \"japanese\"");
  EXPECT_EQ(message(R"({"width":9,"height":9,"moves":[{"color":"black","vertex":"K10"}]})"),
            "no point K10 on this board");
  EXPECT_EQ(message(R"({"moves":[{"color":"red","vertex":"D4"}]})"),
            "a move's colour must be \"black\" or \"white\"");
  json many = {{"moves", json::array()}};
  for (int i = 0; i < 2001; ++i) many["moves"].push_back({{"color", "black"}, {"vertex", "pass"}});
  EXPECT_EQ(message(many.dump()), "field 'moves' holds more than 2000 moves");
  EXPECT_EQ(post(R"({"moves":[]})", "text/plain").first, 415);
  // A line of play may be long (above: 70 kB), but not without end; other requests stay small.
  const std::string huge = "{\"moves\":[" + std::string(300 * 1024, ' ') + "]}";
  const std::string reply_huge = http_request(stack_->port(), "POST", "/api/v1/positions",
                                              "Content-Type: application/json\r\n", huge);
  EXPECT_TRUE(reply_huge.starts_with("HTTP/1.1 413 ")) << reply_huge.substr(0, 40);
  const std::string login =
      http_request(stack_->port(), "POST", "/api/v1/login", "Content-Type: application/json\r\n",
                   std::string(20 * 1024, ' '));
  EXPECT_TRUE(login.starts_with("HTTP/1.1 413 ")) << login.substr(0, 40);
  const std::string reply = http_request(stack_->port(), "GET", "/api/v1/positions");
  EXPECT_NE(reply.find(" 405 "), std::string::npos) << reply;
}

}  // namespace
}  // namespace tengen::testing
