#include "lobby/hub.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <future>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "engine/rules.h"
#include "protocol/overloaded.h"

namespace tengen {
namespace {

using protocol::ErrorCode;

protocol::Error error(const std::string& cid, ErrorCode code, std::string message) {
  return protocol::Error{cid, code, std::move(message), {}};
}

std::shared_ptr<const std::string> encoded(const protocol::ServerMessage& m) {
  return std::make_shared<const std::string>(protocol::encode(m));
}

// Tells both players that a game of theirs started (their pages open it).
void tell_started(const Presence& presence, Outbox& out, const protocol::GameStarted& started) {
  const auto text = encoded(started);
  presence.send_to_user(started.black.id, text, out);
  presence.send_to_user(started.white.id, text, out);
}

}  // namespace

Hub::Hub(Services services)
    : services_(std::move(services)),
      metrics_(services_.metrics),
      calendars_(services_.calendar_of),
      steady_anchor_(services_.clock ? services_.clock->steady_now() : Steady{}),
      unix_anchor_(services_.clock ? services_.clock->unix_ms() : 0) {
  if (services_.timers) services_.timers->set_handler([this](const TimerId& id) { deadline(id); });
}

Hub::~Hub() = default;

// ---- operations and their locks ----

Hub::Operation::~Operation() {
  release();
}

Room* Hub::Operation::room(protocol::GameId id) const {
  const auto it = games.find(id);
  return it == games.end() ? nullptr : it->second.slot->room.get();
}

void Hub::Operation::release() {
  if (reviews.owns_lock()) reviews.unlock();
  if (ratings.owns_lock()) ratings.unlock();
  games.clear();
  if (lobby.owns_lock()) {
    hub.lobby_op_ = nullptr;
    lobby.unlock();
  }
}

void Hub::lock_lobby(Operation& op) {
  if (op.lobby.owns_lock()) return;
  // The lobby comes first: taken after a game, it could wait for an operation that holds the
  // lobby and waits for that game.
  if (!op.games.empty()) throw std::logic_error("the lobby's lock is taken before any game's");
  op.lobby = std::unique_lock(lobby_mutex_);
  lobby_op_ = &op;
}

std::optional<RoomOptions> Hub::tournament_game(protocol::GameId game) const {
  std::lock_guard lock(tournament_games_mutex_);
  const auto it = tournament_games_.find(game);
  if (it == tournament_games_.end()) return std::nullopt;
  return it->second;
}

Room* Hub::hold(Operation& op, protocol::GameId id, bool in_memory_only) {
  if (Room* held = op.room(id)) return held;
  while (true) {
    auto slot = in_memory_only ? rooms_.find(id) : rooms_.load(id);
    if (!slot) return nullptr;
    std::unique_lock lock(slot->mutex);
    if (!slot->room) continue;  // it left memory while this waited: look again
    Room* room = slot->room.get();
    op.games.emplace(id, Operation::Held{std::move(slot), std::move(lock)});
    return room;
  }
}

void Hub::collect(Operation& op) {
  for (auto& [id, held] : op.games) {
    if (held.slot->room) held.slot->room->drain_into(op.out);
  }
}

void Hub::finish(Operation& op) {
  dispatch_suggestions(op);
  collect(op);
  std::vector<GameOver> tournaments_ended;  // tournament games that ended in this operation
  for (const auto& over : op.out.ended) {
    if (tournament_game(over.game)) tournaments_ended.push_back(over);
  }
  if (!tournaments_ended.empty() && !op.lobby.owns_lock()) {
    // A tournament game ended: its tournament is told in this operation if the lobby is free,
    // after it otherwise. Taken after a game, the lobby is only tried: an operation holding it
    // may be waiting for this game. Holding the lobby, this one may then take other games (a
    // tournament ends them): no operation holds another game and waits for this one's, since
    // only one with the lobby takes two games.
    std::unique_lock lobby(lobby_mutex_, std::try_to_lock);
    if (lobby.owns_lock()) {
      op.lobby = std::move(lobby);
      lobby_op_ = &op;
    }
  }
  settle_tournaments(op);
  rate_finished_games(op);
  rearm(op);
  // Without the lobby, they are left to tell_tournaments() (with it, settle_tournaments() told
  // them, and any game that ended because of them).
  std::vector<GameOver> untold;
  if (!op.lobby.owns_lock()) untold = std::move(tournaments_ended);
  notify_players(op);  // before the submission takes the outbox's ended games
  fence(op);
  commit_.submit(op.out);
  // After the submission: a game read back from the store waits for what was submitted.
  for (auto& [id, held] : op.games) {
    if (!held.slot->room) continue;
    held.slot->finished = held.slot->room->finished();
    rooms_.evict_if_done(id, *held.slot);
  }
  op.release();
  if (untold.empty()) return;
  // Not on this thread: a connection's strand waiting here for the lobby would hold back the
  // replies it has to write.
  if (services_.worker) {
    services_.worker->post([this, untold = std::move(untold)] { tell_tournaments(untold); });
  } else {
    tell_tournaments(untold);
  }
}

void Hub::notify_players(Operation& op) {
  if (!services_.notify) return;
  const auto now = services_.clock->steady_now();
  for (auto& [id, held] : op.games) {
    const Room* room = held.slot->room.get();
    if (!room || !room->correspondence() || room->finished()) continue;
    const int moves = room->moves_played();
    if (held.slot->told_moves == moves) continue;
    for (const auto* player : {&room->black(), &room->white()}) {
      const auto g = room->my_game(player->id, now);
      if (!g.to_move || !g.your_move) continue;  // the nigiri, the counting: nobody to move
      held.slot->told_moves = moves;
      const auto& other = player == &room->black() ? room->white() : room->black();
      services_.notify(PlayerNotice{PlayerNotice::Kind::YourMove, id, player->id, *g.to_move,
                                    other.name, moves});
    }
  }
  for (const auto& over : op.out.ended) {
    const Room* room = op.room(over.game);
    if (!room || !room->correspondence()) continue;
    for (const Color c : {Color::Black, Color::White}) {
      const auto& player = c == Color::Black ? room->black() : room->white();
      const auto& other = c == Color::Black ? room->white() : room->black();
      services_.notify(PlayerNotice{PlayerNotice::Kind::GameOver, over.game, player.id, c,
                                    other.name, room->moves_played(), over.result});
    }
  }
}

void Hub::fence(Operation& op) {
  std::vector<protocol::GameId> written;
  for (const auto& w : op.out.writes) {
    std::optional<protocol::GameId> game;
    if (const auto* e = std::get_if<store::GameEvent>(&w)) game = e->game_id;
    if (const auto* s = std::get_if<store::GameSeated>(&w)) game = s->id;
    if (const auto* f = std::get_if<store::GameFinished>(&w)) game = f->id;
    if (game && std::find(written.begin(), written.end(), *game) == written.end())
      written.push_back(*game);
  }
  for (const auto game : written) {
    if (const auto held = op.games.find(game); held != op.games.end())
      op.out.writes.push_back(store::Fence{game, held->second.slot->epoch});
  }
}

void Hub::tell_tournaments(const std::vector<GameOver>& ended) {
  Operation op(*this);
  lock_lobby(op);
  for (const auto& over : ended) tournaments_.game_finished(over.game, over.result);
  finish(op);  // which settles what that ends in turn
}

void Hub::settle_tournaments(Operation& op) {
  if (!op.lobby.owns_lock()) return;  // finish() leaves them to tell_tournaments()
  // A tournament told of a game's end may adjudicate or end others: those are told in turn.
  while (op.settled < op.out.ended.size()) {
    const std::vector<GameOver> ended(
        op.out.ended.begin() + static_cast<std::ptrdiff_t>(op.settled), op.out.ended.end());
    op.settled = op.out.ended.size();
    for (const auto& over : ended) tournaments_.game_finished(over.game, over.result);
    collect(op);
  }
}

void Hub::dispatch_suggestions(Operation& op) {
  for (auto& [id, held] : op.games) {
    Room* room = held.slot->room.get();
    if (!room) continue;
    auto job = room->take_suggestion_job();
    if (!job) continue;
    if (!services_.worker) {
      room->suggested(*job, suggest_dead_stones(job->board, job->options));
      continue;
    }
    services_.worker->post([this, job = std::move(*job)] {
      const auto dead = suggest_dead_stones(job.board, job.options);  // off the game's lock
      Operation later(*this);
      Room* waiting = hold(later, job.game, true);
      if (!waiting) return;  // it left memory (over, and unwatched)
      waiting->suggested(job, dead);
      finish(later);
    });
  }
}

void Hub::rearm(Operation& op) {
  if (!services_.timers) return;
  for (const auto& [id, held] : op.games) {
    if (const Room* room = held.slot->room.get())
      services_.timers->arm(GameDeadline{id}, room->next_deadline());
  }
}

void Hub::rate_finished_games(Operation& op) {
  for (const auto& over : op.out.ended) {
    const Room* found = op.room(over.game);
    if (!found || !found->settings().rated) continue;
    const Room& room = *found;
    const RatingBook::RatedGame game{
        over.game,         room.black().id,
        room.white().id,   room.settings().handicap,
        room.rules().komi, Rules::preset(room.settings().ruleset).komi};
    // Held until the rows are submitted: two games of one player ending at once on two threads
    // reach the store in the order they were rated.
    if (!op.ratings.owns_lock()) op.ratings = std::unique_lock(ratings_order_);
    for (auto& change : ratings_.rate(game, over.result, now_ms()))
      op.out.writes.push_back(std::move(change));
  }
}

// ---- entry points ----

void Hub::deadline(const TimerId& id) {
  Operation op(*this);
  std::visit(Overloaded{[&](const PresenceTick&) {
                          lock_lobby(op);
                          tell_presence(op);
                        },
                        [&](const TournamentStart& t) {
                          lock_lobby(op);
                          tournaments_.deadline(t.tournament);
                        },
                        [&](const GameDeadline& d) {
                          if (Room* room = hold(op, d.game, true))
                            room->tick(services_.clock->steady_now());
                        },
                        [&](const QuickMatchTick&) {
                          lock_lobby(op);
                          pair_seekers(op, services_.clock->steady_now());
                        },
                        [](const ConnectionTick&) {}},  // the HTTP server's, not ours
             id);
  finish(op);
}

std::size_t Hub::adopt(const std::vector<protocol::GameId>& games) {
  std::size_t taken = 0;
  for (const auto game : games) {
    Operation op(*this);
    taken += hold(op, game) != nullptr;
    finish(op);  // arms its deadlines
  }
  return taken;
}

std::pair<int, std::string> Hub::create_review(const protocol::http::ReviewRequest& request) {
  std::variant<protocol::ReviewId, Reviews::Refusal> made;
  std::future<void> durable;
  {
    Operation op(*this);
    op.reviews = std::unique_lock(reviews_mutex_);
    made = reviews_.create(request, now_ms(), services_.clock->steady_now(), op.out);
    commit_.submit(op.out);
    durable = services_.journal->barrier();
  }
  if (const auto* no = std::get_if<Reviews::Refusal>(&made))
    return {no->status, protocol::http::encode_error(no->code, no->message)};
  durable.wait();
  return {201, protocol::http::encode_review_created(std::get<protocol::ReviewId>(made))};
}

std::string Hub::reviews_json(const protocol::http::Viewer& viewer) {
  std::lock_guard lock(reviews_mutex_);
  return protocol::http::encode_reviews(reviews_.list(viewer));
}

std::optional<std::string> Hub::review_sgf(protocol::ReviewId id,
                                           const protocol::http::Viewer& viewer) {
  std::lock_guard lock(reviews_mutex_);
  return reviews_.sgf(id, viewer);
}

moderation::GameActionOutcome Hub::game_action(protocol::GameId game,
                                               const protocol::http::GameAction& action) {
  if (action.kind != protocol::http::GameAction::Kind::DeleteChat && tournament_game(game))
    return moderation::tournament_game(game);
  moderation::GameActionOutcome outcome;
  std::future<void> durable;
  {
    Operation op(*this);
    Room* room = hold(op, game);
    if (!room) return moderation::no_such_game(game);
    outcome = moderation::act_on(*room, action, services_.clock->steady_now());
    finish(op);
    durable = services_.journal->barrier();
  }
  if (std::holds_alternative<moderation::Refused>(outcome)) return outcome;
  durable.wait();
  if (auto* annulled = std::get_if<moderation::GameAnnulled>(&outcome); annulled && annulled->rated)
    annulled->ratings_rebuilt = rebuild_ratings();
  return outcome;
}

void Hub::seed_rating(std::int64_t user, const ratings::Rating& start) {
  std::lock_guard order(ratings_order_);
  const auto row = ratings_.seed(user, start, now_ms());
  if (!row) return;
  Outbox out;
  out.writes.push_back(*row);
  commit_.submit(out);
}

void Hub::seed_starts() {
  if (!services_.rating_starts) return;
  for (const auto& [user, start] : services_.rating_starts()) seed_rating(user, start);
}

std::size_t Hub::rebuild_ratings() {
  // Rated games that end meanwhile wait for the new book (rate_finished_games takes this lock
  // and keeps it until their rows are submitted, so every one before is durable after the
  // barrier, and read back below).
  std::lock_guard order(ratings_order_);
  services_.journal->barrier().wait();
  const auto seeds = ratings_.seeds();
  auto history = RatingBook::replay(services_.store->games_in_order_of_ending(), seeds);
  ratings_.replace(history);
  const auto rows = history.size();
  auto unplayed = RatingBook::unplayed_seeds(history, seeds, now_ms());
  Outbox out;
  out.writes.push_back(store::RatingsReplaced{std::move(history), std::move(unplayed)});
  commit_.submit(out);
  services_.journal->barrier().wait();
  return rows;
}

std::optional<std::string> Hub::sgf(protocol::GameId game) {
  std::optional<std::string> record;
  std::future<void> durable;
  {
    Operation op(*this);
    const Room* room = hold(op, game, true);
    if (!room) return std::nullopt;
    record = room->sgf();
    // Everything the record shows was submitted before this barrier.
    durable = services_.journal->barrier();
  }
  durable.wait();
  return record;
}

Hub::Recovered Hub::recover(store::GameStore& store) {
  Operation op(*this);
  lock_lobby(op);
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
  seed_starts();
  if (services_.moderation) blocks_.load(services_.moderation->all_blocks());
  {
    std::lock_guard lock(reviews_mutex_);
    recovered.reviews = reviews_.recover(store, services_.find_user_by_id);
  }
  const auto tournaments = store.tournaments();
  tournaments_.recover(tournaments);  // before the games: their rooms ask how to run
  {
    std::lock_guard lock(tournament_games_mutex_);
    for (auto& [game, options] : tournaments_.games()) tournament_games_[game] = options;
  }
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
  for (const auto& g : store.unfinished_games()) {
    if (!rooms_.restore(g)) {
      spdlog::info("game {} is another node's (docs/cluster.md): not recovered here", g.created.id);
      continue;
    }
    hold(op, g.created.id, true);
    ++recovered.games;
  }
  // A tournament game's end is submitted before its tournament is told (tell_tournaments): a
  // crash in between left a finished game whose result the tournament does not know yet.
  for (const auto game : tournaments_.undecided_games()) {
    const auto stored = store.game(game);
    if (!stored || !stored->result) continue;  // still in play
    const auto result = Result::parse_sgf(*stored->result);
    if (!result) {
      throw std::runtime_error("the stored result of game " + std::to_string(game) + " ('" +
                               *stored->result + "') is unreadable");
    }
    spdlog::info("tournament game {} ended before its tournament was told: telling it", game);
    tournaments_.game_finished(game, *result);
  }
  tournaments_.resume();
  finish(op);
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
  auto room =
      Room::recover(g, stored_settings(g.created.settings, "game " + std::to_string(g.created.id)),
                    stored_user(g.created.first_id), stored_user(g.created.second_id), now,
                    tournament_game(g.created.id).value_or(services_.room));
  room->set_blocks(&blocks_);
  give_time_off(*room);
  return room;
}

void Hub::give_time_off(Room& room) {
  if (!room.correspondence()) return;
  room.set_time_off(std::make_unique<GameTimeOff>(
      calendars_, room.black().id, room.white().id, room.settings().time.weekends_off,
      room.options().vacations_pause, steady_anchor_, unix_anchor_));
}

std::size_t Hub::rooms_in_memory() {
  return rooms_.size();
}

Metrics::Gauges Hub::gauges() {
  Metrics::Gauges g;
  g.games_active = rooms_.unfinished();
  std::lock_guard lock(lobby_mutex_);
  g.challenges_open = static_cast<std::int64_t>(challenges_.size());
  g.users_online = presence_.online_count();
  return g;
}

ratings::Rating Hub::rating_of(std::int64_t user) const {
  return ratings_.at(user, now_ms());
}

protocol::LobbySnapshot Hub::lobby_for(const std::optional<store::UserRecord>& user) const {
  protocol::LobbySnapshot lobby;
  lobby.challenges = challenges_.visible_to(user);
  if (user) {
    std::erase_if(lobby.challenges, [&](const protocol::Challenge& c) {
      return blocks_.blocks(user->id, c.challenger.id);
    });
  }
  lobby.online = presence_.listed();
  lobby.online_count = presence_.online_count();
  return lobby;
}

void Hub::reload_player(std::int64_t user) {
  calendars_.forget(user);
  // The player's correspondence games' flags, armed by their old weekends, are armed again (each
  // game on its own, never two held at once).
  for (const auto id : rooms_.ids()) {
    Operation op(*this);
    Room* room = hold(op, id, true);
    if (room && room->correspondence() && (room->black().id == user || room->white().id == user)) {
      room->tick(services_.clock->steady_now());
    }
    finish(op);
  }
  if (!services_.moderation) return;
  std::vector<std::int64_t> blocked;
  for (const auto& u : services_.moderation->blocked_by(user)) blocked.push_back(u.id);
  Operation op(*this);
  lock_lobby(op);
  blocks_.set(user, blocked);
  const auto ref = services_.find_user_by_id(user);
  presence_.send_to_user(
      user, encoded(lobby_for(store::UserRecord{user, ref ? ref->name : "", "", false, 0})),
      op.out);
  finish(op);
}

void Hub::account_restricted(std::int64_t user) {
  Operation op(*this);
  lock_lobby(op);
  const auto ref = services_.find_user_by_id(user).value_or(protocol::UserRef{user, ""});
  for (const auto id : challenges_.by(user)) {
    auto outcome = challenges_.close(ref, "", id, false, op.out.writes);
    if (const auto* c = std::get_if<protocol::Challenge>(&outcome))
      broadcast_challenge(op, *c, protocol::ChallengeClosed{id, Challenges::end_of(false), {}});
  }
  end_seek(op, user, std::nullopt);
  finish(op);
}

void Hub::broadcast_challenge(Operation& op, const protocol::Challenge& c,
                              const protocol::ServerMessage& m) {
  const auto text = encoded(m);
  if (c.opponent) {  // a direct challenge concerns two users, not everyone online
    presence_.send_to_user(c.challenger.id, text, op.out);
    if (c.opponent->id != c.challenger.id) presence_.send_to_user(c.opponent->id, text, op.out);
    return;
  }
  // An open challenge is not shown to those who block its challenger.
  presence_.send_to_all_but(
      [&](std::int64_t user) { return blocks_.blocks(user, c.challenger.id); }, text, op.out);
}

void Hub::connected(const std::shared_ptr<Connection>& connection) {
  Operation op(*this);
  lock_lobby(op);
  if (presence_.connected(connection)) {  // the user's first connection
    const auto& user = *connection->user();
    presence_changed(op, {user.id, user.username}, true);
  }
  op.out.send(connection, lobby_for(connection->user()));
  if (const auto& user = connection->user()) {  // a quick match waiting from another tab
    if (const auto waiting = quick_match_.of(user->id))
      op.out.send(connection,
                  protocol::Seeking{waiting->seek, {}, quick_match_.waiting_for(waiting->seek)});
  }
  finish(op);
}

void Hub::disconnected(const std::shared_ptr<Connection>& connection) {
  Operation op(*this);
  lock_lobby(op);
  std::set<protocol::GameId> joined;
  {
    std::lock_guard lock(joined_mutex_);
    if (const auto it = joined_.find(connection->id()); it != joined_.end()) {
      joined = std::move(it->second);
      joined_.erase(it);
    }
  }
  const Steady now = services_.clock->steady_now();
  for (const auto game : joined) {
    if (Room* room = hold(op, game, true)) room->leave(connection, now);
  }
  tournament_watchers_.erase(connection->id());
  op.reviews = std::unique_lock(reviews_mutex_);
  reviews_.disconnected(connection, op.out);
  if (!connection->user())
    applied_.forget(-static_cast<std::int64_t>(connection->id()));  // a guest's cids die with it
  if (presence_.disconnected(*connection)) {                        // the user's last connection
    const auto& user = *connection->user();
    quick_match_.cancel(user.id);  // nobody to start a game for
    presence_changed(op, {user.id, user.username}, false);
  }
  finish(op);
}

void Hub::presence_changed(Operation& op, const protocol::UserRef& user, bool online) {
  const bool first = presence_.note(user, online);
  if (!services_.timers) {
    tell_presence(op);
  } else if (first) {
    services_.timers->arm(PresenceTick{}, services_.clock->steady_now() + kPresenceInterval);
  }
}

void Hub::tell_presence(Operation& op) {
  const auto message = presence_.take_message();
  if (!message) return;
  presence_.send_to_all(encoded(*message), op.out);
  if (presence_.changes_waiting() && services_.timers)  // the rest in the next message
    services_.timers->arm(PresenceTick{}, services_.clock->steady_now() + kPresenceInterval);
}

void Hub::answer(const std::shared_ptr<Connection>& connection,
                 const protocol::ServerMessage& message) {
  // No lock: this connection's earlier commands were submitted before it reads the next.
  Outbox out;
  out.send(connection, message);
  commit_.submit(out);
}

void Hub::after_replies(std::function<void()> then) {
  commit_.after_everything(std::move(then));  // in order, after every earlier submission
}

void Hub::received(const std::shared_ptr<Connection>& who, protocol::ClientEnvelope command) {
  const std::int64_t key = who->user() ? who->user()->id : -static_cast<std::int64_t>(who->id());
  if (auto ack = applied_.begin(key, command.cid)) {  // already applied: answered, not applied
    Outbox out;
    out.send(who, std::move(ack));
    commit_.submit(out);
    return;
  }
  struct Claim {  // ends however this ends: remembered if applied, free again if not
    CommandMemory& memory;
    std::int64_t key;
    const std::string& cid;
    std::shared_ptr<const std::string> ack;
    ~Claim() { memory.end(key, cid, std::move(ack)); }
  } claim{applied_, key, command.cid, nullptr};
  Operation op(*this);
  const Reply reply = handle(op, who, command.cid, command.message, services_.clock->steady_now());
  collect(op);        // the events a command caused go out before its reply
  if (who->user()) {  // the event it made remembers whose command it was, across restarts
    for (auto& w : op.out.writes) {
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
    op.out.send(who, text);
    finish(op);
    claim.ack = text;  // remembered once submitted: a repeat is answered after the original
  } else {
    op.out.send(who, std::get<protocol::Error>(reply));
    finish(op);
  }
}

Hub::Reply Hub::handle(Operation& op, const std::shared_ptr<Connection>& who,
                       const std::string& cid, const protocol::ClientMessage& m, Steady now) {
  if (Reviews::is_review_command(m)) {  // guests may follow
    if (std::holds_alternative<protocol::ReviewChat>(m) && who->user()) {
      if (auto refused = too_much_chat(who->user()->id, cid, now)) return *refused;
    }
    op.reviews = std::unique_lock(reviews_mutex_);
    return reviews_.command(who, cid, m, now_ms(), op.out);
  }
  const auto& user = who->user();
  // Every command to a room first lets it notice deadlines that passed (a flag the timer has
  // not delivered yet); then the room's next deadline is armed again.
  auto room = [&](protocol::GameId id) -> Room* {
    Room* r = hold(op, id);
    if (r) r->tick(now);
    return r;
  };
  auto no_game = [&](protocol::GameId id) {
    return error(cid, ErrorCode::NotFound, "no game " + std::to_string(id));
  };
  if (const auto* join = std::get_if<protocol::JoinGame>(&m)) {  // guests may watch
    Room* r = room(join->game);
    if (!r) return no_game(join->game);
    auto reply = r->join(who, cid, join->since, now);
    if (std::holds_alternative<protocol::Ack>(reply)) {
      std::lock_guard lock(joined_mutex_);
      joined_[who->id()].insert(join->game);
    }
    return reply;
  }
  if (const auto* leave = std::get_if<protocol::LeaveGame>(&m)) {
    Room* r = room(leave->game);
    if (!r) return no_game(leave->game);
    r->leave(who, now);
    std::lock_guard lock(joined_mutex_);
    joined_[who->id()].erase(leave->game);
    return protocol::Ack{cid, leave->game, {}, {}, {}};
  }
  if (const auto* watch = std::get_if<protocol::WatchTournaments>(&m)) {  // guests too
    lock_lobby(op);
    if (watch->tournament && !tournaments_.exists(*watch->tournament))
      return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(*watch->tournament));
    tournament_watchers_[who->id()] = {who, watch->tournament};
    return protocol::Ack{cid, {}, {}, {}, watch->tournament};
  }
  if (std::holds_alternative<protocol::UnwatchTournaments>(m)) {
    lock_lobby(op);
    tournament_watchers_.erase(who->id());
    return protocol::Ack{cid, {}, {}, {}, {}};
  }
  if (!user)
    return error(cid, ErrorCode::NotAuthenticated, "guests may watch but not play: log in first");
  if (std::holds_alternative<protocol::ListMyGames>(m)) {
    op.out.send(who, encoded(my_games(user->id, now)));
    return protocol::Ack{cid, {}, {}, {}, {}};
  }
  const protocol::UserRef me{user->id, user->username};
  auto tournament = [&] { return tournament_command(op, me, cid, m); };
  return std::visit(
      Overloaded{
          [&](const protocol::CreateChallenge& c) { return create(op, me, cid, c); },
          [&](const protocol::CancelChallenge& c) {
            return close_challenge(op, me, cid, c.challenge, false);
          },
          [&](const protocol::DeclineChallenge& c) {
            return close_challenge(op, me, cid, c.challenge, true, c.why);
          },
          [&](const protocol::AcceptChallenge& c) { return accept(op, me, cid, c.challenge); },
          [&](const protocol::Seek& s) { return seek(op, me, cid, s, now); },
          [&](const protocol::CancelSeek&) { return cancel_seek(op, me, cid); },
          [&](const protocol::CreateTournament&) { return tournament(); },
          [&](const protocol::RegisterTournament&) { return tournament(); },
          [&](const protocol::LeaveTournament&) { return tournament(); },
          [&](const protocol::StartTournament&) { return tournament(); },
          [&](const protocol::WithdrawPlayer&) { return tournament(); },
          [&](const protocol::SetTournamentResult&) { return tournament(); },
          [&](const protocol::RepairRound&) { return tournament(); },
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

protocol::MyGames Hub::games_of(std::int64_t user) {
  return my_games(user, services_.clock->steady_now());
}

// Every game in memory is looked at, each under its own lock and one at a time: a player's games
// are not indexed (a lock and a comparison per game in memory; docs/correspondence.md).
protocol::MyGames Hub::my_games(std::int64_t user, Steady now) {
  protocol::MyGames list;
  for (const auto id : rooms_.ids()) {
    const auto slot = rooms_.find(id);
    if (!slot) continue;
    std::lock_guard lock(slot->mutex);
    const Room* room = slot->room.get();
    if (!room || room->finished() || (room->black().id != user && room->white().id != user))
      continue;
    list.games.push_back(room->my_game(user, now));
  }
  // Waiting for the player first, the least time left first (untimed last); then the others.
  const auto left = [](const protocol::MyGame& g) {
    if (!g.clock || !g.to_move) return INT64_MAX;
    return (*g.to_move == Color::Black ? g.clock->black : g.clock->white).main_ms;
  };
  std::stable_sort(list.games.begin(), list.games.end(), [&](const auto& a, const auto& b) {
    if (a.your_move != b.your_move) return a.your_move;
    return left(a) < left(b);
  });
  if (list.games.size() > kMyGamesListed) list.games.resize(kMyGamesListed);
  return list;
}

// One rate for each account's chat, in games and reviews alike: the refusal, or nothing.
std::optional<protocol::Error> Hub::too_much_chat(std::int64_t user, const std::string& cid,
                                                  Steady now) {
  {
    std::lock_guard lock(chat_mutex_);
    if (chat_rate_.try_take(std::to_string(user), now)) return std::nullopt;
  }
  const auto& o = services_.room;
  return error(cid, ErrorCode::RateLimited,
               "too much chat: at most " + std::to_string(o.chat_burst) +
                   " lines at once, then one every " + std::to_string(o.chat_refill.count()) +
                   " ms; this line was not posted");
}

// The commands a logged-in user gives inside a game.
Hub::Reply Hub::room_command(const protocol::UserRef& user, const std::shared_ptr<Connection>& who,
                             Room& r, const std::string& cid, const protocol::ClientMessage& m,
                             Steady now) {
  const std::int64_t me = user.id;
  return std::visit(
      Overloaded{
          [&](const protocol::SendChat& c) -> Reply {
            if (auto refused = too_much_chat(me, cid, now)) return *refused;
            return r.chat(user, cid, c.text, now_ms());
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
          [&](const protocol::SetConditionalMoves& c) {
            return r.set_conditional_moves(me, cid, c.lines);
          },
          [&](const auto&) -> Reply {
            return error(cid, ErrorCode::Internal, "this command has no handler");
          },
      },
      m);
}

Hub::Reply Hub::create(Operation& op, const protocol::UserRef& me, const std::string& cid,
                       const protocol::CreateChallenge& m) {
  lock_lobby(op);
  if (m.opponent) {
    if (const auto opponent = services_.find_user(*m.opponent);
        opponent && blocks_.blocks(opponent->id, me.id)) {
      return error(cid, ErrorCode::Forbidden,
                   opponent->name + " does not accept challenges from you");
    }
  }
  auto outcome = challenges_.open(me, cid, m, services_.find_user, op.out.writes);
  if (auto* refused = std::get_if<protocol::Error>(&outcome)) return std::move(*refused);
  const auto& c = std::get<protocol::Challenge>(outcome);
  broadcast_challenge(op, c, protocol::ChallengeOpened{c});
  return protocol::Ack{cid, {}, {}, c.id, {}};
}

Hub::Reply Hub::close_challenge(Operation& op, const protocol::UserRef& me, const std::string& cid,
                                protocol::ChallengeId id, bool decline,
                                const std::optional<std::string>& why) {
  lock_lobby(op);
  auto outcome = challenges_.close(me, cid, id, decline, op.out.writes);
  if (auto* refused = std::get_if<protocol::Error>(&outcome)) return std::move(*refused);
  // Declined: the challenger is told by whom, and why if they said.
  protocol::ChallengeClosed closed{id, Challenges::end_of(decline), {}};
  if (decline) {
    closed.by = me;
    closed.why = why;
  }
  broadcast_challenge(op, std::get<protocol::Challenge>(outcome), closed);
  return protocol::Ack{cid, {}, {}, id, {}};
}

Hub::Reply Hub::accept(Operation& op, const protocol::UserRef& me, const std::string& cid,
                       protocol::ChallengeId id) {
  lock_lobby(op);
  // No game between two players when one blocks the other.
  if (const auto* open = challenges_.find(id); open && blocks_.apart(open->challenger.id, me.id))
    return error(cid, ErrorCode::Forbidden, "this challenge is not open to you");
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
  } else if (c.settings.color == Choice::Automatic) {
    std::tie(black, white) = weaker_takes_black(c.challenger, me);
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
      open_room(op, id, settings, black, white, secret, nonce, services_.room, false);
  op.out.writes.push_back(Challenges::closed_by_game(id, game));
  broadcast_challenge(op, c, protocol::ChallengeClosed{id, protocol::ChallengeEnd::Accepted, game});
  tell_started(presence_, op.out, {game, black, white, settings, drawn});
  end_seek(op, black.id, game);  // playing now: a quick match would start a second game
  end_seek(op, white.id, game);
  return protocol::Ack{cid, game, {}, id, {}};
}

std::pair<protocol::UserRef, protocol::UserRef> Hub::weaker_takes_black(
    const protocol::UserRef& a, const protocol::UserRef& b) {
  const double ra = rating_of(a.id).rating;
  const double rb = rating_of(b.id).rating;
  if (ra > rb || (ra == rb && !services_.draw_black())) return {b, a};
  return {a, b};
}

// ---- quick match ----

Hub::Reply Hub::seek(Operation& op, const protocol::UserRef& me, const std::string& cid,
                     const protocol::Seek& m, Steady now) {
  lock_lobby(op);
  if (!quick_match_.add({me, m, rating_of(me.id).rating, now})) {
    return error(cid, ErrorCode::RateLimited,
                 "too many players are waiting for a quick match; try again in a minute or "
                 "accept a challenge from the lobby");
  }
  const auto told = encoded(protocol::Seeking{m, {}, quick_match_.waiting_for(m)});
  presence_.send_to_user(me.id, told, op.out);
  pair_seekers(op, now);
  return protocol::Ack{cid, {}, {}, {}, {}};
}

Hub::Reply Hub::cancel_seek(Operation& op, const protocol::UserRef& me, const std::string& cid) {
  lock_lobby(op);
  end_seek(op, me.id, std::nullopt);  // not waiting: done already (matched, or another tab)
  return protocol::Ack{cid, {}, {}, {}, {}};
}

void Hub::end_seek(Operation& op, std::int64_t user, std::optional<protocol::GameId> game) {
  if (!quick_match_.cancel(user)) return;  // not waiting: nothing to end, nobody to tell
  presence_.send_to_user(user, encoded(protocol::Seeking{{}, game, 0}), op.out);
}

void Hub::pair_seekers(Operation& op, Steady now) {
  const auto apart = [this](std::int64_t a, std::int64_t b) { return blocks_.apart(a, b); };
  for (const auto& pair : quick_match_.match(now, apart)) {
    const auto settings = QuickMatch::settings(pair.first.seek);
    const auto [black, white] = weaker_takes_black(pair.first.user, pair.second.user);
    const protocol::GameId game = open_room(op, std::nullopt, settings, black, white, std::nullopt,
                                            std::nullopt, services_.room, false);
    tell_started(presence_, op.out, {game, black, white, settings, false});
    const auto matched = encoded(protocol::Seeking{{}, game, 0});
    for (const auto& player : {black, white}) presence_.send_to_user(player.id, matched, op.out);
  }
  if (!quick_match_.empty() && services_.timers)
    services_.timers->arm(QuickMatchTick{}, now + kQuickMatchInterval);
}

protocol::GameId Hub::open_room(Operation& op, std::optional<protocol::ChallengeId> challenge,
                                const protocol::GameSettings& settings,
                                const protocol::UserRef& black, const protocol::UserRef& white,
                                std::optional<std::string> secret, std::optional<std::string> nonce,
                                const RoomOptions& options, bool in_tournament) {
  const protocol::GameId game = rooms_.next_id();
  if (in_tournament) {
    // Indexed before the room exists, so that whoever finds the room takes the lobby first.
    std::lock_guard lock(tournament_games_mutex_);
    tournament_games_[game] = options;
  }
  std::optional<Nigiri> nigiri;
  if (secret && nonce) nigiri.emplace(*secret, *nonce);
  // The game's row goes before the events its room has already produced (collected later).
  op.out.writes.push_back(store::GameCreated{game, challenge, protocol::encode_settings(settings),
                                             black.id, white.id, std::move(secret),
                                             std::move(nonce), 0});
  constexpr std::int64_t kFirstEpoch = 1;
  op.out.writes.push_back(store::GameOwned{game, leases_.node(), kFirstEpoch});
  auto room = std::make_unique<Room>(game, settings, black, white, std::move(nigiri),
                                     services_.clock->steady_now(), options);
  room->set_blocks(&blocks_);
  give_time_off(*room);
  auto slot = std::make_shared<GameSlot>(std::move(room), kFirstEpoch);
  slot->told_moves = -1;  // the first move is news
  // Held before anyone can find it: nothing about the game is sent before its row is durable.
  std::unique_lock lock(slot->mutex);
  rooms_.add(game, slot);
  op.games.emplace(game, Operation::Held{std::move(slot), std::move(lock)});
  if (metrics_) ++metrics_->games_started_total;
  return game;
}

// ---- tournaments ----

Hub::Reply Hub::tournament_command(Operation& op, const protocol::UserRef& me,
                                   const std::string& cid, const protocol::ClientMessage& m) {
  lock_lobby(op);
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
  Operation& op = *lobby_op_;
  const auto game = open_room(op, std::nullopt, settings, black, white, std::nullopt, std::nullopt,
                              options, true);
  tell_started(presence_, op.out, {game, black, white, settings, false, options.tournament});
  return game;
}

void Hub::end_tournament_game(protocol::GameId game, const Result& result,
                              protocol::EndReason reason) {
  if (Room* room = hold(*lobby_op_, game))
    room->adjudicate(result, reason, services_.clock->steady_now());
}

void Hub::tournament_changed(const protocol::TournamentChanged& change) {
  const auto text = encoded(change);
  for (const auto& [id, watch] : tournament_watchers_) {
    if (!watch.second || *watch.second == change.tournament) lobby_op_->out.send(watch.first, text);
  }
}

void Hub::arm_tournament(protocol::TournamentId id, std::optional<std::int64_t> at_ms) {
  if (!services_.timers) return;
  std::optional<Steady> when;
  if (at_ms) when = deadline_after(services_.clock->steady_now(), *at_ms - now_ms());
  services_.timers->arm(TournamentStart{id}, when);
}

std::string Hub::tournaments_json(const store::Page& page) {
  std::lock_guard lock(lobby_mutex_);
  return tournaments_.list_json(page.before, page.limit);
}

std::optional<std::string> Hub::tournament_json(protocol::TournamentId id) {
  std::lock_guard lock(lobby_mutex_);
  return tournaments_.view_json(id);
}

}  // namespace tengen
