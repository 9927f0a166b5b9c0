#include "lobby/hub.h"

#include <spdlog/spdlog.h>

#include <future>
#include <thread>

#include "protocol/overloaded.h"
#include "rooms/replies.h"
#include "store/unreachable.h"

namespace tengen {
namespace {

using protocol::ErrorCode;
using replies::encoded;
using replies::error;

unsigned actor_threads(unsigned asked) {
  if (asked > 0) return asked;
  return std::max(2u, std::thread::hardware_concurrency());
}

// The game a command is for, if it is a game's: join, leave, and the room's own.
std::optional<protocol::GameId> game_of(const protocol::ClientMessage& m) {
  return std::visit(
      [](const auto& c) -> std::optional<protocol::GameId> {
        if constexpr (requires { c.game; }) {  // only the games' commands name one
          return c.game;
        } else {
          return std::nullopt;
        }
      },
      m);
}

}  // namespace

Hub::Hub(Services services)
    : services_(std::move(services)),
      metrics_(services_.metrics),
      calendars_(services_.calendar_of),
      steady_anchor_(services_.clock ? services_.clock->steady_now() : Steady{}),
      unix_anchor_(services_.clock ? services_.clock->unix_ms() : 0),
      pool_(actor_threads(services_.actor_threads)),
      loader_(make_thread_worker()),
      reviews_mail_(pool_.mailbox()),
      ratings_mail_(pool_.mailbox()),
      games_({.store = *services_.store,
              .journal = *services_.journal,
              .leases = leases_,
              .rebuild =
                  [this](const store::StoredGame& g) {
                    return rebuild(g, services_.clock->steady_now());
                  },
              .pool = pool_,
              .loader = *loader_,
              .host = *this,
              .metrics = metrics_}) {
  if (services_.timers) services_.timers->set_handler([this](const TimerId& id) { deadline(id); });
}

Hub::~Hub() {
  stop();
}

void Hub::stop() {
  if (stopped_) return;
  stopped_ = true;
  games_.close();   // no more loads
  loader_.reset();  // the loads under way hand their rooms over
  pool_.join();     // every actor finishes what it was given
}

// ---- operations of the lobby and the reviews ----

Hub::Operation::~Operation() {
  // Games it opened but never submitted (it failed half-way): nobody will find them.
  for (const auto& [id, room] : opened) hub.games_.abandon(id);
  release();
}

void Hub::Operation::release() {
  if (lobby.owns_lock()) {
    hub.lobby_op_ = nullptr;
    lobby.unlock();
  }
}

void Hub::lock_lobby(Operation& op) {
  if (op.lobby.owns_lock()) return;
  op.lobby = std::unique_lock(lobby_mutex_);
  lobby_op_ = &op;
}

std::optional<RoomOptions> Hub::tournament_game(protocol::GameId game) const {
  std::lock_guard lock(tournament_games_mutex_);
  const auto it = tournament_games_.find(game);
  if (it == tournament_games_.end()) return std::nullopt;
  return it->second;
}

void Hub::collect(Operation& op) {
  for (auto& [id, room] : op.opened) room->drain_into(op.out);
}

void Hub::finish(Operation& op) {
  collect(op);
  for (const auto& [id, room] : op.opened) {  // their first events are fenced like any others
    const bool written = std::any_of(op.out.writes.begin(), op.out.writes.end(), [&](auto& w) {
      const auto* e = std::get_if<store::GameEvent>(&w);
      return e && e->game_id == id;
    });
    if (written) op.out.writes.push_back(store::Fence{id, kFirstEpoch});
  }
  commit_.submit(op.out);
  auto opened = std::move(op.opened);
  op.opened.clear();
  op.release();
  // Submitted: the games it opened are anyone's to find now, each on its actor.
  for (auto& [id, room] : opened) games_.add(id, std::move(room), kFirstEpoch, -1);
}

// ---- entry points ----

void Hub::deadline(const TimerId& id) {
  if (const auto* game = std::get_if<GameDeadline>(&id)) {
    games_.post_in_memory(game->game, games::Tick{});
    return;
  }
  Operation op(*this);
  std::visit(Overloaded{[&](const PresenceTick&) {
                          lock_lobby(op);
                          tell_presence(op);
                        },
                        [&](const TournamentStart& t) {
                          lock_lobby(op);
                          tournaments_.deadline(t.tournament);
                        },
                        [&](const QuickMatchTick&) {
                          lock_lobby(op);
                          pair_seekers(op, services_.clock->steady_now());
                        },
                        [](const auto&) {}},  // games' above; connections' are the server's
             id);
  finish(op);
}

// ---- the review boards and the ratings, each on its owner's mailbox ----

template <typename T>
T Hub::wait_on(games::Mailbox& owner, std::function<T()> job) {
  std::promise<T> done;
  auto result = done.get_future();
  owner.run_or_post([&done, &job] { done.set_value(job()); });
  return result.get();
}

std::pair<int, std::string> Hub::create_review(const protocol::http::ReviewRequest& request) {
  using Made = std::variant<protocol::ReviewId, Reviews::Refusal>;
  const Made made = wait_on<Made>(*reviews_mail_, [&] {
    Outbox out;
    auto outcome = reviews_.create(request, now_ms(), services_.clock->steady_now(), out);
    commit_.submit(out);
    return outcome;
  });
  if (const auto* no = std::get_if<Reviews::Refusal>(&made))
    return {no->status, protocol::http::encode_error(no->code, no->message)};
  services_.journal->barrier().wait();  // answered once the review's row is durable
  return {201, protocol::http::encode_review_created(std::get<protocol::ReviewId>(made))};
}

std::string Hub::reviews_json(const protocol::http::Viewer& viewer) {
  return wait_on<std::string>(
      *reviews_mail_, [&] { return protocol::http::encode_reviews(reviews_.list(viewer)); });
}

std::optional<std::string> Hub::review_sgf(protocol::ReviewId id,
                                           const protocol::http::Viewer& viewer) {
  return wait_on<std::optional<std::string>>(*reviews_mail_,
                                             [&] { return reviews_.sgf(id, viewer); });
}

void Hub::to_reviews(const std::shared_ptr<Connection>& who,
                     const std::shared_ptr<const protocol::ClientEnvelope>& command,
                     std::int64_t key, const Lanes::Done& done) {
  reviews_mail_->run_or_post([this, who, command, key, done] {
    Outbox out;
    const Reply reply = reviews_.command(who, command->cid, command->message, now_ms(), out);
    auto ack = answer_into(out, who, *command, reply);
    commit_.submit(out);
    applied_.end(key, command->cid, std::move(ack));
    done();
  });
}

void Hub::seed_rating(std::int64_t user, const ratings::Rating& start) {
  wait_on<bool>(*ratings_mail_, [&] {
    const auto row = ratings_.seed(user, start, now_ms());
    if (!row) return false;
    Outbox out;
    out.writes.push_back(*row);
    commit_.submit(out);
    return true;
  });
}

void Hub::seed_starts() {
  if (!services_.rating_starts) return;
  for (const auto& [user, start] : services_.rating_starts()) seed_rating(user, start);
}

std::size_t Hub::rebuild_ratings() {
  // On the ratings' owner: rated games that end meanwhile wait for the new book (each game's
  // actor waits for its own), and every one rated before was submitted, so it is durable after
  // the barrier and read back below. Other games go on.
  return wait_on<std::size_t>(*ratings_mail_, [this] { return rebuild_ratings_here(); });
}

std::size_t Hub::rebuild_ratings_here() {
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

std::size_t Hub::rooms_in_memory() {
  return games_.size();
}

Metrics::Gauges Hub::gauges() {
  Metrics::Gauges g;
  g.games_active = games_.unfinished();
  std::lock_guard lock(lobby_mutex_);
  g.challenges_open = static_cast<std::int64_t>(challenges_.size());
  g.users_online = presence_.online_count();
  return g;
}

void Hub::connected(const std::shared_ptr<Connection>& connection) {
  lanes_.push(
      connection->id(),
      [this, connection](Lanes::Own&, const Lanes::Done& done) {
        Operation op(*this);
        lock_lobby(op);
        if (presence_.connected(connection)) {  // the user's first connection
          const auto& user = *connection->user();
          presence_changed(op, {user.id, user.username}, true);
        }
        op.out.send(connection, lobby_for(connection->user()));
        if (const auto& user = connection->user()) {  // a quick match waiting from another tab
          if (const auto waiting = quick_match_.of(user->id))
            op.out.send(
                connection,
                protocol::Seeking{waiting->seek, {}, quick_match_.waiting_for(waiting->seek)});
        }
        finish(op);
        done();
      },
      connection->forwarded());
}

void Hub::disconnected(const std::shared_ptr<Connection>& connection) {
  // After whatever the connection sent before it went; the games it joined are left on their
  // actors, without waiting for them.
  lanes_.push(
      connection->id(),
      [this, connection](Lanes::Own& own, const Lanes::Done& done) {
        for (const auto game : own.joined) games_.post_in_memory(game, games::Leave{connection});
        own.joined.clear();
        Operation op(*this);
        lock_lobby(op);
        tournament_watchers_.erase(connection->id());
        reviews_mail_->run_or_post([this, connection] {  // the boards it followed let it go
          Outbox out;
          reviews_.disconnected(connection, out);
          commit_.submit(out);
        });
        if (!connection->user())
          applied_.forget(-static_cast<std::int64_t>(connection->id()));  // a guest's cids go too
        if (presence_.disconnected(*connection)) {  // the user's last connection
          const auto& user = *connection->user();
          quick_match_.cancel(user.id);  // nobody to start a game for
          presence_changed(op, {user.id, user.username}, false);
        }
        finish(op);
        done();
      },
      connection->forwarded());
  lanes_.close(connection->id());
}

void Hub::answer(const std::shared_ptr<Connection>& connection,
                 const protocol::ServerMessage& message) {
  auto text = encoded(message);
  const auto send = [this, connection, text] {
    Outbox out;
    out.send(connection, text);
    commit_.submit(out);
  };
  // After what the connection's earlier commands produce; if its lane is full, at once.
  if (!lanes_.push(
          connection->id(),
          [send](Lanes::Own&, const Lanes::Done& done) {
            send();
            done();
          },
          connection->forwarded()))
    send();
}

void Hub::after_replies(std::function<void()> then) {
  // Once every command received so far is submitted, then in order after every submission.
  lanes_.after_current(
      [this, then = std::move(then)]() mutable { commit_.after_everything(std::move(then)); });
}

void Hub::received(const std::shared_ptr<Connection>& who, protocol::ClientEnvelope command) {
  const bool queued = lanes_.push(
      who->id(),
      [this, who, shared = std::make_shared<const protocol::ClientEnvelope>(std::move(command))](
          Lanes::Own& own, const Lanes::Done& done) { run_command(who, shared, own, done); },
      who->forwarded());
  if (queued) return;
  Outbox out;
  out.send(who, error(command.cid, ErrorCode::RateLimited,
                      "too many commands are waiting for the ones before them: this one was not "
                      "applied; send it again in a moment"));
  commit_.submit(out);
}

void Hub::run_command(const std::shared_ptr<Connection>& who,
                      const std::shared_ptr<const protocol::ClientEnvelope>& shared,
                      Lanes::Own& own, const Lanes::Done& done) {
  const protocol::ClientEnvelope& command = *shared;
  const std::int64_t key = who->user() ? who->user()->id : -static_cast<std::int64_t>(who->id());
  // The same cid under way on another connection of the account: this comes back when it ends.
  const auto begun = applied_.begin(
      key, command.cid, [this, who, shared, &own, done] { run_command(who, shared, own, done); });
  if (begun.ack) {  // already applied: answered, not applied
    Outbox out;
    out.send(who, begun.ack);
    commit_.submit(out);
    done();
    return;
  }
  if (!begun.claimed) return;
  // A review board's command goes to the boards' owner (guests may follow), unless it is chat
  // over the account's rate (refused below).
  if (Reviews::is_review_command(command.message)) {
    std::optional<protocol::Error> refused;
    if (std::holds_alternative<protocol::ReviewChat>(command.message) && who->user())
      refused = too_much_chat(who->user()->id, command.cid, services_.clock->steady_now());
    if (!refused) {
      to_reviews(who, shared, key, done);
      return;
    }
    Outbox out;
    answer_into(out, who, command, *refused);
    commit_.submit(out);
    applied_.end(key, command.cid, nullptr);
    done();
    return;
  }
  // A game's command goes to its actor; a guest's only to watch (the rest is refused below).
  const bool watching = std::holds_alternative<protocol::JoinGame>(command.message) ||
                        std::holds_alternative<protocol::LeaveGame>(command.message);
  if (const auto game = game_of(command.message); game && (who->user() || watching)) {
    to_game(*game, who, shared, key, own, done);
    return;
  }
  if (std::holds_alternative<protocol::ListMyGames>(command.message) && who->user()) {
    my_games(who->user()->id, [this, who, shared, key, done](protocol::MyGames list) {
      Outbox out;
      out.send(who, encoded(list));
      auto ack = answer_into(out, who, *shared, protocol::Ack{shared->cid, {}, {}, {}, {}});
      commit_.submit(out);
      applied_.end(key, shared->cid, std::move(ack));
      done();
    });
    return;
  }
  std::shared_ptr<const std::string> ack;
  try {
    Operation op(*this);
    const Reply reply =
        handle(op, who, command.cid, command.message, services_.clock->steady_now());
    collect(op);  // the events a command caused go out before its reply
    ack = answer_into(op.out, who, command, reply);
    finish(op);
  } catch (const std::exception& e) {
    // Nothing it produced is kept: the database went away while a name was looked up (a
    // direct challenge's opponent, a calendar), or a fault of ours.
    const bool unreachable = dynamic_cast<const store::Unreachable*>(&e) != nullptr;
    spdlog::log(unreachable ? spdlog::level::info : spdlog::level::err,
                "a command of connection {} failed: {}", who->id(), e.what());
    Outbox out;
    answer_into(out, who, command,
                unreachable ? error(command.cid, ErrorCode::Unavailable, replies::kDatabaseAway)
                            : error(command.cid, ErrorCode::Internal,
                                    "the server could not do that (it logged why)"));
    commit_.submit(out);
    ack = nullptr;
  }
  applied_.end(key, command.cid, std::move(ack));  // remembered once submitted
  done();
}

void Hub::to_game(protocol::GameId game, const std::shared_ptr<Connection>& who,
                  const std::shared_ptr<const protocol::ClientEnvelope>& shared, std::int64_t key,
                  Lanes::Own& own, const Lanes::Done& done) {
  const protocol::ClientEnvelope& command = *shared;
  auto ack = std::make_shared<std::shared_ptr<const std::string>>();
  games_.post(game, games::Command{
                        .who = who,
                        .rtt_ms = who->rtt_ms(),
                        .cid = command.cid,
                        .message = command.message,
                        .answered =
                            [this, who, shared, ack](Outbox& out, const Reply& reply) {
                              *ack = answer_into(out, who, *shared, reply);
                            },
                        .submitted =
                            [this, key, shared, &own, done, ack](const Reply& reply) {
                              // The games the connection joined live on its lane.
                              const auto& message = shared->message;
                              if (std::holds_alternative<protocol::Ack>(reply)) {
                                if (const auto* join = std::get_if<protocol::JoinGame>(&message))
                                  own.joined.insert(join->game);
                                if (const auto* leave = std::get_if<protocol::LeaveGame>(&message))
                                  own.joined.erase(leave->game);
                              }
                              applied_.end(key, shared->cid, std::move(*ack));
                              done();
                            }});
}

std::shared_ptr<const std::string> Hub::answer_into(Outbox& out,
                                                    const std::shared_ptr<Connection>& who,
                                                    const protocol::ClientEnvelope& command,
                                                    const Reply& reply) {
  if (who->user()) {  // the event it made remembers whose command it was, across restarts
    for (auto& w : out.writes) {
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
    auto text = encoded(*ack);
    out.send(who, text);
    return text;  // remembered once submitted: a repeat is answered after the original
  }
  out.send(who, std::get<protocol::Error>(reply));
  return nullptr;
}

Hub::Reply Hub::handle(Operation& op, const std::shared_ptr<Connection>& who,
                       const std::string& cid, const protocol::ClientMessage& m, Steady now) {
  const auto& user = who->user();
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
          // The games' commands went to their actors (run_command); a ping never comes here:
          // its connection answers it through answer(); a guest's list of games is refused.
          [&](const auto&) -> Reply {
            return error(cid, ErrorCode::Internal, "this command has no handler");
          },
      },
      m);
}

}  // namespace tengen
