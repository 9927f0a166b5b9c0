#pragma once

#include <cstddef>
#include <optional>

#include "protocol/messages.h"
#include "rooms/game_clock.h"

namespace tengen {

// The lifecycle constants of every game (docs/clocks.md, docs/games.md, docs/scoring.md);
// docs/clocks.md lists them.
struct RoomOptions {
  Millis start_timeout{60'000};     // for each player's first move (and for the nigiri)
  Millis disconnect_grace{60'000};  // the leaver's countdown, running while it is their move
  Millis scoring_timeout{600'000};  // then the board is scored as played (Tromp-Taylor)
  int max_resumptions = 3;          // a rejection beyond these also ends it that way
  LagPolicy lag;
  int dead_stone_playouts = 1000;
  // Tournament games: a player who has not made a first move by start_timeout loses by
  // forfeit (instead of the game being void), and the game cannot be aborted.
  bool no_show_forfeits = false;
  // Correspondence games: whether the players' vacations stop their clocks (a tournament's pause
  // policy may say no; docs/correspondence.md).
  bool vacations_pause = true;
  // Moves (stones and passes) in one game: beyond, only passes, so that a snapshot's list of moves
  // stays bounded (2000 moves are ~70 KB).
  std::size_t max_moves = 2000;
  // Chat (docs/limits.md): the lines one person may post in one game, and the lines the
  // spectators' channel of one game holds in all. Each account's rate across all games (a burst,
  // then one line each chat_refill) is kept by the router (lobby/router.h).
  int chat_lines_per_person = 300;
  int spectator_chat_lines = 2000;
  int chat_burst = 5;
  Millis chat_refill{2000};
  // A tournament's game: named in its snapshot (and its start), so that the page says so.
  std::optional<protocol::TournamentGameRef> tournament{};
};

}  // namespace tengen
