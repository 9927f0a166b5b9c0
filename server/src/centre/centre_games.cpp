#include <spdlog/spdlog.h>

#include <algorithm>
#include <future>
#include <iterator>

#include "centre/centre.h"
#include "rooms/room.h"

// The games' side of the centre (docs/architecture.md, "Owners"): what their actors ask of the
// server, and the reads and actions that go to them from outside a connection (HTTP, the mailer,
// the lease keeper), which wait for the actor's answer on their own thread.

namespace tengen {
// ---- GameHost ----

void Centre::commit(Outbox& out) {
  if (!out.empty()) commit_.submit(out);
}

void Centre::notify(const PlayerNotice& notice) {
  if (services_.notify) services_.notify(notice);
}

void Centre::arm(protocol::GameId game, std::optional<Steady> when) {
  if (services_.timers) services_.timers->arm(GameDeadline{game}, when);
}

void Centre::suggest(SuggestionJob job) {
  if (!services_.worker) {
    auto dead = suggest_dead_stones(job.board, job.options);
    games_.post_in_memory(job.game, games::Suggested{std::move(job), std::move(dead)});
    return;
  }
  services_.worker->post([this, job = std::move(job)] {
    auto dead = suggest_dead_stones(job.board, job.options);  // off the game's actor
    games_.post_in_memory(job.game, games::Suggested{job, std::move(dead)});
  });
}

template <typename T>
std::optional<T> Centre::ask(protocol::GameId game, std::function<T(const Room&)> look,
                             bool in_memory_only) {
  std::promise<std::optional<T>> answered;
  auto answer = answered.get_future();
  games::Read read{[&answered, &look](const Room* room) {
    answered.set_value(room ? std::optional<T>(look(*room)) : std::nullopt);
  }};
  if (in_memory_only) {
    games_.post_in_memory(game, std::move(read));
  } else {
    games_.post(game, std::move(read));
  }
  return answer.get();
}

std::vector<protocol::GameId> Centre::adopt(const std::vector<protocol::GameId>& games) {
  std::vector<protocol::GameId> taken;
  for (const auto game : games) {  // each read back by the loader, its deadlines armed
    if (ask<bool>(
            game, [](const Room&) { return true; }, false))
      taken.push_back(game);
  }
  return taken;
}

moderation::GameActionOutcome Centre::game_action(protocol::GameId game,
                                                  const protocol::http::GameAction& action) {
  if (action.kind != protocol::http::GameAction::Kind::DeleteChat &&
      tournament_games_.options_of(game))
    return moderation::tournament_game(game);
  std::promise<moderation::GameActionOutcome> acted;
  auto outcome_of = acted.get_future();
  games_.post(game, games::Moderate{action, [&acted](moderation::GameActionOutcome outcome) {
                                      acted.set_value(std::move(outcome));
                                    }});
  auto outcome = outcome_of.get();  // submitted by then
  if (std::holds_alternative<moderation::Refused>(outcome)) return outcome;
  services_.journal->barrier().wait();
  if (auto* annulled = std::get_if<moderation::GameAnnulled>(&outcome);
      annulled && annulled->rated) {
    // Games on every node: the ratings are the hub's, not this node's own games' centre's.
    annulled->ratings_rebuilt =
        services_.rebuild_ratings_at_hub ? services_.rebuild_ratings_at_hub() : rebuild_ratings();
  }
  return outcome;
}

std::optional<std::string> Centre::sgf(protocol::GameId game) {
  auto record = ask<std::string>(
      game, [](const Room& room) { return room.sgf(); }, true);
  if (!record) return std::nullopt;
  // Everything the record shows was submitted before this barrier.
  services_.journal->barrier().wait();
  return record;
}

protocol::MyGames Centre::games_of(std::int64_t user) {
  std::promise<protocol::MyGames> listed;
  auto list = listed.get_future();
  my_games(user, [&listed](protocol::MyGames games) { listed.set_value(std::move(games)); });
  return list.get();
}

// The player's games in memory (indexed by the directory), each asked of its actor; the last to
// answer sorts and hands over the list.
void Centre::my_games(std::int64_t user, std::function<void(protocol::MyGames)> then) {
  const auto ids = games_.games_of(user);
  struct Gathering {
    std::mutex mutex;
    std::size_t left = 0;
    protocol::MyGames list;
    std::function<void(protocol::MyGames)> then;
  };
  auto gathering = std::make_shared<Gathering>();
  // One more for this call, let go below; and one for the games played on other nodes.
  gathering->left = ids.size() + 1 + (services_.games_elsewhere ? 1 : 0);
  gathering->then = std::move(then);
  const auto one_less = [gathering] {
    {
      std::lock_guard lock(gathering->mutex);
      if (--gathering->left > 0) return;
    }
    auto& games = gathering->list.games;
    // Waiting for the player first, the least time left first (untimed last); then the others.
    const auto left = [](const protocol::MyGame& g) {
      if (!g.clock || !g.to_move) return INT64_MAX;
      return (*g.to_move == Color::Black ? g.clock->black : g.clock->white).main_ms;
    };
    std::stable_sort(games.begin(), games.end(), [&](const auto& a, const auto& b) {
      if (a.your_move != b.your_move) return a.your_move;
      if (left(a) != left(b)) return left(a) < left(b);
      return a.game < b.game;
    });
    if (games.size() > kMyGamesListed) games.resize(kMyGamesListed);
    gathering->then(std::move(gathering->list));
  };
  if (services_.games_elsewhere) {
    // Asked on a thread of its own, which waits for the other nodes' answers.
    asker_->post([this, user, gathering, one_less] {
      protocol::MyGames elsewhere;
      try {
        elsewhere = services_.games_elsewhere(user);
      } catch (const std::exception& e) {
        spdlog::warn("the games of player {} on other nodes were not listed: {}", user, e.what());
      }
      {
        std::lock_guard lock(gathering->mutex);
        for (auto& g : elsewhere.games) gathering->list.games.push_back(std::move(g));
      }
      one_less();
    });
  }
  for (const auto id : ids) {
    games_.post_in_memory(id, games::Read{[this, user, gathering, one_less](const Room* room) {
                            if (room && !room->finished() && room->plays(user)) {
                              auto game = room->my_game(user, services_.clock->steady_now());
                              std::lock_guard lock(gathering->mutex);
                              gathering->list.games.push_back(std::move(game));
                            }
                            one_less();
                          }});
  }
  one_less();
}

void Centre::reload_player(std::int64_t user) {
  calendars_.forget(user);
  // Who is a bot, for the protected students of classes (a bot registered or marked since).
  if (services_.classes) blocks_.set_bots(services_.classes->bots());
  // The player's correspondence games' flags, armed by their old weekends, are armed again; this
  // waits until each game's actor has done so.
  for (const auto id : games_.games_of(user)) {
    games_.post_in_memory(id, games::Tick{});
    ask<bool>(
        id, [](const Room&) { return true; }, true);
  }
  if (!services_.moderation) return;
  std::vector<std::int64_t> blocked;
  for (const auto& u : services_.moderation->blocked_by(user)) blocked.push_back(u.id);
  lobby_.blocks_changed(user, std::move(blocked));
}

}  // namespace tengen

namespace tengen {

void Centre::group_changed(std::int64_t group) {
  if (services_.classes) {
    const auto p = services_.classes->protection_of(group);
    blocks_.set_class(group, p.students, p.members, p.bots);
  }
  if (!services_.groups) return;
  std::vector<std::int64_t> now;
  if (const auto g = services_.groups->group(group); g && !g->closed_at_ms) {
    for (const auto& m : services_.groups->members(group))
      if (m.role == "owner" || m.role == "admin" || m.role == "member") now.push_back(m.user_id);
  }
  auto before = memberships_.members(group);
  memberships_.set(group, now);
  // Those who joined or left see the lobby with or without the group's challenges.
  std::sort(before.begin(), before.end());
  std::sort(now.begin(), now.end());
  std::vector<std::int64_t> moved;
  std::set_symmetric_difference(before.begin(), before.end(), now.begin(), now.end(),
                                std::back_inserter(moved));
  lobby_.group_changed(group, std::move(moved));
}

}  // namespace tengen
