#include <spdlog/spdlog.h>

#include "lobby/lobby.h"
#include "rooms/replies.h"

// The lobby's challenges, quick match and presence, and the games it opens (docs/games.md); on
// the lobby's mailbox, like all of lobby_*.cpp.

namespace tengen {
namespace {

using protocol::ErrorCode;
using replies::encoded;
using replies::error;

}  // namespace

void Lobby::tell_started(Turn& turn, const protocol::GameStarted& started) {
  const auto text = encoded(started);
  // Each colour's players: the one player, or a pair Go game's team (docs/events.md).
  using Members = std::vector<protocol::TeamMember>;
  const auto& teams = started.settings.teams;
  const Members black = teams ? teams->black : Members{{started.black.id, started.black.name}};
  const Members white = teams ? teams->white : Members{{started.white.id, started.white.name}};
  const auto names = [](const Members& team) {
    std::string joined;
    for (const auto& m : team) joined += (joined.empty() ? "" : " & ") + m.name;
    return joined;
  };
  for (const auto* team : {&black, &white})
    for (const auto& m : *team) presence_.send_to_user(m.id, text, turn.out);
  if (!s_.notify) return;
  const int round = started.tournament ? started.tournament->round : 0;
  const auto tell = [&](const Members& team, Color colour, const Members& other) {
    for (const auto& m : team) {
      s_.notify({PlayerNotice::Kind::GameStarted,
                 started.game,
                 m.id,
                 colour,
                 names(other),
                 0,
                 {},
                 round});
    }
  };
  tell(black, Color::Black, white);
  tell(white, Color::White, black);
}

ratings::Rating Lobby::rating_of(std::int64_t user) const {
  return s_.ratings.at(user, now_ms());
}

protocol::LobbySnapshot Lobby::lobby_for(const std::optional<store::UserRecord>& user) const {
  protocol::LobbySnapshot lobby;
  lobby.challenges = challenges_.visible_to(user);
  std::erase_if(lobby.challenges, [&](const protocol::Challenge& c) {
    // A group's: its members', and always its challenger's (who may have left: to cancel it).
    if (c.settings.group && !(user && (user->id == c.challenger.id || in_group_of(c, user->id))))
      return true;
    return user && s_.blocks.blocks(user->id, c.challenger.id);
  });
  lobby.online = presence_.listed();
  lobby.online_count = presence_.online_count();
  return lobby;
}

bool Lobby::in_group_of(const protocol::Challenge& c, std::int64_t user) const {
  return !c.settings.group || (s_.memberships && s_.memberships->member(*c.settings.group, user));
}

void Lobby::broadcast_challenge(Turn& turn, const protocol::Challenge& c,
                                const protocol::ServerMessage& m) {
  const auto text = encoded(m);
  if (c.settings.group && !c.opponent) {  // a group's: its members (and the challenger)
    auto members =
        s_.memberships ? s_.memberships->members(*c.settings.group) : std::vector<std::int64_t>{};
    if (std::find(members.begin(), members.end(), c.challenger.id) == members.end())
      members.push_back(c.challenger.id);
    for (const auto user : members)
      if (!s_.blocks.blocks(user, c.challenger.id)) presence_.send_to_user(user, text, turn.out);
    return;
  }
  if (c.opponent) {  // a direct challenge concerns two users, not everyone online
    presence_.send_to_user(c.challenger.id, text, turn.out);
    if (c.opponent->id != c.challenger.id) presence_.send_to_user(c.opponent->id, text, turn.out);
    return;
  }
  // An open challenge is not shown to those who block its challenger.
  presence_.send_to_all_but(
      [&](std::int64_t user) { return s_.blocks.blocks(user, c.challenger.id); }, text, turn.out);
}

void Lobby::presence_changed(Turn& turn, const protocol::UserRef& user, bool online) {
  const bool first = presence_.note(user, online);
  if (!s_.timers) {
    tell_presence(turn);
  } else if (first) {
    s_.timers->arm(PresenceTick{}, s_.clock.steady_now() + kPresenceInterval);
  }
}

void Lobby::tell_presence(Turn& turn) {
  const auto message = presence_.take_message();
  if (!message) return;
  presence_.send_to_all(encoded(*message), turn.out);
  if (presence_.changes_waiting() && s_.timers)  // the rest in the next message
    s_.timers->arm(PresenceTick{}, s_.clock.steady_now() + kPresenceInterval);
}

Lobby::Reply Lobby::create(Turn& turn, const protocol::UserRef& me, const std::string& cid,
                           const protocol::CreateChallenge& m) {
  if (m.opponent) {
    if (const auto opponent = s_.find_user(*m.opponent);
        opponent && s_.blocks.blocks(opponent->id, me.id)) {
      // A protected student (docs/classes.md) meets only the class and the bots.
      if (s_.blocks.protected_student(me.id))
        return error(cid, ErrorCode::Forbidden,
                     "you are a student of a class: you may challenge your classmates, your "
                     "teacher and the bots, not " +
                         opponent->name);
      if (s_.blocks.protected_student(opponent->id))
        return error(cid, ErrorCode::Forbidden,
                     opponent->name +
                         " is a student of a class and plays only classmates, the teacher and "
                         "the bots");
      return error(cid, ErrorCode::Forbidden,
                   opponent->name + " does not accept challenges from you");
    }
  }
  if (m.settings.group && !(s_.memberships && s_.memberships->member(*m.settings.group, me.id)))
    return error(cid, ErrorCode::Forbidden,
                 "a group's challenge is for its members: you do not belong to group " +
                     std::to_string(*m.settings.group));
  auto outcome = challenges_.open(me, cid, m, s_.find_user, turn.out.writes);
  if (auto* refused = std::get_if<protocol::Error>(&outcome)) return std::move(*refused);
  const auto& c = std::get<protocol::Challenge>(outcome);
  broadcast_challenge(turn, c, protocol::ChallengeOpened{c});
  return protocol::Ack{cid, {}, {}, c.id, {}};
}

Lobby::Reply Lobby::close_challenge(Turn& turn, const protocol::UserRef& me, const std::string& cid,
                                    protocol::ChallengeId id, bool decline,
                                    const std::optional<std::string>& why) {
  auto outcome = challenges_.close(me, cid, id, decline, turn.out.writes);
  if (auto* refused = std::get_if<protocol::Error>(&outcome)) return std::move(*refused);
  // Declined: the challenger is told by whom, and why if they said.
  protocol::ChallengeClosed closed{id, Challenges::end_of(decline), {}};
  if (decline) {
    closed.by = me;
    closed.why = why;
  }
  broadcast_challenge(turn, std::get<protocol::Challenge>(outcome), closed);
  return protocol::Ack{cid, {}, {}, id, {}};
}

Lobby::Reply Lobby::accept(Turn& turn, const protocol::UserRef& me, const std::string& cid,
                           protocol::ChallengeId id) {
  // No game between two players when one blocks the other.
  if (const auto* open = challenges_.find(id); open && s_.blocks.apart(open->challenger.id, me.id))
    return error(cid, ErrorCode::Forbidden, "this challenge is not open to you");
  if (const auto* open = challenges_.find(id); open && !in_group_of(*open, me.id))
    return error(cid, ErrorCode::Forbidden,
                 "this challenge is for the members of a group you do not belong to");
  auto outcome = challenges_.take_to_accept(me, cid, id);
  if (auto* refused = std::get_if<protocol::Error>(&outcome)) return std::move(*refused);
  const protocol::Challenge c = std::get<protocol::Challenge>(std::move(outcome));
  using Choice = protocol::GameSettings::ColorChoice;
  protocol::UserRef black = c.challenger;  // with a nigiri: the holder, who may end up White
  protocol::UserRef white = me;
  std::optional<std::string> secret, nonce;
  if (c.settings.color == Choice::Nigiri) {
    secret = s_.random_hex(32);
    nonce = s_.random_hex(16);
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
      open_room(turn, id, settings, black, white, secret, nonce, s_.room, false);
  turn.out.writes.push_back(Challenges::closed_by_game(id, game));
  broadcast_challenge(turn, c,
                      protocol::ChallengeClosed{id, protocol::ChallengeEnd::Accepted, game});
  tell_started(turn, {game, black, white, settings, drawn});
  end_seek(turn, black.id, game);  // playing now: a quick match would start a second game
  end_seek(turn, white.id, game);
  return protocol::Ack{cid, game, {}, id, {}};
}

std::pair<protocol::UserRef, protocol::UserRef> Lobby::weaker_takes_black(
    const protocol::UserRef& a, const protocol::UserRef& b) {
  const double ra = rating_of(a.id).rating;
  const double rb = rating_of(b.id).rating;
  if (ra > rb || (ra == rb && !s_.draw_black())) return {b, a};
  return {a, b};
}

// ---- quick match ----

Lobby::Reply Lobby::seek(Turn& turn, const protocol::UserRef& me, const std::string& cid,
                         const protocol::Seek& m, std::int64_t node) {
  if (!quick_match_.add({me, m, rating_of(me.id).rating, s_.clock.steady_now(), node})) {
    return error(cid, ErrorCode::RateLimited,
                 "too many players are waiting for a quick match; try again in a minute or "
                 "accept a challenge from the lobby");
  }
  const auto told = encoded(protocol::Seeking{m, {}, quick_match_.waiting_for(m)});
  presence_.send_to_user(me.id, told, turn.out);
  pair_seekers(turn);
  return protocol::Ack{cid, {}, {}, {}, {}};
}

void Lobby::end_seek(Turn& turn, std::int64_t user, std::optional<protocol::GameId> game) {
  if (!quick_match_.cancel(user)) return;  // not waiting: nothing to end, nobody to tell
  presence_.send_to_user(user, encoded(protocol::Seeking{{}, game, 0}), turn.out);
}

void Lobby::pair_seekers(Turn& turn) {
  const Steady now = s_.clock.steady_now();
  const auto apart = [this](std::int64_t a, std::int64_t b) { return s_.blocks.apart(a, b); };
  for (const auto& pair : quick_match_.match(now, apart)) {
    const auto settings = QuickMatch::settings(pair.first.seek);
    const auto [black, white] = weaker_takes_black(pair.first.user, pair.second.user);
    // Games on every node: played on the node of the one who sought last (whose seek, as a rule,
    // made the pair: a connection that is there now); on the hub if that is the hub's own.
    if (s_.placed && pair.second.node != 0) turn.place_on = pair.second.node;
    turn.matched = true;
    const protocol::GameId game = open_room(turn, std::nullopt, settings, black, white,
                                            std::nullopt, std::nullopt, s_.room, false);
    tell_started(turn, {game, black, white, settings, false});
    const auto matched = encoded(protocol::Seeking{{}, game, 0});
    for (const auto& player : {black, white}) presence_.send_to_user(player.id, matched, turn.out);
  }
  if (!quick_match_.empty() && s_.timers)
    s_.timers->arm(QuickMatchTick{}, now + kQuickMatchInterval);
}

protocol::GameId Lobby::open_room(Turn& turn, std::optional<protocol::ChallengeId> challenge,
                                  const protocol::GameSettings& settings,
                                  const protocol::UserRef& black, const protocol::UserRef& white,
                                  std::optional<std::string> secret,
                                  std::optional<std::string> nonce, const RoomOptions& options,
                                  bool in_tournament) {
  const protocol::GameId game = s_.games.next_id();
  if (in_tournament) {
    // Indexed before the game starts: read back from the store, its room runs the same way.
    s_.tournament_games.add(game, options);
  }
  std::optional<Nigiri> nigiri;
  if (secret && nonce) nigiri.emplace(*secret, *nonce);
  // The game's row goes before the events its room has already produced (collected later).
  turn.out.writes.push_back(store::GameCreated{game, challenge, protocol::encode_settings(settings),
                                               black.id, white.id, std::move(secret),
                                               std::move(nonce), 0});
  // Played on another node (docs/cluster.md, "Games on every node"): a live challenge's game or a
  // quick match's, rated or not (that node has the hub rate it once its end is durable:
  // Centre::rate_due); never a tournament's, whose end moves the tournament on here, nor a
  // correspondence game, whose reminders and digests read the hub's games.
  // Such a game is movable: should its node die or stop, it is handed to another running node.
  const auto place_on = std::exchange(turn.place_on, std::nullopt);
  const bool movable = (challenge || std::exchange(turn.matched, false)) && !in_tournament &&
                       settings.time.system != protocol::TimeControl::System::Correspondence;
  const bool elsewhere = place_on && movable;
  turn.out.writes.push_back(
      store::GameOwned{game, elsewhere ? *place_on : s_.leases.node(), kFirstEpoch, movable});
  auto room = std::make_unique<Room>(game, settings, black, white, std::move(nigiri),
                                     s_.clock.steady_now(), options);
  s_.prepare_room(*room);
  // Its actor takes what is posted to it but starts once the row is submitted (Lobby::finish):
  // nothing about the game is sent before its row is durable. A game played elsewhere has no
  // actor here: its room only makes its first events.
  if (elsewhere) {
    turn.elsewhere[game] = *place_on;
  } else {
    s_.games.reserve(game);
  }
  turn.opened.emplace(game, std::move(room));
  if (s_.metrics) ++s_.metrics->games_started_total;
  return game;
}

}  // namespace tengen
