#include "rooms/room.h"

#include <algorithm>
#include <utility>

#include "engine/scoring.h"
#include "rooms/room_records.h"
#include "rooms/wording.h"

namespace tengen {
namespace {

using protocol::EndReason;

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

const std::vector<protocol::TeamMember>* Room::team(Color c) const {
  if (!settings_.teams) return nullptr;
  return c == Color::Black ? &settings_.teams->black : &settings_.teams->white;
}

namespace {
bool in_team(const std::vector<protocol::TeamMember>* team, std::int64_t user) {
  return team && std::any_of(team->begin(), team->end(),
                             [&](const protocol::TeamMember& m) { return m.id == user; });
}
}  // namespace

bool Room::is_player(std::int64_t user) const {
  if (settings_.teams)
    return in_team(team(Color::Black), user) || in_team(team(Color::White), user);
  return user == black_.id || user == white_.id;
}

std::vector<std::int64_t> Room::players() const {
  if (!settings_.teams) return {black_.id, white_.id};
  std::vector<std::int64_t> ids;
  for (const auto* t : {team(Color::Black), team(Color::White)})
    for (const auto& m : *t) ids.push_back(m.id);
  return ids;
}

std::optional<protocol::TeamMember> Room::member_to_move(Color c) const {
  const auto* members = team(c);
  if (!members || members->empty()) return std::nullopt;
  // Before the game proper (Black placing free handicap stones) nobody has moved: Black's first.
  const auto played = game_ ? std::count_if(game_->moves().begin(), game_->moves().end(),
                                            [c](const Move& m) { return m.color == c; })
                            : 0;
  return (*members)[static_cast<std::size_t>(played) % members->size()];
}

std::optional<Color> Room::color_of(std::int64_t user) const {
  if (nigiri_ && !proof_) return std::nullopt;  // colours are not drawn yet
  if (settings_.teams) {
    if (in_team(team(Color::Black), user)) return Color::Black;
    if (in_team(team(Color::White), user)) return Color::White;
    return std::nullopt;
  }
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

bool Room::sees(const std::shared_ptr<Recipient>& who, const EventAudience& e) const {
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
    if (chat->line.channel == protocol::Channel::Team) audience.only = color_of(audience.author);
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
    return refuse(Refused::VoidAlready, "", {std::to_string(id_)});
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

bool Room::colour_present(Color c) const {
  return std::any_of(channel_.members().begin(), channel_.members().end(),
                     [&](const auto& m) { return m->user() && color_of(m->user()->id) == c; });
}

Room::Reply Room::join(const std::shared_ptr<Recipient>& who, const std::string& cid,
                       std::optional<protocol::Seq> since, Steady now) {
  const bool player = who->user() && is_player(who->user()->id);
  if (settings_.is_private && !player) return refuse(Refused::Private, cid);
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
      if (std::exchange(left_told_[index_of(*color)], false)) returned_.push_back(*color);
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

void Room::leave(const std::shared_ptr<Recipient>& who, Steady now) {
  if (!channel_.remove(who)) return;
  if (!who->user() || !is_player(who->user()->id)) tell_watching();
  if (!who->user()) return;
  const auto color = color_of(who->user()->id);
  if (!color || finished() || colour_present(*color)) return;  // a partner may still be here
  absent_since_[index_of(*color)] = now;
  const auto at = claim_at(*color);
  protocol::Absence absence{*color, {}};
  if (at) absence.claim_in_ms = std::max<std::int64_t>(0, ms_between(now, *at));
  publish("", protocol::PlayerLeft{absence});
  left_told_[index_of(*color)] = !correspondence();
}

std::optional<Steady> Room::claim_at(Color leaver) const {
  const auto& since = absent_since_[index_of(leaver)];
  if (!since || stage() != Stage::Playing || correspondence()) return std::nullopt;
  const Color to_move = game_ ? game_->to_move() : Color::Black;
  if (to_move != leaver) return std::nullopt;
  return std::max(*since, turn_start_) + options_.disconnect_grace;
}

std::optional<protocol::Error> Room::check_player(std::int64_t user, const std::string& cid) const {
  if (!is_player(user)) return refuse(Refused::NotAPlayer, cid);
  if (finished()) return refuse(Refused::GameOver, cid, {result_->to_sgf()});
  return std::nullopt;
}

std::optional<protocol::Error> Room::check_turn(std::int64_t user, const std::string& cid) const {
  if (auto e = check_player(user, cid)) return e;
  if (stage() == Stage::Nigiri) return refuse(Refused::NigiriPending, cid);
  if (stage() == Stage::Scoring) {
    return refuse(Refused::Counting, cid);
  }
  const Color to_move = game_ ? game_->to_move() : Color::Black;
  if (*color_of(user) != to_move) return refuse(Refused::NotYourTurn, cid, {color_name(to_move)});
  if (const auto next = member_to_move(to_move); next && next->id != user)
    return refuse(Refused::PartnersTurn, cid, {next->name, color_name(to_move)});
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
    return refuse(Refused::NotAPoint, cid,
                  {vertex, std::to_string(g.width), std::to_string(g.height)});
  }
  if (*point == kPass) return pass(user, cid, timing);
  if (!game_) {  // free handicap: Black's stones go down one by one before White's first move
    if (std::find(free_stones_.begin(), free_stones_.end(), *point) != free_stones_.end()) {
      auto refused = refuse(Refused::OnAHandicapStone, cid, {vertex});
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
  if (!game_) return refuse(Refused::HandicapFirst, cid);
  return play_move(user, cid, kPass, timing);
}

Room::Reply Room::play_move(std::int64_t user, const std::string& cid, Point point,
                            const MoveTiming& timing) {
  const Color color = *color_of(user);
  if (point != kPass && game_->moves().size() >= options_.max_moves) {
    return refuse(Refused::MoveLimit, cid, {std::to_string(game_->moves().size())});
  }
  // Judged once, here, before the clock is charged, so that an illegal move changes nothing;
  // apply() below plays it as judged (Game::play_judged) and returns what it took off.
  const MoveError e = game_->check({color, point});
  if (e != MoveError::Ok) {
    auto refused = refuse(Refused::Illegal, cid, {why_illegal(e, gtp(point))});
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
    return refuse(Refused::TimeRanOut, cid);
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
  if (!color) return refuse(Refused::ResignDuringNigiri, cid);
  return finish(cid, Result::resignation(opponent(*color)), EndReason::Resignation, now);
}

Room::Reply Room::request_undo(std::int64_t user, const std::string& cid) {
  if (auto e = check_player(user, cid)) return *e;
  if (stage() != Stage::Playing || !game_) {
    return refuse(Refused::UndoNotNow, cid);
  }
  const auto color = *color_of(user);
  if (undo_requested_by_) return refuse(Refused::UndoWaiting, cid);
  const auto& moves = game_->moves();
  if (std::none_of(moves.begin(), moves.end(), [&](const Move& m) { return m.color == color; })) {
    return refuse(Refused::NothingToTakeBack, cid);
  }
  const records::UndoAsked asked{color};
  apply(asked);
  return publish(cid, protocol::UndoRequested{color}, asked);
}

Room::Reply Room::answer_undo(std::int64_t user, const std::string& cid, bool accept, Steady now) {
  const auto color = color_of(user);
  if (!color) return refuse(Refused::NotAPlayer, cid);
  if (!undo_requested_by_) return refuse(Refused::NoUndoToAnswer, cid);
  if (*undo_requested_by_ == *color) return refuse(Refused::OwnUndo, cid);
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

Room::Reply Room::choose_nigiri(std::int64_t user, const std::string& cid, const std::string& seed,
                                const std::optional<std::string>& guess, Steady now) {
  if (auto e = check_player(user, cid)) return *e;
  if (stage() != Stage::Nigiri) return refuse(Refused::NoNigiri, cid);
  if (auto problem = Nigiri::check_seed(seed)) return refuse(Refused::BadSeed, cid, {*problem});
  const bool guesser = user == white_.id;  // before the draw, white_ is the guesser
  auto& mine = guesser ? guesser_seed_ : holder_seed_;
  if (mine) return refuse(Refused::NigiriChosen, cid);
  if (guesser && !guess) return refuse(Refused::GuessMissing, cid);
  if (!guesser && guess) return refuse(Refused::GuessNotYours, cid);
  const records::NigiriChosen chosen{guesser, seed, guess};
  apply(chosen);
  if (!proof_) return publish(cid, protocol::NigiriStarted{nigiri_state()}, chosen);
  const auto ack = publish(cid, protocol::NigiriDone{nigiri_state(), black_, white_}, chosen);
  start_turn(now);  // Black's start timeout begins
  return ack;
}

Room::Reply Room::abort(std::int64_t user, const std::string& cid, Steady now) {
  if (auto e = check_player(user, cid)) return *e;
  if (both_moved()) return refuse(Refused::BothMoved, cid);
  if (options_.no_show_forfeits) return refuse(Refused::TournamentNoAbort, cid);
  return finish(cid, Result::void_game(), EndReason::Aborted, now);
}

Room::Reply Room::claim_win(std::int64_t user, const std::string& cid, Steady now) {
  if (auto e = check_player(user, cid)) return *e;
  const auto color = color_of(user);
  if (!color) return refuse(Refused::NigiriNotDone, cid);
  const Color leaver = opponent(*color);
  if (correspondence()) {
    return refuse(Refused::NoAbsenceCountdown, cid);
  }
  if (!absent_since_[index_of(leaver)]) return refuse(Refused::OpponentHere, cid);
  if (!both_moved()) return refuse(Refused::BarelyBegun, cid);
  const auto at = claim_at(leaver);
  if (!at) return refuse(Refused::CountdownNotRunning, cid);
  if (now < *at) {
    return refuse(Refused::CountdownLeft, cid, {seconds(ms_between(now, *at))});
  }
  return finish(cid, Result::forfeit(*color), EndReason::Abandoned, now);
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
