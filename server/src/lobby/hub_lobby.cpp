#include <spdlog/spdlog.h>

#include "lobby/hub.h"
#include "protocol/overloaded.h"
#include "rooms/replies.h"

// The lobby's half of the hub (docs/games.md): challenges, quick match, tournaments, presence,
// and the games it opens. Everything here runs under the lobby's lock.

namespace tengen {
namespace {

using protocol::ErrorCode;
using replies::encoded;
using replies::error;

// Tells both players that a game of theirs started (their pages open it).
void tell_started(const Presence& presence, Outbox& out, const protocol::GameStarted& started) {
  const auto text = encoded(started);
  presence.send_to_user(started.black.id, text, out);
  presence.send_to_user(started.white.id, text, out);
}

}  // namespace

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
  const protocol::GameId game = games_.next_id();
  if (in_tournament) {
    // Indexed before the game starts: its actor tells the lobby of its end if it is one.
    std::lock_guard lock(tournament_games_mutex_);
    tournament_games_[game] = options;
  }
  std::optional<Nigiri> nigiri;
  if (secret && nonce) nigiri.emplace(*secret, *nonce);
  // The game's row goes before the events its room has already produced (collected later).
  op.out.writes.push_back(store::GameCreated{game, challenge, protocol::encode_settings(settings),
                                             black.id, white.id, std::move(secret),
                                             std::move(nonce), 0});
  op.out.writes.push_back(store::GameOwned{game, leases_.node(), kFirstEpoch});
  auto room = std::make_unique<Room>(game, settings, black, white, std::move(nigiri),
                                     services_.clock->steady_now(), options);
  room->set_blocks(&blocks_);
  give_time_off(*room);
  // Its actor takes what is posted to it but starts once the row is submitted (finish()):
  // nothing about the game is sent before its row is durable.
  games_.reserve(game);
  op.opened.emplace(game, std::move(room));
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
  if (const auto opened = lobby_op_->opened.find(game); opened != lobby_op_->opened.end()) {
    opened->second->adjudicate(result, reason, services_.clock->steady_now());
    return;
  }
  games_.post(game, games::Adjudicate{result, reason});
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
