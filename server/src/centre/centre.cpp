#include "centre/centre.h"

#include <spdlog/spdlog.h>

#include <map>
#include <thread>

#include "games/wait.h"
#include "lobby/stored.h"
#include "rooms/replies.h"
#include "rooms/room.h"

// The centre's wiring, start-up and the ratings' owner (docs/architecture.md, "Owners");
// centre_games.cpp has what the games' actors ask of it and the reads that go to them.

namespace tengen {
namespace {

unsigned actor_threads(unsigned asked) {
  if (asked > 0) return asked;
  return std::max(2u, std::thread::hardware_concurrency());
}

}  // namespace

Centre::Centre(Services services)
    : services_(std::move(services)),
      metrics_(services_.metrics),
      calendars_(services_.calendar_of),
      steady_anchor_(services_.clock ? services_.clock->steady_now() : Steady{}),
      unix_anchor_(services_.clock ? services_.clock->unix_ms() : 0),
      pool_(actor_threads(services_.actor_threads)),
      loader_(make_thread_worker()),
      asker_(services_.games_elsewhere ? make_thread_worker() : nullptr),
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
              .metrics = metrics_,
              .ids_from_elsewhere = services_.games_only}),
      reviews_(Reviews{services_.reviews, services_.find_user, &blocks_}, commit_,
               *services_.journal, *services_.clock, pool_.mailbox()),
      lobby_({.find_user = services_.find_user,
              .find_user_by_id = services_.find_user_by_id,
              .draw_black = services_.draw_black,
              .random_hex = services_.random_hex,
              .clock = *services_.clock,
              .timers = services_.timers,
              .room = services_.room,
              .metrics = metrics_,
              .leases = leases_,
              .commit = commit_,
              .games = games_,
              .ratings = ratings_,
              .blocks = blocks_,
              .memberships = &memberships_,
              .tournament_games = tournament_games_,
              .prepare_room = [this](Room& room) { prepare_room(room); },
              .notify = services_.notify,
              .placed = !services_.placing ? std::function<void(protocol::GameId, std::int64_t)>{}
                                           : [this](protocol::GameId game, std::int64_t node) {
                                               services_.placing(game, node);
                                               commit_.after_everything([this, game, node] {
                                                 services_.placed(game, node);
                                               });
                                             }},
             pool_.mailbox()),
      router_({.clock = *services_.clock,
               .metrics = metrics_,
               .commit = commit_,
               .games = games_,
               .lobby = lobby_,
               .reviews = reviews_,
               .my_games =
                   [this](std::int64_t user, std::function<void(protocol::MyGames)> then) {
                     my_games(user, std::move(then));
                   },
               .chat_burst = services_.room.chat_burst,
               .chat_refill = services_.room.chat_refill,
               .elsewhere = [this](std::function<void()> job) { pool_.post(std::move(job)); },
               .games_only = services_.games_only,
               .played_elsewhere = services_.taken_elsewhere,
               .known_elsewhere = services_.known_elsewhere,
               .chat_posted = services_.chat_posted}) {
  if (services_.timers) services_.timers->set_handler([this](const TimerId& id) { deadline(id); });
}

Centre::~Centre() {
  stop();
}

void Centre::stop() {
  if (stopped_) return;
  stopped_ = true;
  games_.close();   // no more loads
  loader_.reset();  // the loads under way hand their rooms over
  asker_.reset();   // the lists under way are handed over
  pool_.join();     // every owner finishes what it was given
}

void Centre::deadline(const TimerId& id) {
  if (const auto* game = std::get_if<GameDeadline>(&id)) {
    games_.post_in_memory(game->game, games::Tick{});
    return;
  }
  if (std::holds_alternative<ConnectionTick>(id)) return;  // the network layer's own
  if (std::holds_alternative<RatingsSweep>(id)) {
    rate_due();
    arm_ratings_sweep();
    return;
  }
  lobby_.deadline(id);
}

std::size_t Centre::rooms_in_memory() {
  return games_.size();
}

Metrics::Gauges Centre::gauges() {
  Metrics::Gauges g;
  g.games_active = games_.unfinished();
  g.challenges_open = lobby_.challenges_open();
  g.users_online = lobby_.users_online();
  return g;
}

// ---- start-up ----

Centre::Recovered Centre::recover(store::GameStore& store) {
  // The ratings first: a tournament moved on below may end games, which the ratings' owner
  // rates.
  ratings_.load(store.ratings());
  seed_starts();
  Recovered recovered;
  games_.continue_after(store.last_game_id());
  std::vector<std::pair<std::int64_t, std::int64_t>> blocks;
  if (services_.moderation) blocks = services_.moderation->all_blocks();
  if (services_.groups) memberships_.load(services_.groups->memberships());
  recovered.challenges = lobby_.recover_challenges(store, blocks);
  if (services_.classes) {
    const auto p = services_.classes->protection();
    blocks_.load_classes(p.students, p.members, p.bots);
  }
  recovered.reviews = reviews_.recover(store, services_.find_user_by_id);
  const auto tournaments = store.tournaments();
  lobby_.recover_tournaments(tournaments);  // before the games: their rooms ask how to run
  auto& applied = router_.applied();
  for (const auto& c : TournamentDirector::commands_of(tournaments)) {
    applied.remember(c.user, c.cid,
                     replies::encoded(protocol::Ack{c.cid, {}, {}, {}, c.tournament}));
  }
  for (const auto& a : store.recent_commands(static_cast<int>(CommandMemory::kPerKey))) {
    applied.remember(
        a.user_id, a.cid,
        replies::encoded(protocol::Ack{a.cid,
                                       a.game,
                                       a.seq ? std::optional<protocol::Seq>(*a.seq) : std::nullopt,
                                       a.challenge,
                                       {}}));
  }
  // The chat of the last moments counts against each account's rate again: a bucket refills
  // whole in burst × refill, so older lines cannot matter.
  const std::int64_t chat_since =
      services_.clock->unix_ms() -
      services_.room.chat_burst * static_cast<std::int64_t>(services_.room.chat_refill.count());
  std::vector<std::pair<std::int64_t, std::int64_t>> chat;
  for (const auto& g : store.unfinished_games()) {
    if (services_.played_elsewhere && services_.played_elsewhere(g.created.id)) continue;
    if (!games_.restore(g)) {  // its actor arms its deadlines
      spdlog::info("game {} is another node's (docs/cluster.md): not recovered here", g.created.id);
      continue;
    }
    ++recovered.games;
    for (const auto& e : g.events) {
      if (e.kind == "chat" && e.user_id && e.at_ms >= chat_since)
        chat.emplace_back(e.at_ms, *e.user_id);
    }
  }
  router_.count_chat(std::move(chat));
  lobby_.resume_tournaments(store);
  // Rated games another node ended while no hub could rate them; and from now on, now and then.
  if (!services_.games_only) {
    rate_due();
    arm_ratings_sweep();
  }
  return recovered;
}

std::unique_ptr<Room> Centre::rebuild(const store::StoredGame& g, Steady now) {
  auto room =
      Room::recover(g, stored::settings(g.created.settings, "game " + std::to_string(g.created.id)),
                    stored::user(services_.find_user_by_id, g.created.first_id),
                    stored::user(services_.find_user_by_id, g.created.second_id), now,
                    tournament_games_.options_of(g.created.id).value_or(services_.room));
  prepare_room(*room);
  // A game in play taken over from another node (dead, or stopped) or recovered: the commands
  // that made its last events are remembered as applied, so that a client resending one whose
  // ack it never got (its node died first) is answered, not applied again. The last few only: a
  // client resends what it sent last, and each account's memory is bounded.
  if (!room->finished()) {
    constexpr std::size_t kLastCommands = 16;
    std::map<std::pair<std::int64_t, std::string>, std::int64_t> first_seq;  // its first event
    for (auto e = g.events.rbegin(); e != g.events.rend(); ++e) {
      if (!e->user_id || !e->cid) continue;
      const std::pair key{*e->user_id, *e->cid};
      if (!first_seq.contains(key) && first_seq.size() == kLastCommands) break;
      first_seq[key] = e->seq;
    }
    for (const auto& [key, seq] : first_seq) {
      router_.applied().remember(
          key.first, key.second,
          replies::encoded(protocol::Ack{key.second, g.created.id, seq, {}, {}}));
    }
  }
  return room;
}

void Centre::prepare_room(Room& room) {
  room.set_blocks(&blocks_);
  if (!room.correspondence()) return;
  room.set_time_off(std::make_unique<GameTimeOff>(
      calendars_, room.black().id, room.white().id, room.settings().time.weekends_off,
      room.options().vacations_pause, steady_anchor_, unix_anchor_));
}

// ---- the ratings, on their owner's mailbox ----

void Centre::commit_ended(Outbox out, const Room& room, std::function<void()> then) {
  std::optional<RatingBook::RatedGame> rated;
  if (room.settings().rated) {
    rated = RatingBook::RatedGame{room.id(),         room.black().id,
                                  room.white().id,   room.settings().handicap,
                                  room.rules().komi, Rules::preset(room.settings().ruleset).komi};
  }
  const bool tournament = room.options().tournament.has_value();
  if (services_.games_only && !tournament) {
    // Games on every node: the hub owns the ratings. The game's end is stored with a row that
    // says it is still to rate; once that is durable the hub is told, and rates it (rate_due).
    if (rated) out.writes.push_back(store::RatingDue{room.id()});
    commit_.submit(out);
    then();
    if (rated && services_.rating_due) {
      commit_.after_everything([this, game = room.id()] { services_.rating_due(game); });
    }
    return;
  }
  auto shared = std::make_shared<Outbox>(std::move(out));
  ratings_mail_->run_or_post([this, rated, tournament, shared, then = std::move(then)] {
    // Rated and submitted on the ratings' mailbox, one game after another: rows reach the
    // journal in the order the games were rated.
    if (rated) {
      for (const auto& over : shared->ended) {
        if (over.game != rated->game) continue;
        for (auto& change : ratings_.rate(*rated, over.result, services_.clock->unix_ms()))
          shared->writes.push_back(std::move(change));
      }
    }
    if (!tournament) {
      commit_.submit(*shared);
      then();
      return;
    }
    // The tournament learns the result in the same submission (it may pair a round, start
    // games, end others). A rated game's rows must still reach the journal in the order rated:
    // the ratings' owner then takes nothing more until the lobby has submitted them (no thread
    // waits meanwhile; other games' ends queue on its mailbox).
    std::function<void()> resume = rated ? ratings_mail_->hold() : [] {};
    lobby_.tournament_game_ended(std::move(*shared), [then, resume] {
      then();
      resume();
    });
  });
}

void Centre::rate_due() {
  if (due_queued_.exchange(true)) return;  // the one queued reads what this one would
  ratings_mail_->post([this] { rate_due_here(); });
}

void Centre::arm_ratings_sweep() {
  if (services_.timers == nullptr || services_.ratings_sweep <= Millis{0}) return;
  services_.timers->arm(RatingsSweep{}, services_.clock->steady_now() + services_.ratings_sweep);
}

void Centre::rate_due_here() {
  due_queued_ = false;  // before the read: a game reported from now on is in it, or in the next
  std::vector<store::GameStore::DueRating> due;
  try {
    due = services_.store->ratings_due();
  } catch (const std::exception& e) {
    // Left in the store: read again at the next report, adoption or start.
    spdlog::warn("could not read the games left to rate: {}", e.what());
    return;
  }
  Outbox out;
  std::set<protocol::GameId> still_due;
  std::vector<std::vector<std::int64_t>> rated_pairs;  // each game's players
  for (const auto& d : due) {
    still_due.insert(d.game.id);
    if (!due_submitted_.insert(d.game.id).second) continue;  // submitted, not yet durable
    // A rebuild of the ratings since (an annulment) has rated it already: only the row goes.
    const auto rated = d.rated ? std::nullopt : RatingBook::rated_game(d.game);
    if (rated) {
      for (auto& change : ratings_.rate(rated->first, rated->second, services_.clock->unix_ms()))
        out.writes.push_back(std::move(change));
      rated_pairs.push_back({rated->first.black, rated->first.white});
    }
    out.writes.push_back(store::RatingDone{d.game.id});
  }
  // Those no longer in the store are done for good.
  std::erase_if(due_submitted_, [&](protocol::GameId g) { return !still_due.contains(g); });
  if (!out.writes.empty()) {
    spdlog::debug("the games other nodes ended: {} listed to rate, {} rows written", due.size(),
                  out.writes.size());
    commit_.submit(out);
  }
  // Their pages ask for the new ratings once they are durable (the game ended a moment ago, on
  // another node: its players' pages were told its end before it was rated).
  if (!rated_pairs.empty()) {
    commit_.after_everything([this, rated_pairs = std::move(rated_pairs)] {
      for (const auto& users : rated_pairs) {
        lobby_.tell(users, std::nullopt,
                    protocol::encode(protocol::ServerMessage{protocol::RatingsChanged{users}}));
      }
    });
  }
}

void Centre::seed_rating(std::int64_t user, const ratings::Rating& start) {
  games::wait_for<bool>(*ratings_mail_, [&] {
    const auto row = ratings_.seed(user, start, services_.clock->unix_ms());
    if (!row) return false;
    Outbox out;
    out.writes.push_back(*row);
    commit_.submit(out);
    return true;
  });
}

void Centre::seed_starts() {
  if (!services_.rating_starts) return;
  for (const auto& [user, start] : services_.rating_starts()) seed_rating(user, start);
}

std::size_t Centre::rebuild_ratings() {
  // On the ratings' owner: rated games that end meanwhile wait for the new book (each game's
  // actor waits for its own), and every one rated before was submitted, so it is durable after
  // the barrier and read back below. Other games go on.
  return games::wait_for<std::size_t>(*ratings_mail_, [this] { return rebuild_ratings_here(); });
}

std::size_t Centre::rebuild_ratings_here() {
  services_.journal->barrier().wait();
  const auto seeds = ratings_.seeds();
  auto history = RatingBook::replay(services_.store->games_in_order_of_ending(), seeds);
  ratings_.replace(history);
  const auto rows = history.size();
  auto unplayed = RatingBook::unplayed_seeds(history, seeds, services_.clock->unix_ms());
  Outbox out;
  out.writes.push_back(store::RatingsReplaced{std::move(history), std::move(unplayed)});
  commit_.submit(out);
  services_.journal->barrier().wait();
  return rows;
}

}  // namespace tengen
