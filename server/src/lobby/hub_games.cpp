#include <spdlog/spdlog.h>

#include <algorithm>
#include <future>

#include "lobby/hub.h"
#include "rooms/replies.h"

// The games' half of the hub (docs/architecture.md, "Owners"): what their actors ask of the
// server, and the reads and actions that go to them from outside a connection (HTTP, the mailer,
// the lease keeper), which wait for the actor's answer on their own thread.

namespace tengen {
namespace {

using protocol::ErrorCode;
using replies::encoded;
using replies::error;

}  // namespace

// ---- GameHost ----

void Hub::commit(Outbox& out) {
  if (!out.empty()) commit_.submit(out);
}

void Hub::commit_ended(Outbox out, const Room& room, std::function<void()> then) {
  std::optional<RatingBook::RatedGame> rated;
  if (room.settings().rated) {
    rated = RatingBook::RatedGame{room.id(),         room.black().id,
                                  room.white().id,   room.settings().handicap,
                                  room.rules().komi, Rules::preset(room.settings().ruleset).komi};
  }
  const bool tournament = tournament_game(room.id()).has_value();
  auto shared = std::make_shared<Outbox>(std::move(out));
  // Posted, never run here: the caller may hold the lobby (a tournament ending its game).
  ratings_mail_->post([this, rated, tournament, shared, then = std::move(then)] {
    // Rated and submitted on the ratings' mailbox, one game after another: rows reach the
    // journal in the order the games were rated.
    if (rated) {
      for (const auto& over : shared->ended) {
        if (over.game != rated->game) continue;
        for (auto& change : ratings_.rate(*rated, over.result, now_ms()))
          shared->writes.push_back(std::move(change));
      }
    }
    if (!tournament) {
      commit_.submit(*shared);
      then();
      return;
    }
    // The tournament learns the result in the same submission (it may pair a round, start
    // games, end others: inputs to their actors).
    Operation op(*this);
    lock_lobby(op);
    op.out = std::move(*shared);
    const auto ended = op.out.ended;
    for (const auto& over : ended) tournaments_.game_finished(over.game, over.result);
    finish(op);
    then();
  });
}

void Hub::notify(const PlayerNotice& notice) {
  if (services_.notify) services_.notify(notice);
}

void Hub::arm(protocol::GameId game, std::optional<Steady> when) {
  if (services_.timers) services_.timers->arm(GameDeadline{game}, when);
}

void Hub::suggest(SuggestionJob job) {
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

template <typename T>
std::optional<T> Hub::ask(protocol::GameId game, std::function<T(const Room&)> look,
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

std::size_t Hub::adopt(const std::vector<protocol::GameId>& games) {
  std::size_t taken = 0;
  for (const auto game : games)  // each read back by the loader, its deadlines armed
    taken += ask<bool>(
                 game, [](const Room&) { return true; }, false)
                 .has_value();
  return taken;
}

moderation::GameActionOutcome Hub::game_action(protocol::GameId game,
                                               const protocol::http::GameAction& action) {
  if (action.kind != protocol::http::GameAction::Kind::DeleteChat && tournament_game(game))
    return moderation::tournament_game(game);
  std::promise<moderation::GameActionOutcome> acted;
  auto outcome_of = acted.get_future();
  games_.post(game, games::Moderate{action, [&acted](moderation::GameActionOutcome outcome) {
                                      acted.set_value(std::move(outcome));
                                    }});
  auto outcome = outcome_of.get();  // submitted by then
  if (std::holds_alternative<moderation::Refused>(outcome)) return outcome;
  services_.journal->barrier().wait();
  if (auto* annulled = std::get_if<moderation::GameAnnulled>(&outcome); annulled && annulled->rated)
    annulled->ratings_rebuilt = rebuild_ratings();
  return outcome;
}

std::optional<std::string> Hub::sgf(protocol::GameId game) {
  auto record = ask<std::string>(
      game, [](const Room& room) { return room.sgf(); }, true);
  if (!record) return std::nullopt;
  // Everything the record shows was submitted before this barrier.
  services_.journal->barrier().wait();
  return record;
}

protocol::MyGames Hub::games_of(std::int64_t user) {
  std::promise<protocol::MyGames> listed;
  auto list = listed.get_future();
  my_games(user, [&listed](protocol::MyGames games) { listed.set_value(std::move(games)); });
  return list.get();
}

// The player's games in memory (indexed by the directory), each asked of its actor; the last to
// answer sorts and hands over the list.
void Hub::my_games(std::int64_t user, std::function<void(protocol::MyGames)> then) {
  const auto ids = games_.games_of(user);
  struct Gathering {
    std::mutex mutex;
    std::size_t left = 0;
    protocol::MyGames list;
    std::function<void(protocol::MyGames)> then;
  };
  auto gathering = std::make_shared<Gathering>();
  gathering->left = ids.size() + 1;  // one more for this call, let go below
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
  for (const auto id : ids) {
    games_.post_in_memory(
        id, games::Read{[this, user, gathering, one_less](const Room* room) {
          if (room && !room->finished() && (room->black().id == user || room->white().id == user)) {
            auto game = room->my_game(user, services_.clock->steady_now());
            std::lock_guard lock(gathering->mutex);
            gathering->list.games.push_back(std::move(game));
          }
          one_less();
        }});
  }
  one_less();
}

void Hub::reload_player(std::int64_t user) {
  calendars_.forget(user);
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
  Operation op(*this);
  lock_lobby(op);
  blocks_.set(user, blocked);
  const auto ref = services_.find_user_by_id(user);
  presence_.send_to_user(
      user, encoded(lobby_for(store::UserRecord{user, ref ? ref->name : "", "", false, 0})),
      op.out);
  finish(op);
}

Hub::Recovered Hub::recover(store::GameStore& store) {
  // The ratings first, on their owner, before the lobby is held: a game ended by a tournament
  // below hands its end to the ratings' owner, which then takes the lobby.
  ratings_.load(store.ratings());
  seed_starts();
  Operation op(*this);
  lock_lobby(op);
  Recovered recovered;
  challenges_.continue_after(store.last_challenge_id());
  games_.continue_after(store.last_game_id());
  for (const auto& c : store.open_challenges()) {
    protocol::Challenge challenge{c.id, stored_user(c.challenger_id), std::nullopt,
                                  stored_settings(c.settings, "challenge " + std::to_string(c.id))};
    if (c.opponent_id) challenge.opponent = stored_user(*c.opponent_id);
    challenges_.restore(std::move(challenge));
    ++recovered.challenges;
  }
  if (services_.moderation) blocks_.load(services_.moderation->all_blocks());
  // Before serving: nothing else runs on the review boards yet.
  recovered.reviews = reviews_.recover(store, services_.find_user_by_id);
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
    if (!games_.restore(g)) {  // its actor arms its deadlines
      spdlog::info("game {} is another node's (docs/cluster.md): not recovered here", g.created.id);
      continue;
    }
    ++recovered.games;
  }
  // A tournament game's end and its tournament's news are one submission (Hub::commit_ended);
  // stores written before 2026-11-27 made them two, and a crash in between left a finished game
  // whose result the tournament does not know yet.
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

}  // namespace tengen
