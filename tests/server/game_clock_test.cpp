// The six time systems (docs/clocks.md) and lag compensation, on an injected steady time line.
#include "rooms/game_clock.h"

#include <gtest/gtest.h>

namespace tengen {
namespace {

using protocol::TimeControl;
using System = TimeControl::System;

const Steady t0{std::chrono::hours(1)};
Steady at(std::int64_t ms) {
  return t0 + Millis(ms);
}
constexpr Millis kNoLag{0};

// No lag credit at all, so that the systems' own arithmetic shows.
LagPolicy no_lag() {
  return LagPolicy{Millis(0), Millis(0), Millis(0), Millis(0)};
}

TimeControl absolute(std::int64_t main) {
  return {System::Absolute, main, 0, 0, 0, 0, 0, 0};
}
TimeControl simple(std::int64_t per_move) {
  return {System::Simple, 0, per_move, 0, 0, 0, 0, 0};
}
TimeControl fischer(std::int64_t main, std::int64_t inc, std::int64_t cap) {
  return {System::Fischer, main, 0, inc, cap, 0, 0, 0};
}
TimeControl byoyomi(std::int64_t main, int periods, std::int64_t period) {
  return {System::ByoYomi, main, 0, 0, 0, periods, period, 0};
}
TimeControl canadian(std::int64_t main, int stones, std::int64_t block) {
  return {System::Canadian, main, 0, 0, 0, 0, block, stones};
}

TEST(GameClock, NoneNeverFlags) {
  GameClock c({}, no_lag());
  c.start(Color::Black, t0);
  EXPECT_FALSE(c.flag_at());
  EXPECT_TRUE(c.charge(Color::Black, at(1'000'000'000), kNoLag).in_time);
}

TEST(GameClock, AbsoluteAcceptsAMoveExactlyAtZeroAndFlagsTheNextMillisecond) {
  GameClock c(absolute(10'000), no_lag());
  c.start(Color::Black, t0);
  EXPECT_EQ(c.flag_at(), at(10'001));
  EXPECT_EQ(c.left(Color::Black, at(4'000)).main_ms, 6'000);
  EXPECT_EQ(c.left(Color::White, at(4'000)).main_ms, 10'000);  // not running
  const auto charge = c.charge(Color::Black, at(10'000), kNoLag);
  EXPECT_TRUE(charge.in_time);
  EXPECT_EQ(c.left(Color::Black, at(10'000)).main_ms, 0);
  c.start(Color::White, at(10'000));
  EXPECT_FALSE(c.charge(Color::White, at(20'001), kNoLag).in_time);
}

TEST(GameClock, SimpleGivesAFreshAllowanceEachMove) {
  GameClock c(simple(5'000), no_lag());
  c.start(Color::Black, t0);
  EXPECT_TRUE(c.charge(Color::Black, at(5'000), kNoLag).in_time);
  c.start(Color::Black, at(6'000));
  EXPECT_EQ(c.left(Color::Black, at(7'000)).main_ms, 4'000);
  EXPECT_EQ(c.flag_at(), at(11'001));
  EXPECT_FALSE(c.charge(Color::Black, at(11'001), kNoLag).in_time);
}

TEST(GameClock, FischerAddsTheIncrementUpToTheCap) {
  GameClock c(fischer(10'000, 5'000, 12'000), no_lag());
  c.start(Color::Black, t0);
  c.charge(Color::Black, at(1'000), kNoLag);  // 9 s + 5 s, capped at 12 s
  EXPECT_EQ(c.left(Color::Black, at(1'000)).main_ms, 12'000);
  c.start(Color::Black, at(1'000));
  c.charge(Color::Black, at(9'000), kNoLag);  // 4 s + 5 s
  EXPECT_EQ(c.left(Color::Black, at(9'000)).main_ms, 9'000);
  c.start(Color::Black, at(9'000));
  EXPECT_EQ(c.flag_at(), at(18'001));  // the increment comes after the move, not before the flag
  EXPECT_FALSE(c.charge(Color::Black, at(18'001), kNoLag).in_time);
}

TEST(GameClock, FischerWithoutCapBanksEverything) {
  GameClock c(fischer(10'000, 5'000, 0), no_lag());
  for (int i = 0; i < 4; ++i) {
    c.start(Color::White, at(i * 1'000));
    c.charge(Color::White, at(i * 1'000), kNoLag);
  }
  EXPECT_EQ(c.left(Color::White, at(0)).main_ms, 30'000);
}

TEST(GameClock, ByoYomiKeepsAPeriodUsedWithinItAndLosesOneOverrun) {
  GameClock c(byoyomi(10'000, 3, 5'000), no_lag());
  c.start(Color::Black, t0);
  // Main time gone, then exactly one full period: the period is kept.
  EXPECT_TRUE(c.charge(Color::Black, at(15'000), kNoLag).in_time);
  auto left = c.left(Color::Black, at(15'000));
  EXPECT_EQ(left.main_ms, 0);
  EXPECT_EQ(left.periods, 3);
  EXPECT_EQ(left.period_ms, 5'000);
  // 7 s: the first period is used up, the move lands 2 s into the second.
  c.start(Color::Black, at(20'000));
  left = c.left(Color::Black, at(27'000));
  EXPECT_EQ(left.periods, 2);
  EXPECT_EQ(left.period_ms, 3'000);
  EXPECT_TRUE(c.charge(Color::Black, at(27'000), kNoLag).in_time);
  EXPECT_EQ(c.left(Color::Black, at(27'000)).periods, 2);
  // Two periods left: the flag falls 10 s into the turn, during the last period.
  c.start(Color::Black, at(30'000));
  EXPECT_EQ(c.flag_at(), at(40'001));
  EXPECT_EQ(c.left(Color::Black, at(36'000)).periods, 1);
  EXPECT_FALSE(c.charge(Color::Black, at(40'001), kNoLag).in_time);
}

TEST(GameClock, CanadianRefillsTheBlockAfterItsLastStone) {
  GameClock c(canadian(1'000, 2, 10'000), no_lag());
  c.start(Color::Black, t0);
  // 3 s: main time (1 s) runs out, 2 s come off the first block, and this move is its first stone.
  EXPECT_TRUE(c.charge(Color::Black, at(3'000), kNoLag).in_time);
  auto left = c.left(Color::Black, at(3'000));
  EXPECT_EQ(left.main_ms, 0);
  EXPECT_EQ(left.stones, 1);
  EXPECT_EQ(left.period_ms, 8'000);
  // The block's second stone, with exactly its 8 s: the block refills.
  c.start(Color::Black, at(3'000));
  EXPECT_TRUE(c.charge(Color::Black, at(11'000), kNoLag).in_time);
  left = c.left(Color::Black, at(11'000));
  EXPECT_EQ(left.stones, 2);
  EXPECT_EQ(left.period_ms, 10'000);
  // A block's time running out is a flag, whatever stones are left.
  c.start(Color::Black, at(11'000));
  EXPECT_EQ(c.flag_at(), at(21'001));
  EXPECT_FALSE(c.charge(Color::Black, at(21'001), kNoLag).in_time);
}

TEST(GameClock, LagIsCreditedFromAQuotaThatRefillsSlowly) {
  const LagPolicy lag{Millis(2'000), Millis(3'000), Millis(100), Millis(1'000)};
  GameClock c(absolute(60'000), lag);
  std::int64_t now = 0;
  std::vector<std::int64_t> credits;
  for (int i = 0; i < 4; ++i) {  // every move claims 1.5 s of lag
    c.start(Color::Black, at(now));
    now += 5'000;
    credits.push_back(c.charge(Color::Black, at(now), Millis(1'500)).lag_credit_ms);
  }
  // Capped at 1 s a move; the quota (2 s, +0.1 s a move) runs dry: 1000, 1000, 200, 100.
  EXPECT_EQ(credits, (std::vector<std::int64_t>{1'000, 1'000, 200, 100}));
  EXPECT_EQ(c.left(Color::Black, at(now)).main_ms, 60'000 - 4 * 5'000 + 2'300);
  // The flag allows for the credit a move could still get, and no more.
  c.start(Color::Black, at(now));
  EXPECT_EQ(c.flag_at(), at(now + c.left(Color::Black, at(now)).main_ms + 100 + 1));
}

TEST(GameClock, LagCreditCanSaveAMoveThatArrivesLate) {
  GameClock c(absolute(10'000));  // the default policy: up to 1 s a move
  c.start(Color::White, t0);
  const auto charge = c.charge(Color::White, at(10'400), Millis(600));
  EXPECT_TRUE(charge.in_time);
  EXPECT_EQ(charge.lag_credit_ms, 600);
  EXPECT_EQ(c.left(Color::White, at(10'400)).main_ms, 200);
}

}  // namespace
}  // namespace tengen
