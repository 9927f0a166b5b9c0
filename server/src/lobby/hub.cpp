#include "lobby/hub.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <future>
#include <stdexcept>

#include "engine/rules.h"

namespace tengen {
namespace {

using protocol::ErrorCode;

template <typename... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <typename... F>
Overloaded(F...) -> Overloaded<F...>;

protocol::Error error(const std::string& cid, ErrorCode code, std::string message) {
  return protocol::Error{cid, code, std::move(message), {}};
}

std::shared_ptr<const std::string> encoded(const protocol::ServerMessage& m) {
  return std::make_shared<const std::string>(protocol::encode(m));
}

}  // namespace

Hub::Hub(Services services) : services_(std::move(services)), metrics_(services_.metrics) {
  if (services_.timers) services_.timers->set_handler([this](const TimerId& id) { deadline(id); });
}

Hub::~Hub() = default;

void Hub::deadline(const TimerId& id) {
  std::lock_guard lock(mutex_);
  std::visit(Overloaded{[&](const PresenceTick&) { tell_presence(); },
                        [&](const TournamentStart& t) { tournaments_.deadline(t.tournament); },
                        [&](const GameDeadline& d) {
                          Room* room = rooms_.find(d.game);
                          if (!room) return;
                          room->tick(services_.clock->steady_now());
                          touched_.insert(d.game);
                        }},
             id);
  flush();
}

std::optional<std::string> Hub::sgf(protocol::GameId game) {
  std::optional<std::string> record;
  std::future<void> durable;
  {
    std::lock_guard lock(mutex_);
    const Room* room = rooms_.find(game);
    if (!room) return std::nullopt;
    record = room->sgf();
    // Everything the record shows was submitted before this barrier.
    durable = services_.journal->barrier();
  }
  durable.wait();
  return record;
}

Hub::Recovered Hub::recover(store::GameStore& store) {
  std::lock_guard lock(mutex_);
  Recovered recovered;
  challenges_.continue_after(store.last_challenge_id());
  rooms_.continue_after(store.last_game_id());
  for (const auto& c : store.open_challenges()) {
    protocol::Challenge challenge{c.id, stored_user(c.challenger_id), std::nullopt,
                                  stored_settings(c.settings, "challenge " + std::to_string(c.id))};
    if (c.opponent_id) challenge.opponent = stored_user(*c.opponent_id);
    challenges_.restore(std::move(challenge));
    ++recovered.challenges;
  }
  ratings_.load(store.ratings());
  const auto tournaments = store.tournaments();
  tournaments_.recover(tournaments);  // before the games: their rooms ask how to run
  for (const auto& c : TournamentDirector::commands_of(tournaments)) {
    applied_.remember(c.user, c.cid, encoded(protocol::Ack{c.cid, {}, {}, {}, c.tournament}));
  }
  for (const auto& applied : store.recent_commands(static_cast<int>(CommandMemory::kPerKey))) {
    applied_.remember(applied.user_id, applied.cid,
                      encoded(protocol::Ack{
                          applied.cid,
                          applied.game,
                          applied.seq ? std::optional<protocol::Seq>(*applied.seq) : std::nullopt,
                          applied.challenge,
                          {}}));
  }
  const Steady now = services_.clock->steady_now();
  for (const auto& g : store.unfinished_games()) {
    rooms_.add(g.created.id, rebuild(g, now));
    touched_.insert(g.created.id);
    ++recovered.games;
  }
  tournaments_.resume();
  flush();
  return recovered;
}

protocol::UserRef Hub::stored_user(std::int64_t id) const {
  auto found = services_.find_user_by_id(id);
  if (!found)
    throw std::runtime_error("the store names user " + std::to_string(id) + ", who does not exist");
  return *found;
}

protocol::GameSettings Hub::stored_settings(const std::string& text, const std::string& what) {
  auto decoded = protocol::decode_settings(text);
  if (auto* problem = std::get_if<std::string>(&decoded)) {
    throw std::runtime_error("the stored settings of " + what + " are unreadable: " + *problem);
  }
  return std::get<protocol::GameSettings>(decoded);
}

std::unique_ptr<Room> Hub::rebuild(const store::StoredGame& g, Steady now) {
  return Room::recover(g,
                       stored_settings(g.created.settings, "game " + std::to_string(g.created.id)),
                       stored_user(g.created.first_id), stored_user(g.created.second_id), now,
                       tournaments_.room_options(g.created.id).value_or(services_.room));
}

std::size_t Hub::rooms_in_memory() {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

void Hub::collect() {
  for (const auto game : touched_) {
    if (Room* room = rooms_.find(game)) room->drain_into(out_);
  }
}

void Hub::settle_tournaments() {
  // A tournament told of a game's end may adjudicate or end others: those are told in turn.
  while (settled_ < out_.ended.size()) {
    const std::vector<GameOver> ended(out_.ended.begin() + static_cast<std::ptrdiff_t>(settled_),
                                      out_.ended.end());
    settled_ = out_.ended.size();
    for (const auto& over : ended) tournaments_.game_finished(over.game, over.result);
    collect();
  }
}

void Hub::dispatch_suggestions() {
  for (const auto game : touched_) {
    Room* room = rooms_.find(game);
    if (!room) continue;
    auto job = room->take_suggestion_job();
    if (!job) continue;
    if (!services_.worker) {
      room->suggested(*job, suggest_dead_stones(job->board, job->options));
      continue;
    }
    services_.worker->post([this, job = std::move(*job)] {
      const auto dead = suggest_dead_stones(job.board, job.options);  // off the lock
      std::lock_guard lock(mutex_);
      Room* waiting = rooms_.find(job.game);
      if (!waiting) return;  // it left memory (over, and unwatched)
      waiting->suggested(job, dead);
      touched_.insert(job.game);
      flush();
    });
  }
}

void Hub::flush() {
  dispatch_suggestions();
  collect();
  settle_tournaments();
  settled_ = 0;
  rate_finished_games();
  rearm(touched_);
  for (const auto game : touched_) rooms_.evict_if_done(game);
  touched_.clear();
  commit_.submit(out_);
}

void Hub::rearm(const std::set<protocol::GameId>& games) {
  if (!services_.timers) return;
  for (const auto game : games) {
    if (const Room* room = rooms_.find(game))
      services_.timers->arm(GameDeadline{game}, room->next_deadline());
  }
}

Metrics::Gauges Hub::gauges() {
  std::lock_guard lock(mutex_);
  Metrics::Gauges g;
  g.games_active = rooms_.unfinished();
  g.challenges_open = static_cast<std::int64_t>(challenges_.size());
  g.users_online = presence_.online_count();
  return g;
}

ratings::Rating Hub::rating_of(std::int64_t user) const {
  return ratings_.at(user, now_ms());
}

void Hub::rate_finished_games() {
  for (const auto& over : out_.ended) {
    const Room* found = rooms_.find(over.game);
    if (!found || !found->settings().rated) continue;
    const Room& room = *found;
    const RatingBook::RatedGame game{
        over.game,         room.black().id,
        room.white().id,   room.settings().handicap,
        room.rules().komi, Rules::preset(room.settings().ruleset).value_or(Rules{}).komi};
    for (auto& change : ratings_.rate(game, over.result, now_ms()))
      out_.writes.push_back(std::move(change));
  }
}

void Hub::broadcast_challenge(const protocol::Challenge& c, const protocol::ServerMessage& m) {
  const auto text = encoded(m);
  if (c.opponent) {  // a direct challenge concerns two users, not everyone online
    presence_.send_to_user(c.challenger.id, text, out_);
    if (c.opponent->id != c.challenger.id) presence_.send_to_user(c.opponent->id, text, out_);
    return;
  }
  presence_.send_to_all(text, out_);
}

void Hub::connected(const std::shared_ptr<Connection>& connection) {
  std::lock_guard lock(mutex_);
  if (presence_.connected(connection)) {  // the user's first connection
    const auto& user = *connection->user();
    presence_changed({user.id, user.username}, true);
  }
  protocol::LobbySnapshot lobby;
  lobby.challenges = challenges_.visible_to(connection->user());
  lobby.online = presence_.listed();
  lobby.online_count = presence_.online_count();
  out_.send(connection, lobby);
  flush();
}

void Hub::disconnected(const std::shared_ptr<Connection>& connection) {
  std::lock_guard lock(mutex_);
  const Steady now = services_.clock->steady_now();
  for (const auto game : joined_[connection->id()]) {
    if (Room* room = rooms_.find(game)) room->leave(connection, now);
    touched_.insert(game);
  }
  joined_.erase(connection->id());
  tournament_watchers_.erase(connection->id());
  if (!connection->user())
    applied_.forget(-static_cast<std::int64_t>(connection->id()));  // a guest's cids die with it
  if (presence_.disconnected(*connection)) {                        // the user's last connection
    const auto& user = *connection->user();
    presence_changed({user.id, user.username}, false);
  }
  flush();
}

void Hub::presence_changed(const protocol::UserRef& user, bool online) {
  const bool first = presence_.note(user, online);
  if (!services_.timers) {
    tell_presence();
  } else if (first) {
    services_.timers->arm(PresenceTick{}, services_.clock->steady_now() + kPresenceInterval);
  }
}

void Hub::tell_presence() {
  const auto message = presence_.take_message();
  if (!message) return;
  broadcast(*message);
  if (presence_.changes_waiting() && services_.timers)  // the rest in the next message
    services_.timers->arm(PresenceTick{}, services_.clock->steady_now() + kPresenceInterval);
}

void Hub::answer(const std::shared_ptr<Connection>& connection,
                 const protocol::ServerMessage& message) {
  std::lock_guard lock(mutex_);
  out_.send(connection, message);
  flush();
}

void Hub::after_replies(std::function<void()> then) {
  std::lock_guard lock(mutex_);  // every operation flushed its outbox before it let go of the lock
  commit_.after_everything(std::move(then));  // in order, after every earlier submission
}

void Hub::received(const std::shared_ptr<Connection>& who, protocol::ClientEnvelope command) {
  std::lock_guard lock(mutex_);
  const std::int64_t key = who->user() ? who->user()->id : -static_cast<std::int64_t>(who->id());
  if (auto ack = applied_.recall(key, command.cid)) {
    out_.send(who, std::move(ack));  // already applied: acknowledge again, apply nothing
    flush();
    return;
  }
  const Reply reply = handle(who, command.cid, command.message, services_.clock->steady_now());
  collect();          // the events a command caused go out before its reply
  if (who->user()) {  // the event it made remembers whose command it was, across restarts
    for (auto& w : out_.writes) {
      if (auto* e = std::get_if<store::GameEvent>(&w); e && e->cid == command.cid)
        e->user_id = who->user()->id;
    }
  }
  if (metrics_) {
    ++metrics_->ws_messages_total;
    const bool move = std::holds_alternative<protocol::PlayMove>(command.message) ||
                      std::holds_alternative<protocol::PassMove>(command.message);
    if (std::holds_alternative<protocol::Error>(reply)) {
      ++metrics_->ws_errors_total;
    } else if (move) {
      ++metrics_->moves_total;
    }
  }
  if (const auto* ack = std::get_if<protocol::Ack>(&reply)) {
    const auto text = encoded(*ack);
    applied_.remember(key, command.cid, text);
    out_.send(who, text);
  } else {
    out_.send(who, std::get<protocol::Error>(reply));
  }
  flush();
}

Hub::Reply Hub::handle(const std::shared_ptr<Connection>& who, const std::string& cid,
                       const protocol::ClientMessage& m, Steady now) {
  const auto& user = who->user();
  // Every command to a room first lets it notice deadlines that passed (a flag the timer has
  // not delivered yet); then the room's next deadline is armed again.
  auto room = [&](protocol::GameId id) -> Room* {
    Room* r = rooms_.load(id);
    if (!r) return nullptr;
    r->tick(now);
    touched_.insert(id);
    return r;
  };
  auto no_game = [&](protocol::GameId id) {
    return error(cid, ErrorCode::NotFound, "no game " + std::to_string(id));
  };
  if (const auto* join = std::get_if<protocol::JoinGame>(&m)) {  // guests may watch
    Room* r = room(join->game);
    if (!r) return no_game(join->game);
    auto reply = r->join(who, cid, join->since, now);
    if (std::holds_alternative<protocol::Ack>(reply)) joined_[who->id()].insert(join->game);
    return reply;
  }
  if (const auto* leave = std::get_if<protocol::LeaveGame>(&m)) {
    Room* r = room(leave->game);
    if (!r) return no_game(leave->game);
    r->leave(who, now);
    joined_[who->id()].erase(leave->game);
    return protocol::Ack{cid, leave->game, {}, {}, {}};
  }
  if (const auto* watch = std::get_if<protocol::WatchTournaments>(&m)) {  // guests too
    if (watch->tournament && !tournaments_.exists(*watch->tournament))
      return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(*watch->tournament));
    tournament_watchers_[who->id()] = {who, watch->tournament};
    return protocol::Ack{cid, {}, {}, {}, watch->tournament};
  }
  if (std::holds_alternative<protocol::UnwatchTournaments>(m)) {
    tournament_watchers_.erase(who->id());
    return protocol::Ack{cid, {}, {}, {}, {}};
  }
  if (!user)
    return error(cid, ErrorCode::NotAuthenticated, "guests may watch but not play: log in first");
  const protocol::UserRef me{user->id, user->username};
  return std::visit(
      Overloaded{
          [&](const protocol::CreateChallenge& c) { return create(me, cid, c); },
          [&](const protocol::CancelChallenge& c) {
            return close_challenge(me, cid, c.challenge, false);
          },
          [&](const protocol::DeclineChallenge& c) {
            return close_challenge(me, cid, c.challenge, true);
          },
          [&](const protocol::AcceptChallenge& c) { return accept(me, cid, c.challenge); },
          [&](const protocol::CreateTournament&) { return tournament_command(me, cid, m); },
          [&](const protocol::RegisterTournament&) { return tournament_command(me, cid, m); },
          [&](const protocol::LeaveTournament&) { return tournament_command(me, cid, m); },
          [&](const protocol::StartTournament&) { return tournament_command(me, cid, m); },
          [&](const protocol::WithdrawPlayer&) { return tournament_command(me, cid, m); },
          [&](const protocol::SetTournamentResult&) { return tournament_command(me, cid, m); },
          [&](const protocol::RepairRound&) { return tournament_command(me, cid, m); },
          // Everything else names a game (join and leave were handled above, guests' too); a ping
          // never comes here: its connection answers it through answer().
          [&](const auto& c) -> Reply {
            if constexpr (requires { c.game; }) {
              Room* r = room(c.game);
              return r ? room_command(me, who, *r, cid, m, now) : no_game(c.game);
            } else {
              return error(cid, ErrorCode::Internal, "this command has no handler");
            }
          },
      },
      m);
}

// The commands a logged-in user gives inside a game.
Hub::Reply Hub::room_command(const protocol::UserRef& user, const std::shared_ptr<Connection>& who,
                             Room& r, const std::string& cid, const protocol::ClientMessage& m,
                             Steady now) {
  const std::int64_t me = user.id;
  return std::visit(
      Overloaded{
          [&](const protocol::SendChat& c) -> Reply {
            if (!chat_rate_.try_take(std::to_string(me), now)) {
              const auto& o = services_.room;
              return error(cid, ErrorCode::RateLimited,
                           "too much chat: at most " + std::to_string(o.chat_burst) +
                               " lines at once, then one every " +
                               std::to_string(o.chat_refill.count()) +
                               " ms; this line was not posted");
            }
            return r.chat(user, cid, c.text);
          },
          [&](const protocol::PlayMove& c) {
            return r.play(me, cid, c.vertex, {now, c.think_ms, who->rtt_ms()});
          },
          [&](const protocol::PassMove& c) {
            return r.pass(me, cid, {now, c.think_ms, who->rtt_ms()});
          },
          [&](const protocol::Resign&) { return r.resign(me, cid, now); },
          [&](const protocol::RequestUndo&) { return r.request_undo(me, cid); },
          [&](const protocol::AnswerUndo& c) { return r.answer_undo(me, cid, c.accept, now); },
          [&](const protocol::NigiriChoice& c) {
            return r.choose_nigiri(me, cid, c.seed, c.guess, now);
          },
          [&](const protocol::AbortGame&) { return r.abort(me, cid, now); },
          [&](const protocol::ClaimWin&) { return r.claim_win(me, cid, now); },
          [&](const protocol::MarkDead& c) { return r.mark(me, cid, c.vertex, c.dead); },
          [&](const protocol::AcceptScore& c) { return r.accept_score(me, cid, c.version, now); },
          [&](const protocol::ResumePlay&) { return r.resume(me, cid, now); },
          [&](const auto&) -> Reply {
            return error(cid, ErrorCode::Internal, "this command has no handler");
          },
      },
      m);
}

Hub::Reply Hub::create(const protocol::UserRef& me, const std::string& cid,
                       const protocol::CreateChallenge& m) {
  auto outcome = challenges_.open(me, cid, m, services_.find_user, out_.writes);
  if (auto* refused = std::get_if<protocol::Error>(&outcome)) return std::move(*refused);
  const auto& c = std::get<protocol::Challenge>(outcome);
  broadcast_challenge(c, protocol::ChallengeOpened{c});
  return protocol::Ack{cid, {}, {}, c.id, {}};
}

Hub::Reply Hub::close_challenge(const protocol::UserRef& me, const std::string& cid,
                                protocol::ChallengeId id, bool decline) {
  auto outcome = challenges_.close(me, cid, id, decline, out_.writes);
  if (auto* refused = std::get_if<protocol::Error>(&outcome)) return std::move(*refused);
  broadcast_challenge(std::get<protocol::Challenge>(outcome),
                      protocol::ChallengeClosed{id, decline ? "declined" : "cancelled", {}});
  return protocol::Ack{cid, {}, {}, id, {}};
}

Hub::Reply Hub::accept(const protocol::UserRef& me, const std::string& cid,
                       protocol::ChallengeId id) {
  auto outcome = challenges_.take_to_accept(me, cid, id);
  if (auto* refused = std::get_if<protocol::Error>(&outcome)) return std::move(*refused);
  const protocol::Challenge c = std::get<protocol::Challenge>(std::move(outcome));
  using Choice = protocol::GameSettings::ColorChoice;
  protocol::UserRef black = c.challenger;  // with a nigiri: the holder, who may end up White
  protocol::UserRef white = me;
  std::optional<std::string> secret, nonce;
  if (c.settings.color == Choice::Nigiri) {
    secret = services_.random_hex(32);
    nonce = services_.random_hex(16);
  } else if (c.settings.color == Choice::White) {
    std::swap(black, white);
  } else if (c.settings.color == Choice::Automatic) {  // the weaker player takes Black
    const double challenger = rating_of(c.challenger.id).rating;
    const double accepter = rating_of(me.id).rating;
    if (challenger > accepter || (challenger == accepter && !services_.draw_black()))
      std::swap(black, white);
  }
  protocol::GameSettings settings = c.settings;
  if (settings.automatic_handicap) {
    settings.automatic_handicap = false;
    const int ranks =
        ratings::rank_difference(rating_of(black.id).rating, rating_of(white.id).rating);
    if (ranks >= 1) settings.komi = 0.5;
    protocol::fit_handicap(settings, ranks);  // as many stones as ranks between them
  }
  const bool drawn = secret.has_value();
  const protocol::GameId game =
      open_room(id, settings, black, white, secret, nonce, services_.room);
  out_.writes.push_back(Challenges::closed_by_game(id, game));
  broadcast_challenge(c, protocol::ChallengeClosed{id, "accepted", game});
  const auto started = encoded(protocol::GameStarted{game, black, white, settings, drawn});
  presence_.send_to_user(black.id, started, out_);
  presence_.send_to_user(white.id, started, out_);
  return protocol::Ack{cid, game, {}, id, {}};
}

protocol::GameId Hub::open_room(std::optional<protocol::ChallengeId> challenge,
                                const protocol::GameSettings& settings,
                                const protocol::UserRef& black, const protocol::UserRef& white,
                                std::optional<std::string> secret, std::optional<std::string> nonce,
                                const RoomOptions& options) {
  const protocol::GameId game = rooms_.next_id();
  std::optional<Nigiri> nigiri;
  if (secret && nonce) nigiri.emplace(*secret, *nonce);
  // The game's row goes before the events its room has already produced (collected later).
  out_.writes.push_back(store::GameCreated{game, challenge, protocol::encode_settings(settings),
                                           black.id, white.id, std::move(secret), std::move(nonce),
                                           0});
  rooms_.add(game, std::make_unique<Room>(game, settings, black, white, std::move(nigiri),
                                          services_.clock->steady_now(), options));
  touched_.insert(game);
  if (metrics_) ++metrics_->games_started_total;
  return game;
}

// ---- tournaments ----

Hub::Reply Hub::tournament_command(const protocol::UserRef& me, const std::string& cid,
                                   const protocol::ClientMessage& m) {
  try {
    tournaments_.begin_command(cid);
    auto reply = tournament_action(me, cid, m);
    tournaments_.begin_command({});
    return reply;
  } catch (
      const std::exception& e) {  // a fault in the tournament code must not take the server down
    spdlog::error("tournament command {} from {} failed: {}", cid, me.name, e.what());
    return error(cid, ErrorCode::Internal,
                 "the tournament could not do that (the server logged why)");
  }
}

Hub::Reply Hub::tournament_action(const protocol::UserRef& me, const std::string& cid,
                                  const protocol::ClientMessage& m) {
  return std::visit(
      Overloaded{
          [&](const protocol::CreateTournament& c) {
            return tournaments_.create(me, cid, c.settings);
          },
          [&](const protocol::RegisterTournament& c) {
            return tournaments_.register_player(me, cid, c);
          },
          [&](const protocol::LeaveTournament& c) {
            return tournaments_.leave(me, cid, c.tournament);
          },
          [&](const protocol::StartTournament& c) {
            return tournaments_.start(me, cid, c.tournament);
          },
          [&](const protocol::WithdrawPlayer& c) { return tournaments_.withdraw(me, cid, c); },
          [&](const protocol::SetTournamentResult& c) {
            return tournaments_.set_result(me, cid, c);
          },
          [&](const protocol::RepairRound& c) {
            return tournaments_.repair(me, cid, c.tournament);
          },
          [&](const auto&) -> Reply {
            return error(cid, ErrorCode::Internal, "this command has no handler");
          },
      },
      m);
}

protocol::GameId Hub::start_tournament_game(const protocol::GameSettings& settings,
                                            const protocol::UserRef& black,
                                            const protocol::UserRef& white,
                                            const RoomOptions& options) {
  const auto game =
      open_room(std::nullopt, settings, black, white, std::nullopt, std::nullopt, options);
  const auto started = encoded(protocol::GameStarted{game, black, white, settings, false});
  presence_.send_to_user(black.id, started, out_);
  presence_.send_to_user(white.id, started, out_);
  return game;
}

void Hub::end_tournament_game(protocol::GameId game, const Result& result,
                              const std::string& reason) {
  if (Room* room = rooms_.load(game)) {
    room->adjudicate(result, reason, services_.clock->steady_now());
    touched_.insert(game);
  }
}

void Hub::tournament_changed(const protocol::TournamentChanged& change) {
  const auto text = encoded(change);
  for (const auto& [id, watch] : tournament_watchers_) {
    if (!watch.second || *watch.second == change.tournament) out_.send(watch.first, text);
  }
}

void Hub::broadcast(const protocol::ServerMessage& message) {
  presence_.send_to_all(encoded(message), out_);
}

void Hub::arm_tournament(protocol::TournamentId id, std::optional<std::int64_t> at_ms) {
  if (!services_.timers) return;
  std::optional<Steady> when;
  if (at_ms) when = deadline_after(services_.clock->steady_now(), *at_ms - now_ms());
  services_.timers->arm(TournamentStart{id}, when);
}

std::string Hub::tournaments_json(const store::Page& page) {
  std::lock_guard lock(mutex_);
  return tournaments_.list_json(page.before, page.limit);
}

std::optional<std::string> Hub::tournament_json(protocol::TournamentId id) {
  std::lock_guard lock(mutex_);
  return tournaments_.view_json(id);
}

}  // namespace tengen
