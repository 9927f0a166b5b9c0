#include "rooms/game_clock.h"

#include <algorithm>

namespace tengen {
namespace {

using System = protocol::TimeControl::System;

// The time a turn took so far (never negative).
std::int64_t elapsed_since(Steady from, Steady to) {
  return std::max<std::int64_t>(0, ms_between(from, to));
}

}  // namespace

GameClock::GameClock(const protocol::TimeControl& control, LagPolicy lag)
    : control_(control), lag_(lag) {
  PlayerTime initial;
  initial.lag_quota_ms = lag_.quota_start.count();
  switch (control_.system) {
    case System::None:
      break;
    case System::Absolute:
    case System::Fischer:
      initial.main_ms = control_.main_ms;
      break;
    case System::Simple:
    case System::Correspondence:
      initial.main_ms = control_.per_move_ms;
      break;
    case System::ByoYomi:
      initial.main_ms = control_.main_ms;
      initial.periods = control_.periods;
      initial.period_ms = control_.period_ms;
      break;
    case System::Canadian:
      initial.main_ms = control_.main_ms;
      initial.stones = control_.stones;
      initial.period_ms = control_.period_ms;
      break;
  }
  time_[index_of(Color::Black)] = initial;
  time_[index_of(Color::White)] = initial;
}

std::int64_t GameClock::counted(Color c, Steady from, Steady to) const {
  const std::int64_t elapsed = elapsed_since(from, to);
  if (!time_off_ || elapsed == 0) return elapsed;
  return std::max<std::int64_t>(0, elapsed - time_off_->off_within(c, from, to));
}

std::optional<Steady> GameClock::stands_until(Steady now) const {
  if (!time_off_ || !running_) return std::nullopt;
  const Steady resumes = time_off_->after_active(*running_, now, 0);
  if (resumes <= now) return std::nullopt;
  return resumes;
}

void GameClock::start(Color c, Steady now) {
  running_ = c;
  turn_start_ = now;
}

std::int64_t GameClock::available(const PlayerTime& t) const {
  switch (control_.system) {
    case System::None:
      return INT64_MAX;
    case System::ByoYomi:
      return t.main_ms + t.periods * control_.period_ms;
    case System::Canadian:
      return t.main_ms + t.period_ms;
    default:
      return t.main_ms;
  }
}

int GameClock::periods_overrun(std::int64_t over) const {
  // A move inside a period keeps it (exactly at its end included); each overrun uses one up.
  return over <= 0 ? 0 : static_cast<int>((over - 1) / control_.period_ms);
}

void GameClock::spend(PlayerTime& t, std::int64_t used) const {
  switch (control_.system) {
    case System::None:
    case System::Simple:
      return;  // simple: a fresh allowance every move
    case System::Absolute:
      t.main_ms -= used;
      return;
    case System::Fischer:
      t.main_ms = t.main_ms - used + control_.increment_ms;
      if (control_.max_ms > 0) t.main_ms = std::min(t.main_ms, control_.max_ms);
      return;
    case System::Correspondence:  // without a bank, a fresh allowance every move
      t.main_ms = control_.max_ms > 0
                      ? std::min(t.main_ms - used + control_.per_move_ms, control_.max_ms)
                      : control_.per_move_ms;
      return;
    case System::ByoYomi: {
      if (used <= t.main_ms) {
        t.main_ms -= used;
        return;
      }
      t.periods -= periods_overrun(used - t.main_ms);
      t.main_ms = 0;
      t.period_ms = control_.period_ms;
      return;
    }
    case System::Canadian: {
      if (t.main_ms > 0 && used <= t.main_ms) {
        t.main_ms -= used;
        return;
      }
      // Main time ran out during this move (or already had): it counts as a stone of the block.
      t.period_ms -= used - t.main_ms;
      t.main_ms = 0;
      if (--t.stones == 0) {
        t.stones = control_.stones;
        t.period_ms = control_.period_ms;
      }
      return;
    }
  }
}

GameClock::Charge GameClock::charge(Color c, Steady now, Millis measured_lag) {
  PlayerTime& t = time_[index_of(c)];
  const std::int64_t elapsed = running_ == c ? counted(c, turn_start_, now) : 0;
  running_.reset();
  Charge result;
  result.lag_credit_ms = std::max<std::int64_t>(
      0, std::min({measured_lag.count(), lag_.max_per_move.count(), t.lag_quota_ms, elapsed}));
  t.lag_quota_ms = std::min(t.lag_quota_ms - result.lag_credit_ms + lag_.gain_per_move.count(),
                            lag_.quota_max.count());
  result.used_ms = elapsed - result.lag_credit_ms;
  if (!timed()) return result;
  if (result.used_ms > available(t)) {
    result.in_time = false;
    t.main_ms = 0;
    t.periods = 0;
    t.period_ms = 0;
    return result;
  }
  spend(t, result.used_ms);
  return result;
}

std::optional<Steady> GameClock::flag_at() const {
  if (!timed() || !running_) return std::nullopt;
  const PlayerTime& t = time_[index_of(*running_)];
  const std::int64_t grace = std::min(lag_.max_per_move.count(), t.lag_quota_ms);
  if (time_off_) return time_off_->after_active(*running_, turn_start_, available(t) + grace + 1);
  return turn_start_ + Millis(available(t) + grace + 1);
}

PlayerTime GameClock::left(Color c, Steady now) const {
  PlayerTime t = time_[index_of(c)];
  if (!timed() || running_ != c) return t;
  const std::int64_t elapsed = counted(c, turn_start_, now);
  if (elapsed >= available(t)) {
    t.main_ms = 0;
    t.period_ms = 0;
    if (control_.system == System::ByoYomi) t.periods = 0;
    return t;
  }
  switch (control_.system) {
    case System::ByoYomi: {
      if (elapsed <= t.main_ms) {
        t.main_ms -= elapsed;
        break;
      }
      const std::int64_t over = elapsed - t.main_ms;
      const int overrun = periods_overrun(over);
      t.main_ms = 0;
      t.periods -= overrun;
      t.period_ms = control_.period_ms - (over - overrun * control_.period_ms);
      break;
    }
    case System::Canadian:
      if (elapsed <= t.main_ms) {
        t.main_ms -= elapsed;
      } else {
        t.period_ms -= elapsed - t.main_ms;
        t.main_ms = 0;
      }
      break;
    default:
      t.main_ms -= elapsed;
      break;
  }
  return t;
}

}  // namespace tengen
