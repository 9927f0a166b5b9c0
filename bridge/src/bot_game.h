#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "protocol/messages.h"

// One game as the bot sees it: the server's snapshot with the room's events applied, and what
// the bot has already done in it, so that it decides each thing once. Pure: no engine, no
// socket; the bridge asks next_action() whenever something changed and carries the action out.
namespace tengen::bridge {

using SteadyTime = std::chrono::steady_clock::time_point;

struct Think {};  // genmove, or place the next free handicap stone
struct ChooseNigiri {
  bool guesser = false;
};
struct AnswerUndo {};
struct JudgeMarking {
  std::uint64_t version = 0;
};
struct GiveUp {};  // resign: the engine failed
using Action = std::variant<Think, ChooseNigiri, AnswerUndo, JudgeMarking, GiveUp>;

// The bot's answer to a marking in the scoring phase, given the stones its engine says are dead
// (`final_status_list dead`): accept it when they agree; otherwise set one chain right (each
// mark is a new version, judged again); when the opponent changed a marking the bot had already
// set right, the players disagree, and the bot resumes play so that the board decides
// (docs/scoring.md).
struct MarkChain {
  std::string vertex;
  bool dead = true;
};
struct AcceptMarking {
  std::uint64_t version = 0;
};
struct ResumeToSettle {};
using Judgement = std::variant<MarkChain, AcceptMarking, ResumeToSettle>;
Judgement judge_marking(const std::set<std::string>& engine_dead, const protocol::Marking& marking,
                        bool changed_by_opponent, bool corrected_already);

struct PlayedMove {
  Color color = Color::Black;
  std::string vertex;  // GTP, or "pass"
  friend bool operator==(const PlayedMove&, const PlayedMove&) = default;
};

class BotGame {
 public:
  enum class Applied : std::uint8_t { Ok, Ignored, NeedSnapshot };

  BotGame(protocol::GameId id, std::int64_t me);

  // A snapshot replaces everything the bot knew; what it had sent may or may not have landed.
  void apply(const protocol::GameSnapshot& snapshot, SteadyTime now);
  // An event in sequence; NeedSnapshot when it is out of order or not worth following by hand.
  Applied apply(const protocol::RoomEvent& event, SteadyTime now);
  // Until the next snapshot the bot knows nothing for sure and does nothing.
  void lost_track() { stale_ = true; }

  std::optional<Action> next_action() const;

  // What the bot did, so that it is not done again for the same state.
  void thought() { thought_at_ = turn_seq_; }
  void chose_nigiri() { nigiri_chosen_ = true; }
  void answered_undo() { undo_answered_ = undo_seq_; }
  void judged(std::uint64_t version, const Judgement& judgement);
  void give_up(std::string reason);
  void resigned() { resign_sent_ = true; }

  protocol::GameId id() const { return id_; }
  bool stale() const { return stale_; }
  bool finished() const { return phase_ == protocol::Phase::Finished; }
  const protocol::GameSettings& settings() const { return settings_; }
  double komi() const;
  // Before the nigiri, none.
  std::optional<Color> my_color() const { return my_color_; }
  const std::vector<std::string>& handicap_stones() const { return handicap_; }
  const std::vector<PlayedMove>& moves() const { return moves_; }
  // Black places free handicap stones one by one; true while some are still to come.
  bool placing() const;
  int stones_to_place() const { return settings_.handicap - static_cast<int>(handicap_.size()); }
  const std::optional<protocol::Marking>& marking() const { return marking_; }
  bool marking_by_opponent() const { return marking_by_ && marking_by_ != my_color_; }
  bool corrected_marking() const { return corrected_; }
  // After the bot resumed play to settle a disputed marking: the engine should capture the
  // stones it says are dead rather than pass (KGS's kgs-genmove_cleanup).
  bool settling() const { return settling_; }
  const std::optional<Result>& result() const { return result_; }
  const std::string& give_up_reason() const { return give_up_reason_; }
  // The bot's clock now, from the last clock the server reported.
  std::optional<protocol::PlayerClock> my_clock(SteadyTime now) const;
  // Changes whenever the position or the turn changes: a key for what the engine worked out.
  std::uint64_t turn_seq() const { return turn_seq_; }
  // The last passes ended play: the scoring phase (or the end) is on its way from the server,
  // so it is nobody's move even if the next event has not arrived yet.
  bool play_ended() const {
    return passes_ >= 2 && (!white_passes_last_ || moves_.back().color == Color::White);
  }

 private:
  void set_clock(const std::optional<protocol::ClockState>& clock, SteadyTime now);

  protocol::GameId id_;
  std::int64_t me_;
  bool stale_ = true;  // no snapshot yet
  protocol::Seq seq_ = 0;
  protocol::GameSettings settings_;
  protocol::Phase phase_ = protocol::Phase::Playing;
  std::optional<Color> my_color_;  // none before the nigiri
  Color to_move_ = Color::Black;
  std::vector<std::string> handicap_;
  std::vector<PlayedMove> moves_;
  bool free_placement_ = false;
  bool white_passes_last_ = false;  // AGA: play ends with two passes of which White's is the last
  int passes_ = 0;                  // consecutive passes since play (re)started
  std::optional<protocol::ClockState> clock_;
  SteadyTime clock_at_{};
  std::optional<protocol::NigiriState> nigiri_;
  std::optional<protocol::Marking> marking_;
  std::optional<Color> marking_by_;  // none for the server's proposal
  std::optional<Result> result_;

  std::uint64_t turn_seq_ = 0;
  std::optional<std::uint64_t> thought_at_;
  bool nigiri_chosen_ = false;
  std::uint64_t undo_seq_ = 0;  // the opponent's pending undo request, 0 for none
  std::uint64_t undo_answered_ = 0;
  std::optional<std::uint64_t> judged_version_;
  bool corrected_ = false;  // the bot set a marking right in this scoring phase
  bool settling_ = false;
  std::string give_up_reason_;
  bool resign_sent_ = false;
};

}  // namespace tengen::bridge
