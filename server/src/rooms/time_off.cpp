// Weekends in a player's time zone, by Howard Hinnant's date library (Debian's
// libhowardhinnant-date-dev, reading the system's tz database): GCC 12's <chrono> has no time
// zones yet, and local midnights across daylight saving are what it exists for.
#include "rooms/time_off.h"

#include <date/tz.h>

#include <algorithm>
#include <chrono>

namespace tengen {
namespace {

using Ms = std::chrono::milliseconds;

const date::time_zone* zone_named(std::string_view name) {
  try {
    return date::locate_zone(name);
  } catch (const std::exception&) {
    return nullptr;
  }
}

const date::time_zone* zone_or_utc(const std::string& name) {
  static const date::time_zone* const utc = date::locate_zone("UTC");
  const auto* zone = zone_named(name);
  return zone ? zone : utc;
}

std::int64_t unix_ms_of(const date::time_zone* zone, date::local_days day) {
  // A local midnight that does not exist (a zone that springs forward at 00:00) is the
  // transition's instant; one that happens twice is its first.
  const auto instant = zone->to_sys(day, date::choose::earliest);
  return std::chrono::duration_cast<Ms>(instant.time_since_epoch()).count();
}

}  // namespace

bool known_time_zone(std::string_view name) {
  return !name.empty() && zone_named(name);
}

TimeOff::TimeOff(Calendar calendar, bool weekends)
    : calendar_(std::move(calendar)), weekends_(weekends) {}

std::vector<Span> TimeOff::spans(std::int64_t from, std::int64_t to) const {
  auto out = weekends(from, to);
  if (to <= from) return out;
  for (const Span& v : calendar_.vacations) {
    if (v.from < to && v.to > from) out.push_back(v);
  }
  if (out.size() < 2) return out;
  std::sort(out.begin(), out.end(), [](const Span& a, const Span& b) { return a.from < b.from; });
  // A vacation over a weekend, or just before or after one, is one span of time off.
  std::vector<Span> merged{out.front()};
  for (std::size_t i = 1; i < out.size(); ++i) {
    if (out[i].from <= merged.back().to) {
      merged.back().to = std::max(merged.back().to, out[i].to);
    } else {
      merged.push_back(out[i]);
    }
  }
  return merged;
}

bool TimeOff::on_vacation(std::int64_t at) const {
  return std::any_of(calendar_.vacations.begin(), calendar_.vacations.end(),
                     [&](const Span& v) { return v.from <= at && at < v.to; });
}

std::vector<Span> TimeOff::weekends(std::int64_t from, std::int64_t to) const {
  std::vector<Span> out;
  if (!weekends_ || to <= from) return out;
  const auto* zone = zone_or_utc(calendar_.zone);
  const auto local = zone->to_local(date::sys_time<Ms>(Ms(from)));
  const auto day = date::floor<date::days>(local);
  const date::weekday weekday{day};
  // The Saturday of the weekend `from` is in, or of the next one.
  auto saturday = weekday == date::Sunday ? day - date::days{1} : day + (date::Saturday - weekday);
  for (;; saturday += date::weeks{1}) {
    const Span weekend{unix_ms_of(zone, saturday), unix_ms_of(zone, saturday + date::days{2})};
    if (weekend.from >= to) break;
    if (weekend.to > from) out.push_back(weekend);
  }
  return out;
}

std::int64_t TimeOff::within(std::int64_t from, std::int64_t to) const {
  std::int64_t off = 0;
  for (const Span& s : spans(from, to)) off += std::min(s.to, to) - std::max(s.from, from);
  return off;
}

std::int64_t TimeOff::after_active(std::int64_t from, std::int64_t active) const {
  std::int64_t at = from;
  std::int64_t left = std::max<std::int64_t>(0, active);
  for (;;) {
    const auto off = spans(at, at + left + 1);
    if (off.empty()) return at + left;
    const Span& next = off.front();
    if (next.from > at) {                            // counting until it begins
      if (next.from >= at + left) return at + left;  // done before, or just as, it begins
      left -= next.from - at;
    }
    at = next.to;
  }
}

Calendar Calendars::of(std::int64_t user) {
  std::uint64_t generation = 0;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = known_.find(user); it != known_.end()) return it->second;
    generation = generation_;
  }
  auto calendar = lookup_ ? lookup_(user) : Calendar{};  // the store, off the lock
  std::lock_guard lock(mutex_);
  // Kept unless a change was announced meanwhile (what was read may be older than it).
  if (generation == generation_) known_.emplace(user, calendar);
  return calendar;
}

void Calendars::forget(std::int64_t user) {
  std::lock_guard lock(mutex_);
  known_.erase(user);
  ++generation_;
}

TimeOff GameTimeOff::of(Color c) const {
  auto calendar = calendars_.of(c == Color::Black ? black_ : white_);
  if (!vacations_) calendar.vacations.clear();
  return TimeOff(std::move(calendar), weekends_);
}

bool GameTimeOff::on_vacation(Color c, Steady at) const {
  return of(c).on_vacation(unix_of(at));
}

std::int64_t GameTimeOff::off_within(Color c, Steady from, Steady to) const {
  return of(c).within(unix_of(from), unix_of(to));
}

Steady GameTimeOff::after_active(Color c, Steady from, std::int64_t active) const {
  return steady_anchor_ + Millis(of(c).after_active(unix_of(from), active) - unix_anchor_);
}

}  // namespace tengen
