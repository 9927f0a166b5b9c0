#include "games/game_actor.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/overloaded.h"
#include "rooms/replies.h"
#include "store/unreachable.h"

namespace tengen::games {
namespace {

using protocol::ErrorCode;
using replies::error;

protocol::Error no_game(const std::string& cid, protocol::GameId id) {
  return error(cid, ErrorCode::NotFound, "no game " + std::to_string(id));
}

}  // namespace

GameActor::GameActor(protocol::GameId id, GameHost& host, std::unique_ptr<Mailbox> mailbox)
    : id_(id), host_(host), mailbox_(std::move(mailbox)) {}

void GameActor::post(Input input) {
  // On the caller's thread when the game is idle (actor_pool.h); the room's arrival and its
  // absence (start, missing) come from the loader, whose thread never runs a game.
  mailbox_->run_or_post([self = shared_from_this(), input = std::move(input)]() mutable {
    self->receive(std::move(input));
  });
}

void GameActor::start(std::unique_ptr<Room> room, std::int64_t epoch, int told_moves) {
  started_ = true;
  auto arrived = std::make_shared<std::unique_ptr<Room>>(std::move(room));
  mailbox_->post([self = shared_from_this(), arrived, epoch, told_moves] {
    self->room_ = std::move(*arrived);
    self->epoch_ = epoch;
    self->told_moves_ = told_moves;
    self->state_ = State::Running;
    self->finished_ = self->room_->finished();
    if (self->waiting_.empty()) {  // a deadline may have passed while it was away
      Outbox out;
      self->finish(out);
      return;
    }
    self->handle_waiting();
  });
}

void GameActor::handle_waiting() {
  auto waiting = std::move(waiting_);
  waiting_.clear();
  // One that pauses it again (Ending) sends the rest back to waiting_, in order.
  for (auto& input : waiting) receive(std::move(input));
}

void GameActor::missing() {
  mailbox_->post([self = shared_from_this()] {
    self->state_ = State::Missing;
    auto waiting = std::move(self->waiting_);
    self->waiting_.clear();
    for (auto& input : waiting) self->refuse(input);
  });
}

void GameActor::receive(Input input) {
  switch (state_) {
    case State::Loading:
    case State::Ending:
      waiting_.push_back(std::move(input));
      return;
    case State::Missing:
      refuse(input);
      return;
    case State::Gone:  // it left memory after this was posted: the directory brings it back
      host_.redeliver(id_, std::move(input));
      return;
    case State::Running:
      break;
  }
  Outbox out;
  std::function<void()> after;
  try {
    after = handle(input, out);
  } catch (const std::exception& e) {
    // Nothing it produced is kept (the database went away while a name or a calendar was read,
    // or a fault of ours); the command is told, and the game goes on with its next input.
    spdlog::error("game {}: an input failed: {}", id_, e.what());
    out = Outbox{};
    fail(input, dynamic_cast<const store::Unreachable*>(&e) != nullptr);
  }
  finish(out, std::move(after));
}

void GameActor::fail(Input& input, bool unreachable) {
  if (auto* r = std::get_if<Read>(&input)) return r->look(nullptr);  // nobody waits for ever
  if (auto* m = std::get_if<Moderate>(&input)) {
    if (m->done)
      m->done(moderation::Refused{moderation::Refused::Why::Failed,
                                  "the game could not do that (the server logged why)"});
    return;
  }
  auto* c = std::get_if<Command>(&input);
  if (!c) return;
  const Reply reply = unreachable ? error(c->cid, ErrorCode::Unavailable, replies::kDatabaseAway)
                                  : error(c->cid, ErrorCode::Internal,
                                          "the game could not do that (the server logged why)");
  Outbox out;
  if (c->answered) c->answered(out, reply);
  host_.commit(out);
  if (c->submitted) c->submitted(reply);
}

// Answers an input for a game that does not exist (here).
void GameActor::refuse(Input& input) {
  const auto id = id_;
  std::visit(Overloaded{[&](Command& c) {
                          const Reply reply = no_game(c.cid, id);
                          Outbox out;
                          if (c.answered) c.answered(out, reply);
                          host_.commit(out);
                          if (c.submitted) c.submitted(reply);
                        },
                        [&](Moderate& m) { m.done(moderation::no_such_game(id)); },
                        [&](Read& r) { r.look(nullptr); }, [](auto&) {}},
             input);
}

// What the input does to the room; returns what is left to do once it is submitted.
std::function<void()> GameActor::handle(Input& input, Outbox& out) {
  Room& room = *room_;
  const Steady now = host_.steady_now();
  return std::visit(
      Overloaded{[&](Command& c) -> std::function<void()> {
                   // Deadlines that passed are noticed first (a flag the timer has not delivered
                   // yet).
                   room.tick(now);
                   Reply reply = command(c);
                   room.drain_into(out);  // the events a command caused go before its reply
                   if (c.answered) c.answered(out, reply);
                   if (!c.submitted) return {};
                   return [submitted = std::move(c.submitted), reply = std::move(reply)] {
                     submitted(reply);
                   };
                 },
                 [&](Tick&) -> std::function<void()> {
                   room.tick(now);
                   return {};
                 },
                 [&](Suggested& s) -> std::function<void()> {
                   room.suggested(s.job, s.dead);
                   return {};
                 },
                 [&](Adjudicate& a) -> std::function<void()> {
                   room.adjudicate(a.result, a.reason, now);
                   return {};
                 },
                 [&](Leave& l) -> std::function<void()> {
                   room.leave(l.who, now);
                   return {};
                 },
                 [&](Moderate& m) -> std::function<void()> {
                   return [done = std::move(m.done),
                           outcome = moderation::act_on(room, m.action, now)] { done(outcome); };
                 },
                 [&](Read& r) -> std::function<void()> {
                   r.look(&room);
                   return {};
                 }},
      input);
}

Reply GameActor::command(Command& c) {
  Room& room = *room_;
  const Steady now = host_.steady_now();
  if (const auto* join = std::get_if<protocol::JoinGame>(&c.message))
    return room.join(c.who, c.cid, join->since, now);
  if (const auto* leave = std::get_if<protocol::LeaveGame>(&c.message)) {
    room.leave(c.who, now);
    return protocol::Ack{c.cid, leave->game, {}, {}, {}};
  }
  const auto& user = c.who->user();
  if (!user)
    return error(c.cid, ErrorCode::NotAuthenticated, "guests may watch but not play: log in first");
  return room_command({user->id, user->username}, c, now);
}

// The commands a logged-in user gives inside a game.
Reply GameActor::room_command(const protocol::UserRef& user, Command& c, Steady now) {
  Room& r = *room_;
  const std::int64_t me = user.id;
  const std::string& cid = c.cid;
  return std::visit(
      Overloaded{
          [&](const protocol::SendChat& m) -> Reply {
            if (auto refused = host_.too_much_chat(me, cid, now)) return *refused;
            return r.chat(user, cid, m.text, host_.unix_ms(), m.team.value_or(false));
          },
          [&](const protocol::PlayMove& m) {
            return r.play(me, cid, m.vertex, {now, m.think_ms, c.rtt_ms});
          },
          [&](const protocol::PassMove& m) {
            return r.pass(me, cid, {now, m.think_ms, c.rtt_ms});
          },
          [&](const protocol::Resign&) { return r.resign(me, cid, now); },
          [&](const protocol::RequestUndo&) { return r.request_undo(me, cid); },
          [&](const protocol::AnswerUndo& m) { return r.answer_undo(me, cid, m.accept, now); },
          [&](const protocol::NigiriChoice& m) {
            return r.choose_nigiri(me, cid, m.seed, m.guess, now);
          },
          [&](const protocol::AbortGame&) { return r.abort(me, cid, now); },
          [&](const protocol::ClaimWin&) { return r.claim_win(me, cid, now); },
          [&](const protocol::MarkDead& m) { return r.mark(me, cid, m.vertex, m.dead); },
          [&](const protocol::AcceptScore& m) { return r.accept_score(me, cid, m.version, now); },
          [&](const protocol::ResumePlay&) { return r.resume(me, cid, now); },
          [&](const protocol::SetConditionalMoves& m) {
            return r.set_conditional_moves(me, cid, m.lines);
          },
          [&](const auto&) -> Reply {
            return error(cid, ErrorCode::Internal, "this command has no handler");
          },
      },
      c.message);
}

void GameActor::finish(Outbox& out, std::function<void()> after) {
  Room& room = *room_;
  if (auto job = room.take_suggestion_job()) host_.suggest(std::move(*job));
  room.drain_into(out);
  host_.arm(id_, room.next_deadline());
  notify_players(out);
  fence(out);
  if (out.ended.empty()) {
    host_.commit(out);
    settle(after);
    return;
  }
  // Game over: its ratings and its tournament's news go with it, in one submission; the game's
  // next inputs wait until it is made.
  state_ = State::Ending;
  host_.commit_ended(std::move(out), room,
                     [self = shared_from_this(), after = std::move(after)]() mutable {
                       self->mailbox_->post([self, after = std::move(after)] {
                         self->state_ = State::Running;
                         self->settle(after);
                         self->handle_waiting();
                       });
                     });
}

void GameActor::settle(const std::function<void()>& after) {
  Room& room = *room_;
  finished_ = room.finished();
  if (after) after();
  if (room.finished() && !room.watched()) {
    // Over and unwatched: it leaves memory, and comes back from the store if asked for again.
    state_ = State::Gone;
    room_.reset();
    host_.done_with(*this);
  }
}

namespace {
// A colour's player, or each player of a pair Go game's team (docs/events.md).
std::vector<std::int64_t> players_of(const Room& room, Color c) {
  if (const auto& teams = room.settings().teams) {
    std::vector<std::int64_t> ids;
    for (const auto& m : c == Color::Black ? teams->black : teams->white) ids.push_back(m.id);
    return ids;
  }
  return {(c == Color::Black ? room.black() : room.white()).id};
}
}  // namespace

void GameActor::notify_players(const Outbox& out) {
  Room& room = *room_;
  for (const Color back : room.take_returned()) {  // a live game's player came back
    const auto& returner = back == Color::Black ? room.black() : room.white();
    // The other colour's player, or each player of a pair Go game's other team.
    for (const auto waiting : players_of(room, opponent(back))) {
      host_.notify(PlayerNotice{PlayerNotice::Kind::OpponentBack, id_, waiting, opponent(back),
                                returner.name, room.moves_played()});
    }
  }
  if (!room.correspondence()) return;
  if (!room.finished()) {
    const int moves = room.moves_played();
    if (told_moves_ == moves) return;
    const auto now = host_.steady_now();
    for (const auto* player : {&room.black(), &room.white()}) {
      const auto g = room.my_game(player->id, now);
      if (!g.to_move || !g.your_move) continue;  // the nigiri, the counting: nobody to move
      told_moves_ = moves;
      const auto& other = player == &room.black() ? room.white() : room.black();
      host_.notify(PlayerNotice{PlayerNotice::Kind::YourMove, id_, player->id, *g.to_move,
                                other.name, moves});
    }
    return;
  }
  for (const auto& over : out.ended) {
    if (over.game != id_) continue;
    for (const Color c : {Color::Black, Color::White}) {
      const auto& other = c == Color::Black ? room.white() : room.black();
      for (const auto player : players_of(room, c)) {
        host_.notify(PlayerNotice{PlayerNotice::Kind::GameOver, id_, player, c, other.name,
                                  room.moves_played(), over.result});
      }
    }
  }
}

void GameActor::fence(Outbox& out) const {
  const bool written = std::any_of(out.writes.begin(), out.writes.end(), [](const auto& w) {
    return std::holds_alternative<store::GameEvent>(w) ||
           std::holds_alternative<store::GameSeated>(w) ||
           std::holds_alternative<store::GameFinished>(w);
  });
  if (written) out.writes.push_back(store::Fence{id_, epoch_});
}

}  // namespace tengen::games
