// What a room shows: the snapshot a member receives on joining, and the parts of it events
// repeat (the clocks, the nigiri, the marking and its count, the chat a viewer may read).
#include <algorithm>
#include <tuple>

#include "rooms/position_view.h"
#include "rooms/room.h"
#include "rooms/wording.h"

namespace tengen {

std::optional<protocol::ClockState> Room::clock_state(Steady now) const {
  if (!clock_.timed()) return std::nullopt;
  auto view = [&](Color c) {
    const PlayerTime t = clock_.left(c, now);
    return protocol::PlayerClock{t.main_ms, t.periods, t.period_ms, t.stones};
  };
  protocol::ClockState s{view(Color::Black), view(Color::White), {}};
  s.running = clock_.running();
  if (const auto until = clock_.stands_until(now)) {
    s.time_off_ms = ms_between(now, *until);
    if (clock_.on_vacation(now)) s.vacation = true;
  }
  return s;
}

std::pair<std::vector<protocol::ChatLine>, std::int64_t> Room::chat_for(
    bool all_channels, std::optional<std::int64_t> viewer) const {
  std::vector<const KeptLine*> visible;
  std::int64_t blocked = 0;  // lines kept that this viewer does not read: not "earlier" ones
  // The viewer's team's chat (pair Go), besides the players' and perhaps the spectators'.
  const auto colour = viewer ? color_of(*viewer) : std::nullopt;
  const std::size_t team = colour ? (*colour == Color::White ? 3 : 2) : 0;
  for (std::size_t channel = 0; channel < 4; ++channel) {
    if ((channel == 1 && !all_channels) || (channel >= 2 && channel != team)) continue;
    for (const auto& kept : chat_[channel]) {
      if (viewer && blocks_ && blocks_->blocks(*viewer, kept.line.from.id))
        ++blocked;
      else
        visible.push_back(&kept);
    }
  }
  std::sort(visible.begin(), visible.end(),
            [](const KeptLine* a, const KeptLine* b) { return a->line.seq > b->line.seq; });
  std::vector<protocol::ChatLine> lines;
  std::size_t bytes = 0;
  for (const KeptLine* kept : visible) {
    if (bytes + kept->bytes > kSnapshotChatBytes) break;
    bytes += kept->bytes;
    lines.push_back(kept->line);
  }
  std::reverse(lines.begin(), lines.end());
  const std::int64_t readable = chat_lines_[0] + (all_channels ? chat_lines_[1] : 0) +
                                (team ? chat_lines_[team] : 0) - blocked;
  return {std::move(lines), readable - static_cast<std::int64_t>(lines.size())};
}

protocol::NigiriState Room::nigiri_state() const {
  protocol::NigiriState n;
  if (!nigiri_) return n;
  n.commitment = nigiri_->commitment();
  // Until the draw, black_ seats the holder and white_ the guesser; the draw may swap them.
  const bool swapped = proof_ && proof_->guesser_black;
  n.holder = swapped ? white_ : black_;
  n.guesser = swapped ? black_ : white_;
  n.holder_chose = holder_seed_.has_value();
  n.guesser_chose = guesser_seed_.has_value();
  if (proof_) {
    n.secret = proof_->secret;
    n.nonce = proof_->nonce;
    n.holder_seed = proof_->holder_seed;
    n.guesser_seed = proof_->guesser_seed;
    n.guess = proof_->guess;
    n.stones = proof_->stones;
  }
  return n;
}

protocol::ScoreView Room::score_view(const Score& score) const {
  return tengen::score_view(score, game_->board().geometry(), rules_);
}

protocol::Marking Room::marking() const {
  protocol::Marking m;
  m.version = marking_version_;
  const std::vector<Point> dead(dead_.begin(), dead_.end());
  for (Point p : dead) m.dead.push_back(gtp(p));
  const Score score =
      score_position(game_->board(), rules_, dead,
                     {0, game_->prisoners(Color::Black), game_->prisoners(Color::White)},
                     game_->handicap_stones());
  m.score = score_view(score);
  m.accepted.black = accepted_[index_of(Color::Black)];
  m.accepted.white = accepted_[index_of(Color::White)];
  m.resumptions = resumptions_;
  return m;
}

int Room::moves_played() const noexcept {
  return game_ ? static_cast<int>(game_->moves().size()) : 0;
}

protocol::MyGame Room::my_game(std::int64_t user, Steady now) const {
  protocol::MyGame g{id_, black_, white_, settings_};
  g.moves = moves_played();
  g.clock = clock_state(now);
  const auto color = color_of(user);
  if (stage() == Stage::Playing) {
    g.to_move = game_ ? game_->to_move() : Color::Black;
    g.your_move = color == g.to_move;
    if (const auto next = member_to_move(*g.to_move); next && g.your_move) {
      g.your_move = next->id == user;  // pair Go: the partner's turn is not yours
    }
  } else if (stage() == Stage::Scoring) {
    // Counting waits for whoever has not accepted the current marking.
    g.your_move = color && !suggestion_pending_ && accepted_[index_of(*color)] != marking_version_;
  }
  return g;
}

protocol::GameSnapshot Room::snapshot_for(const std::optional<store::UserRecord>& viewer,
                                          Steady now) const {
  protocol::GameSnapshot s;
  s.game = id_;
  s.seq = channel_.seq();
  s.settings = settings_;
  s.black = black_;
  s.white = white_;
  const auto color = viewer ? color_of(viewer->id) : std::nullopt;
  const bool player = viewer && is_player(viewer->id);
  using protocol::Role;
  s.role = color    ? (*color == Color::Black ? Role::Black : Role::White)
           : player ? Role::Player
                    : Role::Spectator;
  const Geometry g{settings_.width, settings_.height};
  if (game_) {
    const Board& initial = game_->initial_board();
    for (int y = 0; y < g.height; ++y) {
      for (int x = 0; x < g.width; ++x) {
        if (initial.at(g.point(x, y)) == Color::Black)
          s.handicap_stones.push_back(g.to_gtp(g.point(x, y)));
      }
    }
    for (const Move& m : game_->moves()) {
      protocol::MoveRecord record{m.color, m.is_pass() ? "pass" : g.to_gtp(m.point), {}};
      if (const std::size_t i = s.moves.size(); i < clock_after_.size()) {
        const PlayerTime& t = clock_after_[i];
        record.left = protocol::PlayerClock{t.main_ms, t.periods, t.period_ms, t.stones};
      }
      s.moves.push_back(std::move(record));
    }
    s.to_move = game_->to_move();
    // Resumed from the count, nobody has moved since: the last move a pass, but none in a row.
    if (stage() == Stage::Playing && !s.moves.empty() && s.moves.back().vertex == "pass" &&
        game_->consecutive_passes() == 0)
      s.resumed = true;
    s.captures.black = game_->prisoners(Color::Black);
    s.captures.white = game_->prisoners(Color::White);
  } else {
    for (Point p : free_stones_) s.handicap_stones.push_back(g.to_gtp(p));
    s.to_move = Color::Black;
  }
  switch (stage()) {
    case Stage::Nigiri:
      s.phase = protocol::Phase::Nigiri;
      break;
    case Stage::Playing:
      s.phase = protocol::Phase::Playing;
      break;
    case Stage::Scoring:
      s.phase = protocol::Phase::Scoring;
      break;
    case Stage::Over:
      s.phase = protocol::Phase::Finished;
      break;
  }
  s.result = result_;
  s.undo_requested = undo_requested_by_.has_value();
  std::tie(s.chat, s.chat_omitted) = chat_for(
      !player || finished(), viewer ? std::optional<std::int64_t>(viewer->id) : std::nullopt);
  s.clock = clock_state(now);
  if (nigiri_) s.nigiri = nigiri_state();
  if (stage() == Stage::Scoring && !suggestion_pending_) s.marking = marking();
  for (const Color c : {Color::Black, Color::White}) {
    if (!absent_since_[index_of(c)] || finished()) continue;
    protocol::Absence a{c, {}};
    if (const auto at = claim_at(c))
      a.claim_in_ms = std::max<std::int64_t>(0, ms_between(now, *at));
    s.absent.push_back(a);
  }
  s.final_score = final_score_;
  if (final_score_) {
    for (Point p : dead_) s.final_dead.push_back(g.to_gtp(p));
  }
  s.abortable = !finished() && !both_moved();
  if (const auto deadline = first_move_deadline())
    s.first_move_in_ms = std::max<std::int64_t>(0, ms_between(now, *deadline));
  s.first_move_ms = options_.start_timeout.count();
  // The viewer's own conditional moves (GCC 12 misjudges `color` here as maybe unset).
  for (const Color c : {Color::Black, Color::White}) {
    if (s.role == (c == Color::Black ? Role::Black : Role::White) &&
        !conditional_[index_of(c)].empty())
      s.conditional_moves =
          conditional_lines(conditional_[index_of(c)], {settings_.width, settings_.height});
  }
  s.watching = watching();
  s.tournament = options_.tournament;
  return s;
}

}  // namespace tengen
