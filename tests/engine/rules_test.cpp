#include "engine/rules.h"

#include <gtest/gtest.h>

#include "engine/result.h"

namespace tengen {
namespace {

// Each named ruleset is its preset, by its name and by any accepted spelling.
TEST(Rules, NamedRulesetsAreTheirPresets) {
  for (std::string_view name : Rules::preset_names()) {
    const auto ruleset = parse_ruleset(name);
    ASSERT_TRUE(ruleset) << name;
    EXPECT_EQ(to_string(*ruleset), name);
    EXPECT_EQ(Rules::preset(*ruleset), *Rules::preset(name)) << name;
  }
  EXPECT_EQ(parse_ruleset("Tromp_Taylor"), Ruleset::TrompTaylor);
  EXPECT_EQ(parse_ruleset("nz"), Ruleset::NewZealand);
  EXPECT_EQ(parse_ruleset("KOREAN"), Ruleset::Korean);
  EXPECT_FALSE(parse_ruleset("go-moku"));
}

TEST(Rules, PresetsHaveTheirCustomaryOptions) {
  const Rules japanese = *Rules::preset("japanese");
  EXPECT_EQ(japanese.ko, KoRule::Simple);
  EXPECT_EQ(japanese.scoring, ScoringRule::Territory);
  EXPECT_EQ(japanese.komi, 6.5);
  const Rules chinese = *Rules::preset("Chinese");
  EXPECT_EQ(chinese.scoring, ScoringRule::Area);
  EXPECT_EQ(chinese.handicap_compensation, HandicapCompensation::N);
  EXPECT_EQ(chinese.komi, 7.5);
  const Rules aga = *Rules::preset("aga");
  EXPECT_TRUE(aga.pass_stones);
  EXPECT_EQ(aga.ko, KoRule::SituationalSuperko);
  EXPECT_EQ(aga.handicap_compensation, HandicapCompensation::NMinusOne);
  EXPECT_EQ(aga.resume, ResumeRule::OpponentOfLastPasser);
  EXPECT_EQ(Rules::preset("nz")->komi, 7.0);
  EXPECT_TRUE(Rules::preset("tromp_taylor")->suicide_allowed);
  EXPECT_FALSE(Rules::preset("go-moku"));
}

TEST(Rules, EveryPresetPrintsParsesAndNamesItself) {
  for (std::string_view name : Rules::preset_names()) {
    const Rules r = *Rules::preset(name);
    // Korean and Japanese rules agree on every option, so a value names the first preset it equals.
    ASSERT_TRUE(r.preset_name());
    EXPECT_EQ(*Rules::preset(*r.preset_name()), r);
    std::string error;
    const auto back = Rules::parse(r.to_string(), &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(*back, r) << r.to_string();
  }
}

TEST(Rules, ParseStartsFromAPresetAndOverrides) {
  const auto r = Rules::parse("japanese komi=0.5 ko=positional");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->scoring, ScoringRule::Territory);
  EXPECT_EQ(r->ko, KoRule::PositionalSuperko);
  EXPECT_EQ(r->komi, 0.5);
  EXPECT_FALSE(r->preset_name());
}

TEST(Rules, ParseErrorsNameTheProblem) {
  std::string error;
  EXPECT_FALSE(Rules::parse("ko=sometimes", &error));
  EXPECT_EQ(error, "bad value 'sometimes' for ko");
  EXPECT_FALSE(Rules::parse("komi=6.3", &error));
  EXPECT_EQ(error, "bad value '6.3' for komi");
  EXPECT_FALSE(Rules::parse("colour=red", &error));
  EXPECT_EQ(error, "unknown rules option 'colour'");
  EXPECT_FALSE(Rules::parse("klingon", &error));
  EXPECT_EQ(error, "unknown ruleset 'klingon'");
  EXPECT_FALSE(Rules::parse("", &error));
  EXPECT_EQ(error, "empty rules");
}

TEST(Result, SgfFormsRoundTrip) {
  for (const char* text : {"B+R", "W+T", "B+3.5", "W+0.5", "0", "B+F", "Void", "?"}) {
    const auto r = Result::parse_sgf(text);
    ASSERT_TRUE(r) << text;
    EXPECT_EQ(r->to_sgf(), text);
  }
  EXPECT_EQ(Result::score(-6.5).to_sgf(), "W+6.5");
  EXPECT_EQ(Result::score(0).to_sgf(), "0");
  EXPECT_EQ(Result::parse_sgf("W+Resign")->to_sgf(), "W+R");
  EXPECT_FALSE(Result::parse_sgf("B+"));
  EXPECT_FALSE(Result::parse_sgf("X+R"));
  EXPECT_FALSE(Result::parse_sgf("B+-3"));
}

}  // namespace
}  // namespace tengen
