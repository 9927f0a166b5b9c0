#pragma once

#include <optional>
#include <type_traits>
#include <variant>

#include "protocol/messages.h"

namespace tengen::protocol {

// Whose a client's command is (docs/architecture.md, "Owners"): the server's router hands each
// family to its owner only, so that a lobby command can never reach a game. Every command type
// names its family below; one without is a compile error in family().
enum class Family {
  Game,        // a game's actor: joining, leaving, playing, scoring, chat in a game
  Lobby,       // the lobby: challenges and quick match
  Tournament,  // the lobby's tournaments, and watching them
  Review,      // the review boards' owner
  Account,     // the player's own view across owners (their list of games)
  Connection,  // answered by the connection itself (a ping): never routed
};

constexpr Family family_of(std::type_identity<CreateChallenge>) {
  return Family::Lobby;
}
constexpr Family family_of(std::type_identity<CancelChallenge>) {
  return Family::Lobby;
}
constexpr Family family_of(std::type_identity<AcceptChallenge>) {
  return Family::Lobby;
}
constexpr Family family_of(std::type_identity<DeclineChallenge>) {
  return Family::Lobby;
}
constexpr Family family_of(std::type_identity<Seek>) {
  return Family::Lobby;
}
constexpr Family family_of(std::type_identity<CancelSeek>) {
  return Family::Lobby;
}
constexpr Family family_of(std::type_identity<JoinGame>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<LeaveGame>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<PlayMove>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<PassMove>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<Resign>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<RequestUndo>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<AnswerUndo>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<SendChat>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<NigiriChoice>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<AbortGame>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<ClaimWin>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<MarkDead>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<AcceptScore>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<ResumePlay>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<SetConditionalMoves>) {
  return Family::Game;
}
constexpr Family family_of(std::type_identity<CreateTournament>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<RegisterTournament>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<LeaveTournament>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<StartTournament>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<WithdrawPlayer>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<SetTournamentResult>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<RepairRound>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<AddTournamentPlayer>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<PublishRound>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<ReportTournamentResult>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<PairRound>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<SetAbsent>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<EditTournamentPlayer>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<WatchTournaments>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<UnwatchTournaments>) {
  return Family::Tournament;
}
constexpr Family family_of(std::type_identity<JoinReview>) {
  return Family::Review;
}
constexpr Family family_of(std::type_identity<LeaveReview>) {
  return Family::Review;
}
constexpr Family family_of(std::type_identity<ReviewPlay>) {
  return Family::Review;
}
constexpr Family family_of(std::type_identity<ReviewGoTo>) {
  return Family::Review;
}
constexpr Family family_of(std::type_identity<ReviewMark>) {
  return Family::Review;
}
constexpr Family family_of(std::type_identity<ReviewComment>) {
  return Family::Review;
}
constexpr Family family_of(std::type_identity<ReviewDelete>) {
  return Family::Review;
}
constexpr Family family_of(std::type_identity<ReviewHandOver>) {
  return Family::Review;
}
constexpr Family family_of(std::type_identity<ReviewChat>) {
  return Family::Review;
}
constexpr Family family_of(std::type_identity<CloseReview>) {
  return Family::Review;
}
constexpr Family family_of(std::type_identity<ReviewInvite>) {
  return Family::Review;
}
constexpr Family family_of(std::type_identity<ListMyGames>) {
  return Family::Account;
}
constexpr Family family_of(std::type_identity<Ping>) {
  return Family::Connection;
}

inline Family family(const ClientMessage& m) {
  return std::visit(
      [](const auto& c) { return family_of(std::type_identity<std::decay_t<decltype(c)>>{}); }, m);
}

// The game a game's command is for (every command of Family::Game names one).
inline std::optional<GameId> game_of(const ClientMessage& m) {
  return std::visit(
      [](const auto& c) -> std::optional<GameId> {
        if constexpr (requires { c.game; }) {
          return c.game;
        } else {
          return std::nullopt;
        }
      },
      m);
}

}  // namespace tengen::protocol
