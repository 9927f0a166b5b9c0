#pragma once

#include <cstdint>
#include <string>

#include "engine/color.h"
#include "engine/result.h"

namespace tengen {

// Something a player away from the board may want to be told (by mail, docs/mail.md, or on their
// devices by Web Push, docs/web-client.md "Push"): that it is their move in a correspondence
// game, that one of their correspondence games is over, that a game of theirs started (a
// tournament's round, when `round` is set), or that their opponent in a live game came back after
// leaving it (`user` is the one told; `opponent` the one back). The owner of the game or of the
// lobby says it as the operation that caused it ends; whoever listens decides whether and how to
// tell, later and elsewhere (the mailer's and the pusher's threads).
struct PlayerNotice {
  enum class Kind : std::uint8_t { YourMove, GameOver, GameStarted, OpponentBack };
  Kind kind = Kind::YourMove;
  std::int64_t game = 0;
  std::int64_t user = 0;
  Color color = Color::Black;  // the player's
  std::string opponent;
  int moves = 0;    // played so far
  Result result{};  // GameOver
  int round = 0;    // GameStarted: the tournament's round, or 0
};

}  // namespace tengen
