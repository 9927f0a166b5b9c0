#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>

#include "engine/color.h"
#include "protocol/settings.h"

namespace tengen {

using Steady = std::chrono::steady_clock::time_point;
using Millis = std::chrono::milliseconds;

// Whole milliseconds from one time to another (negative if `to` comes first).
inline std::int64_t ms_between(Steady from, Steady to) {
  return std::chrono::duration_cast<Millis>(to - from).count();
}

// Lag compensation (docs/clocks.md), after lichess: each player has a quota of lag credit. A move
// is credited with the network lag measured for it, at most `max_per_move` and at most what is left
// of the quota; every move then refills the quota by `gain_per_move`, up to `quota_max`. So a slow
// network does not burn a player's time, and nobody can claim unlimited lag.
struct LagPolicy {
  Millis quota_start{2000};
  Millis quota_max{3000};
  Millis gain_per_move{100};
  Millis max_per_move{1000};
};

// Time that does not count against a player's clock, on the steady clock: a correspondence
// game's weekends and the players' vacations (docs/correspondence.md). The room's owner provides
// it.
class TimeOffSource {
 public:
  virtual ~TimeOffSource() = default;
  // How much of [from, to) is time off for `c`.
  virtual std::int64_t off_within(Color c, Steady from, Steady to) const = 0;
  // The instant at which `active` milliseconds that count have passed for `c` since `from`.
  virtual Steady after_active(Color c, Steady from, std::int64_t active) const = 0;
  // Whether `c` is on vacation at `at` (rather than in a weekend).
  virtual bool on_vacation(Color c, Steady at) const = 0;
};

// What one player has left, between moves or as of an instant within a turn.
struct PlayerTime {
  std::int64_t main_ms = 0;  // absolute, fischer, byo-yomi and canadian main time; simple: per move
  int periods = 0;           // byo-yomi: periods left
  std::int64_t period_ms = 0;  // byo-yomi: time left in the current period; canadian: in the block
  int stones = 0;              // canadian: stones still to play in the block
  std::int64_t lag_quota_ms = 0;

  friend bool operator==(const PlayerTime&, const PlayerTime&) = default;
};

// A game's two clocks under one of the seven systems, on the steady clock. Pure: the room tells
// it when turns start and moves end; it answers how much is left and when a flag falls.
//  - absolute: total time; simple: a fresh allowance each move; fischer: increment after each
//    move, capped by max_ms if set; byo-yomi: main time, then periods (a move inside a period
//    keeps it, overrunning one uses it up); canadian: main time, then blocks of `stones` moves
//    in period_ms (the block refills after its last stone); correspondence: per_move_ms to start
//    with and after each move, the time left carried over up to max_ms if set (a bank), the
//    players' time off not counted (TimeOffSource).
// A move made with exactly no time left is in time; the flag falls the next millisecond.
class GameClock {
 public:
  explicit GameClock(const protocol::TimeControl& control, LagPolicy lag = {});

  bool timed() const noexcept { return control_.system != protocol::TimeControl::System::None; }
  // Time off (none: every millisecond counts). The source must outlive the clock.
  void set_time_off(const TimeOffSource* source) noexcept { time_off_ = source; }
  // When the running clock, standing still at `now` (time off), counts again; nullopt when it
  // counts at `now` (or none runs).
  std::optional<Steady> stands_until(Steady now) const;
  // Whether the running player is on vacation at `now`.
  bool on_vacation(Steady now) const {
    return time_off_ && running_ && time_off_->on_vacation(*running_, now);
  }
  const protocol::TimeControl& control() const noexcept { return control_; }

  // The clock of `c` runs from `now` (the turn started). Stops the other one without charge.
  void start(Color c, Steady now);
  // Neither clock runs (the scoring phase, the end of the game); nothing is charged.
  void stop() noexcept { running_.reset(); }
  std::optional<Color> running() const noexcept { return running_; }

  struct Charge {
    bool in_time = true;
    std::int64_t used_ms = 0;        // the turn's time, lag credit deducted
    std::int64_t lag_credit_ms = 0;  // taken from the quota for this move
  };
  // The running player `c` ended a turn at `now`; `measured_lag` is the network lag observed
  // for this move. Charges the time and applies the system's rules; stops the clock. When the
  // time was gone, in_time is false and the player is left with nothing.
  Charge charge(Color c, Steady now, Millis measured_lag);

  // The first instant at which the running player has lost on time, allowing for the lag credit
  // a move could still receive; nullopt when no clock runs or the game is untimed.
  std::optional<Steady> flag_at() const;

  // What `c` has left as of `now` (the running player's current turn deducted).
  PlayerTime left(Color c, Steady now) const;

  // What `c` had when the last turn began, exactly as kept; and the same put back (recovery).
  const PlayerTime& kept(Color c) const { return time_[index_of(c)]; }
  void restore(Color c, const PlayerTime& t) { time_[index_of(c)] = t; }

 private:
  std::int64_t available(const PlayerTime& t) const;   // from the turn's start until the flag
  void spend(PlayerTime& t, std::int64_t used) const;  // a move that used `used` ms, in time
  int periods_overrun(std::int64_t over) const;        // byo-yomi periods used up by `over` ms
  std::int64_t counted(Color c, Steady from, Steady to) const;  // elapsed, time off deducted

  protocol::TimeControl control_;
  LagPolicy lag_;
  std::array<PlayerTime, 3> time_{};  // indexed by index_of(Color)
  std::optional<Color> running_;
  Steady turn_start_{};
  const TimeOffSource* time_off_ = nullptr;
};

}  // namespace tengen
