#pragma once

// A 9×9 game's snapshot as a bot sees it in play (game 7, shusaku Black, gnugo White), for the
// tests of clients of the protocol.
#include <string>
#include <utility>

#include "protocol/messages.h"

namespace tengen::testing {

inline protocol::GameSnapshot game_snapshot(protocol::Role role, Color to_move) {
  protocol::GameSnapshot s;
  s.game = 7;
  s.seq = 4;
  s.settings.width = s.settings.height = 9;
  s.black = {1, "shusaku"};
  s.white = {2, "gnugo"};
  s.role = role;
  s.to_move = to_move;
  s.phase = protocol::Phase::Playing;
  return s;
}

}  // namespace tengen::testing
