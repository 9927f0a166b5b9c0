// Correspondence clocks (docs/correspondence.md): weekends in each player's time zone, daylight
// saving included, vacations, and the correspondence time system's bank, on fixed instants. The
// instants were computed independently (Python's zoneinfo on the same tz database).
#include "rooms/time_off.h"

#include <gtest/gtest.h>

#include "accounts/vacation.h"
#include "rooms/game_clock.h"

namespace tengen {
namespace {

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kDay = 24 * kHour;
// Wednesday 18 November 2026, 11:06:40 UTC (the tests' manual clock starts here).
constexpr std::int64_t kWednesday = 1'795'000'000'000;
// Saturday 21 and Monday 23 November 2026, 00:00 UTC.
constexpr std::int64_t kSaturdayUtc = 1'795'219'200'000;
constexpr std::int64_t kMondayUtc = 1'795'392'000'000;
// The same local midnights in Auckland (UTC+13 in November) and Amsterdam (UTC+1).
constexpr std::int64_t kSaturdayAuckland = 1'795'172'400'000;
constexpr std::int64_t kMondayAuckland = 1'795'345'200'000;
constexpr std::int64_t kSaturdayAmsterdam = 1'795'215'600'000;
constexpr std::int64_t kMondayAmsterdam = 1'795'388'400'000;

TEST(TimeOff, TheServerKnowsTheIanaZonesAndNothingElse) {
  EXPECT_TRUE(known_time_zone("UTC"));
  EXPECT_TRUE(known_time_zone("Europe/Amsterdam"));
  EXPECT_TRUE(known_time_zone("America/Argentina/Buenos_Aires"));
  EXPECT_FALSE(known_time_zone(""));
  EXPECT_FALSE(known_time_zone("Mars/Olympus_Mons"));
  EXPECT_FALSE(known_time_zone("europe/amsterdam"));
  EXPECT_FALSE(known_time_zone("../../etc/passwd"));
}

TEST(TimeOff, AWeekendRunsFromSaturdayToMondayMidnightInThePlayersZone) {
  EXPECT_EQ(TimeOff({"UTC"}, true).spans(kWednesday, kWednesday + 7 * kDay),
            (std::vector<Span>{{kSaturdayUtc, kMondayUtc}}));
  EXPECT_EQ(TimeOff({"Pacific/Auckland"}, true).spans(kWednesday, kWednesday + 7 * kDay),
            (std::vector<Span>{{kSaturdayAuckland, kMondayAuckland}}));
  EXPECT_EQ(TimeOff({"Europe/Amsterdam"}, true).spans(kWednesday, kWednesday + 7 * kDay),
            (std::vector<Span>{{kSaturdayAmsterdam, kMondayAmsterdam}}));
  // From inside a weekend, that weekend whole; two weeks, two weekends of 48 hours.
  EXPECT_EQ(TimeOff({"UTC"}, true).spans(kSaturdayUtc + kHour, kSaturdayUtc + 2 * kHour),
            (std::vector<Span>{{kSaturdayUtc, kMondayUtc}}));
  EXPECT_EQ(TimeOff({"UTC"}, true).within(kWednesday, kWednesday + 14 * kDay), 96 * kHour);
  EXPECT_EQ(TimeOff({"UTC"}, true).within(kSaturdayUtc + kHour, kMondayUtc + kHour), 47 * kHour);
  // Without weekends off (or an empty span) there is no time off.
  EXPECT_TRUE(TimeOff({"UTC"}, false).spans(kWednesday, kWednesday + 30 * kDay).empty());
  EXPECT_EQ(TimeOff({"UTC"}, true).within(kSaturdayUtc, kSaturdayUtc), 0);
  // A zone the server does not know counts as UTC.
  EXPECT_EQ(TimeOff({"Mars/Olympus_Mons"}, true).spans(kWednesday, kWednesday + 7 * kDay),
            (std::vector<Span>{{kSaturdayUtc, kMondayUtc}}));
}

TEST(TimeOff, DaylightSavingMakesAWeekendAnHourShorterOrLonger) {
  // Amsterdam springs forward on Sunday 29 March 2026 and falls back on Sunday 25 October.
  const TimeOff amsterdam({"Europe/Amsterdam"}, true);
  const std::int64_t saturday_march = 1'774'652'400'000;
  const std::int64_t saturday_october = 1'792'792'800'000;
  EXPECT_EQ(amsterdam.spans(saturday_march - kDay, saturday_march),
            (std::vector<Span>{}));  // the span ends as the weekend begins
  EXPECT_EQ(amsterdam.spans(saturday_march - kDay, saturday_march + 1),
            (std::vector<Span>{{saturday_march, 1'774'821'600'000}}));
  EXPECT_EQ(amsterdam.within(saturday_march, saturday_march + 3 * kDay), 47 * kHour);
  EXPECT_EQ(amsterdam.within(saturday_october, saturday_october + 3 * kDay), 49 * kHour);
}

TEST(TimeOff, ActiveTimeSkipsTheWeekend) {
  const TimeOff utc({"UTC"}, true);
  // Friday 20:00 UTC and six hours to go: four before the weekend, two after it.
  const std::int64_t friday_evening = kSaturdayUtc - 4 * kHour;
  EXPECT_EQ(utc.after_active(friday_evening, 6 * kHour), kMondayUtc + 2 * kHour);
  EXPECT_EQ(utc.after_active(friday_evening, 4 * kHour), kSaturdayUtc) << "done as it begins";
  EXPECT_EQ(utc.after_active(friday_evening, 4 * kHour + 1), kMondayUtc + 1);
  // Begun during a weekend: nothing counts until Monday.
  EXPECT_EQ(utc.after_active(kSaturdayUtc + 5 * kHour, kHour), kMondayUtc + kHour);
  // Twelve days from Wednesday: two weekends skipped.
  EXPECT_EQ(utc.after_active(kWednesday, 12 * kDay), kWednesday + 16 * kDay);
  EXPECT_EQ(utc.within(kWednesday, utc.after_active(kWednesday, 12 * kDay)), 4 * kDay);
  EXPECT_EQ(TimeOff({"UTC"}, false).after_active(kWednesday, 12 * kDay), kWednesday + 12 * kDay);
  EXPECT_EQ(utc.after_active(kSaturdayUtc + kHour, 0), kMondayUtc);
  EXPECT_EQ(utc.after_active(kWednesday, 0), kWednesday);
}

// ---- the correspondence time system ----

using protocol::TimeControl;
using System = TimeControl::System;

LagPolicy no_lag() {
  return LagPolicy{Millis(0), Millis(0), Millis(0), Millis(0)};
}
TimeControl correspondence(std::int64_t per_move, std::int64_t bank, bool weekends = false) {
  TimeControl t;
  t.system = System::Correspondence;
  t.per_move_ms = per_move;
  t.max_ms = bank;
  t.weekends_off = weekends;
  return t;
}
const Steady t0{std::chrono::hours(1)};
Steady at(std::int64_t ms) {
  return t0 + Millis(ms);
}

TEST(CorrespondenceClock, WithoutABankEveryMoveHasTheSameDays) {
  GameClock c(correspondence(3 * kDay, 0), no_lag());
  EXPECT_EQ(c.kept(Color::Black).main_ms, 3 * kDay);
  c.start(Color::Black, at(0));
  EXPECT_TRUE(c.charge(Color::Black, at(kDay), Millis(0)).in_time);
  EXPECT_EQ(c.kept(Color::Black).main_ms, 3 * kDay) << "nothing carries over";
  c.start(Color::Black, at(kDay));
  EXPECT_EQ(c.flag_at(), at(4 * kDay + 1));
  EXPECT_FALSE(c.charge(Color::Black, at(4 * kDay + 1), Millis(0)).in_time);
}

TEST(CorrespondenceClock, ABankKeepsWhatIsLeftUpToItsCap) {
  GameClock c(correspondence(3 * kDay, 10 * kDay), no_lag());
  c.start(Color::Black, at(0));
  c.charge(Color::Black, at(kDay), Millis(0));
  EXPECT_EQ(c.kept(Color::Black).main_ms, 5 * kDay) << "3 - 1 + 3 days";
  c.start(Color::Black, at(kDay));
  c.charge(Color::Black, at(kDay + kHour), Millis(0));
  c.start(Color::Black, at(kDay + kHour));
  c.charge(Color::Black, at(kDay + 2 * kHour), Millis(0));
  EXPECT_EQ(c.kept(Color::Black).main_ms, 10 * kDay) << "capped at the bank";
}

// The clock with players' weekends: the steady line is tied to Wednesday 11:06:40 UTC.
TEST(CorrespondenceClock, EachPlayersWeekendStopsOnlyTheirOwnClock) {
  std::map<std::int64_t, std::string> zones{{1, "UTC"}, {2, "Pacific/Auckland"}};
  Calendars known([&](std::int64_t user) { return Calendar{zones.at(user)}; });
  std::int64_t black = 2;  // the seats as a room holds them, before the nigiri swaps them
  std::int64_t white = 1;
  const GameTimeOff off(known, black, white, true, true, t0, kWednesday);
  std::swap(black, white);
  GameClock c(correspondence(2 * kDay, 0, true), no_lag());
  c.set_time_off(&off);
  // Black (UTC) to move on Wednesday with two days: Friday 11:06:40, before their weekend.
  c.start(Color::Black, at(0));
  EXPECT_EQ(c.flag_at(), at(2 * kDay + 1));
  // White (Auckland, whose weekend begins Friday 11:00 UTC) needs Sunday for the last minutes.
  c.start(Color::White, at(0));
  const std::int64_t before = kSaturdayAuckland - kWednesday;  // active until then
  EXPECT_EQ(c.flag_at(), at(kMondayAuckland - kWednesday + (2 * kDay - before) + 1));
  EXPECT_TRUE(off.off_within(Color::White, at(before), at(before + 1)) > 0);
  EXPECT_FALSE(off.off_within(Color::Black, at(before), at(before + 1)) > 0);
  EXPECT_EQ(c.stands_until(at(before)), at(kMondayAuckland - kWednesday));
  // What White has left stands still over their weekend.
  EXPECT_EQ(c.left(Color::White, at(before)).main_ms, 2 * kDay - before);
  EXPECT_EQ(c.left(Color::White, at(kMondayAuckland - kWednesday)).main_ms, 2 * kDay - before);
  // A move on their Sunday (UTC Saturday) is charged the active time only.
  const auto charged = c.charge(Color::White, at(kSaturdayUtc - kWednesday + kHour), Millis(0));
  EXPECT_TRUE(charged.in_time);
  EXPECT_EQ(charged.used_ms, before);
  // The zone changes: forgotten and read again.
  zones[1] = "Pacific/Auckland";
  known.forget(1);
  c.start(Color::Black, at(0));
  EXPECT_EQ(c.flag_at(), at(kMondayAuckland - kWednesday + (2 * kDay - before) + 1));
}

// Vacations join weekends: one that runs into a weekend, or begins as one ends, is one stretch.
TEST(TimeOff, VacationsJoinWeekends) {
  // Thursday 00:00 UTC to the Saturday noon, then the weekend to Monday 00:00.
  const std::int64_t thursday = kSaturdayUtc - 2 * kDay;
  const TimeOff away({"UTC", {{thursday, kSaturdayUtc + 12 * kHour}}}, true);
  EXPECT_EQ(away.spans(kWednesday, kWednesday + 7 * kDay),
            (std::vector<Span>{{thursday, kMondayUtc}}));
  EXPECT_EQ(away.within(kWednesday, kMondayUtc + kHour), 4 * kDay);
  EXPECT_TRUE(away.on_vacation(thursday));
  EXPECT_FALSE(away.on_vacation(kSaturdayUtc + 12 * kHour)) << "a weekend, not a vacation";
  // A game without weekends off still stops for the vacation alone.
  const TimeOff weekdays({"UTC", {{thursday, kSaturdayUtc + 12 * kHour}}}, false);
  EXPECT_EQ(weekdays.within(kWednesday, kMondayUtc), 2 * kDay + 12 * kHour);
  // Active time skips both: a day from Wednesday noon is Monday noon (half a day before Thursday,
  // half after the weekend).
  const std::int64_t wednesday_noon = thursday - 12 * kHour;
  EXPECT_EQ(away.after_active(wednesday_noon, kDay), kMondayUtc + 12 * kHour);
  // A vacation that begins when the weekend ends carries the stop on.
  const TimeOff after({"UTC", {{kMondayUtc, kMondayUtc + kDay}}}, true);
  EXPECT_EQ(after.after_active(kSaturdayUtc + kHour, 0), kMondayUtc + kDay);
  EXPECT_EQ(after.spans(kSaturdayUtc, kSaturdayUtc + kHour),
            (std::vector<Span>{{kSaturdayUtc, kMondayUtc}}))
      << "only what meets the window is merged";
}

// A vacation stops only the vacationer's clock, in their games without weekends off too.
TEST(CorrespondenceClock, AVacationStopsTheVacationersClock) {
  std::map<std::int64_t, Calendar> calendars{{1, {"UTC"}}, {2, {"UTC"}}};
  Calendars known([&](std::int64_t user) { return calendars.at(user); });
  std::int64_t black = 1;
  std::int64_t white = 2;
  const GameTimeOff off(known, black, white, false, true, t0, kWednesday);
  GameClock c(correspondence(2 * kDay, 0, false), no_lag());
  c.set_time_off(&off);
  c.start(Color::Black, at(0));
  EXPECT_EQ(c.flag_at(), at(2 * kDay + 1));
  // Black takes three days off an hour into the turn: the flag moves by three days.
  calendars[1].vacations = {{kWednesday + kHour, kWednesday + kHour + 3 * kDay}};
  known.forget(1);
  EXPECT_EQ(c.flag_at(), at(5 * kDay + 1));
  EXPECT_TRUE(c.on_vacation(at(2 * kHour)));
  EXPECT_EQ(c.stands_until(at(2 * kHour)), at(kHour + 3 * kDay));
  EXPECT_EQ(c.left(Color::Black, at(2 * kDay)).main_ms, 2 * kDay - kHour);
  // White's clock is not stopped by Black's vacation.
  c.start(Color::White, at(2 * kHour));
  EXPECT_FALSE(c.on_vacation(at(3 * kHour)));
  EXPECT_EQ(c.flag_at(), at(2 * kHour + 2 * kDay + 1));
  // Ended early (the span shortened): the flag comes back.
  c.start(Color::Black, at(0));
  calendars[1].vacations = {{kWednesday + kHour, kWednesday + 2 * kHour}};
  known.forget(1);
  EXPECT_EQ(c.flag_at(), at(2 * kDay + kHour + 1));
}

// The vacation days a player has (accounts/vacation.h).
TEST(VacationPolicy, AccruesADayEveryTwelveUpToThirty) {
  using P = VacationPolicy;
  constexpr std::int64_t created = 1'700'000'000'000;
  EXPECT_EQ(P::left(std::nullopt, created, created), 7 * kDay) << "a new account's";
  EXPECT_EQ(P::left(std::nullopt, created, created + 12 * kDay), 8 * kDay);
  EXPECT_EQ(P::left(std::nullopt, created, created + 6 * kDay), 7 * kDay + 12 * kHour);
  EXPECT_EQ(P::left(std::nullopt, created, created + 3650 * kDay), 30 * kDay) << "capped";
  // While away (the balance as of the planned end): nothing accrues until it ends.
  const store::VacationBalance away{0, created + 5 * kDay};
  EXPECT_EQ(P::left(away, created, created + kDay), 0);
  EXPECT_EQ(P::left(away, created, created + 17 * kDay), kDay);
  // Before the account existed (a clock set back): what it started with.
  EXPECT_EQ(P::left(std::nullopt, created, created - kDay), 7 * kDay);
}

}  // namespace
}  // namespace tengen
