// The ratings the hub keeps: what a finished game's result does to them.
#include "ratings/rating_book.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tengen
