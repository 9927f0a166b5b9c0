// The ratings the hub keeps: what a finished game's result does to them.
#include "ratings/rating_book.h"

#include <gtest/gtest.h>

#include "bots/house_bots.h"

namespace tengen {
namespace {

constexpr std::int64_t kDay = 24 * 3600 * 1000;

RatingBook::RatedGame even_game(std::int64_t id) {
  return {id, 1, 2, 0, 7.5, 7.5};
}

TEST(RatingBook, AWinMovesBothRatingsAndCountsTheGame) {
  RatingBook book;
  EXPECT_EQ(book.at(1, 0).rating, 1500);                                  // a newcomer
  const auto rows = book.rate(even_game(10), Result::score(-3.5), kDay);  // White wins
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].user_id, 1);
  EXPECT_EQ(rows[0].game_id, 10);
  EXPECT_EQ(rows[0].games, 1);
  EXPECT_LT(rows[0].rating, 1500);
  EXPECT_EQ(rows[1].user_id, 2);
  EXPECT_GT(rows[1].rating, 1500);
  EXPECT_EQ(book.at(2, kDay).rating, rows[1].rating);
  EXPECT_EQ(book.at(2, kDay).deviation, rows[1].deviation);
  EXPECT_GT(book.at(2, 400 * kDay).deviation, rows[1].deviation);  // grows with time away
  EXPECT_EQ(book.rate(even_game(11), Result::resignation(Color::Black), kDay)[0].games, 2);
}

TEST(RatingBook, AVoidGameChangesNothingAndJigoMovesTowardsEachOther) {
  RatingBook book;
  EXPECT_TRUE(book.rate(even_game(1), Result::void_game(), 0).empty());
  EXPECT_TRUE(book.rate(even_game(2), Result{}, 0).empty());  // no result
  EXPECT_EQ(book.at(1, 0).rating, 1500);
  book.load({{1, 1800, 60, 0.06, 30, 0}, {2, 1500, 60, 0.06, 30, 0}});
  const auto rows = book.rate(even_game(3), Result::score(0), 0);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_LT(rows[0].rating, 1800);  // the stronger player drew: down
  EXPECT_GT(rows[1].rating, 1500);
}

TEST(RatingBook, AHandicapIsAnAdvantageTheWinnerGetsLessFor) {
  RatingBook even, handicap;
  const auto plain = even.rate(even_game(1), Result::resignation(Color::Black), 0);
  const auto given = handicap.rate({1, 1, 2, 4, 0.5, 7.5}, Result::resignation(Color::Black), 0);
  EXPECT_LT(given[0].rating, plain[0].rating);
}

// The house bots once all showed a newcomer's 10k?, and the weakest rose above the strongest on
// its first wins: now each starts from its level, and keeps that start through a rebuild.
TEST(RatingBook, AHouseBotStartsFromItsLevelAndKeepsItThroughARebuild) {
  EXPECT_EQ(ratings::rank_name(house_bot_start(1).rating, house_bot_start(1).deviation), "14k?");
  EXPECT_EQ(ratings::rank_name(house_bot_start(5).rating, house_bot_start(5).deviation), "11k?");
  EXPECT_EQ(ratings::rank_name(house_bot_start(10).rating, house_bot_start(10).deviation), "8k?");
  const auto starts = house_bot_starts(default_house_bots());
  EXPECT_LT(starts.at("gnugo-easy").rating, starts.at("gnugo-medium").rating);
  EXPECT_LT(starts.at("gnugo-medium").rating, starts.at("gnugo-strong").rating);

  RatingBook book;
  const auto easy = house_bot_start(1);
  const auto row = book.seed(7, easy, kDay);
  ASSERT_TRUE(row) << "a row to write: 7 has no rating yet";
  EXPECT_EQ(row->rating, easy.rating);
  EXPECT_FALSE(book.seed(7, easy, 2 * kDay)) << "once";
  EXPECT_EQ(book.at(7, 400 * kDay).rating, easy.rating);
  EXPECT_EQ(book.at(7, 400 * kDay).deviation, 150) << "a seed has no game to age from";
  // Its first game is rated from the seed, not from 1500.
  const auto rows = book.rate({10, 7, 1, 0, 7.5, 7.5}, Result::resignation(Color::White), kDay);
  EXPECT_LT(rows[0].rating, easy.rating);
  EXPECT_GT(rows[0].rating, easy.rating - 150);
  // A rebuild from the games starts it where the seed says; one who played nothing keeps a row.
  store::GameSummary g{10,
                       R"({"rated":true,"komi":7.5,"ruleset":"chinese"})",
                       7,
                       1,
                       "gnugo-easy",
                       "ann",
                       0,
                       kDay,
                       "W+R",
                       "resignation",
                       12};
  const auto seeds = std::map<std::int64_t, ratings::Rating>{{7, easy}, {8, house_bot_start(10)}};
  const auto history = RatingBook::replay({g}, seeds);
  ASSERT_EQ(history.size(), 2u);
  EXPECT_DOUBLE_EQ(history[0].rating, rows[0].rating);
  const auto unplayed = RatingBook::unplayed_seeds(history, seeds, kDay);
  ASSERT_EQ(unplayed.size(), 1u);
  EXPECT_EQ(unplayed[0].user_id, 8);
  RatingBook rebuilt;
  rebuilt.seed(8, house_bot_start(10), kDay);
  rebuilt.replace(history);
  EXPECT_EQ(rebuilt.at(8, kDay).rating, house_bot_start(10).rating);
}

}  // namespace
}  // namespace tengen
