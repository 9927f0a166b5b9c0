#include "moderation/game_actions.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "http/moderation_answers.h"
#include "rooms/room.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using moderation::Refused;

const Steady t0{std::chrono::hours(5)};

Room rated_room() {
  protocol::GameSettings s;
  s.width = s.height = 9;
  s.rated = true;
  s.color = protocol::GameSettings::ColorChoice::Black;
  return Room(7, s, {1, "b"}, {2, "w"}, std::nullopt, t0);
}

protocol::http::GameAction action(protocol::http::GameAction::Kind kind) {
  protocol::http::GameAction a;
  a.kind = kind;
  a.result = "W+R";
  return a;
}

using Kind = protocol::http::GameAction::Kind;

TEST(GameActions, EachActionSaysWhatItDidOrWhyNotByType) {
  Room room = rated_room();
  ASSERT_FALSE(std::holds_alternative<protocol::Error>(room.chat({1, "b"}, "", "hello", 0)));
  auto chat = action(Kind::DeleteChat);
  chat.line = 1;
  const auto deleted = moderation::act_on(room, chat, t0);
  ASSERT_TRUE(std::holds_alternative<moderation::ChatLineDeleted>(deleted));
  EXPECT_EQ(std::get<moderation::ChatLineDeleted>(deleted).author.name, "b");
  const auto again = moderation::act_on(room, chat, t0);
  ASSERT_TRUE(std::holds_alternative<Refused>(again));
  EXPECT_EQ(std::get<Refused>(again).why, Refused::Why::NoSuchLine);

  ASSERT_TRUE(std::holds_alternative<moderation::GameAdjudicated>(
      moderation::act_on(room, action(Kind::Adjudicate), t0)));
  EXPECT_EQ(room.result()->to_sgf(), "W+R");
  EXPECT_EQ(std::get<Refused>(moderation::act_on(room, action(Kind::Adjudicate), t0)).why,
            Refused::Why::OverAlready);

  const auto annulled = moderation::act_on(room, action(Kind::Annul), t0);
  ASSERT_TRUE(std::holds_alternative<moderation::GameAnnulled>(annulled));
  EXPECT_TRUE(std::get<moderation::GameAnnulled>(annulled).rated) << "finished and rated";
  EXPECT_EQ(std::get<Refused>(moderation::act_on(room, action(Kind::Annul), t0)).why,
            Refused::Why::VoidAlready);
}

TEST(GameActions, TheHttpApiAnswersEachOutcomeWithItsStatus) {
  auto body = [](const std::pair<int, std::string>& a) { return json::parse(a.second); };
  const auto deleted = http::answer_of(moderation::ChatLineDeleted{{4, "ann"}});
  EXPECT_EQ(deleted.first, 200);
  EXPECT_EQ(body(deleted)["author"], (json{{"id", 4}, {"name", "ann"}}));
  const auto annulled = http::answer_of(moderation::GameAnnulled{true, 6});
  EXPECT_EQ(annulled.first, 200);
  EXPECT_EQ(body(annulled)["ratings_rebuilt"], 6);
  EXPECT_EQ(http::answer_of(moderation::GameAdjudicated{}), (std::pair{200, std::string("{}")}));
  const std::pair<Refused::Why, int> statuses[] = {
      {Refused::Why::NoSuchGame, 404},     {Refused::Why::NoSuchLine, 404},
      {Refused::Why::TournamentGame, 409}, {Refused::Why::VoidAlready, 409},
      {Refused::Why::OverAlready, 409},
  };
  for (const auto& [why, status] : statuses) {
    const auto answer = http::answer_of(Refused{why, "because"});
    EXPECT_EQ(answer.first, status);
    EXPECT_EQ(body(answer)["error"]["code"], status == 404 ? "not_found" : "conflict")
        << answer.second;
    EXPECT_EQ(body(answer)["error"]["message"], "because");
  }
  EXPECT_NE(moderation::tournament_game(12).message.find("tournament"), std::string::npos);
}

}  // namespace
}  // namespace tengen
