#include "rooms/room.h"

#include <algorithm>
#include <utility>

#include "engine/scoring.h"

namespace tengen {
namespace {

using protocol::ErrorCode;

std::string color_name(Color c) { return c == Color::Black ? "black" : "white"; }

std::string why_illegal(MoveError e, const std::string& vertex) {
  switch (e) {
    case MoveError::Occupied: return "occupied: there is already a stone on " + vertex;
    case MoveError::Suicide: return "suicide: a stone on " + vertex + " would have no liberty";
    case MoveError::Ko: return "ko: retaking at once is not allowed; play elsewhere first";
    case MoveError::PositionalSuperko: return "superko: " + vertex + " would repeat an earlier position";
    case MoveError::SituationalSuperko:
      return "superko: " + vertex + " would repeat an earlier position with the same player to move";
    case MoveError::OffBoard: return vertex + " is not on the board";
    default: return std::string(to_string(e));
  }
}

Rules rules_for(const protocol::GameSettings& s) {
  Rules r = *Rules::preset(s.ruleset);
  r.komi = s.komi.value_or(s.handicap > 0 ? 0.5 : r.komi);
  return r;
}

bool free_placement(const protocol::GameSettings& s, const Rules& r) {
  using P = protocol::GameSettings::Placement;
  return s.placement == P::Free || (s.placement == P::Ruleset && r.free_handicap);
}

}  // namespace

Room::Room(protocol::GameId id, protocol::GameSettings settings, protocol::UserRef black, protocol::UserRef white)
    : id_(id), settings_(std::move(settings)), black_(std::move(black)), white_(std::move(white)), rules_(rules_for(settings_)) {
  const Geometry g{settings_.width, settings_.height};
  if (settings_.handicap >= 2 && free_placement(settings_, rules_)) return;  // Black places them first
  game_.emplace(Game::with_fixed_handicap(g, rules_, settings_.handicap));
}

std::optional<Color> Room::color_of(std::int64_t user) const {
  if (user == black_.id) return Color::Black;
  if (user == white_.id) return Color::White;
  return std::nullopt;
}

protocol::Error Room::error(const std::string& cid, ErrorCode code, std::string message) const {
  return protocol::Error{cid, code, std::move(message), id_};
}

bool Room::sees(const std::shared_ptr<Connection>& who, const Event& e) const {
  if (!e.spectators_only || finished()) return true;
  return !(who->user() && color_of(who->user()->id));
}

protocol::Ack Room::publish(const std::string& cid, protocol::RoomEventBody body, bool spectators_only) {
  ++seq_;
  if (auto* chat = std::get_if<protocol::ChatPosted>(&body)) chat->line.seq = seq_;
  const Event e{seq_, spectators_only,
                std::make_shared<const std::string>(protocol::encode(protocol::RoomEvent{id_, seq_, std::move(body)}))};
  for (const auto& member : members_) {
    if (sees(member, e)) member->send(e.text);
  }
  events_.push_back(e);
  if (events_.size() > kKeptEvents) events_.pop_front();
  return protocol::Ack{cid, id_, seq_, {}};
}

Room::Reply Room::join(const std::shared_ptr<Connection>& who, const std::string& cid, std::optional<protocol::Seq> since) {
  const bool player = who->user() && color_of(who->user()->id);
  if (settings_.is_private && !player) return error(cid, ErrorCode::Forbidden, "this game is private");
  members_.insert(who);
  const bool can_resume = since && *since <= seq_ && (events_.empty() || *since + 1 >= events_.front().seq);
  if (can_resume) {
    for (const auto& e : events_) {
      if (e.seq > *since && sees(who, e)) who->send(e.text);
    }
  } else {
    who->send(snapshot_for(who->user()));
  }
  return protocol::Ack{cid, id_, seq_, {}};
}

void Room::leave(const std::shared_ptr<Connection>& who) { members_.erase(who); }

std::optional<protocol::Error> Room::check_turn(std::int64_t user, const std::string& cid) const {
  const auto color = color_of(user);
  if (!color) return error(cid, ErrorCode::Forbidden, "you are not a player of this game");
  if (finished()) return error(cid, ErrorCode::GameOver, "the game is over: " + *result_);
  if (game_ && game_->phase() == Game::Phase::Scoring) {
    return error(cid, ErrorCode::GameOver, "play has stopped: the game is in its scoring phase");
  }
  const Color to_move = game_ ? game_->to_move() : Color::Black;
  if (*color != to_move) return error(cid, ErrorCode::NotYourTurn, "it is " + color_name(to_move) + "'s move");
  return std::nullopt;
}

Room::Reply Room::play(std::int64_t user, const std::string& cid, const std::string& vertex) {
  if (auto e = check_turn(user, cid)) return *e;
  const Geometry g{settings_.width, settings_.height};
  const auto point = g.parse_gtp(vertex);
  if (!point) {
    return error(cid, ErrorCode::BadField,
                 "'" + vertex + "' is not a point on this " + std::to_string(g.width) + "x" +
                     std::to_string(g.height) + " board (GTP coordinates such as D4, no letter I)");
  }
  if (*point == kPass) return pass(user, cid);
  if (!game_) {  // free handicap: Black's stones go down one by one before White's first move
    if (std::find(free_stones_.begin(), free_stones_.end(), *point) != free_stones_.end()) {
      return error(cid, ErrorCode::IllegalMove, "occupied: there is already a handicap stone on " + vertex);
    }
    free_stones_.push_back(*point);
    if (static_cast<int>(free_stones_.size()) == settings_.handicap) {
      game_.emplace(Game::with_free_handicap(g, rules_, free_stones_));
    }
    return publish(cid, protocol::MovePlayed{"black", g.to_gtp(*point), {}});
  }
  return apply(user, cid, *point);
}

Room::Reply Room::pass(std::int64_t user, const std::string& cid) {
  if (auto e = check_turn(user, cid)) return *e;
  if (!game_) return error(cid, ErrorCode::IllegalMove, "place your handicap stones before passing");
  return apply(user, cid, kPass);
}

Room::Reply Room::apply(std::int64_t user, const std::string& cid, Point point) {
  const Color color = *color_of(user);
  const MoveError e = game_->check({color, point});
  if (e != MoveError::Ok) return error(cid, ErrorCode::IllegalMove, why_illegal(e, gtp(point)));
  const Board before = game_->board();
  game_->play({color, point});
  std::vector<std::string> captured;
  const Geometry& g = before.geometry();
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Point p = g.point(x, y);
      // Every stone that left the board: the opponent's, and in a suicide the mover's own,
      // the stone just played included.
      const bool was_there = is_stone(before.at(p)) || p == point;
      if (was_there && game_->board().at(p) == Color::Empty) captured.push_back(g.to_gtp(p));
    }
  }
  undo_requested_by_.reset();
  const auto ack = publish(cid, protocol::MovePlayed{color_name(color), point == kPass ? "pass" : gtp(point), captured});
  if (game_->phase() == Game::Phase::Over && game_->result()) {
    finish("", game_->result()->to_sgf(), "repetition");
  } else if (game_->phase() == Game::Phase::Scoring && settings_.ruleset == "tromp-taylor") {
    finish("", tromp_taylor_score(game_->board(), rules_.komi).result().to_sgf(), "passes");
  }
  return ack;
}

protocol::Ack Room::finish(const std::string& cid, const std::string& result, const std::string& reason) {
  result_ = result;
  undo_requested_by_.reset();
  return publish(cid, protocol::GameEnded{result, reason});
}

Room::Reply Room::resign(std::int64_t user, const std::string& cid) {
  const auto color = color_of(user);
  if (!color) return error(cid, ErrorCode::Forbidden, "you are not a player of this game");
  if (finished()) return error(cid, ErrorCode::GameOver, "the game is over: " + *result_);
  if (game_) game_->resign(*color);
  return finish(cid, Result::resignation(opponent(*color)).to_sgf(), "resignation");
}

Room::Reply Room::request_undo(std::int64_t user, const std::string& cid) {
  const auto color = color_of(user);
  if (!color) return error(cid, ErrorCode::Forbidden, "you are not a player of this game");
  if (finished()) return error(cid, ErrorCode::GameOver, "the game is over: " + *result_);
  if (!game_ || game_->phase() != Game::Phase::Playing) {
    return error(cid, ErrorCode::Forbidden, "undo is only possible while the game is being played");
  }
  if (undo_requested_by_) return error(cid, ErrorCode::Conflict, "an undo request is already waiting for an answer");
  const auto& moves = game_->moves();
  if (std::none_of(moves.begin(), moves.end(), [&](const Move& m) { return m.color == *color; })) {
    return error(cid, ErrorCode::Forbidden, "you have no move to take back");
  }
  undo_requested_by_ = *color;
  return publish(cid, protocol::UndoRequested{color_name(*color)});
}

Room::Reply Room::answer_undo(std::int64_t user, const std::string& cid, bool accept) {
  const auto color = color_of(user);
  if (!color) return error(cid, ErrorCode::Forbidden, "you are not a player of this game");
  if (!undo_requested_by_) return error(cid, ErrorCode::Conflict, "there is no undo request to answer");
  if (*undo_requested_by_ == *color) return error(cid, ErrorCode::Forbidden, "you cannot answer your own undo request");
  const Color requester = *std::exchange(undo_requested_by_, std::nullopt);
  int taken = 0;
  if (accept) {
    // Back to just before the requester's last move: that move, and the reply if played.
    const auto& moves = game_->moves();
    std::size_t keep = moves.size();
    while (keep > 0 && moves[keep - 1].color != requester) --keep;
    taken = static_cast<int>(moves.size() - (keep - 1));
    game_->undo_to(keep - 1);
  }
  return publish(cid, protocol::UndoAnswered{accept, taken});
}

Room::Reply Room::chat(const protocol::UserRef& from, const std::string& cid, const std::string& text) {
  const bool player = color_of(from.id).has_value();
  protocol::ChatLine line{0, from, player ? "players" : "spectators", text};
  auto ack = publish(cid, protocol::ChatPosted{line}, !player);
  line.seq = ack.seq.value_or(0);
  chat_.push_back(line);
  return ack;
}

protocol::GameSnapshot Room::snapshot_for(const std::optional<store::UserRecord>& viewer) const {
  protocol::GameSnapshot s;
  s.game = id_;
  s.seq = seq_;
  s.settings = settings_;
  s.black = black_;
  s.white = white_;
  const auto color = viewer ? color_of(viewer->id) : std::nullopt;
  s.role = color ? color_name(*color) : "spectator";
  const Geometry g{settings_.width, settings_.height};
  if (game_) {
    const Board& initial = game_->initial_board();
    for (int y = 0; y < g.height; ++y) {
      for (int x = 0; x < g.width; ++x) {
        if (initial.at(g.point(x, y)) == Color::Black) s.handicap_stones.push_back(g.to_gtp(g.point(x, y)));
      }
    }
    for (const Move& m : game_->moves()) s.moves.push_back({color_name(m.color), m.is_pass() ? "pass" : g.to_gtp(m.point)});
    s.to_move = color_name(game_->to_move());
    s.black_captures = game_->prisoners(Color::Black);
    s.white_captures = game_->prisoners(Color::White);
  } else {
    for (Point p : free_stones_) s.handicap_stones.push_back(g.to_gtp(p));
    s.to_move = "black";
  }
  s.phase = finished() ? protocol::Phase::Finished
            : game_ && game_->phase() == Game::Phase::Scoring ? protocol::Phase::Scoring
                                                              : protocol::Phase::Playing;
  s.result = result_;
  s.undo_requested = undo_requested_by_.has_value();
  for (const auto& line : chat_) {
    if (line.channel == "players" || !color || finished()) s.chat.push_back(line);
  }
  return s;
}

}  // namespace tengen
