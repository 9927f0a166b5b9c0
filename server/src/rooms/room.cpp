#include "rooms/room.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>
#include <utility>

#include "engine/scoring.h"
#include "engine/sgf.h"
#include "protocol/overloaded.h"
#include "rooms/room_records.h"
#include "rooms/wording.h"

namespace tengen {
namespace {

using protocol::EndReason;
using protocol::ErrorCode;
using json = nlohmann::json;

// Both clocks as kept between turns, for a move's record; none in an untimed game.
std::optional<std::array<PlayerTime, 2>> kept_clocks(const GameClock& clock) {
  if (!clock.timed()) return std::nullopt;
  return std::array<PlayerTime, 2>{clock.kept(Color::Black), clock.kept(Color::White)};
}

bool free_placement(const protocol::GameSettings& s, const Rules& r) {
  using P = protocol::GameSettings::Placement;
  return s.placement == P::Free || (s.placement == P::Ruleset && r.free_handicap);
}

// A correspondence game (docs/correspondence.md) is played over days by players who are mostly
// away: its first move and its counting may take as long as a move, and nobody's absence counts.
RoomOptions fitted(RoomOptions options, const protocol::GameSettings& settings) {
  if (settings.time.system == protocol::TimeControl::System::Correspondence) {
    const Millis move{settings.time.per_move_ms};
    options.start_timeout = std::max(options.start_timeout, move);
    options.scoring_timeout = std::max(options.scoring_timeout, move);
  }
  return options;
}

}  // namespace

Room::Room(protocol::GameId id, protocol::GameSettings settings, protocol::UserRef first,
           protocol::UserRef second, std::optional<Nigiri> nigiri, Steady now, RoomOptions options)
    : id_(id),
      settings_(std::move(settings)),
      black_(std::move(first)),
      white_(std::move(second)),
      options_(fitted(options, settings_)),
      rules_(protocol::rules_of(settings_)),
      clock_(settings_.time, options_.lag),
      nigiri_(std::move(nigiri)),
      turn_start_(now) {
  const Geometry g{settings_.width, settings_.height};
  if (!(settings_.handicap >= 2 &&
        free_placement(settings_, rules_))) {  // else Black places them first
    game_.emplace(Game::with_fixed_handicap(g, rules_, settings_.handicap));
  }
  if (nigiri_) publish("", protocol::NigiriStarted{nigiri_state()});
}

std::optional<Color> Room::color_of(std::int64_t user) const {
  if (nigiri_ && !proof_) return std::nullopt;  // colours are not drawn yet
  if (user == black_.id) return Color::Black;
  if (user == white_.id) return Color::White;
  return std::nullopt;
}

Room::Stage Room::stage() const {
  if (result_) return Stage::Over;
  if (nigiri_ && !proof_) return Stage::Nigiri;
  if (game_ && game_->phase() == Game::Phase::Scoring) return Stage::Scoring;
  if (game_ && game_->phase() == Game::Phase::Over)
    return Stage::Over;  // a repetition, about to be finished
  return Stage::Playing;
}

protocol::Error Room::error(const std::string& cid, ErrorCode code, std::string message) const {
  return protocol::Error{cid, code, std::move(message), id_};
}

bool Room::sees(const std::shared_ptr<Connection>& who, const EventAudience& e) const {
  const auto& user = who->user();
  if (e.only) return user && color_of(user->id) == e.only;
  if (e.author && blocks_ && user && blocks_->blocks(user->id, e.author)) return false;
  if (!e.spectators_only || finished()) return true;
  return !(user && is_player(user->id));
}

protocol::Ack Room::publish(const std::string& cid, protocol::RoomEventBody body,
                            const std::optional<records::Record>& record, bool spectators_only) {
  const protocol::Seq seq = channel_.next();
  EventAudience audience{.spectators_only = spectators_only};
  if (auto* chat = std::get_if<protocol::ChatPosted>(&body)) {
    chat->line.seq = seq;
    audience.author = chat->line.from.id;
  }
  if (const auto* c = std::get_if<protocol::ConditionalMoves>(&body)) audience.only = c->color;
  const char* kind = records::kind_of(body);
  auto text = std::make_shared<const std::string>(
      protocol::encode(protocol::RoomEvent{id_, seq, std::move(body)}));
  pending_.writes.push_back(store::GameEvent{
      id_, static_cast<std::int64_t>(seq), kind, spectators_only,
      record ? std::optional<std::string>(records::encode(*record)) : std::nullopt, *text, 0,
      std::nullopt, cid.empty() ? std::nullopt : std::optional<std::string>(cid)});
  channel_.publish({seq, std::move(text), audience}, pending_,
                   [this](const auto& who, const EventAudience& a) { return sees(who, a); });
  return protocol::Ack{cid, id_, seq, {}, {}};
}

std::optional<protocol::Error> Room::annul(Steady now) {
  if (result_ && result_->kind == Result::Kind::Void)
    return error("", ErrorCode::Conflict, "game " + std::to_string(id_) + " is void already");
  if (!finished()) {
    finish("", Result::void_game(), EndReason::Annulled, now);
    return std::nullopt;
  }
  const records::Ended ended{Result::void_game(), std::nullopt};
  apply(ended);
  publish("", protocol::GameEnded{ended.result, EndReason::Annulled, std::nullopt, std::nullopt},
          ended);
  pending_.writes.push_back(store::GameAnnulled{
      id_, ended.result.to_sgf(), std::string(protocol::wire::name(EndReason::Annulled)), sgf()});
  return std::nullopt;
}

std::optional<protocol::UserRef> Room::erase_chat(protocol::Seq line) {
  for (auto& channel : chat_) {
    for (auto& kept : channel) {
      if (kept.line.seq != line || kept.line.deleted) continue;
      kept.line.text.clear();
      kept.line.deleted = true;
      return kept.line.from;
    }
  }
  return std::nullopt;
}

std::variant<protocol::UserRef, protocol::Error> Room::delete_chat(protocol::Seq line) {
  const auto author = erase_chat(line);
  if (!author) {
    return error("", ErrorCode::NotFound,
                 "game " + std::to_string(id_) + " shows no chat line " + std::to_string(line) +
                     " (or it is deleted already)");
  }
  // A client resuming from before the line must not get its words back from the kept events.
  for (const auto& channel : chat_) {
    for (const auto& kept : channel) {
      if (kept.line.seq != line) continue;
      channel_.rewrite(line, std::make_shared<const std::string>(protocol::encode(
                                 protocol::RoomEvent{id_, line, protocol::ChatPosted{kept.line}})));
    }
  }
  publish("", protocol::ChatDeleted{line}, records::ChatRemoved{line}, false);
  return *author;
}

void Room::keep_chat(const protocol::ChatLine& line) {
  const auto channel = static_cast<std::size_t>(line.channel);  // players' 0, spectators' 1
  // The line's size as the snapshot will encode it: escaping can make text up to six times longer.
  const std::size_t bytes = json(line.text).dump().size() + json(line.from.name).dump().size() + 80;
  chat_[channel].push_back({line, bytes});
  if (chat_[channel].size() > kKeptChatLines) chat_[channel].pop_front();
  ++chat_lines_[channel];
  ++chat_by_[line.from.id];
}

bool Room::present(std::int64_t user) const {
  return std::any_of(channel_.members().begin(), channel_.members().end(),
                     [&](const auto& m) { return m->user() && m->user()->id == user; });
}

Room::Reply Room::join(const std::shared_ptr<Connection>& who, const std::string& cid,
                       std::optional<protocol::Seq> since, Steady now) {
  const bool player = who->user() && is_player(who->user()->id);
  if (settings_.is_private && !player)
    return error(cid, ErrorCode::Forbidden, "this game is private");
  channel_.add(who);
  if (!player) tell_watching();
  const bool resumed = channel_.resume(
      who, since, pending_, [this](const auto& m, const EventAudience& a) { return sees(m, a); });
  if (!resumed) pending_.send(who, snapshot_for(who->user(), now));
  const auto ack = protocol::Ack{cid, id_, channel_.seq(), {}, {}};
  if (player) {
    const auto color = color_of(who->user()->id);
    if (color && absent_since_[index_of(*color)] && !finished()) {
      absent_since_[index_of(*color)].reset();
      publish("", protocol::PlayerReturned{*color});
    }
  }
  return ack;
}

std::int64_t Room::watching() const {
  std::set<std::int64_t> users;
  std::int64_t guests = 0;
  for (const auto& m : channel_.members()) {
    if (!m->user())
      ++guests;
    else if (!is_player(m->user()->id))
      users.insert(m->user()->id);
  }
  return guests + static_cast<std::int64_t>(users.size());
}

void Room::tell_watching() {
  const auto count = watching();
  if (count == watching_told_) return;
  watching_told_ = count;
  const protocol::Watching told{id_, count};
  for (const auto& m : channel_.members()) {
    if (m->user() && is_player(m->user()->id)) pending_.send(m, told);
  }
}

void Room::leave(const std::shared_ptr<Connection>& who, Steady now) {
  if (!channel_.remove(who)) return;
  if (!who->user() || !is_player(who->user()->id)) tell_watching();
  if (!who->user()) return;
  const auto color = color_of(who->user()->id);
  if (!color || finished() || present(who->user()->id)) return;
  absent_since_[index_of(*color)] = now;
  const auto at = claim_at(*color);
  protocol::Absence absence{*color, {}};
  if (at) absence.claim_in_ms = std::max<std::int64_t>(0, ms_between(now, *at));
  publish("", protocol::PlayerLeft{absence});
}

std::optional<Steady> Room::claim_at(Color leaver) const {
  const auto& since = absent_since_[index_of(leaver)];
  if (!since || stage() != Stage::Playing || correspondence()) return std::nullopt;
  const Color to_move = game_ ? game_->to_move() : Color::Black;
  if (to_move != leaver) return std::nullopt;
  return std::max(*since, turn_start_) + options_.disconnect_grace;
}

std::optional<protocol::Error> Room::check_player(std::int64_t user, const std::string& cid) const {
  if (!is_player(user))
    return error(cid, ErrorCode::Forbidden, "you are not a player of this game");
  if (finished()) return error(cid, ErrorCode::GameOver, "the game is over: " + result_->to_sgf());
  return std::nullopt;
}

std::optional<protocol::Error> Room::check_turn(std::int64_t user, const std::string& cid) const {
  if (auto e = check_player(user, cid)) return e;
  if (stage() == Stage::Nigiri)
    return error(cid, ErrorCode::Conflict, "the nigiri is not done yet: colours are not drawn");
  if (stage() == Stage::Scoring) {
    return error(cid, ErrorCode::Conflict,
                 "play has stopped: the game is being counted (mark the dead stones, accept the "
                 "score, or resume play)");
  }
  const Color to_move = game_ ? game_->to_move() : Color::Black;
  if (*color_of(user) != to_move)
    return error(cid, ErrorCode::NotYourTurn, "it is " + color_name(to_move) + "'s move");
  return std::nullopt;
}

// A turn begins (a move, an undo, a resumption, the end of the nigiri): the player to move's
// clock runs once both players have made a first move; before that, the start timeout applies.
void Room::start_turn(Steady now) {
  turn_start_ = now;
  if (both_moved() && stage() == Stage::Playing) {
    clock_.start(game_ ? game_->to_move() : Color::Black, now);
  } else {
    clock_.stop();
  }
}

// If the turn has passed to a player who left, their countdown starts: say so.
void Room::announce_countdown() {
  const Color to_move = game_ ? game_->to_move() : Color::Black;
  if (stage() == Stage::Playing && absent_since_[index_of(to_move)] && !correspondence()) {
    publish("", protocol::PlayerLeft{{to_move, options_.disconnect_grace.count()}});
  }
}

Room::Reply Room::play(std::int64_t user, const std::string& cid, const std::string& vertex,
                       const MoveTiming& timing) {
  if (auto e = check_turn(user, cid)) return *e;
  const Geometry g{settings_.width, settings_.height};
  const auto point = g.parse_gtp(vertex);
  if (!point) {
    return error(cid, ErrorCode::BadField,
                 "'" + vertex + "' is not a point on this " + std::to_string(g.width) + "x" +
                     std::to_string(g.height) + " board (GTP coordinates such as D4, no letter I)");
  }
  if (*point == kPass) return pass(user, cid, timing);
  if (!game_) {  // free handicap: Black's stones go down one by one before White's first move
    if (std::find(free_stones_.begin(), free_stones_.end(), *point) != free_stones_.end()) {
      auto refused = error(cid, ErrorCode::IllegalMove,
                           "occupied: there is already a handicap stone on " + vertex);
      refused.reason = protocol::Refusal::Occupied;
      return refused;
    }
    const records::Moved stone{Color::Black, g.to_gtp(*point), kept_clocks(clock_)};
    apply(stone);
    start_turn(timing.now);
    const auto ack = publish(
        cid, protocol::MovePlayed{Color::Black, stone.vertex, {}, clock_state(timing.now), 0},
        stone);
    announce_countdown();
    return ack;
  }
  return play_move(user, cid, *point, timing);
}

Room::Reply Room::pass(std::int64_t user, const std::string& cid, const MoveTiming& timing) {
  if (auto e = check_turn(user, cid)) return *e;
  if (!game_)
    return error(cid, ErrorCode::IllegalMove, "place your handicap stones before passing");
  return play_move(user, cid, kPass, timing);
}

Room::Reply Room::play_move(std::int64_t user, const std::string& cid, Point point,
                            const MoveTiming& timing) {
  const Color color = *color_of(user);
  if (point != kPass && game_->moves().size() >= options_.max_moves) {
    return error(cid, ErrorCode::Conflict,
                 "this game has " + std::to_string(game_->moves().size()) +
                     " moves, the most a game may have: only a pass is possible now");
  }
  // Judged once, here, before the clock is charged, so that an illegal move changes nothing;
  // apply() below plays it as judged (Game::play_judged) and returns what it took off.
  const MoveError e = game_->check({color, point});
  if (e != MoveError::Ok) {
    auto refused = error(cid, ErrorCode::IllegalMove, why_illegal(e, gtp(point)));
    refused.reason = refusal_of(e);
    return refused;
  }
  // Lag: the client's think time says how much of the server's measured turn was network;
  // without it, the connection's round trip stands in for it.
  std::int64_t lag_ms = timing.rtt_ms.value_or(0);
  if (timing.think_ms)
    lag_ms = std::max<std::int64_t>(0, ms_between(turn_start_, timing.now) - *timing.think_ms);
  // Each player's first move is free (the start timeout covers it): only a running clock is
  // charged.
  const auto charge = clock_.running() == color ? clock_.charge(color, timing.now, Millis(lag_ms))
                                                : GameClock::Charge{};
  if (!charge.in_time) {
    finish("", Result::time(opponent(color)), EndReason::Time, timing.now);
    return error(cid, ErrorCode::GameOver, "your time ran out before this move arrived");
  }
  const records::Moved move{color, point == kPass ? "pass" : gtp(point), kept_clocks(clock_)};
  const Applied played = apply(move);
  std::vector<std::string> captured;  // the opponent's stones, or in a suicide the mover's own
  for (Point p : played.removed) captured.push_back(gtp(p));
  start_turn(timing.now);
  const auto ack = publish(cid,
                           protocol::MovePlayed{color, move.vertex, captured,
                                                clock_state(timing.now), charge.lag_credit_ms},
                           move);
  if (game_->phase() == Game::Phase::Over && game_->result()) {
    finish("", *game_->result(), EndReason::Repetition, timing.now);
  } else if (game_->phase() == Game::Phase::Scoring) {
    if (settings_.ruleset == Ruleset::TrompTaylor) {
      finish_tromp_taylor("", EndReason::Passes, timing.now);
    } else {
      start_scoring(timing.now);
    }
  } else {
    announce_countdown();
  }
  // The opponent's conditional moves answer this move, or (a move they did not expect, a pass
  // that stopped play) are dropped.
  if (!finished()) follow_conditional(color, point, timing.now);
  return ack;
}

// ---- conditional moves ----

Room::Reply Room::set_conditional_moves(std::int64_t user, const std::string& cid,
                                        const std::vector<std::string>& lines) {
  if (auto e = check_player(user, cid)) return *e;
  if (!correspondence()) {
    return error(cid, ErrorCode::Conflict,
                 "conditional moves are for correspondence games (docs/correspondence.md)");
  }
  if (stage() != Stage::Playing || !game_) {
    return error(cid, ErrorCode::Conflict,
                 "conditional moves can be set only while the game is being played");
  }
  const Color owner = *color_of(user);
  if (game_->to_move() == owner) {
    return error(cid, ErrorCode::Conflict,
                 "it is your move: conditional moves answer your opponent's next move, so set "
                 "them after your own");
  }
  const Geometry g{settings_.width, settings_.height};
  auto tree = conditional_tree(lines, g);
  if (auto* problem = std::get_if<std::string>(&tree))
    return error(cid, ErrorCode::BadField, *problem);
  if (auto problem = conditional_problem(std::get<ConditionalTree>(tree), *game_, owner, g))
    return error(cid, ErrorCode::IllegalMove, *problem);
  keep_conditional(owner, std::get<ConditionalTree>(tree), cid);
  return protocol::Ack{cid, id_, channel_.seq(), {}, {}};
}

void Room::keep_conditional(Color owner, const ConditionalTree& tree, const std::string& cid) {
  const records::ConditionalSet set{owner,
                                    conditional_lines(tree, {settings_.width, settings_.height})};
  apply(set);  // as on recovery: the lines are what is kept
  publish(cid, protocol::ConditionalMoves{owner, set.lines}, set);
}

void Room::follow_conditional(Color mover, Point point, Steady now) {
  const Color owner = opponent(mover);
  const auto& tree = conditional_[index_of(owner)];
  if (tree.empty()) return;
  const auto branch = std::find_if(tree.begin(), tree.end(),
                                   [&](const ConditionalBranch& b) { return b.expected == point; });
  if (branch == tree.end() || stage() != Stage::Playing) {
    keep_conditional(owner, {});
    return;
  }
  const ConditionalBranch taken = *branch;
  // The reply is a move like any other, made the instant the opponent's arrived (no lag).
  const auto replied = play_move(owner == Color::Black ? black_.id : white_.id, "", taken.reply,
                                 {now, std::nullopt, std::nullopt});
  if (finished()) return;  // the reply ended it: nothing more to answer
  const bool going_on = std::holds_alternative<protocol::Ack>(replied) && stage() == Stage::Playing;
  keep_conditional(owner, going_on ? taken.then : ConditionalTree{});
}

void Room::drop_conditionals() {
  for (const Color c : {Color::Black, Color::White}) {
    if (!conditional_[index_of(c)].empty()) keep_conditional(c, {});
  }
}

protocol::Ack Room::finish(const std::string& cid, const Result& result, EndReason reason,
                           Steady now, std::optional<protocol::ScoreView> score) {
  // The clock as it stood: a flagged player shows nothing left.
  auto clock = clock_state(now);
  clock_.stop();
  if (clock) clock->running.reset();
  const records::Ended ended{result, score};
  apply(ended);
  if (game_ && result.kind == Result::Kind::Resignation) game_->resign(opponent(result.winner));
  const auto ack =
      publish(cid, protocol::GameEnded{result, reason, std::move(score), clock}, ended);
  const auto moves = game_ ? game_->moves().size() : free_stones_.size();
  pending_.writes.push_back(store::GameFinished{id_, result.to_sgf(),
                                                std::string(protocol::wire::name(reason)),
                                                static_cast<int>(moves), sgf(), 0});
  pending_.ended.push_back({id_, result});
  return ack;
}

protocol::Ack Room::finish_tromp_taylor(const std::string& cid, EndReason reason, Steady now) {
  const Score score = tromp_taylor_score(game_->board(), rules_.komi);
  return finish(cid, score.result(), reason, now, score_view(score));
}

Room::Reply Room::resign(std::int64_t user, const std::string& cid, Steady now) {
  if (auto e = check_player(user, cid)) return *e;
  const auto color = color_of(user);
  if (!color)
    return error(cid, ErrorCode::Conflict, "the nigiri is not done yet: abort the game instead");
  return finish(cid, Result::resignation(opponent(*color)), EndReason::Resignation, now);
}

Room::Reply Room::request_undo(std::int64_t user, const std::string& cid) {
  if (auto e = check_player(user, cid)) return *e;
  if (stage() != Stage::Playing || !game_) {
    return error(cid, ErrorCode::Conflict, "undo is only possible while the game is being played");
  }
  const auto color = *color_of(user);
  if (undo_requested_by_)
    return error(cid, ErrorCode::Conflict, "an undo request is already waiting for an answer");
  const auto& moves = game_->moves();
  if (std::none_of(moves.begin(), moves.end(), [&](const Move& m) { return m.color == color; })) {
    return error(cid, ErrorCode::Forbidden, "you have no move to take back");
  }
  const records::UndoAsked asked{color};
  apply(asked);
  return publish(cid, protocol::UndoRequested{color}, asked);
}

Room::Reply Room::answer_undo(std::int64_t user, const std::string& cid, bool accept, Steady now) {
  const auto color = color_of(user);
  if (!color) return error(cid, ErrorCode::Forbidden, "you are not a player of this game");
  if (!undo_requested_by_)
    return error(cid, ErrorCode::Conflict, "there is no undo request to answer");
  if (*undo_requested_by_ == *color)
    return error(cid, ErrorCode::Forbidden, "you cannot answer your own undo request");
  const Color was_to_move = game_->to_move();
  const records::UndoAnswered answered{accept};
  const int taken_back = apply(answered).taken_back;
  const auto ack = publish(cid, protocol::UndoAnswered{accept, taken_back}, answered);
  // The requester moves again; the time already spent in this turn is not charged to anyone.
  if (accept && game_->to_move() != was_to_move) {
    start_turn(now);
    announce_countdown();
  }
  if (accept) drop_conditionals();  // they answered moves that are taken back
  return ack;
}

Room::Reply Room::chat(const protocol::UserRef& from, const std::string& cid,
                       const std::string& text, std::int64_t at_ms) {
  const bool player = is_player(from.id);
  const auto mine = chat_by_.find(from.id);
  if (mine != chat_by_.end() && mine->second >= options_.chat_lines_per_person) {
    return error(cid, ErrorCode::Conflict,
                 "you have written " + std::to_string(mine->second) +
                     " lines in this game's chat, the most one person may");
  }
  if (!player && chat_lines_[1] >= options_.spectator_chat_lines) {
    return error(cid, ErrorCode::Conflict,
                 "the spectators' chat of this game is full: it holds " +
                     std::to_string(chat_lines_[1]) + " lines, the most it may");
  }
  const records::Chatted said{
      from, player ? protocol::Channel::Players : protocol::Channel::Spectators, text, at_ms};
  auto ack =
      publish(cid, protocol::ChatPosted{{0, from, said.channel, text, at_ms}}, said, !player);
  apply(said, channel_.seq());  // a line is kept with its event's number
  return ack;
}

Room::Reply Room::choose_nigiri(std::int64_t user, const std::string& cid, const std::string& seed,
                                const std::optional<std::string>& guess, Steady now) {
  if (auto e = check_player(user, cid)) return *e;
  if (stage() != Stage::Nigiri)
    return error(cid, ErrorCode::Conflict, "this game has no nigiri to choose in");
  if (auto problem = Nigiri::check_seed(seed)) return error(cid, ErrorCode::BadField, *problem);
  const bool guesser = user == white_.id;  // before the draw, white_ is the guesser
  auto& mine = guesser ? guesser_seed_ : holder_seed_;
  if (mine) return error(cid, ErrorCode::Conflict, "you already made your nigiri choice");
  if (guesser && !guess)
    return error(cid, ErrorCode::BadField,
                 "you are the guesser: send 'guess', \"odd\" or \"even\"");
  if (!guesser && guess)
    return error(cid, ErrorCode::BadField, "you hold the stones: only the guesser sends 'guess'");
  const records::NigiriChosen chosen{guesser, seed, guess};
  apply(chosen);
  if (!proof_) return publish(cid, protocol::NigiriStarted{nigiri_state()}, chosen);
  const auto ack = publish(cid, protocol::NigiriDone{nigiri_state(), black_, white_}, chosen);
  start_turn(now);  // Black's start timeout begins
  return ack;
}

Room::Reply Room::abort(std::int64_t user, const std::string& cid, Steady now) {
  if (auto e = check_player(user, cid)) return *e;
  if (both_moved())
    return error(cid, ErrorCode::Conflict, "both players have moved: resign instead of aborting");
  if (options_.no_show_forfeits)
    return error(cid, ErrorCode::Forbidden, "a tournament game cannot be aborted: resign instead");
  return finish(cid, Result::void_game(), EndReason::Aborted, now);
}

Room::Reply Room::claim_win(std::int64_t user, const std::string& cid, Steady now) {
  if (auto e = check_player(user, cid)) return *e;
  const auto color = color_of(user);
  if (!color) return error(cid, ErrorCode::Conflict, "the nigiri is not done yet");
  const Color leaver = opponent(*color);
  if (correspondence()) {
    return error(cid, ErrorCode::Conflict,
                 "a correspondence game has no absence countdown: your opponent's clock decides");
  }
  if (!absent_since_[index_of(leaver)])
    return error(cid, ErrorCode::Conflict, "your opponent is still here");
  if (!both_moved())
    return error(cid, ErrorCode::Conflict, "the game has barely begun: abort it instead");
  const auto at = claim_at(leaver);
  if (!at)
    return error(cid, ErrorCode::Conflict,
                 "your opponent's countdown runs only while it is their move");
  if (now < *at) {
    return error(cid, ErrorCode::Conflict,
                 "your opponent's countdown has " + seconds(ms_between(now, *at)) + " left");
  }
  return finish(cid, Result::forfeit(*color), EndReason::Abandoned, now);
}

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

// ---- scoring phase ----

void Room::start_scoring(Steady now) {
  clock_.stop();
  scoring_start_ = now;
  suggestion_pending_ = true;
  suggestion_dispatched_ = false;
}

std::optional<SuggestionJob> Room::take_suggestion_job() {
  if (stage() != Stage::Scoring || !suggestion_pending_ || suggestion_dispatched_)
    return std::nullopt;
  suggestion_dispatched_ = true;
  return SuggestionJob{
      id_, game_->board(),
      DeadStoneOptions{options_.dead_stone_playouts, static_cast<std::uint64_t>(id_) * 1000 +
                                                         static_cast<std::uint64_t>(resumptions_)},
      resumptions_};
}

void Room::suggested(const SuggestionJob& job, const std::vector<Point>& dead) {
  if (stage() != Stage::Scoring || !suggestion_pending_ || job.resumptions != resumptions_) return;
  const std::set<Point> sorted(dead.begin(), dead.end());
  records::Marked first{{}, marking_version_ + 1};
  for (Point p : sorted) first.dead.push_back(gtp(p));
  apply(first);
  publish("", protocol::ScoringStarted{marking()}, first);
}

Room::Reply Room::mark(std::int64_t user, const std::string& cid, const std::string& vertex,
                       bool dead) {
  if (auto e = check_player(user, cid)) return *e;
  if (stage() != Stage::Scoring)
    return error(cid, ErrorCode::Conflict, "dead stones are marked only in the scoring phase");
  if (suggestion_pending_) return still_suggesting(cid);
  const Geometry& g = game_->board().geometry();
  const auto point = g.parse_gtp(vertex);
  if (!point || *point == kPass)
    return error(cid, ErrorCode::BadField, "'" + vertex + "' is not a point on this board");
  if (!is_stone(game_->board().at(*point)))
    return error(cid, ErrorCode::BadField, "there is no stone on " + vertex);
  const auto chain = game_->board().chain_stones(*point);
  const bool already = dead_.contains(*point) == dead;
  if (already) {
    return error(cid, ErrorCode::Conflict,
                 "the chain at " + vertex + " is already marked " + (dead ? "dead" : "alive"));
  }
  std::set<Point> now_dead = dead_;
  for (Point p : chain) {
    if (dead) {
      now_dead.insert(p);
    } else {
      now_dead.erase(p);
    }
  }
  records::Marked marked{{}, marking_version_ + 1};
  for (Point p : now_dead) marked.dead.push_back(gtp(p));
  apply(marked);
  return publish(cid, protocol::MarkingChanged{marking(), *color_of(user)}, marked);
}

Room::Reply Room::accept_score(std::int64_t user, const std::string& cid, std::uint64_t version,
                               Steady now) {
  if (auto e = check_player(user, cid)) return *e;
  if (stage() != Stage::Scoring)
    return error(cid, ErrorCode::Conflict, "there is no score to accept outside the scoring phase");
  if (suggestion_pending_) return still_suggesting(cid);
  if (version != marking_version_) {
    return error(cid, ErrorCode::Conflict,
                 "marking version " + std::to_string(version) + " is stale: the current one is " +
                     std::to_string(marking_version_));
  }
  const Color color = *color_of(user);
  const records::ScoreAccepted accepted{color, version};
  apply(accepted);
  const auto ack = publish(cid, protocol::ScoreAccepted{color, version}, accepted);
  if (accepted_[index_of(opponent(color))] == version) {
    const auto m = marking();
    finish("", m.score.result, EndReason::Score, now, m.score);
  }
  return ack;
}

Room::Reply Room::resume(std::int64_t user, const std::string& cid, Steady now) {
  if (auto e = check_player(user, cid)) return *e;
  if (stage() != Stage::Scoring)
    return error(cid, ErrorCode::Conflict, "play can resume only from the scoring phase");
  if (resumptions_ >= options_.max_resumptions) {
    return finish_tromp_taylor(cid, EndReason::ResumptionLimit, now);
  }
  const Color requester = *color_of(user);
  const Color last_passer = game_->moves().back().color;
  const Color first = rules_.resume == ResumeRule::OpponentOfLastPasser ? opponent(last_passer)
                                                                        : opponent(requester);
  const records::Resumed resumed{first};
  apply(resumed);
  start_turn(now);
  const auto ack = publish(
      cid, protocol::PlayResumed{requester, first, resumptions_, clock_state(now)}, resumed);
  announce_countdown();
  drop_conditionals();
  return ack;
}

// ---- recovery ----

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

// ---- deadlines ----

std::optional<Steady> Room::first_move_deadline() const {
  if (both_moved() || finished() || stage() == Stage::Scoring) return std::nullopt;
  // A correspondence player's weekends and vacations hold this countdown as they hold the clock
  // (not the nigiri's: whose it is is not drawn yet).
  if (time_off_ && stage() != Stage::Nigiri) {
    return time_off_->after_active(game_ ? game_->to_move() : Color::Black, turn_start_,
                                   options_.start_timeout.count());
  }
  return turn_start_ + options_.start_timeout;
}

std::optional<Steady> Room::next_deadline() const {
  if (finished()) return std::nullopt;
  std::optional<Steady> next = first_move_deadline();
  auto consider = [&](std::optional<Steady> t) {
    if (t && (!next || *t < *next)) next = t;
  };
  if (stage() == Stage::Playing) consider(clock_.flag_at());
  if (stage() == Stage::Scoring) consider(scoring_start_ + options_.scoring_timeout);
  return next;
}

void Room::tick(Steady now) {
  if (finished()) return;
  if (const auto deadline = first_move_deadline(); deadline && now >= *deadline) {
    if (options_.no_show_forfeits) {  // whoever has not moved yet loses (Black first)
      finish("", Result::forfeit(moved_[index_of(Color::Black)] ? Color::Black : Color::White),
             EndReason::NoShow, now);
    } else {
      finish("", Result::void_game(), EndReason::NoFirstMove, now);
    }
    return;
  }
  if (stage() == Stage::Playing) {
    if (const auto flag = clock_.flag_at(); flag && now >= *flag) {
      finish("", Result::time(opponent(*clock_.running())), EndReason::Time, now);
      return;
    }
  }
  if (stage() == Stage::Scoring && now >= scoring_start_ + options_.scoring_timeout) {
    finish_tromp_taylor("", EndReason::ScoringTimeout, now);
  }
}

void Room::adjudicate(const Result& result, EndReason reason, Steady now) {
  if (!finished()) finish("", result, reason, now);
}

}  // namespace tengen
