#include <spdlog/spdlog.h>

#include "games/wait.h"
#include "lobby/lobby.h"
#include "protocol/overloaded.h"
#include "rooms/replies.h"
#include "rooms/room.h"
#include "tournaments/opengotha.h"
#include "tournaments/player_list.h"

// The lobby's tournaments (docs/tournaments.md): their commands, and the director's host, whose
// calls come within the lobby's turn (Lobby::turn_) on its mailbox.

namespace tengen {
namespace {

using protocol::ErrorCode;
using replies::encoded;
using replies::error;

Lobby::Reply tournament_action(TournamentDirector& tournaments, const protocol::UserRef& me,
                               const std::string& cid, const protocol::ClientMessage& m) {
  return std::visit(
      Overloaded{
          [&](const protocol::CreateTournament& c) {
            return tournaments.create(me, cid, c.settings);
          },
          [&](const protocol::RegisterTournament& c) {
            return tournaments.register_player(me, cid, c);
          },
          [&](const protocol::LeaveTournament& c) {
            return tournaments.leave(me, cid, c.tournament);
          },
          [&](const protocol::StartTournament& c) {
            return tournaments.start(me, cid, c.tournament);
          },
          [&](const protocol::WithdrawPlayer& c) { return tournaments.withdraw(me, cid, c); },
          [&](const protocol::SetTournamentResult& c) {
            return tournaments.set_result(me, cid, c);
          },
          [&](const protocol::RepairRound& c) { return tournaments.repair(me, cid, c.tournament); },
          [&](const protocol::AddTournamentPlayer& c) {
            return tournaments.add_player(me, cid, c);
          },
          [&](const protocol::PublishRound& c) { return tournaments.publish_round(me, cid, c); },
          [&](const protocol::ReportTournamentResult& c) {
            return tournaments.report_result(me, cid, c);
          },
          [&](const protocol::PairRound& c) { return tournaments.pair_round(me, cid, c); },
          [&](const protocol::SetAbsent& c) { return tournaments.set_absent(me, cid, c); },
          [&](const protocol::EditTournamentPlayer& c) {
            return tournaments.edit_player(me, cid, c);
          },
          [&](const auto&) -> Lobby::Reply {
            return error(cid, ErrorCode::Internal, "this command has no handler");
          },
      },
      m);
}

}  // namespace

// ---- tournaments ----

Lobby::Reply Lobby::tournament_command(const protocol::UserRef& me, const std::string& cid,
                                       const protocol::ClientMessage& m) {
  // A group's tournament (docs/groups.md): made by one of its members, for its members only.
  const auto member_of = [&](std::int64_t group) {
    return s_.memberships && s_.memberships->member(group, me.id);
  };
  if (const auto* c = std::get_if<protocol::CreateTournament>(&m);
      c && c->settings.game.group && !member_of(*c->settings.game.group))
    return error(cid, ErrorCode::Forbidden,
                 "a group's tournament is made by one of its members: you do not belong to group " +
                     std::to_string(*c->settings.game.group));
  if (const auto* r = std::get_if<protocol::RegisterTournament>(&m)) {
    const auto group = tournaments_.group_of(r->tournament);
    if (group && !member_of(*group))
      return error(cid, ErrorCode::Forbidden,
                   "this tournament is for the members of a group you do not belong to");
    // A protected student (docs/classes.md) plays in the class's tournaments only.
    if (!group && s_.blocks.protected_student(me.id) && tournaments_.exists(r->tournament))
      return error(cid, ErrorCode::Forbidden,
                   "you are a student of a class: you may play in your class's tournaments only");
  }
  try {
    tournaments_.begin_command(cid);
    auto reply = tournament_action(tournaments_, me, cid, m);
    tournaments_.begin_command({});
    return reply;
  } catch (
      const std::exception& e) {  // a fault in the tournament code must not take the server down
    spdlog::error("tournament command {} from {} failed: {}", cid, me.name, e.what());
    return error(cid, ErrorCode::Internal,
                 "the tournament could not do that (the server logged why)");
  }
}

protocol::GameId Lobby::start_tournament_game(const protocol::GameSettings& settings,
                                              const protocol::UserRef& black,
                                              const protocol::UserRef& white,
                                              const RoomOptions& options) {
  Turn& turn = *turn_;
  const auto game = open_room(turn, std::nullopt, settings, black, white, std::nullopt,
                              std::nullopt, options, true);
  tell_started(turn, {game, black, white, settings, false, options.tournament});
  return game;
}

void Lobby::end_tournament_game(protocol::GameId game, const Result& result,
                                protocol::EndReason reason) {
  if (const auto opened = turn_->opened.find(game); opened != turn_->opened.end()) {
    opened->second->adjudicate(result, reason, s_.clock.steady_now());
    return;
  }
  s_.games.post(game, games::Adjudicate{result, reason});
}

void Lobby::tournament_changed(const protocol::TournamentChanged& change) {
  const auto text = encoded(change);
  for (const auto& [id, watch] : tournament_watchers_) {
    if (!watch.second || *watch.second == change.tournament) turn_->out.send(watch.first, text);
  }
}

void Lobby::arm_tournament(protocol::TournamentId id, std::optional<std::int64_t> at_ms) {
  if (!s_.timers) return;
  std::optional<Steady> when;
  if (at_ms) when = deadline_after(s_.clock.steady_now(), *at_ms - now_ms());
  s_.timers->arm(TournamentStart{id}, when);
}

}  // namespace tengen

namespace tengen {

std::variant<protocol::TournamentId, std::string> Lobby::class_tournament(
    const protocol::TournamentSettings& settings, std::int64_t director,
    const std::vector<std::int64_t>& players) {
  using Out = std::variant<protocol::TournamentId, std::string>;
  return games::wait_for<Out>(*mailbox_, [&]() -> Out {
    const auto teacher = s_.find_user_by_id(director);
    if (!teacher) return std::string("no such teacher");
    Turn turn(*this);
    // Each step is the command its player would send, remembered under a name of its own.
    const std::string cid = "class-" + std::to_string(now_ms());
    const auto failed = [](const Reply& r) -> std::optional<std::string> {
      if (const auto* e = std::get_if<protocol::Error>(&r)) return e->message;
      return std::nullopt;
    };
    const auto made = tournament_command(*teacher, cid, protocol::CreateTournament{settings});
    if (auto why = failed(made)) {
      finish(turn);
      return *why;
    }
    const auto id = std::get<protocol::Ack>(made).tournament.value_or(0);
    int registered = 0;
    for (const auto player : players) {
      const auto ref = s_.find_user_by_id(player);
      if (!ref) continue;
      const auto r = tournament_command(*ref, cid + "-" + std::to_string(player),
                                        protocol::RegisterTournament{id, std::nullopt});
      if (failed(r))
        spdlog::warn("class tournament {}: {} not registered: {}", id, ref->name, *failed(r));
      else
        ++registered;
    }
    if (registered < settings.min_players) {
      finish(turn);
      return "only " + std::to_string(registered) + " of the class's students could play";
    }
    const auto started =
        tournament_command(*teacher, cid + "-start", protocol::StartTournament{id});
    finish(turn);
    if (auto why = failed(started)) return *why;
    return id;
  });
}

std::variant<protocol::TournamentId, std::string> Lobby::import_tournament(
    const federation::OpenGothaFile& file, std::int64_t director) {
  using Out = std::variant<protocol::TournamentId, std::string>;
  return games::wait_for<Out>(*mailbox_, [&]() -> Out {
    const auto me = s_.find_user_by_id(director);
    if (!me) return std::string("no such director");
    Turn turn(*this);
    // Each step is the command the director would send, remembered under a name of its own.
    const std::string cid = "import-" + std::to_string(now_ms()) + "-";
    int n = 0;
    const federation::ImportCommands commands{
        .run = [&](const protocol::ClientMessage& m) -> Out {
          const auto r = tournament_command(*me, cid + std::to_string(++n), m);
          if (const auto* e = std::get_if<protocol::Error>(&r)) return e->message;
          return std::get<protocol::Ack>(r).tournament.value_or(0);
        },
        .player_id = [&](protocol::TournamentId id,
                         const std::string& name) { return tournaments_.player_id(id, name); }};
    auto made = federation::import_opengotha(file, commands);
    finish(turn);
    return made;
  });
}

std::variant<int, std::string> Lobby::add_tournament_players(
    protocol::TournamentId tournament, std::int64_t director,
    const std::vector<federation::ListedPlayer>& players) {
  using Out = std::variant<int, std::string>;
  return games::wait_for<Out>(*mailbox_, [&]() -> Out {
    const auto me = s_.find_user_by_id(director);
    if (!me) return std::string("no such director");
    for (const auto& p : players) {  // all or none, for what can be known before
      const auto& e = p.entry;
      const auto name = e.given_name.empty() ? e.family_name : e.family_name + " " + e.given_name;
      if (tournaments_.player_id(tournament, name))
        return "line " + std::to_string(p.line) + ": '" + name + "' is registered already";
    }
    Turn turn(*this);
    const std::string cid = "list-" + std::to_string(now_ms()) + "-";
    int added = 0;
    for (const auto& p : players) {
      const auto r = tournament_command(*me, cid + std::to_string(p.line), p.entry);
      if (const auto* e = std::get_if<protocol::Error>(&r)) {
        finish(turn);
        return "line " + std::to_string(p.line) + ": " + e->message +
               (added ? " (the " + std::to_string(added) + " players above it are registered)"
                      : std::string());
      }
      ++added;
    }
    finish(turn);
    return added;
  });
}

}  // namespace tengen
