#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "calendar.h"
#include "rooms/game_clock.h"

namespace tengen {

// Whether the server's time zone database (the system's, /usr/share/zoneinfo) knows `name`, an
// IANA name such as "Europe/Amsterdam" or "UTC".
bool known_time_zone(std::string_view name);

// The time that does not count against one player's clock in a correspondence game
// (docs/correspondence.md): their weekends, Saturday 00:00 to Monday 00:00 in their own time zone
// (daylight saving included), when the game has weekends off; and their vacations, in every
// correspondence game. Pure: the date library's arithmetic on Unix milliseconds; an unknown zone
// counts as UTC.
class TimeOff {
 public:
  TimeOff(Calendar calendar, bool weekends);

  // The spans of time off that meet [from, to), merged and in order, each whole (it may begin
  // before `from` or end after `to`).
  std::vector<Span> spans(std::int64_t from, std::int64_t to) const;
  // How much of [from, to) is time off.
  std::int64_t within(std::int64_t from, std::int64_t to) const;
  // The instant at which `active` milliseconds that are not time off have passed since `from`
  // (with none: when the time off `from` is in ends, or `from` itself).
  std::int64_t after_active(std::int64_t from, std::int64_t active) const;
  // Whether `at` is in one of the player's vacations.
  bool on_vacation(std::int64_t at) const;

 private:
  std::vector<Span> weekends(std::int64_t from, std::int64_t to) const;

  Calendar calendar_;
  bool weekends_;
};

// The players' calendars as the centre knows them: each read from the accounts the first time a
// correspondence game asks, and again after the player changes their zone or takes or ends a
// vacation (forget). Safe from any thread.
class Calendars {
 public:
  using Lookup = std::function<Calendar(std::int64_t user)>;
  explicit Calendars(Lookup lookup) : lookup_(std::move(lookup)) {}

  Calendar of(std::int64_t user);
  void forget(std::int64_t user);

 private:
  Lookup lookup_;
  std::mutex mutex_;
  std::map<std::int64_t, Calendar> known_;
  std::uint64_t generation_ = 0;  // forget()s so far
};

// One correspondence game's time off, for its clock: each colour's player's weekends (when the
// game has weekends off) in their current time zone, and their vacations (unless a tournament's
// pause policy says they do not count). `black` and `white` are
// the room's own ids, read at each call (a nigiri may swap the seats after the room is made). The
// steady clock is related to Unix time by one pair of readings (`steady_anchor`, `unix_anchor`),
// taken by the centre at its start.
class GameTimeOff final : public TimeOffSource {
 public:
  GameTimeOff(Calendars& calendars, const std::int64_t& black, const std::int64_t& white,
              bool weekends, bool vacations, Steady steady_anchor, std::int64_t unix_anchor)
      : calendars_(calendars),
        black_(black),
        white_(white),
        weekends_(weekends),
        vacations_(vacations),
        steady_anchor_(steady_anchor),
        unix_anchor_(unix_anchor) {}

  std::int64_t off_within(Color c, Steady from, Steady to) const override;
  Steady after_active(Color c, Steady from, std::int64_t active) const override;
  bool on_vacation(Color c, Steady at) const override;

 private:
  TimeOff of(Color c) const;
  std::int64_t unix_of(Steady t) const { return unix_anchor_ + ms_between(steady_anchor_, t); }

  Calendars& calendars_;
  const std::int64_t& black_;
  const std::int64_t& white_;
  bool weekends_;
  bool vacations_;
  Steady steady_anchor_;
  std::int64_t unix_anchor_;
};

}  // namespace tengen
