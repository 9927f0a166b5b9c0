// A room's game as an SGF record: the moves, the clocks after each, the players, the result and
// the nigiri's proof (docs/persistence.md, "Records over HTTP").
#include "engine/sgf.h"
#include "rooms/room.h"

namespace tengen {

std::string Room::sgf() const {
  const Geometry g{settings_.width, settings_.height};
  GameRecord record;
  if (game_) {
    record = GameRecord::from_game(*game_);
  } else {
    record.width = g.width;
    record.height = g.height;
    record.komi = rules_.komi;
    record.handicap = settings_.handicap;
    for (Point p : free_stones_) record.moves.push_back(RecordedMove::of({Color::Black, p}));
  }
  // What each mover's clock showed after the move: BL/WL in seconds, and in overtime OB/OW, the
  // byo-yomi periods or Canadian stones left.
  using System = protocol::TimeControl::System;
  const auto& time = settings_.time;
  const auto system = time.system;
  auto secs = [](std::int64_t ms) {  // 1500 -> "1.5"
    std::string text = std::to_string(ms / 1000);
    if (ms % 1000 == 0) return text;
    std::string fraction = std::to_string(1000 + ms % 1000).substr(1);
    while (fraction.back() == '0') fraction.pop_back();
    return text + "." + fraction;
  };
  auto days = [&secs](std::int64_t ms) {  // 86400000 -> "1d", 97200000 -> "1d 3h"
    constexpr std::int64_t kHour = 3'600'000;
    const std::int64_t hours = ms / kHour;
    std::string text;
    if (hours >= 24) text = std::to_string(hours / 24) + "d";
    if (hours % 24) {
      // Appended piece by piece: `"" + std::string` here set off GCC 12's false -Wrestrict.
      if (!text.empty()) text += ' ';
      text += std::to_string(hours % 24) + "h";
    }
    return text.empty() ? secs(ms) + "s" : text;
  };
  if (system == System::Correspondence)
    record.time_limit = static_cast<double>(time.per_move_ms) / 1000.0;
  else if (system != System::None && system != System::Simple)
    record.time_limit = static_cast<double>(time.main_ms) / 1000.0;
  switch (system) {
    case System::None:
    case System::Absolute:
      break;
    case System::Simple:
      record.overtime = secs(time.per_move_ms) + "s per move";
      break;
    case System::Fischer:
      record.overtime = "fischer +" + secs(time.increment_ms) + "s" +
                        (time.max_ms ? " max " + secs(time.max_ms) + "s" : "");
      break;
    case System::ByoYomi:
      record.overtime = std::to_string(time.periods) + "x" + secs(time.period_ms) + " byo-yomi";
      break;
    case System::Canadian:
      record.overtime = std::to_string(time.stones) + "/" + secs(time.period_ms) + " canadian";
      break;
    case System::Correspondence:  // the same words a client shows: days, and hours if any
      record.overtime = "correspondence " + days(time.per_move_ms) + " per move" +
                        (time.max_ms ? ", up to " + days(time.max_ms) : "") +
                        (time.weekends_off ? ", weekends off" : "");
      break;
  }
  for (std::size_t i = 0; i < record.moves.size() && i < clock_after_.size(); ++i) {
    const PlayerTime& t = clock_after_[i];
    const bool overtime =
        (system == System::ByoYomi || system == System::Canadian) && t.main_ms == 0;
    record.moves[i].time_left = static_cast<double>(overtime ? t.period_ms : t.main_ms) / 1000.0;
    if (overtime) record.moves[i].overtime_left = system == System::ByoYomi ? t.periods : t.stones;
  }
  record.rules = std::string(to_string(settings_.ruleset));
  record.black_name = black_.name;
  record.white_name = white_.name;
  if (settings_.teams) {  // pair Go: every member's name, in the order they play
    const auto names = [](const std::vector<protocol::TeamMember>& team) {
      std::string text;
      for (const auto& m : team) text += (text.empty() ? "" : " & ") + m.name;
      return text;
    };
    record.black_name = names(settings_.teams->black);
    record.white_name = names(settings_.teams->white);
  }
  if (result_) record.result = result_->to_sgf();
  if (proof_) {
    record.game_comment = "Nigiri (verify with sha256sum, see docs/nigiri.md): commitment " +
                          proof_->commitment + ", secret " + proof_->secret + ", nonce " +
                          proof_->nonce + ", holder seed " + proof_->holder_seed +
                          ", guesser seed " + proof_->guesser_seed + ", guess " + proof_->guess +
                          ", stones " + std::to_string(proof_->stones) + "; the guesser, " +
                          (proof_->guesser_black ? black_.name : white_.name) + ", took " +
                          (proof_->guesser_black ? "Black" : "White") + ".";
  }
  return write_sgf(record);
}

}  // namespace tengen
