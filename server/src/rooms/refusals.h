#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "protocol/messages.h"

// Every way a room refuses a command (docs/games.md), in one table (refusals.cpp): the error code
// a client acts on, and the words a player reads, with "{}" where the particulars go. The room
// names the refusal; the code and the words are chosen here and nowhere else.
namespace tengen {

enum class Refused : std::uint8_t {
  VoidAlready,  // {} game id
  Private,
  NotAPlayer,
  GameOver,  // {} result
  NigiriPending,
  Counting,
  NotYourTurn,       // {} colour
  NotAPoint,         // {} vertex, {} width, {} height
  OnAHandicapStone,  // {} vertex
  HandicapFirst,
  MoveLimit,  // {} moves
  Illegal,    // {} why (rooms/wording.h why_illegal)
  TimeRanOut,
  ResignDuringNigiri,
  UndoNotNow,
  UndoWaiting,
  NothingToTakeBack,
  NoUndoToAnswer,
  OwnUndo,
  NoNigiri,
  BadSeed,  // {} why
  NigiriChosen,
  GuessMissing,
  GuessNotYours,
  BothMoved,
  TournamentNoAbort,
  NigiriNotDone,
  NoAbsenceCountdown,
  OpponentHere,
  BarelyBegun,
  CountdownNotRunning,
  CountdownLeft,      // {} time left
  NoChatLine,         // {} game id, {} line
  OwnChatFull,        // {} lines
  SpectatorChatFull,  // {} lines
  ConditionalNotCorrespondence,
  ConditionalNotNow,
  ConditionalYourMove,
  ConditionalUnreadable,  // {} why
  ConditionalIllegal,     // {} why
  MarkOutsideScoring,
  MarkNotAPoint,  // {} vertex
  MarkNoStone,    // {} vertex
  MarkedAlready,  // {} vertex, {} "dead" or "alive"
  AcceptOutsideScoring,
  StaleMarking,  // {} version sent, {} current version
  ResumeOutsideScoring,
  StillSuggesting,
  PartnersTurn,  // {} the partner, {} colour
  NoTeamChat,
};

// The error for refusal `why` of command `cid` in game `game`, its "{}" filled with `parts` in
// order (a part missing is left empty; one too many is a fault of the caller: it throws).
protocol::Error refusal(Refused why, const std::string& cid, protocol::GameId game,
                        std::initializer_list<std::string_view> parts = {});

}  // namespace tengen
