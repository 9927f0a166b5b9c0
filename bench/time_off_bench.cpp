// What a correspondence clock's weekends cost (docs/correspondence.md). A room asks its clock when
// the flag falls after every command and every deadline (Room::next_deadline), and charges a move
// with the time that counted; with weekends off both go through the players' time zones.
//
//   build/bench/bench/time_off_bench [--benchmark_filter=...]
//
// BM_FlagAt/N: GameClock::flag_at for a turn of N days a move, weekends off in Europe/Amsterdam
// (N/7 weekends to skip). BM_Charge/N: a move made after N days. BM_FlagAtWithoutWeekends/N: the
// same clock with no time off, for comparison. BM_FlagAtWithVacations/V: a 14-day turn with
// weekends off and V vacations of the player's (a day each, a week apart) to skip as well.
#include <benchmark/benchmark.h>

#include "rooms/game_clock.h"
#include "rooms/time_off.h"

namespace {

using namespace tengen;

constexpr std::int64_t kDay = 86'400'000;
constexpr std::int64_t kWednesday = 1'795'000'000'000;  // 18 November 2026, 11:06:40 UTC
const Steady t0{std::chrono::hours(1)};

protocol::TimeControl days(std::int64_t n, bool weekends) {
  protocol::TimeControl t;
  t.system = protocol::TimeControl::System::Correspondence;
  t.per_move_ms = n * kDay;
  t.weekends_off = weekends;
  return t;
}

// `vacations` one-day vacations, the first on the turn's second day, a week apart.
Calendar calendar(int vacations) {
  Calendar c{"Europe/Amsterdam"};
  for (int i = 0; i < vacations; ++i) {
    const std::int64_t from = kWednesday + kDay + i * 7 * kDay;
    c.vacations.push_back({from, from + kDay});
  }
  return c;
}

struct Fixture {
  explicit Fixture(std::int64_t n, bool weekends, int vacations = 0)
      : zones([vacations](std::int64_t) { return calendar(vacations); }),
        off(zones, black, white, true, true, t0, kWednesday),
        clock(days(n, weekends)) {
    if (weekends) clock.set_time_off(&off);
    zones.of(black);  // read once, as the hub does
    clock.start(Color::Black, t0);
  }
  std::int64_t black = 1;
  std::int64_t white = 2;
  Calendars zones;
  GameTimeOff off;
  GameClock clock;
};

void BM_FlagAt(benchmark::State& state) {
  Fixture f(state.range(0), true);
  for (auto _ : state) benchmark::DoNotOptimize(f.clock.flag_at());
}
BENCHMARK(BM_FlagAt)->Arg(1)->Arg(3)->Arg(14)->Arg(30);

void BM_FlagAtWithoutWeekends(benchmark::State& state) {
  Fixture f(state.range(0), false);
  for (auto _ : state) benchmark::DoNotOptimize(f.clock.flag_at());
}
BENCHMARK(BM_FlagAtWithoutWeekends)->Arg(3);

void BM_FlagAtWithVacations(benchmark::State& state) {
  Fixture f(14, true, static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(f.clock.flag_at());
}
BENCHMARK(BM_FlagAtWithVacations)->Arg(0)->Arg(1)->Arg(3);

void BM_Charge(benchmark::State& state) {
  Fixture f(state.range(0) + 30, true);  // a long allowance: every move is in time
  const Steady moved = t0 + Millis(state.range(0) * kDay);
  for (auto _ : state) {
    f.clock.start(Color::Black, t0);
    benchmark::DoNotOptimize(f.clock.charge(Color::Black, moved, Millis(0)));
  }
}
BENCHMARK(BM_Charge)->Arg(1)->Arg(3)->Arg(14)->Arg(30);

}  // namespace

BENCHMARK_MAIN();
