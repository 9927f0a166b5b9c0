// The lenient reader of server messages that clients use (the GTP bridge, the load generator):
// what the server encodes reads back; what it does not know is skipped.
#include "protocol/server_reader.h"

#include <gtest/gtest.h>

#include "protocol/codec.h"
#include "support/game_snapshot.h"

namespace tengen::protocol {
namespace {

GameSettings board(int size) {
  GameSettings s;
  s.width = s.height = size;
  return s;
}

GameSnapshot snapshot(const std::string& role, const std::string& to_move) {
  return tengen::testing::game_snapshot(*protocol::wire::parse<protocol::Role>(role),
                                        *protocol::wire::parse<Color>(to_move));
}

TEST(ServerReader, ReadsBackWhatTheServerEncodes) {
  GameSnapshot s = snapshot("white", "black");
  s.moves = {{Color::Black, "E5"}, {Color::White, "pass"}};
  s.handicap_stones = {};
  s.clock =
      ClockState{{.main_ms = 5}, {.main_ms = 0, .periods = 2, .period_ms = 300}, Color::Black};
  s.marking.emplace();
  s.marking->version = 3;
  s.marking->dead = {"A1"};
  s.marking->accepted.white = 3;
  const auto read = read_server_message(encode(ServerMessage{s}));
  ASSERT_TRUE(read);
  const auto& back = std::get<GameSnapshot>(*read);
  EXPECT_EQ(back.game, 7);
  EXPECT_EQ(back.seq, 4u);
  EXPECT_EQ(back.settings, s.settings);
  EXPECT_EQ(back.white.name, "gnugo");
  EXPECT_EQ(back.moves.size(), 2u);
  EXPECT_EQ(back.moves[1].vertex, "pass");
  EXPECT_EQ(back.role, Role::White);
  ASSERT_TRUE(back.clock);
  EXPECT_EQ(back.clock->white, s.clock->white);
  EXPECT_EQ(back.clock->running, Color::Black);
  ASSERT_TRUE(back.marking);
  EXPECT_EQ(back.marking->dead, s.marking->dead);
  EXPECT_EQ(back.marking->accepted.white, 3u);
  EXPECT_FALSE(back.marking->accepted.black);

  const auto move = read_server_message(
      encode(ServerMessage{RoomEvent{7, 5, MovePlayed{Color::White, "C3", {"D3"}, s.clock, 12}}}));
  ASSERT_TRUE(move);
  const auto& e = std::get<RoomEvent>(*move);
  EXPECT_EQ(e.seq, 5u);
  EXPECT_EQ(std::get<MovePlayed>(e.body).captured, (std::vector<std::string>{"D3"}));

  const auto error = read_server_message(
      encode(ServerMessage{Error{"c1", ErrorCode::IllegalMove, "ko: play elsewhere first", 7}}));
  ASSERT_TRUE(error);
  EXPECT_EQ(std::get<Error>(*error).code, ErrorCode::IllegalMove);

  Challenge c{3, {1, "shusaku"}, UserRef{2, "gnugo"}, board(13)};
  const auto lobby = read_server_message(encode(ServerMessage{LobbySnapshot{{c}, {}}}));
  ASSERT_TRUE(lobby);
  const auto& challenges = std::get<LobbySnapshot>(*lobby).challenges;
  ASSERT_EQ(challenges.size(), 1u);
  EXPECT_EQ(challenges[0].opponent->name, "gnugo");
  EXPECT_EQ(challenges[0].settings.width, 13);
}

TEST(ServerReader, SkipsWhatItDoesNotKnowAndToleratesNewFields) {
  EXPECT_FALSE(read_server_message("not json"));
  EXPECT_FALSE(read_server_message(R"({"v":1,"type":"added_in_v2","game":3})"))
      << "a message type this client does not know";
  EXPECT_FALSE(read_server_message(R"({"v":1,"game":3})")) << "no type";
  EXPECT_FALSE(read_server_message(R"({"v":1,"type":"move","game":"seven","seq":1})"))
      << "a field of the wrong type";
  const auto ack =
      read_server_message(R"({"v":1,"type":"ack","cid":"x","game":3,"added_in_v2":true})");
  ASSERT_TRUE(ack);
  EXPECT_EQ(std::get<Ack>(*ack).game, 3);
  const auto snapshot = read_server_message(
      R"({"v":1,"type":"snapshot","game":4,"phase":"added_in_v2","moves":[{"color":"black"}]})");
  ASSERT_TRUE(snapshot) << "missing fields keep their defaults, an unknown phase is playing";
  EXPECT_EQ(std::get<GameSnapshot>(*snapshot).phase, Phase::Playing);
  ASSERT_EQ(std::get<GameSnapshot>(*snapshot).moves.size(), 1u);
  EXPECT_EQ(std::get<GameSnapshot>(*snapshot).moves[0].vertex, "");
  EXPECT_FALSE(read_server_message(
      R"({"v":1,"type":"lobby","challenges":[{"id":1,"settings":{"width":"big"}}]})"))
      << "settings it cannot read";
  const auto ended = read_server_message(
      R"({"v":1,"type":"game_ended","game":4,"seq":9,"result":"W+R","reason":"added_in_v2"})");
  ASSERT_TRUE(ended) << "an end reason this client does not know is read as other";
  EXPECT_EQ(std::get<GameEnded>(std::get<RoomEvent>(*ended).body).reason, EndReason::Other);
  EXPECT_EQ(std::get<GameEnded>(std::get<RoomEvent>(*ended).body).result,
            Result::resignation(Color::White));
  EXPECT_FALSE(read_server_message(
      R"({"v":1,"type":"game_ended","game":4,"seq":9,"result":"W+many","reason":"time"})"))
      << "a result that is not one";
}

TEST(ServerReader, ReadsTheLobbysAndTheGamesOtherMessages) {
  const auto closed = read_server_message(
      encode(ServerMessage{ChallengeClosed{3, ChallengeEnd::Accepted, GameId{9}}}));
  ASSERT_TRUE(closed);
  EXPECT_EQ(std::get<ChallengeClosed>(*closed).game, 9);
  const auto started = read_server_message(
      encode(ServerMessage{GameStarted{9, {1, "shusaku"}, {2, "gnugo"}, board(13), true}}));
  ASSERT_TRUE(started);
  EXPECT_EQ(std::get<GameStarted>(*started).white.name, "gnugo");
  EXPECT_EQ(std::get<GameStarted>(*started).settings.width, 13);
  const auto ended = read_server_message(encode(ServerMessage{
      RoomEvent{9, 12,
                GameEnded{Result::score(3.5), EndReason::Score,
                          ScoreView{40, 36.5, Result::score(3.5), "bw.", {}}, std::nullopt}}}));
  ASSERT_TRUE(ended);
  const auto& over = std::get<GameEnded>(std::get<RoomEvent>(*ended).body);
  EXPECT_EQ(over.result, Result::score(3.5));
  EXPECT_EQ(over.reason, EndReason::Score);
}

}  // namespace
}  // namespace tengen::protocol
