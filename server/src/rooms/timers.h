#pragma once

#include <algorithm>
#include <functional>
#include <optional>

#include "protocol/messages.h"
#include "rooms/game_clock.h"

namespace tengen {

// One pending deadline per game (a flag, a start timeout, the scoring phase's end). The owner
// of the rooms arms it after each change; when it comes, `fire(game)` is called (from another
// thread), and the owner asks the room what is due. A negative id is tournament −id's next
// start time (Hub::arm_tournament); id 0 is the next presence update (Hub::presence_changed).
// A late or spurious call is harmless: rooms
// check their deadlines against the clock. Tests drive a manual implementation.
class Timers {
 public:
  using Fire = std::function<void(protocol::GameId)>;
  virtual ~Timers() = default;
  virtual void set_handler(Fire fire) = 0;
  // Replaces the game's deadline; nullopt cancels it.
  virtual void arm(protocol::GameId game, std::optional<Steady> when) = 0;
};

// The farthest ahead a deadline is ever armed. Tournament times are Unix milliseconds from
// clients or the store; converted to a steady time point (nanoseconds) a few centuries ahead
// overflows into the past, and the timer then fires at once, for ever. A deadline further
// ahead than this is armed at this distance; its owner checks the real time when it fires and
// arms it again.
inline constexpr Millis kFarthestDeadline{366LL * 24 * 3600 * 1000};

// `now` + `ms_ahead`, with `ms_ahead` clamped to [0, kFarthestDeadline].
inline Steady deadline_after(Steady now, std::int64_t ms_ahead) {
  return now + std::clamp(Millis{ms_ahead}, Millis{0}, kFarthestDeadline);
}

// Timers on a thread of their own, with Asio steady timers (asio_timers.cpp keeps Asio there).
std::unique_ptr<Timers> make_asio_timers();

}  // namespace tengen
