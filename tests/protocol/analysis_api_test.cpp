// The analysis API's shapes (protocol/analysis_api.h, docs/analysis.md): results with scores or
// win rates only, positions numbered from where a job starts, a board's position's job and its
// request, each refusal naming what is wrong.
#include "protocol/analysis_api.h"

#include <gtest/gtest.h>

namespace tengen::protocol::http {
namespace {

std::string why(std::string_view body) {
  const auto decoded = decode_analysis_result(body);
  const auto* reason = std::get_if<std::string>(&decoded);
  return reason ? *reason : "";
}

TEST(AnalysisApi, AResultWithWinRatesOnlyIsKeptAndWrittenWithoutScores) {
  const auto decoded = decode_analysis_result(
      R"({"engine":"Leela Zero 0.17","positions":[{"move":0,"winrate":0.5234,"line":["D4"]},)"
      R"({"move":1,"winrate":0.4,"line":[]}]})");
  const auto* r = std::get_if<AnalysisResult>(&decoded);
  ASSERT_TRUE(r) << std::get<std::string>(decoded);
  EXPECT_FALSE(r->positions[0].score);
  EXPECT_DOUBLE_EQ(*r->positions[0].winrate, 0.5234);
  EXPECT_EQ(encode_analysis_result(*r),
            R"({"engine":"Leela Zero 0.17","positions":[{"line":["D4"],"move":0,"winrate":0.523},)"
            R"({"line":[],"move":1,"winrate":0.4}]})");
}

TEST(AnalysisApi, AResultMeasuresOneWayThroughout) {
  EXPECT_EQ(why(R"({"engine":"x","positions":[{"move":0,"line":[]}]})"),
            "position 0: needs a 'score' or a 'winrate'");
  EXPECT_EQ(why(R"({"engine":"x","positions":[{"move":0,"score":1},{"move":1,"winrate":0.5}]})"),
            "position 1: every position has a 'score', or none (win rates only)");
  EXPECT_EQ(why(R"({"engine":"x","positions":[{"move":0,"winrate":0.5},{"move":1,"score":1}]})"),
            "position 1: every position has a 'score', or none (win rates only)");
}

TEST(AnalysisApi, PositionsRunInOrderFromTheFirstOnesNumber) {
  const auto decoded = decode_analysis_result(
      R"({"engine":"x","positions":[{"move":12,"score":3.44,"winrate":0.6,"line":["d4"]}]})");
  const auto* r = std::get_if<AnalysisResult>(&decoded);
  ASSERT_TRUE(r) << std::get<std::string>(decoded);
  EXPECT_EQ(r->positions[0].move, 12);
  EXPECT_EQ(r->positions[0].line, std::vector<std::string>{"D4"});
  EXPECT_EQ(why(R"({"engine":"x","positions":[{"move":3,"score":1},{"move":5,"score":1}]})"),
            "position 1: 'move' must be 4 (positions in order)");
  EXPECT_EQ(why(R"({"engine":"x","positions":[{"move":-1,"score":1}]})"),
            "position 0: 'move' must be from 0 to 1000");
}

TEST(AnalysisApi, APositionsJobCarriesItsFirstPositionAndAGamesJobStaysAsItWas) {
  AnalysisJob position;
  position.position = 3;
  position.sgf = "(;SZ[9];B[ee])";
  position.positions = 1;
  position.from = 1;
  const auto text = encode_analysis_job(position);
  EXPECT_EQ(text, R"j({"from":1,"position":3,"positions":1,"sgf":"(;SZ[9];B[ee])"})j");
  const auto back = decode_analysis_job(text);
  ASSERT_TRUE(std::holds_alternative<AnalysisJob>(back));
  EXPECT_EQ(std::get<AnalysisJob>(back).position, 3);
  EXPECT_EQ(std::get<AnalysisJob>(back).from, 1);
  EXPECT_EQ(std::get<AnalysisJob>(back).game, 0);
  // What a worker written before positions reads: no new field.
  AnalysisJob game;
  game.game = 7;
  game.sgf = "(;)";
  game.positions = 1;
  EXPECT_EQ(encode_analysis_job(game), R"j({"game":7,"positions":1,"sgf":"(;)"})j");
  EXPECT_TRUE(std::holds_alternative<std::string>(
      decode_analysis_job(R"j({"position":3,"sgf":"(;)","positions":1})j")));
  EXPECT_TRUE(acquires_positions(R"({"positions":true})"));
  EXPECT_FALSE(acquires_positions("{}"));
  EXPECT_FALSE(acquires_positions(""));
  EXPECT_FALSE(acquires_positions(R"({"positions":1})"));
}

TEST(AnalysisApi, APositionRequestNamesItsNodeAndLine) {
  const auto decoded = decode_position_request(
      R"({"node":4,"line":[{"color":"black","vertex":"E5"},{"color":"white","vertex":"pass"}]})");
  const auto* r = std::get_if<PositionRequest>(&decoded);
  ASSERT_TRUE(r) << std::get<std::string>(decoded);
  EXPECT_EQ(r->node, 4);
  ASSERT_EQ(r->line.size(), 2u);
  EXPECT_FALSE(r->line[0].first);
  EXPECT_EQ(r->line[1], (std::pair<bool, std::string>{true, "pass"}));
  const auto refused = [](std::string_view body) {
    const auto d = decode_position_request(body);
    return std::holds_alternative<std::string>(d) ? std::get<std::string>(d) : "";
  };
  EXPECT_EQ(refused(R"({"line":[]})"), "missing field 'node'");
  EXPECT_EQ(refused(R"({"node":1})"), "missing field 'line'");
  EXPECT_EQ(refused(R"({"node":1,"line":[],"x":1})"), "unknown field 'x'");
  EXPECT_NE(refused(R"({"node":1,"line":[{"color":"red","vertex":"E5"}]})"), "");
  EXPECT_NE(refused(R"({"node":1,"line":[{"color":"black","vertex":"<b>"}]})"), "");
  std::string long_line = R"({"node":1,"line":[)";
  for (int i = 0; i < 1001; ++i)
    long_line += std::string(i ? "," : "") + R"({"color":"black","vertex":"A1"})";
  EXPECT_EQ(refused(long_line + "]}"), "'line' must be a list of at most 1000 moves");
}

}  // namespace
}  // namespace tengen::protocol::http
