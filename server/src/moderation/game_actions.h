#pragma once

#include <string>
#include <variant>

#include "protocol/moderation_api.h"
#include "rooms/game_clock.h"

namespace tengen {

class Room;

namespace moderation {

// What an administrator's action on a game did (docs/moderation.md), or why it was refused: typed,
// so that whoever answers (http/moderation_answers.h for the HTTP API) says it in its own terms.
struct ChatLineDeleted {
  protocol::UserRef author;  // whose line it was
};
struct GameAnnulled {
  bool rated = false;               // it was a finished rated game: the ratings are rebuilt
  std::size_t ratings_rebuilt = 0;  // the rating rows written by that rebuild
};
struct GameAdjudicated {};
struct Refused {
  enum class Why : std::uint8_t {
    NoSuchGame,
    NoSuchLine,      // no such chat line shown (or deleted already)
    TournamentGame,  // its director decides it (docs/tournaments.md)
    VoidAlready,
    OverAlready,  // an adjudication of a finished game
    Failed,       // the game could not do it (the server logged why)
  };
  Why why = Why::NoSuchGame;
  std::string message;
};
using GameActionOutcome = std::variant<ChatLineDeleted, GameAnnulled, GameAdjudicated, Refused>;

// The action on the game's room, by its owner (with the room held): what it did there. An
// annulment's rating rebuild is the ratings owner's to do afterwards (GameAnnulled::rated).
GameActionOutcome act_on(Room& room, const protocol::http::GameAction& action, Steady now);

// Refusals that do not need the room.
Refused no_such_game(protocol::GameId game);
Refused tournament_game(protocol::GameId game);

}  // namespace moderation
}  // namespace tengen
