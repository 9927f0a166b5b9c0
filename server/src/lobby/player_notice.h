#pragma once

#include <cstdint>
#include <string>

#include "engine/color.h"
#include "engine/result.h"

namespace tengen {

// Something a player away from the board may want to be told (by mail, docs/mail.md): that it is
// their move in a correspondence game, or that one of their correspondence games is over. The
// hub says it as the operation that caused it ends, just before its rows are submitted; whoever
// listens decides whether and how to tell, later and elsewhere (the mailer's thread).
struct PlayerNotice {
  enum class Kind : std::uint8_t { YourMove, GameOver };
  Kind kind = Kind::YourMove;
  std::int64_t game = 0;
  std::int64_t user = 0;
  Color color = Color::Black;  // the player's
  std::string opponent;
  int moves = 0;    // played so far
  Result result{};  // GameOver
};

}  // namespace tengen
