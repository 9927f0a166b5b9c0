#include "bot_game.h"

#include <type_traits>

#include "protocol/overloaded.h"
#include "protocol/settings.h"
#include "time_control.h"

namespace tengen::bridge {

Judgement judge_marking(const std::set<std::string>& engine_dead, const protocol::Marking& marking,
                        bool changed_by_opponent, bool corrected_already) {
  const std::set<std::string> marked(marking.dead.begin(), marking.dead.end());
  if (marked == engine_dead) return AcceptMarking{marking.version};
  if (changed_by_opponent && corrected_already) return ResumeToSettle{};
  for (const auto& v : engine_dead) {
    if (!marked.contains(v)) return MarkChain{v, true};
  }
  for (const auto& v : marked) {
    if (!engine_dead.contains(v)) return MarkChain{v, false};
  }
  return AcceptMarking{marking.version};  // not reached: the sets differ
}

BotGame::BotGame(protocol::GameId id, std::int64_t me) : id_(id), me_(me) {}

void BotGame::apply(const protocol::GameSnapshot& s, SteadyTime now) {
  const bool was_scoring = phase_ == protocol::Phase::Scoring;
  stale_ = false;
  seq_ = s.seq;
  settings_ = s.settings;
  phase_ = s.phase;
  my_color_ = s.role == protocol::Role::Black   ? std::optional(Color::Black)
              : s.role == protocol::Role::White ? std::optional(Color::White)
                                                : std::nullopt;
  to_move_ = s.to_move;
  handicap_ = s.handicap_stones;
  moves_.clear();
  for (const auto& m : s.moves) moves_.push_back({m.color, m.vertex});
  using P = protocol::GameSettings::Placement;
  const Rules rules = protocol::rules_of(settings_);
  free_placement_ =
      settings_.placement == P::Free || (settings_.placement == P::Ruleset && rules.free_handicap);
  white_passes_last_ = rules.pass_stones;
  // Trailing passes while the game is in play again were before a resumption: they count no more.
  passes_ = 0;
  for (auto it = moves_.rbegin(); it != moves_.rend() && it->vertex == "pass"; ++it) ++passes_;
  if (phase_ == protocol::Phase::Playing && play_ended()) passes_ = 0;
  set_clock(s.clock, now);
  nigiri_ = s.nigiri;
  marking_ = s.marking;
  marking_by_.reset();  // a snapshot does not say who changed the marking last
  if (phase_ != protocol::Phase::Scoring || !was_scoring) corrected_ = false;
  result_ = s.result;
  // The bot never asks for an undo, so a pending request is the opponent's.
  undo_seq_ = s.undo_requested ? s.seq : 0;
  undo_answered_ = 0;
  turn_seq_ = s.seq;
  thought_at_.reset();
  nigiri_chosen_ = false;
  judged_version_.reset();
  resign_sent_ = false;
}

BotGame::Applied BotGame::apply(const protocol::RoomEvent& e, SteadyTime now) {
  if (stale_ || e.seq <= seq_) return Applied::Ignored;
  if (e.seq != seq_ + 1) {
    stale_ = true;
    return Applied::NeedSnapshot;
  }
  seq_ = e.seq;
  bool need_snapshot = false;
  std::visit(Overloaded{
                 [&](const protocol::MovePlayed& m) {
                   if (m.color == Color::Black && placing()) {
                     handicap_.push_back(m.vertex);
                     if (!placing()) to_move_ = Color::White;
                   } else {
                     moves_.push_back({m.color, m.vertex});
                     to_move_ = opponent(m.color);
                     passes_ = m.vertex == "pass" ? passes_ + 1 : 0;
                   }
                   set_clock(m.clock, now);
                   turn_seq_ = seq_;
                 },
                 [&](const protocol::UndoRequested& u) {
                   if (u.by != my_color_) undo_seq_ = seq_;
                 },
                 [&](const protocol::UndoAnswered& u) {
                   undo_seq_ = 0;
                   need_snapshot =
                       u.accepted;  // the moves taken back and the clocks: simplest from the server
                 },
                 [&](const protocol::GameEnded& g) {
                   phase_ = protocol::Phase::Finished;
                   result_ = g.result;
                 },
                 [&](const protocol::NigiriStarted& n) { nigiri_ = n.nigiri; },
                 [&](const protocol::NigiriDone&) { need_snapshot = true; },  // colours and clocks
                 [&](const protocol::ScoringStarted& s) {
                   phase_ = protocol::Phase::Scoring;
                   marking_ = s.marking;
                   marking_by_.reset();
                   corrected_ = false;
                   judged_version_.reset();
                 },
                 [&](const protocol::MarkingChanged& m) {
                   marking_ = m.marking;
                   marking_by_ = m.by;
                 },
                 [&](const protocol::ScoreAccepted& a) {
                   if (!marking_) return;
                   (a.by == Color::Black ? marking_->accepted.black : marking_->accepted.white) =
                       a.version;
                 },
                 [&](const protocol::PlayResumed& r) {
                   phase_ = protocol::Phase::Playing;
                   to_move_ = r.to_move;
                   passes_ = 0;
                   marking_.reset();
                   corrected_ = false;
                   set_clock(r.clock, now);
                   turn_seq_ = seq_;
                 },
                 [](const auto&) {},  // chat, players leaving and returning
             },
             e.body);
  if (need_snapshot) {
    stale_ = true;
    return Applied::NeedSnapshot;
  }
  return Applied::Ok;
}

std::optional<Action> BotGame::next_action() const {
  if (stale_ || finished()) return std::nullopt;
  if (!give_up_reason_.empty()) {
    if (resign_sent_) return std::nullopt;
    return GiveUp{};
  }
  switch (phase_) {
    case protocol::Phase::Nigiri: {
      if (!nigiri_ || nigiri_chosen_) return std::nullopt;
      const bool holder = nigiri_->holder.id == me_;
      if (holder ? nigiri_->holder_chose : nigiri_->guesser_chose) return std::nullopt;
      return ChooseNigiri{!holder};
    }
    case protocol::Phase::Playing:
      if (undo_seq_ != 0 && undo_answered_ != undo_seq_) return AnswerUndo{};
      if (to_move_ == my_color_ && thought_at_ != turn_seq_ && !play_ended()) return Think{};
      return std::nullopt;
    case protocol::Phase::Scoring: {
      if (!marking_ || judged_version_ == marking_->version) return std::nullopt;
      const auto& mine =
          my_color_ == Color::Black ? marking_->accepted.black : marking_->accepted.white;
      if (mine == marking_->version) return std::nullopt;
      return JudgeMarking{marking_->version};
    }
    case protocol::Phase::Finished:
      return std::nullopt;
  }
  return std::nullopt;
}

void BotGame::judged(std::uint64_t version, const Judgement& judgement) {
  judged_version_ = version;
  if (std::holds_alternative<MarkChain>(judgement)) corrected_ = true;
  if (std::holds_alternative<ResumeToSettle>(judgement)) settling_ = true;
}

void BotGame::give_up(std::string reason) {
  if (give_up_reason_.empty()) give_up_reason_ = std::move(reason);
}

bool BotGame::placing() const {
  return free_placement_ && settings_.handicap >= 2 && moves_.empty() &&
         static_cast<int>(handicap_.size()) < settings_.handicap;
}

double BotGame::komi() const {
  return protocol::rules_of(settings_).komi;
}

std::optional<protocol::PlayerClock> BotGame::my_clock(SteadyTime now) const {
  if (!clock_ || !my_color_) return std::nullopt;
  const auto& c = *my_color_ == Color::Black ? clock_->black : clock_->white;
  if (clock_->running != my_color_) return c;
  const auto elapsed =
      std::chrono::duration_cast<std::chrono::milliseconds>(now - clock_at_).count();
  return run_clock(settings_.time, c, elapsed);
}

void BotGame::set_clock(const std::optional<protocol::ClockState>& clock, SteadyTime now) {
  clock_ = clock;
  clock_at_ = now;
}

}  // namespace tengen::bridge
