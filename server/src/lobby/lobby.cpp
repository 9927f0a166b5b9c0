#include "lobby/lobby.h"

#include <spdlog/spdlog.h>

#include "games/wait.h"
#include "lobby/stored.h"
#include "protocol/overloaded.h"
#include "rooms/replies.h"
#include "rooms/room.h"
#include "store/unreachable.h"

// The lobby's turns (docs/architecture.md, "Owners"): how messages reach it, start-up, and the
// reads others wait for. lobby_challenges.cpp has the challenges, quick match and presence;
// lobby_tournaments.cpp the tournaments.

namespace tengen {
namespace {

using protocol::ErrorCode;
using replies::encoded;
using replies::error;

}  // namespace

Lobby::Lobby(Services services, std::unique_ptr<games::Mailbox> mailbox)
    : s_(std::move(services)), mailbox_(std::move(mailbox)) {}

Lobby::Turn::~Turn() {
  // Games it opened but never submitted (it failed half-way): nobody will find them.
  for (const auto& [id, room] : opened) lobby.s_.games.abandon(id);
  if (lobby.turn_ == this) lobby.turn_ = nullptr;
}

void Lobby::collect(Turn& turn) {
  for (auto& [id, room] : turn.opened) room->drain_into(turn.out);
}

void Lobby::finish(Turn& turn) {
  collect(turn);
  for (const auto& [id, room] : turn.opened) {  // their first events are fenced like any others
    const bool written = std::any_of(turn.out.writes.begin(), turn.out.writes.end(), [&](auto& w) {
      const auto* e = std::get_if<store::GameEvent>(&w);
      return e && e->game_id == id;
    });
    if (written) turn.out.writes.push_back(store::Fence{id, kFirstEpoch});
  }
  s_.commit.submit(turn.out);
  auto opened = std::move(turn.opened);
  turn.opened.clear();
  challenges_open_ = static_cast<std::int64_t>(challenges_.size());
  users_online_ = presence_.online_count();
  // Submitted: the games it opened are anyone's to find now, each on its actor (here, or on the
  // node it was placed on, which reads it back from the store).
  for (auto& [id, room] : opened) {
    if (const auto there = turn.elsewhere.find(id); there != turn.elsewhere.end()) {
      s_.placed(id, there->second);
      continue;
    }
    s_.games.add(id, std::move(room), kFirstEpoch, -1);
  }
  turn.elsewhere.clear();
}

void Lobby::in_turn(std::function<void(Turn&)> job, std::function<void()> then) {
  mailbox_->run_or_post([this, job = std::move(job), then = std::move(then)] {
    {
      Turn turn(*this);
      try {
        job(turn);
        finish(turn);
      } catch (const std::exception& e) {
        spdlog::error("a turn of the lobby failed: {}", e.what());
      }
    }
    if (then) then();
  });
}

// ---- messages ----

void Lobby::command(Command c) {
  mailbox_->run_or_post([this, c = std::move(c)] {
    try {
      Turn turn(*this);
      const Reply reply = handle(turn, c.who, c.cid, c.message);
      collect(turn);  // the events a command caused go out before its reply
      c.answered(turn.out, reply);
      finish(turn);
    } catch (const std::exception& e) {
      // Nothing it produced is kept: the database went away while a name was looked up (a
      // direct challenge's opponent), or a fault of ours.
      const bool unreachable = dynamic_cast<const store::Unreachable*>(&e) != nullptr;
      spdlog::log(unreachable ? spdlog::level::info : spdlog::level::err,
                  "a lobby command of connection {} failed: {}", c.who->id(), e.what());
      Outbox out;
      c.answered(out, unreachable ? error(c.cid, ErrorCode::Unavailable, replies::kDatabaseAway)
                                  : error(c.cid, ErrorCode::Internal,
                                          "the server could not do that (it logged why)"));
      s_.commit.submit(out);
    }
    c.submitted();
  });
}

void Lobby::connected(std::shared_ptr<Connection> connection, std::function<void()> then) {
  in_turn(
      [this, connection](Turn& turn) {
        if (presence_.connected(connection)) {  // the user's first connection
          const auto& user = *connection->user();
          presence_changed(turn, {user.id, user.username}, true);
        }
        turn.out.send(connection, lobby_for(connection->user()));
        if (const auto& user = connection->user()) {  // a quick match waiting from another tab
          if (const auto waiting = quick_match_.of(user->id))
            turn.out.send(
                connection,
                protocol::Seeking{waiting->seek, {}, quick_match_.waiting_for(waiting->seek)});
        }
      },
      std::move(then));
}

void Lobby::disconnected(std::shared_ptr<Connection> connection, std::function<void()> then) {
  in_turn(
      [this, connection](Turn& turn) {
        tournament_watchers_.erase(connection->id());
        if (presence_.disconnected(*connection)) {  // the user's last connection
          const auto& user = *connection->user();
          quick_match_.cancel(user.id);  // nobody to start a game for
          presence_changed(turn, {user.id, user.username}, false);
        }
      },
      std::move(then));
}

void Lobby::deadline(const TimerId& id) {
  in_turn([this, id](Turn& turn) {
    std::visit(Overloaded{[&](const PresenceTick&) { tell_presence(turn); },
                          [&](const TournamentStart& t) { tournaments_.deadline(t.tournament); },
                          [&](const QuickMatchTick&) { pair_seekers(turn); },
                          [](const auto&) {}},  // the games' and connections' are not the lobby's
               id);
  });
}

void Lobby::tournament_game_ended(Outbox out, std::function<void()> then) {
  auto shared = std::make_shared<Outbox>(std::move(out));
  in_turn(
      [this, shared](Turn& turn) {
        turn.out = *shared;
        try {
          const auto ended = turn.out.ended;
          for (const auto& over : ended) tournaments_.game_finished(over.game, over.result);
        } catch (const std::exception& e) {
          // A fault of the tournament's: the game's end and its ratings are kept all the same
          // (what the tournament made of it half-way is not), and the log says why.
          spdlog::error("a tournament could not take the end of its game: {}", e.what());
          for (const auto& [id, room] : turn.opened) s_.games.abandon(id);
          turn.opened.clear();
          turn.out = std::move(*shared);
        }
      },
      std::move(then));
}

void Lobby::account_restricted(std::int64_t user) {
  games::wait_for<bool>(*mailbox_, [this, user] {
    Turn turn(*this);
    const auto ref = s_.find_user_by_id(user).value_or(protocol::UserRef{user, ""});
    for (const auto id : challenges_.by(user)) {
      auto outcome = challenges_.close(ref, "", id, false, turn.out.writes);
      if (const auto* c = std::get_if<protocol::Challenge>(&outcome))
        broadcast_challenge(turn, *c, protocol::ChallengeClosed{id, Challenges::end_of(false), {}});
    }
    end_seek(turn, user, std::nullopt);
    finish(turn);
    return true;
  });
}

void Lobby::blocks_changed(std::int64_t user, std::vector<std::int64_t> blocked) {
  games::wait_for<bool>(*mailbox_, [this, user, &blocked] {
    Turn turn(*this);
    s_.blocks.set(user, blocked);
    const auto ref = s_.find_user_by_id(user);
    presence_.send_to_user(
        user, encoded(lobby_for(store::UserRecord{user, ref ? ref->name : "", "", false, 0})),
        turn.out);
    finish(turn);
    return true;
  });
}

void Lobby::tell(std::vector<std::int64_t> users, std::optional<std::int64_t> from,
                 std::string text) {
  in_turn([this, users = std::move(users), from,
           text = std::make_shared<const std::string>(std::move(text))](Turn& turn) {
    for (const auto user : users)
      if (!from || !s_.blocks.blocks(user, *from)) presence_.send_to_user(user, text, turn.out);
  });
}

std::variant<protocol::GameId, std::string> Lobby::start_game(
    const protocol::GameSettings& settings, std::int64_t black_id, std::int64_t white_id,
    std::optional<Millis> start_timeout) {
  using Out = std::variant<protocol::GameId, std::string>;
  return games::wait_for<Out>(*mailbox_, [&]() -> Out {
    const auto black = s_.find_user_by_id(black_id);
    const auto white = s_.find_user_by_id(white_id);
    if (!black || !white) return std::string("no such player");
    if (s_.blocks.apart(black_id, white_id))
      return std::string("one of the players blocks the other");
    if (const auto& teams = settings.teams) {  // pair Go: nobody blocks anyone of the four
      std::vector<std::int64_t> all;
      for (const auto* team : {&teams->black, &teams->white})
        for (const auto& m : *team) all.push_back(m.id);
      for (std::size_t i = 0; i < all.size(); ++i)
        for (std::size_t j = i + 1; j < all.size(); ++j)
          if (s_.blocks.apart(all[i], all[j]))
            return std::string("one of the players blocks another");
    }
    Turn turn(*this);
    auto options = s_.room;
    if (start_timeout) options.start_timeout = *start_timeout;
    const auto game = open_room(turn, std::nullopt, settings, *black, *white, std::nullopt,
                                std::nullopt, options, false);
    tell_started(turn, {game, *black, *white, settings, false, std::nullopt});
    end_seek(turn, black_id, game);
    end_seek(turn, white_id, game);
    finish(turn);
    return game;
  });
}

void Lobby::group_changed(std::int64_t group, std::vector<std::int64_t> moved) {
  in_turn([this, group](Turn& turn) {
    for (const auto id : challenges_.of_group(group)) {
      const auto* open = challenges_.find(id);
      if (!open || (s_.memberships && s_.memberships->member(group, open->challenger.id))) continue;
      const auto challenger = open->challenger;
      auto outcome = challenges_.close(challenger, "", id, false, turn.out.writes);
      if (const auto* c = std::get_if<protocol::Challenge>(&outcome))
        broadcast_challenge(turn, *c, protocol::ChallengeClosed{id, Challenges::end_of(false), {}});
    }
  });
  if (!moved.empty()) refresh(std::move(moved));
}

void Lobby::refresh(std::vector<std::int64_t> users) {
  in_turn([this, users = std::move(users)](Turn& turn) {
    for (const auto user : users) {
      const auto ref = s_.find_user_by_id(user);
      presence_.send_to_user(
          user, encoded(lobby_for(store::UserRecord{user, ref ? ref->name : "", "", false, 0})),
          turn.out);
    }
  });
}

std::string Lobby::tournaments_json(const store::Page& page) {
  return games::wait_for<std::string>(
      *mailbox_, [&] { return tournaments_.list_json(page.before, page.limit); });
}

std::optional<std::string> Lobby::tournament_json(protocol::TournamentId id) {
  return games::wait_for<std::optional<std::string>>(*mailbox_,
                                                     [&] { return tournaments_.view_json(id); });
}

// ---- start-up ----

std::size_t Lobby::recover_challenges(
    store::GameStore& store, const std::vector<std::pair<std::int64_t, std::int64_t>>& blocks) {
  return games::wait_for<std::size_t>(*mailbox_, [&] {
    std::size_t recovered = 0;
    challenges_.continue_after(store.last_challenge_id());
    for (const auto& c : store.open_challenges()) {
      protocol::Challenge challenge{
          c.id, stored::user(s_.find_user_by_id, c.challenger_id), std::nullopt,
          stored::settings(c.settings, "challenge " + std::to_string(c.id))};
      if (c.opponent_id) challenge.opponent = stored::user(s_.find_user_by_id, *c.opponent_id);
      challenges_.restore(std::move(challenge));
      ++recovered;
    }
    s_.blocks.load(blocks);
    challenges_open_ = static_cast<std::int64_t>(challenges_.size());
    return recovered;
  });
}

void Lobby::recover_tournaments(const std::vector<store::StoredTournament>& tournaments) {
  games::wait_for<bool>(*mailbox_, [&] {
    tournaments_.recover(tournaments);
    for (auto& [game, options] : tournaments_.games()) s_.tournament_games.add(game, options);
    return true;
  });
}

void Lobby::resume_tournaments(store::GameStore& store) {
  games::wait_for<bool>(*mailbox_, [&] {
    Turn turn(*this);
    // A tournament game's end and its tournament's news are one submission
    // (tournament_game_ended); stores written before 2026-11-27 made them two, and a crash in
    // between left a finished game whose result the tournament does not know yet.
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
    finish(turn);
    return true;
  });
}

// ---- commands ----

Lobby::Reply Lobby::handle(Turn& turn, const std::shared_ptr<Connection>& who,
                           const std::string& cid, const protocol::ClientMessage& m) {
  const auto& user = who->user();
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
          [&](const protocol::CreateChallenge& c) { return create(turn, me, cid, c); },
          [&](const protocol::CancelChallenge& c) {
            return close_challenge(turn, me, cid, c.challenge, false);
          },
          [&](const protocol::DeclineChallenge& c) {
            return close_challenge(turn, me, cid, c.challenge, true, c.why);
          },
          [&](const protocol::AcceptChallenge& c) {
            // Played on the node of the player who accepts (docs/cluster.md), if it may be.
            if (s_.placed && who->node() != 0) turn.place_on = who->node();
            return accept(turn, me, cid, c.challenge);
          },
          [&](const protocol::Seek& s) {
            return seek(turn, me, cid, s, s_.placed ? who->node() : 0);
          },
          [&](const protocol::CancelSeek&) -> Reply {
            end_seek(turn, me.id, std::nullopt);  // not waiting: done already (matched, or
                                                  // another tab)
            return protocol::Ack{cid, {}, {}, {}, {}};
          },
          // Everything else the router sends here is a tournament's.
          [&](const auto&) { return tournament_command(me, cid, m); },
      },
      m);
}

}  // namespace tengen
