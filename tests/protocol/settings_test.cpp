#include "protocol/settings.h"

#include <gtest/gtest.h>

namespace tengen::protocol {
namespace {

GameSettings base() {
  GameSettings s;
  s.width = 19;
  s.height = 19;
  s.ruleset = Ruleset::Japanese;
  return s;
}

TEST(Settings, TheDefaultsAreValid) {
  EXPECT_FALSE(validate(base()));
}

TEST(Settings, EachProblemIsNamed) {
  auto with = [](auto change) {
    GameSettings s = base();
    change(s);
    return validate(s).value_or("valid");
  };
  EXPECT_EQ(with([](auto& s) { s.width = 26; }),
            "board size must be between 2 and 25 on each side, not 26x19");
  EXPECT_EQ(with([](auto& s) { s.komi = 6.3; }),
            "komi must be a multiple of 0.5 between -150 and 150");
  EXPECT_EQ(with([](auto& s) { s.komi = 200; }),
            "komi must be a multiple of 0.5 between -150 and 150");
  EXPECT_EQ(with([](auto& s) { s.handicap = 1; }),
            "handicap must be 0 or from 2 to 9 stones, not 1");
  EXPECT_EQ(with([](auto& s) { s.automatic_handicap = true; }),
            "an automatic handicap gives Black to the weaker player: choose automatic colours");
  EXPECT_EQ(with([](auto& s) {
              s.automatic_handicap = true;
              s.color = GameSettings::ColorChoice::Automatic;
            }),
            "valid");
  EXPECT_EQ(with([](auto& s) {
              s.handicap = 4;
              s.color = GameSettings::ColorChoice::Nigiri;
            }),
            "a handicap game has no nigiri: choose black, white or automatic");
  EXPECT_EQ(
      with([](auto& s) {
        s.width = s.height = 8;
        s.handicap = 5;
        s.color = GameSettings::ColorChoice::Black;
      }),
      "a 8x8 board takes at most 4 fixed handicap stones; choose free placement or fewer stones");
  EXPECT_EQ(with([](auto& s) {
              s.width = s.height = 8;
              s.handicap = 5;
              s.color = GameSettings::ColorChoice::Black;
              s.placement = GameSettings::Placement::Free;
            }),
            "valid");
  EXPECT_EQ(with([](auto& s) { s.time = {TimeControl::System::Absolute, 0, 0, 0, 0, 0, 0, 0}; }),
            "time.main_ms must be between 1000 and 604800000, not 0");
  EXPECT_EQ(with([](auto& s) {
              s.time = {TimeControl::System::Fischer, 60000, 0, 5000, 30000, 0, 0, 0};
            }),
            "time.max_ms must be 0 (no cap) or at least time.main_ms");
  EXPECT_EQ(
      with([](auto& s) { s.time = {TimeControl::System::ByoYomi, 60000, 0, 0, 0, 0, 30000, 0}; }),
      "time.periods must be between 1 and 30, not 0");
  EXPECT_EQ(
      with([](auto& s) { s.time = {TimeControl::System::Canadian, 60000, 0, 0, 0, 0, 300000, 0}; }),
      "time.stones must be between 1 and 100, not 0");
  EXPECT_EQ(with([](auto& s) { s.time = {TimeControl::System::Simple, 0, 500, 0, 0, 0, 0, 0}; }),
            "time.per_move_ms must be between 1000 and 86400000, not 500");
  EXPECT_EQ(
      with([](auto& s) { s.time = {TimeControl::System::Canadian, 0, 0, 0, 0, 0, 300000, 25}; }),
      "valid");
}

}  // namespace
}  // namespace tengen::protocol

TEST(RulesOf, TheRulesetsPresetWithTheGamesKomi) {
  using tengen::protocol::GameSettings;
  auto settings = [](const char* ruleset, int handicap, std::optional<double> komi) {
    GameSettings s;
    s.ruleset = *tengen::parse_ruleset(ruleset);
    s.handicap = handicap;
    s.komi = komi;
    return s;
  };
  EXPECT_EQ(tengen::protocol::rules_of(settings("japanese", 0, std::nullopt)).komi, 6.5);
  EXPECT_EQ(tengen::protocol::rules_of(settings("japanese", 2, std::nullopt)).komi, 0.5);
  EXPECT_EQ(tengen::protocol::rules_of(settings("chinese", 2, 5.5)).komi, 5.5);
  EXPECT_TRUE(tengen::protocol::rules_of(settings("aga", 0, std::nullopt)).pass_stones);
}

TEST(FitHandicap, AsManyStonesAsTheBoardAndPlacementAllow) {
  using tengen::protocol::GameSettings;
  GameSettings s;
  s.color = GameSettings::ColorChoice::Black;
  s.komi = 0.5;
  tengen::protocol::fit_handicap(s, 7);
  EXPECT_EQ(s.handicap, 7);  // 19×19 takes it
  s.width = s.height = 8;
  s.placement = GameSettings::Placement::Fixed;
  tengen::protocol::fit_handicap(s, 9);
  EXPECT_EQ(s.handicap, 4);  // an 8×8 board has four fixed points
  EXPECT_EQ(tengen::protocol::validate(s), std::nullopt);
  tengen::protocol::fit_handicap(s, 1);
  EXPECT_EQ(s.handicap, 0);  // one stone is none: komi alone
}
