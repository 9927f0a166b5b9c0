#pragma once

#include <algorithm>
#include <compare>
#include <functional>
#include <optional>
#include <variant>

#include "protocol/messages.h"
#include "rooms/game_clock.h"

namespace tengen {

// What a timer is for. A game's next deadline: a flag, a start timeout, the scoring phase's end.
struct GameDeadline {
  protocol::GameId game = 0;
  friend auto operator<=>(const GameDeadline&, const GameDeadline&) = default;
};
// A tournament's next start time (a round, or the tournament itself).
struct TournamentStart {
  protocol::TournamentId tournament = 0;
  friend auto operator<=>(const TournamentStart&, const TournamentStart&) = default;
};
// The next message telling who came online and who left.
struct PresenceTick {
  friend auto operator<=>(const PresenceTick&, const PresenceTick&) = default;
};
// A WebSocket connection's next ping or idle check (ws/ws_session.cpp); the network layer's
// own timers, routed by the HTTP server to the connection, never the hub's.
struct ConnectionTick {
  std::uint64_t connection = 0;
  friend auto operator<=>(const ConnectionTick&, const ConnectionTick&) = default;
};
// The next look at the quick-match queue (its ranges widen as players wait).
struct QuickMatchTick {
  friend auto operator<=>(const QuickMatchTick&, const QuickMatchTick&) = default;
};
// The hub's next read of the games other nodes ended and left to rate (Centre::rate_due), in case
// a node's word that one ended was lost on the bus.
struct RatingsSweep {
  friend auto operator<=>(const RatingsSweep&, const RatingsSweep&) = default;
};
using TimerId = std::variant<GameDeadline, TournamentStart, PresenceTick, ConnectionTick,
                             QuickMatchTick, RatingsSweep>;

// One pending time per id. Its owner arms it after each change; when it comes, `fire(id)` is
// called (from another thread), and the owner asks what is due. A late or spurious call is
// harmless: rooms and tournaments check their times against the clock. Tests drive a manual
// implementation.
class Timers {
 public:
  using Fire = std::function<void(const TimerId&)>;
  virtual ~Timers() = default;
  // Once it returns, the previous handler is not running and will not be called again (not
  // to be called from a handler).
  virtual void set_handler(Fire fire) = 0;
  // Replaces the id's time; nullopt cancels it.
  virtual void arm(const TimerId& id, std::optional<Steady> when) = 0;
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
