#include "moderation/game_actions.h"

#include "rooms/room.h"

namespace tengen::moderation {

Refused no_such_game(protocol::GameId game) {
  return {Refused::Why::NoSuchGame, "no game " + std::to_string(game)};
}

Refused tournament_game(protocol::GameId game) {
  return {Refused::Why::TournamentGame,
          "game " + std::to_string(game) +
              " belongs to a tournament: its director decides it (docs/tournaments.md)"};
}

GameActionOutcome act_on(Room& room, const protocol::http::GameAction& action, Steady now) {
  using Kind = protocol::http::GameAction::Kind;
  switch (action.kind) {
    case Kind::DeleteChat: {
      auto outcome = room.delete_chat(static_cast<protocol::Seq>(action.line));
      if (auto* e = std::get_if<protocol::Error>(&outcome))
        return Refused{Refused::Why::NoSuchLine, e->message};
      return ChatLineDeleted{std::get<protocol::UserRef>(outcome)};
    }
    case Kind::Annul: {
      // A finished rated game that counted: every rating is rebuilt without it.
      const bool rated = room.settings().rated && room.finished();
      if (auto e = room.annul(now)) return Refused{Refused::Why::VoidAlready, e->message};
      return GameAnnulled{rated, 0};
    }
    case Kind::Adjudicate: {
      if (room.finished()) {
        return Refused{Refused::Why::OverAlready,
                       "game " + std::to_string(room.id()) + " is over already"};
      }
      const auto result = Result::parse_sgf(action.result);
      room.adjudicate(*result, protocol::EndReason::Adjudication, now);
      return GameAdjudicated{};
    }
  }
  return no_such_game(room.id());  // not reached: every kind is handled above
}

}  // namespace tengen::moderation
