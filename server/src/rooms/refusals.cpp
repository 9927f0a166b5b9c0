#include "rooms/refusals.h"

#include <array>
#include <stdexcept>

namespace tengen {
namespace {

using protocol::ErrorCode;

struct Row {
  Refused why;
  ErrorCode code;
  std::string_view words;
};

// In the order of Refused (checked below).
constexpr std::array kRows{
    Row{Refused::VoidAlready, ErrorCode::Conflict, "game {} is void already"},
    Row{Refused::Private, ErrorCode::Forbidden, "this game is private"},
    Row{Refused::NotAPlayer, ErrorCode::Forbidden, "you are not a player of this game"},
    Row{Refused::GameOver, ErrorCode::GameOver, "the game is over: {}"},
    Row{Refused::NigiriPending, ErrorCode::Conflict,
        "the nigiri is not done yet: colours are not drawn"},
    Row{Refused::Counting, ErrorCode::Conflict,
        "play has stopped: the game is being counted (mark the dead stones, accept the score, "
        "or resume play)"},
    Row{Refused::NotYourTurn, ErrorCode::NotYourTurn, "it is {}'s move"},
    Row{Refused::NotAPoint, ErrorCode::BadField,
        "'{}' is not a point on this {}x{} board (GTP coordinates such as D4, no letter I)"},
    Row{Refused::OnAHandicapStone, ErrorCode::IllegalMove,
        "occupied: there is already a handicap stone on {}"},
    Row{Refused::HandicapFirst, ErrorCode::IllegalMove,
        "place your handicap stones before passing"},
    Row{Refused::MoveLimit, ErrorCode::Conflict,
        "this game has {} moves, the most a game may have: only a pass is possible now"},
    Row{Refused::Illegal, ErrorCode::IllegalMove, "{}"},
    Row{Refused::TimeRanOut, ErrorCode::GameOver, "your time ran out before this move arrived"},
    Row{Refused::ResignDuringNigiri, ErrorCode::Conflict,
        "the nigiri is not done yet: abort the game instead"},
    Row{Refused::UndoNotNow, ErrorCode::Conflict,
        "undo is only possible while the game is being played"},
    Row{Refused::UndoWaiting, ErrorCode::Conflict,
        "an undo request is already waiting for an answer"},
    Row{Refused::NothingToTakeBack, ErrorCode::Forbidden, "you have no move to take back"},
    Row{Refused::NoUndoToAnswer, ErrorCode::Conflict, "there is no undo request to answer"},
    Row{Refused::OwnUndo, ErrorCode::Forbidden, "you cannot answer your own undo request"},
    Row{Refused::NoNigiri, ErrorCode::Conflict, "this game has no nigiri to choose in"},
    Row{Refused::BadSeed, ErrorCode::BadField, "{}"},
    Row{Refused::NigiriChosen, ErrorCode::Conflict, "you already made your nigiri choice"},
    Row{Refused::GuessMissing, ErrorCode::BadField,
        "you are the guesser: send 'guess', \"odd\" or \"even\""},
    Row{Refused::GuessNotYours, ErrorCode::BadField,
        "you hold the stones: only the guesser sends 'guess'"},
    Row{Refused::BothMoved, ErrorCode::Conflict,
        "both players have moved: resign instead of aborting"},
    Row{Refused::TournamentNoAbort, ErrorCode::Forbidden,
        "a tournament game cannot be aborted: resign instead"},
    Row{Refused::NigiriNotDone, ErrorCode::Conflict, "the nigiri is not done yet"},
    Row{Refused::NoAbsenceCountdown, ErrorCode::Conflict,
        "a correspondence game has no absence countdown: your opponent's clock decides"},
    Row{Refused::OpponentHere, ErrorCode::Conflict, "your opponent is still here"},
    Row{Refused::BarelyBegun, ErrorCode::Conflict, "the game has barely begun: abort it instead"},
    Row{Refused::CountdownNotRunning, ErrorCode::Conflict,
        "your opponent's countdown runs only while it is their move"},
    Row{Refused::CountdownLeft, ErrorCode::Conflict, "your opponent's countdown has {} left"},
    Row{Refused::NoChatLine, ErrorCode::NotFound,
        "game {} shows no chat line {} (or it is deleted already)"},
    Row{Refused::OwnChatFull, ErrorCode::Conflict,
        "you have written {} lines in this game's chat, the most one person may"},
    Row{Refused::SpectatorChatFull, ErrorCode::Conflict,
        "the spectators' chat of this game is full: it holds {} lines, the most it may"},
    Row{Refused::ConditionalNotCorrespondence, ErrorCode::Conflict,
        "conditional moves are for correspondence games (docs/correspondence.md)"},
    Row{Refused::ConditionalNotNow, ErrorCode::Conflict,
        "conditional moves can be set only while the game is being played"},
    Row{Refused::ConditionalYourMove, ErrorCode::Conflict,
        "it is your move: conditional moves answer your opponent's next move, so set them "
        "after your own"},
    Row{Refused::ConditionalUnreadable, ErrorCode::BadField, "{}"},
    Row{Refused::ConditionalIllegal, ErrorCode::IllegalMove, "{}"},
    Row{Refused::MarkOutsideScoring, ErrorCode::Conflict,
        "dead stones are marked only in the scoring phase"},
    Row{Refused::MarkNotAPoint, ErrorCode::BadField, "'{}' is not a point on this board"},
    Row{Refused::MarkNoStone, ErrorCode::BadField, "there is no stone on {}"},
    Row{Refused::MarkedAlready, ErrorCode::Conflict, "the chain at {} is already marked {}"},
    Row{Refused::AcceptOutsideScoring, ErrorCode::Conflict,
        "there is no score to accept outside the scoring phase"},
    Row{Refused::StaleMarking, ErrorCode::Conflict,
        "marking version {} is stale: the current one is {}"},
    Row{Refused::ResumeOutsideScoring, ErrorCode::Conflict,
        "play can resume only from the scoring phase"},
    Row{Refused::StillSuggesting, ErrorCode::Conflict,
        "the server is still suggesting dead stones: the scoring phase starts in a moment"},
    Row{Refused::PartnersTurn, ErrorCode::NotYourTurn,
        "it is your partner {}'s move for {}: in pair Go the partners play in turn"},
    Row{Refused::NoTeamChat, ErrorCode::Forbidden,
        "only the players of a pair Go game have a team chat"},
};

constexpr bool in_order() {
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    if (static_cast<std::size_t>(kRows[i].why) != i) return false;
  }
  return kRows.size() == static_cast<std::size_t>(Refused::NoTeamChat) + 1;
}
static_assert(in_order(), "kRows must list every Refused once, in its order");

}  // namespace

protocol::Error refusal(Refused why, const std::string& cid, protocol::GameId game,
                        std::initializer_list<std::string_view> parts) {
  const Row& row = kRows[static_cast<std::size_t>(why)];
  std::string text;
  auto part = parts.begin();
  for (std::size_t i = 0; i < row.words.size(); ++i) {
    if (row.words.compare(i, 2, "{}") == 0) {
      if (part != parts.end()) text += *part++;
      ++i;
      continue;
    }
    text += row.words[i];
  }
  if (part != parts.end())
    throw std::logic_error("a refusal was given more particulars than its words have places");
  return protocol::Error{cid, row.code, std::move(text), game};
}

}  // namespace tengen
