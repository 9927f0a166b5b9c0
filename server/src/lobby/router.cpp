#include "lobby/router.h"

#include <algorithm>

#include "protocol/families.h"
#include "rooms/replies.h"

namespace tengen {
namespace {

using protocol::ErrorCode;
using protocol::Family;
using replies::encoded;
using replies::error;

// The key a connection's commands are remembered under: its account, or (a guest) itself.
std::int64_t key_of(const Connection& who) {
  return who.user() ? who.user()->id : -static_cast<std::int64_t>(who.id());
}

}  // namespace

Router::Router(Services services)
    : s_(std::move(services)), chat_rate_(s_.chat_burst, s_.chat_refill), lanes_(s_.elsewhere) {}

void Router::connected(const std::shared_ptr<Connection>& connection) {
  lanes_.push(
      connection->id(),
      [this, connection](Lanes::Own&, const Lanes::Done& done) {
        if (s_.games_only) return done();
        s_.lobby.connected(connection, done);
      },
      connection->forwarded());
}

void Router::disconnected(const std::shared_ptr<Connection>& connection) {
  // After whatever the connection sent before it went; each owner lets it go on its own
  // mailbox, nobody waits for them.
  lanes_.push(
      connection->id(),
      [this, connection](Lanes::Own& own, const Lanes::Done& done) {
        for (const auto game : own.joined) s_.games.post_in_memory(game, games::Leave{connection});
        own.joined.clear();
        s_.reviews.disconnected(connection);
        if (!connection->user()) applied_.forget(key_of(*connection));  // a guest's cids go too
        if (s_.games_only) return done();
        s_.lobby.disconnected(connection, done);
      },
      connection->forwarded());
  lanes_.close(connection->id());
}

void Router::answer(const std::shared_ptr<Connection>& connection,
                    const protocol::ServerMessage& message) {
  auto text = encoded(message);
  const auto send = [this, connection, text] {
    Outbox out;
    out.send(connection, text);
    s_.commit.submit(out);
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

void Router::after_replies(std::function<void()> then) {
  // Once every command received so far is submitted, then in order after every submission.
  lanes_.after_current(
      [this, then = std::move(then)]() mutable { s_.commit.after_everything(std::move(then)); });
}

void Router::received(const std::shared_ptr<Connection>& who, protocol::ClientEnvelope command) {
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
  s_.commit.submit(out);
}

std::optional<protocol::Error> Router::too_much_chat(std::int64_t user, const std::string& cid,
                                                     Steady now) {
  bool taken = false;
  {
    std::lock_guard lock(chat_mutex_);
    taken = chat_rate_.try_take(std::to_string(user), now);
  }
  if (taken) {
    if (s_.chat_posted) s_.chat_posted(user);
    return std::nullopt;
  }
  return error(cid, ErrorCode::RateLimited,
               "too much chat: at most " + std::to_string(s_.chat_burst) +
                   " lines at once, then one every " + std::to_string(s_.chat_refill.count()) +
                   " ms; this line was not posted");
}

void Router::count_chat(std::vector<std::pair<std::int64_t, std::int64_t>> lines) {
  std::sort(lines.begin(), lines.end());  // each account's bucket in the order they were posted
  const std::int64_t unix_now = s_.clock.unix_ms();
  const Steady steady_now = s_.clock.steady_now();
  std::lock_guard lock(chat_mutex_);
  for (const auto& [at, user] : lines) {
    const auto ago = std::chrono::milliseconds(std::max<std::int64_t>(0, unix_now - at));
    chat_rate_.try_take(std::to_string(user), steady_now - ago);
  }
}

void Router::chat_elsewhere(std::int64_t user) {
  if (s_.metrics) ++s_.metrics->chat_lines_elsewhere_total;
  std::lock_guard lock(chat_mutex_);
  // A token if one is left: none left, the next line here is refused anyway.
  chat_rate_.try_take(std::to_string(user), s_.clock.steady_now());
}

void Router::run_command(const std::shared_ptr<Connection>& who,
                         const std::shared_ptr<const protocol::ClientEnvelope>& shared,
                         Lanes::Own& own, const Lanes::Done& done, bool loaded) {
  const protocol::ClientEnvelope& command = *shared;
  // A game's command for a game not in memory (or still being read back): the game is read back
  // first, and only then is its cid looked at — a game in play taken over from a node that is gone
  // remembers, as it is read back, the commands that made its last events (Centre::rebuild), one of
  // which this may be, resent because its ack was lost with that node.
  if (!loaded && protocol::family(command.message) == Family::Game) {
    const auto game = *protocol::game_of(command.message);
    if (!s_.games.ready(game)) {
      const auto moved = [this, who, done] {
        Outbox out;
        out.send(who, encoded(protocol::Resync{"game moved"}));
        s_.commit.submit(out);
        done();
      };
      if (s_.known_elsewhere && s_.known_elsewhere(game)) return moved();
      s_.games.post(game,
                    games::Read{[this, who, shared, &own, done, game, moved](const Room* room) {
                      if (!room && s_.played_elsewhere && s_.played_elsewhere(game)) return moved();
                      run_command(who, shared, own, done, true);
                    }});
      return;
    }
  }
  const std::int64_t key = key_of(*who);
  // The same cid under way on another connection of the account: this comes back when it ends.
  const auto begun = applied_.begin(key, command.cid, [this, who, shared, &own, done] {
    run_command(who, shared, own, done, true);
  });
  if (begun.ack) {  // already applied: answered, not applied
    Outbox out;
    out.send(who, begun.ack);
    s_.commit.submit(out);
    done();
    return;
  }
  if (!begun.claimed) return;
  // Each owner answers its commands into the outbox it submits; the ack is remembered then.
  auto ack = std::make_shared<std::shared_ptr<const std::string>>();
  auto answered = [this, who, shared, ack](Outbox& out, const Reply& reply) {
    *ack = answer_into(out, who, *shared, reply);
  };
  auto submitted = [this, key, shared, ack, done] {
    applied_.end(key, shared->cid, std::move(*ack));
    done();
  };
  switch (protocol::family(command.message)) {
    case Family::Game: {  // a guest's only to watch
      const bool watching = std::holds_alternative<protocol::JoinGame>(command.message) ||
                            std::holds_alternative<protocol::LeaveGame>(command.message);
      if (!who->user() && !watching) {
        return answer_here(who, command, key,
                           error(command.cid, ErrorCode::NotAuthenticated,
                                 "guests may watch but not play: log in first"),
                           done);
      }
      return to_game(*protocol::game_of(command.message), who, shared, key, own, done);
    }
    case Family::Review: {  // guests may follow; chat goes at the account's rate
      if (std::holds_alternative<protocol::ReviewChat>(command.message) && who->user()) {
        if (auto refused = too_much_chat(who->user()->id, command.cid, s_.clock.steady_now()))
          return answer_here(who, command, key, *refused, done);
      }
      return s_.reviews.command(who, command.cid, command.message, std::move(answered),
                                std::move(submitted));
    }
    case Family::Lobby:
    case Family::Tournament:
      return s_.lobby.command(
          {who, command.cid, command.message, std::move(answered), std::move(submitted)});
    case Family::Account: {  // the list of the player's games, from their actors
      if (!who->user()) {
        return answer_here(who, command, key,
                           error(command.cid, ErrorCode::NotAuthenticated,
                                 "guests may watch but not play: log in first"),
                           done);
      }
      return s_.my_games(who->user()->id, [this, who, shared, key, done](protocol::MyGames list) {
        answer_here(who, *shared, key, protocol::Ack{shared->cid, {}, {}, {}, {}}, done,
                    std::move(list));
      });
    }
    case Family::Connection:  // a ping never comes here: its connection answers it (answer())
      break;
  }
  answer_here(who, command, key,
              error(command.cid, ErrorCode::Internal, "this command has no handler"), done);
}

void Router::answer_here(const std::shared_ptr<Connection>& who,
                         const protocol::ClientEnvelope& command, std::int64_t key,
                         const Reply& reply, const Lanes::Done& done,
                         std::optional<protocol::ServerMessage> before) {
  Outbox out;
  if (before) out.send(who, encoded(*before));
  auto ack = answer_into(out, who, command, reply);
  s_.commit.submit(out);
  applied_.end(key, command.cid, std::move(ack));
  done();
}

void Router::to_game(protocol::GameId game, const std::shared_ptr<Connection>& who,
                     const std::shared_ptr<const protocol::ClientEnvelope>& shared,
                     std::int64_t key, Lanes::Own& own, const Lanes::Done& done) {
  const protocol::ClientEnvelope& command = *shared;
  auto ack = std::make_shared<std::shared_ptr<const std::string>>();
  s_.games.post(
      game,
      games::Command{.who = who,
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

std::shared_ptr<const std::string> Router::answer_into(Outbox& out,
                                                       const std::shared_ptr<Connection>& who,
                                                       const protocol::ClientEnvelope& command,
                                                       const Reply& reply) {
  if (who->user()) {  // the event it made remembers whose command it was, across restarts
    for (auto& w : out.writes) {
      if (auto* e = std::get_if<store::GameEvent>(&w); e && e->cid == command.cid)
        e->user_id = who->user()->id;
    }
  }
  if (s_.metrics) {
    ++s_.metrics->ws_messages_total;
    const bool move = std::holds_alternative<protocol::PlayMove>(command.message) ||
                      std::holds_alternative<protocol::PassMove>(command.message);
    if (std::holds_alternative<protocol::Error>(reply)) {
      ++s_.metrics->ws_errors_total;
    } else if (move) {
      ++s_.metrics->moves_total;
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

}  // namespace tengen
