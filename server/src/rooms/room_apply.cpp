#include <stdexcept>
#include <string>

#include "protocol/overloaded.h"
#include "rooms/room.h"
#include "rooms/room_records.h"

namespace tengen {

// Room's half that makes changes: every change of a game's state made in one place, apply(),
// shared by the commands (which judged them first) and by recovery (which judges each stored
// move, then applies it); the helpers it needs.

using protocol::EndReason;

void Room::place_free_stone(Point p) {
  free_stones_.push_back(p);
  moved_[index_of(Color::Black)] = true;
  if (static_cast<int>(free_stones_.size()) == settings_.handicap) {
    game_.emplace(Game::with_free_handicap(Geometry{settings_.width, settings_.height}, rules_,
                                           free_stones_));
  }
}

// Back to just before the requester's last move: that move, and the reply if played.
int Room::take_back(Color requester) {
  const auto& moves = game_->moves();
  std::size_t keep = moves.size();
  while (keep > 0 && moves[keep - 1].color != requester) --keep;
  const int taken = static_cast<int>(moves.size() - (keep - 1));
  game_->undo_to(keep - 1);
  if (clock_after_.size() > keep - 1) clock_after_.resize(keep - 1);
  return taken;
}

// Both nigiri choices are in: reveal, and seat the players by the draw.
void Room::draw_colours() {
  proof_ = nigiri_->reveal(*holder_seed_, *guesser_seed_, *guess_);
  if (proof_->guesser_black) std::swap(black_, white_);  // the guesser sat in white_'s seat
  pending_.writes.push_back(store::GameSeated{id_, black_.id, white_.id});
}

namespace {

// A stored record that does not fit the game's state (a corrupt file): recovery stops.
std::runtime_error inconsistent(protocol::GameId game, protocol::Seq seq, const char* kind,
                                const std::string& why) {
  return std::runtime_error("game " + std::to_string(game) + ", event " + std::to_string(seq) +
                            (kind ? std::string(" (") + kind + ")" : std::string()) + ": " + why);
}

std::optional<Point> vertex_of(const records::Moved& m, const Geometry& g) {
  return m.vertex == "pass" ? std::optional<Point>(kPass) : g.parse_gtp(m.vertex);
}

}  // namespace

void Room::judge_stored(const records::Record& record, protocol::Seq seq, const char* kind) const {
  const auto* m = std::get_if<records::Moved>(&record);
  if (!m || !game_) return;  // free handicap stones are judged by their placement
  const auto p = vertex_of(*m, Geometry{settings_.width, settings_.height});
  if (!p) return;  // apply() names it
  if (const MoveError e = game_->check({m->color, *p}); e != MoveError::Ok) {
    throw inconsistent(id_, seq, kind,
                       m->vertex + " is not a legal move here: " + std::string(to_string(e)));
  }
}

// The one place each change of a game's state is made: by a command now (which then publishes
// the record with its event), and by a stored event on recovery. A record that does not fit the
// state (a corrupt file) throws: recovery stops rather than invent a game.
Room::Applied Room::apply(const records::Record& record, protocol::Seq seq, const char* kind) {
  auto inconsistent = [&](const std::string& why) {
    return tengen::inconsistent(id_, seq, kind, why);
  };
  const Geometry g{settings_.width, settings_.height};
  Applied applied;
  std::visit(Overloaded{
                 [&](const records::Moved& m) {
                   const auto parsed = vertex_of(m, g);
                   if (!parsed)
                     throw inconsistent("'" + m.vertex + "' is not a point of this board");
                   if (!game_) {
                     place_free_stone(*parsed);
                   } else {
                     applied.removed = game_->play_judged({m.color, *parsed});
                     moved_[index_of(m.color)] = true;
                     undo_requested_by_.reset();
                     // Play stopped: a scoring event follows (the suggestion is still to come).
                     if (game_->phase() == Game::Phase::Scoring) suggestion_pending_ = true;
                   }
                   if (m.clocks) {
                     clock_.restore(Color::Black, (*m.clocks)[0]);
                     clock_.restore(Color::White, (*m.clocks)[1]);
                   }
                   if (game_ && clock_.timed() && game_->moves().size() > clock_after_.size())
                     clock_after_.push_back(clock_.kept(m.color));
                 },
                 [&](const records::UndoAsked& u) { undo_requested_by_ = u.by; },
                 [&](const records::UndoAnswered& u) {
                   if (!undo_requested_by_) throw inconsistent("an answer to no undo request");
                   const Color requester = *std::exchange(undo_requested_by_, std::nullopt);
                   applied.taken_back = u.accepted ? take_back(requester) : 0;
                 },
                 [&](const records::Chatted& c) {
                   keep_chat({seq, c.from, c.channel, c.text, c.at_ms});
                 },
                 [&](const records::ChatRemoved& c) { erase_chat(c.line); },
                 [&](const records::NigiriChosen& n) {
                   (n.guesser ? guesser_seed_ : holder_seed_) = n.seed;
                   if (n.guesser) guess_ = n.guess;
                   if (holder_seed_ && guesser_seed_) draw_colours();
                 },
                 [&](const records::Marked& m) {
                   if (!game_) throw inconsistent("a marking before the game began");
                   suggestion_pending_ = false;
                   dead_.clear();
                   for (const auto& v : m.dead) {
                     const auto p = g.parse_gtp(v);
                     if (!p || *p == kPass)
                       throw inconsistent("'" + v + "' is not a point of this board");
                     dead_.insert(*p);
                   }
                   marking_version_ = m.version;
                   accepted_ = {};
                 },
                 [&](const records::ScoreAccepted& a) { accepted_[index_of(a.by)] = a.version; },
                 [&](const records::Resumed& r) {
                   if (!game_ || game_->phase() != Game::Phase::Scoring)
                     throw inconsistent("a resumption outside the scoring phase");
                   game_->resume(r.first);
                   ++resumptions_;
                   suggestion_pending_ = false;
                   dead_.clear();
                   accepted_ = {};
                 },
                 [&](const records::ConditionalSet& c) {
                   auto tree = conditional_tree(c.lines, g);
                   if (auto* problem = std::get_if<std::string>(&tree))
                     throw inconsistent("unreadable conditional moves: " + *problem);
                   conditional_[index_of(c.by)] = std::move(std::get<ConditionalTree>(tree));
                 },
                 [&](const records::Ended& e) {
                   result_ = e.result;
                   final_score_ = e.score;
                   undo_requested_by_.reset();
                 },
             },
             record);
  return applied;
}

std::unique_ptr<Room> Room::recover(const store::StoredGame& stored,
                                    protocol::GameSettings settings, protocol::UserRef first,
                                    protocol::UserRef second, Steady now, RoomOptions options) {
  std::optional<Nigiri> nigiri;
  if (stored.created.nigiri_secret && stored.created.nigiri_nonce) {
    nigiri.emplace(*stored.created.nigiri_secret, *stored.created.nigiri_nonce);
  }
  auto room = std::make_unique<Room>(stored.created.id, std::move(settings), std::move(first),
                                     std::move(second), std::move(nigiri), now, options);
  room->channel_.forget_kept();
  for (const auto& e : stored.events) {
    std::optional<Color> only;
    if (auto record = records::read(e)) {
      room->judge_stored(*record, static_cast<protocol::Seq>(e.seq), e.kind.c_str());
      room->apply(*record, static_cast<protocol::Seq>(e.seq), e.kind.c_str());
      if (const auto* c = std::get_if<records::ConditionalSet>(&*record)) only = c->by;
      if (const auto* c = std::get_if<records::Chatted>(&*record);
          c && c->channel == protocol::Channel::Team) {
        only = room->color_of(c->from.id);  // a team's chat stays the team's
      }
    }
    room->channel_.restore_seq(static_cast<protocol::Seq>(e.seq));
    room->channel_.keep({room->channel_.seq(),
                         std::make_shared<const std::string>(e.text),
                         {.spectators_only = e.spectators_only, .only = only}});
  }
  room->pending_ = {};  // all of it is stored already
  room->start_turn(now);
  if (room->stage() == Stage::Scoring) room->scoring_start_ = now;
  if (room->stage() != Stage::Nigiri) room->absent_since_ = {std::nullopt, now, now};
  return room;
}

}  // namespace tengen
