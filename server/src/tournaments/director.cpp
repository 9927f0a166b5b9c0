#include "tournaments/director.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "ratings/glicko2.h"
#include "rooms/timers.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using protocol::ErrorCode;
using Status = TournamentState::Status;
using tournament::Outcome;
using tournament::System;

protocol::Error error(const std::string& cid, ErrorCode code, std::string message) {
  return protocol::Error{cid, code, std::move(message), {}};
}

protocol::Ack ack(const std::string& cid, protocol::TournamentId id) {
  return protocol::Ack{cid, {}, {}, {}, id};
}

json user_json(const protocol::UserRef& u) {
  return {{"id", u.id}, {"name", u.name}};
}

// A game's SGF result as a tournament outcome: "+F" and Void count as decided without play.
// A played game's outcome for the standings, and whether it was a forfeit: a void game counts
// as lost by both.
std::pair<Outcome, bool> outcome_of(const Result& result) {
  const bool forfeit = result.kind == Result::Kind::Forfeit;
  if (result.kind == Result::Kind::Void || result.kind == Result::Kind::Unknown)
    return {Outcome::BothLose, true};
  if (result.winner == Color::Black) return {Outcome::BlackWins, forfeit};
  if (result.winner == Color::White) return {Outcome::WhiteWins, forfeit};
  return {Outcome::Jigo, false};
}

}  // namespace

TournamentState* TournamentDirector::find(protocol::TournamentId id) {
  const auto it = tournaments_.find(id);
  return it == tournaments_.end() ? nullptr : it->second.get();
}

void TournamentDirector::recover(const std::vector<store::StoredTournament>& stored) {
  for (const auto& s : stored) {
    auto settings = protocol::decode_tournament_settings(s.created.settings);
    if (auto* problem = std::get_if<std::string>(&settings)) {
      throw std::runtime_error("the stored settings of tournament " + std::to_string(s.created.id) +
                               " are unreadable: " + *problem);
    }
    const auto director = host_.user_by_id(s.created.director_id);
    if (!director)
      throw std::runtime_error("tournament " + std::to_string(s.created.id) + " has no director");
    auto t = std::make_unique<TournamentState>(
        s.created.id, *director, std::get<protocol::TournamentSettings>(settings), s.created.at_ms);
    for (const auto& e : s.events) {
      std::optional<protocol::UserRef> by;
      if (e.by_user) by = host_.user_by_id(*e.by_user).value_or(protocol::UserRef{*e.by_user, "?"});
      try {
        t->apply(e.kind, json::parse(e.record), by, e.at_ms);
      } catch (const std::exception& problem) {
        throw std::runtime_error("tournament " + std::to_string(s.created.id) + " event " +
                                 std::to_string(e.seq) + ": " + problem.what());
      }
    }
    index_games(*t);
    next_id_ = std::max(next_id_, s.created.id);
    tournaments_[s.created.id] = std::move(t);
  }
}

std::vector<TournamentDirector::RememberedCommand> TournamentDirector::commands_of(
    const std::vector<store::StoredTournament>& stored) {
  std::vector<RememberedCommand> out;
  for (const auto& t : stored) {
    if (!t.created.cid.empty()) out.push_back({t.created.director_id, t.created.cid, t.created.id});
    for (const auto& e : t.events) {
      if (e.by_user && e.cid) out.push_back({*e.by_user, *e.cid, t.created.id});
    }
  }
  return out;
}

void TournamentDirector::resume() {
  for (auto& [id, t] : tournaments_) advance_safely(*t);
}

void TournamentDirector::advance_safely(TournamentState& t) {
  try {
    advance(t);
  } catch (const std::exception& e) {  // this tournament stalls (logged); the server goes on
    spdlog::error("tournament {} cannot go on: {}", t.id(), e.what());
  }
}

void TournamentDirector::index_games(const TournamentState& t) {
  for (std::size_t r = 0; r < t.rounds().size(); ++r) {
    const auto& games = t.rounds()[r].games;
    for (std::size_t b = 0; b < games.size(); ++b) {
      if (games[b]) boards_[*games[b]] = {t.id(), static_cast<int>(r + 1), static_cast<int>(b + 1)};
    }
  }
}

void TournamentDirector::record(TournamentState& t, const std::string& kind, json r,
                                const std::optional<protocol::UserRef>& by) {
  const std::int64_t at = host_.unix_now_ms();
  const std::int64_t seq = t.next_seq();
  t.apply(kind, r, by, at);
  std::optional<std::string> cid;  // the command's first event carries its cid
  if (by && !command_cid_.empty()) cid = std::exchange(command_cid_, {});
  host_.write(store::TournamentEvent{t.id(), seq, kind, r.dump(),
                                     by ? std::optional(by->id) : std::nullopt, at, cid});
  host_.tournament_changed(
      protocol::TournamentChanged{t.id(), t.status(), static_cast<int>(t.rounds().size())});
}

void TournamentDirector::set_status(TournamentState& t, const char* status) {
  host_.write(store::TournamentStatus{t.id(), status});
}

// ---- commands ----

TournamentDirector::Reply TournamentDirector::create(const protocol::UserRef& me,
                                                     const std::string& cid,
                                                     const protocol::TournamentSettings& settings) {
  if (auto problem = protocol::validate(settings))
    return error(cid, ErrorCode::BadSettings, *problem);
  const std::int64_t now = host_.unix_now_ms();
  if (settings.starts_at_ms && *settings.starts_at_ms < now) {
    return error(cid, ErrorCode::BadSettings, "starts_at_ms is in the past");
  }
  // Every time a client sends is at most a year ahead (kFarthestDeadline).
  const std::int64_t farthest = now + kFarthestDeadline.count();
  if (settings.starts_at_ms && *settings.starts_at_ms > farthest)
    return error(cid, ErrorCode::BadSettings, "starts_at_ms is more than a year ahead");
  if (settings.registration_closes_ms && *settings.registration_closes_ms > farthest)
    return error(cid, ErrorCode::BadSettings, "registration_closes_ms is more than a year ahead");
  for (const auto at : settings.round_times_ms) {
    if (at > farthest)
      return error(cid, ErrorCode::BadSettings,
                   "round_start.times_ms reach more than a year ahead");
  }
  int open = 0, mine_open = 0, mine_today = 0;
  for (const auto& [id, t] : tournaments_) {
    const bool over = t->status() == TournamentState::Status::Finished ||
                      t->status() == TournamentState::Status::Cancelled;
    const bool mine = t->director().id == me.id;
    open += over ? 0 : 1;
    mine_open += mine && !over ? 1 : 0;
    mine_today += mine && t->created_at_ms() > now - 24 * 3600 * 1000 ? 1 : 0;
  }
  if (mine_open >= kMaxOpenPerDirector) {
    return error(cid, ErrorCode::Conflict,
                 "you direct " + std::to_string(mine_open) +
                     " tournaments that are not over, the most one player may");
  }
  if (mine_today >= kMaxCreatedPerDay) {
    return error(cid, ErrorCode::RateLimited,
                 "you created " + std::to_string(mine_today) +
                     " tournaments in the last 24 hours, the most one player may");
  }
  if (open >= kMaxOpen) {
    return error(cid, ErrorCode::Conflict,
                 "the server holds " + std::to_string(open) +
                     " tournaments that are not over, the most it may: try again later");
  }
  const protocol::TournamentId id = ++next_id_;
  auto t = std::make_unique<TournamentState>(id, me, settings, now);
  host_.write(store::TournamentCreated{id, settings.name, me.id,
                                       protocol::encode_tournament_settings(settings), now, cid});
  host_.tournament_changed(
      protocol::TournamentChanged{id, protocol::TournamentStatus::Registering, 0});
  auto& state = *(tournaments_[id] = std::move(t));
  advance(state);
  return ack(cid, id);
}

TournamentDirector::Reply TournamentDirector::register_player(
    const protocol::UserRef& me, const std::string& cid, const protocol::RegisterTournament& m) {
  TournamentState* t = find(m.tournament);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(m.tournament));
  const auto& s = t->settings();
  if (t->status() != Status::Registering)
    return error(cid, ErrorCode::Conflict, "registration is over: the tournament has started");
  if (s.registration_closes_ms && host_.unix_now_ms() >= *s.registration_closes_ms) {
    return error(cid, ErrorCode::Conflict, "registration for this tournament has closed");
  }
  if (t->player(me.id)) return error(cid, ErrorCode::Conflict, "you are registered already");
  if (s.max_players != 0 && static_cast<int>(t->players().size()) >= s.max_players) {
    return error(cid, ErrorCode::Conflict, "the tournament is full");
  }
  const double rating = host_.rating_of_user(me.id);
  const int rank = m.rank ? *protocol::parse_rank(*m.rank) : ratings::rank_index(rating);
  record(*t, "registered", {{"user", user_json(me)}, {"rank", rank}, {"rating", rating}}, me);
  if (s.start_when_full && static_cast<int>(t->players().size()) == s.max_players)
    begin(*t, std::nullopt);
  advance(*t);
  return ack(cid, t->id());
}

TournamentDirector::Reply TournamentDirector::leave(const protocol::UserRef& me,
                                                    const std::string& cid,
                                                    protocol::TournamentId id) {
  TournamentState* t = find(id);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(id));
  const auto* p = t->player(me.id);
  if (!p) return error(cid, ErrorCode::NotFound, "you are not registered in this tournament");
  if (t->status() == Status::Registering) {
    record(*t, "unregistered", {{"user", user_json(me)}}, me);
    return ack(cid, id);
  }
  if (t->status() != Status::Running)
    return error(cid, ErrorCode::Conflict, "the tournament is over");
  if (p->withdrawn) return error(cid, ErrorCode::Conflict, "you have withdrawn already");
  withdraw_player(*t, me, me);
  advance(*t);
  return ack(cid, id);
}

std::optional<protocol::Error> TournamentDirector::director_only(const TournamentState& t,
                                                                 const protocol::UserRef& me,
                                                                 const std::string& cid) const {
  if (t.director().id != me.id)
    return error(cid, ErrorCode::Forbidden, "only the tournament's director may do this");
  return std::nullopt;
}

TournamentDirector::Reply TournamentDirector::start(const protocol::UserRef& me,
                                                    const std::string& cid,
                                                    protocol::TournamentId id) {
  TournamentState* t = find(id);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(id));
  if (auto e = director_only(*t, me, cid)) return *e;
  if (t->status() != Status::Registering)
    return error(cid, ErrorCode::Conflict, "the tournament has started already");
  if (static_cast<int>(t->players().size()) < t->settings().min_players) {
    return error(cid, ErrorCode::Conflict,
                 "it needs at least " + std::to_string(t->settings().min_players) + " players");
  }
  begin(*t, me);
  advance(*t);
  return ack(cid, id);
}

TournamentDirector::Reply TournamentDirector::withdraw(const protocol::UserRef& me,
                                                       const std::string& cid,
                                                       const protocol::WithdrawPlayer& m) {
  TournamentState* t = find(m.tournament);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(m.tournament));
  if (auto e = director_only(*t, me, cid)) return *e;
  const auto user = host_.user_named(m.player);
  const auto* p = user ? t->player(user->id) : nullptr;
  if (!p)
    return error(cid, ErrorCode::NotFound,
                 "'" + m.player + "' is not registered in this tournament");
  if (t->status() == Status::Registering) {
    record(*t, "unregistered", {{"user", user_json(*user)}}, me);
    return ack(cid, m.tournament);
  }
  if (t->status() != Status::Running)
    return error(cid, ErrorCode::Conflict, "the tournament is over");
  if (p->withdrawn)
    return error(cid, ErrorCode::Conflict, "'" + m.player + "' has withdrawn already");
  withdraw_player(*t, *user, me);
  advance(*t);
  return ack(cid, m.tournament);
}

// The player plays no further round; a game of theirs under way is lost by forfeit.
void TournamentDirector::withdraw_player(TournamentState& t, const protocol::UserRef& player,
                                         const std::optional<protocol::UserRef>& by) {
  record(t, "withdrawn", {{"user", user_json(player)}}, by);
  // The rounds under way: the last, or in a league playing all at once, every one begun.
  for (std::size_t r = 0; r < t.rounds().size(); ++r) {
    const auto& round = t.rounds()[r];
    if (!round.started) continue;
    const int number = static_cast<int>(r + 1);
    for (std::size_t b = 0; b < round.pairing.games.size(); ++b) {
      const auto& g = round.pairing.games[b];
      if (g.outcome || (g.black != player.id && g.white != player.id)) continue;
      const Color winner = g.black == player.id ? Color::White : Color::Black;
      if (b < round.games.size() && round.games[b]) {
        host_.end_tournament_game(*round.games[b], Result::forfeit(winner),
                                  protocol::EndReason::Withdrawal);  // its result comes back
      } else {
        record_result(t, number, static_cast<int>(b + 1),
                      winner == Color::Black ? Outcome::BlackWins : Outcome::WhiteWins, true, by);
      }
    }
  }
}

TournamentDirector::Reply TournamentDirector::set_result(const protocol::UserRef& me,
                                                         const std::string& cid,
                                                         const protocol::SetTournamentResult& m) {
  TournamentState* t = find(m.tournament);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(m.tournament));
  if (auto e = director_only(*t, me, cid)) return *e;
  if (m.round > static_cast<int>(t->rounds().size()))
    return error(cid, ErrorCode::NotFound, "no round " + std::to_string(m.round));
  const auto& round = t->rounds()[m.round - 1];
  if (m.board > static_cast<int>(round.pairing.games.size())) {
    return error(cid, ErrorCode::NotFound,
                 "round " + std::to_string(m.round) + " has no board " + std::to_string(m.board));
  }
  if (!round.started)
    return error(cid, ErrorCode::Conflict, "round " + std::to_string(m.round) + " has not started");
  if (t->elimination() && m.round != static_cast<int>(t->rounds().size())) {
    return error(cid, ErrorCode::Conflict,
                 "in an elimination, a result is final once the next round is paired");
  }
  const Outcome outcome = m.result;
  Result result = Result::void_game();  // both lose
  if (outcome == Outcome::BlackWins) result = Result::forfeit(Color::Black);
  if (outcome == Outcome::WhiteWins) result = Result::forfeit(Color::White);
  if (outcome == Outcome::Jigo) result = Result::score(0);
  const bool in_play = !round.pairing.games[m.board - 1].outcome;
  protocol::GameId game = 0;  // none
  if (static_cast<std::size_t>(m.board - 1) < round.games.size())
    game = round.games[m.board - 1].value_or(0);
  record_result(*t, m.round, m.board, outcome, false, me);
  if (in_play && game != 0)
    host_.end_tournament_game(
        game, result, protocol::EndReason::Adjudication);  // already counted: ignored on return
  advance(*t);
  return ack(cid, m.tournament);
}

TournamentDirector::Reply TournamentDirector::repair(const protocol::UserRef& me,
                                                     const std::string& cid,
                                                     protocol::TournamentId id) {
  TournamentState* t = find(id);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(id));
  if (auto e = director_only(*t, me, cid)) return *e;
  if (t->rounds().empty() || t->rounds().back().started)
    return error(cid, ErrorCode::Conflict, "no round is waiting to start");
  const std::size_t played = t->rounds().size() - 1;
  const auto next = next_pairing(*t, played);
  if (!next) return error(cid, ErrorCode::Conflict, "too few players are left to pair this round");
  json games = json::array();
  for (const auto& g : next->games)
    games.push_back({{"black", g.black}, {"white", g.white}, {"handicap", g.handicap}});
  record(*t, "paired",
         {{"round", played + 1},
          {"starts_at_ms", t->rounds().back().starts_at_ms},
          {"games", games},
          {"byes", next->byes}},
         me);
  advance(*t);
  return ack(cid, id);
}

// ---- the tournament's course ----

void TournamentDirector::begin(TournamentState& t, const std::optional<protocol::UserRef>& by) {
  std::vector<std::size_t> order(t.players().size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto& players = t.players();
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (players[a].rank != players[b].rank) return players[a].rank > players[b].rank;
    return players[a].rating > players[b].rating;
  });
  const auto& s = t.settings();
  json seeds = json::array(), scores = json::array();
  for (const auto i : order) {
    seeds.push_back(players[i].user.id);
    scores.push_back(
        s.system == System::McMahon ? std::clamp(players[i].rank, s.floor, s.bar) - s.floor : 0);
  }
  record(t, "started", {{"seeds", seeds}, {"start_scores", scores}}, by);
  set_status(t, "running");
}

std::optional<tournament::Round> TournamentDirector::next_pairing(const TournamentState& t,
                                                                  std::size_t played) const {
  auto done = t.pairings();
  done.resize(std::min(done.size(), played));
  const auto& s = t.settings();
  const auto active = t.active();
  std::optional<tournament::Round> next;
  switch (s.system) {
    case System::Swiss:
    case System::McMahon:
      if (static_cast<int>(played) >= s.rounds || active.size() < 2) return std::nullopt;
      next = tournament::pair_swiss(
          active, done, s.system == System::McMahon ? s.handicap : tournament::HandicapPolicy{});
      break;
    case System::RoundRobin:
    case System::DoubleRoundRobin: {
      const bool twice = s.system == System::DoubleRoundRobin;
      if (static_cast<int>(played) >= tournament::round_robin_rounds(t.seeded().size(), twice) ||
          active.size() < 2) {
        return std::nullopt;
      }
      next =
          tournament::pair_round_robin(t.seeded(), t.withdrawn(), static_cast<int>(played), twice);
      break;
    }
    case System::SingleElimination:
    case System::DoubleElimination:
      next = tournament::pair_elimination(t.seeded(), t.withdrawn(), done,
                                          s.system == System::DoubleElimination);
      break;
  }
  if (next && next->games.empty() && s.system != System::RoundRobin &&
      s.system != System::DoubleRoundRobin)
    return std::nullopt;
  return next;
}

std::int64_t TournamentDirector::round_start_time(const TournamentState& t,
                                                  std::size_t index) const {
  const std::int64_t now = host_.unix_now_ms();
  const auto& s = t.settings();
  if (s.round_start == protocol::TournamentSettings::RoundStart::Scheduled &&
      index < s.round_times_ms.size()) {
    return std::max(now, s.round_times_ms[index]);
  }
  return index == 0 || s.all_rounds_at_once ? now : now + s.round_gap_ms;
}

bool TournamentDirector::pair_next(TournamentState& t, const std::optional<protocol::UserRef>& by) {
  const std::size_t played = t.rounds().size();
  const auto next = next_pairing(t, played);
  if (!next) return false;
  json games = json::array();
  for (const auto& g : next->games)
    games.push_back({{"black", g.black}, {"white", g.white}, {"handicap", g.handicap}});
  record(t, "paired",
         {{"round", played + 1},
          {"starts_at_ms", round_start_time(t, played)},
          {"games", games},
          {"byes", next->byes}},
         by);
  return true;
}

protocol::GameSettings TournamentDirector::game_settings(const TournamentState& t,
                                                         const tournament::Game& g) const {
  protocol::GameSettings s = t.settings().game;
  s.color = protocol::GameSettings::ColorChoice::Black;
  s.automatic_handicap = false;
  if (g.handicap >= 1) s.komi = 0.5;
  protocol::fit_handicap(s, g.handicap);
  return s;
}

RoomOptions TournamentDirector::options_for(const TournamentState& t, int round, int board) const {
  RoomOptions o = room_;
  o.tournament = protocol::TournamentGameRef{t.id(), t.settings().name, round, board};
  o.start_timeout = Millis{t.settings().no_show_ms};
  o.no_show_forfeits = true;
  o.vacations_pause = t.settings().vacations;
  return o;
}

std::optional<RoomOptions> TournamentDirector::room_options(protocol::GameId game) const {
  const auto it = boards_.find(game);
  if (it == boards_.end()) return std::nullopt;
  return options_for(*tournaments_.at(it->second.tournament), it->second.round, it->second.board);
}

std::vector<std::pair<protocol::GameId, RoomOptions>> TournamentDirector::games() const {
  std::vector<std::pair<protocol::GameId, RoomOptions>> out;
  out.reserve(boards_.size());
  for (const auto& [game, board] : boards_)
    out.emplace_back(game,
                     options_for(*tournaments_.at(board.tournament), board.round, board.board));
  return out;
}

void TournamentDirector::start_round(TournamentState& t) {
  const int number = static_cast<int>(t.rounds().size());
  const auto pairing = t.rounds().back().pairing;
  json games = json::array();
  std::vector<std::pair<int, Outcome>> forfeits;  // boards where a player withdrew before the start
  for (std::size_t b = 0; b < pairing.games.size(); ++b) {
    const auto& g = pairing.games[b];
    const auto* black = t.player(g.black);
    const auto* white = t.player(g.white);
    if (black->withdrawn || white->withdrawn) {
      games.push_back(nullptr);
      forfeits.emplace_back(static_cast<int>(b + 1),
                            black->withdrawn
                                ? (white->withdrawn ? Outcome::BothLose : Outcome::WhiteWins)
                                : Outcome::BlackWins);
      continue;
    }
    const auto id = host_.start_tournament_game(game_settings(t, g), black->user, white->user,
                                                options_for(t, number, static_cast<int>(b + 1)));
    boards_[id] = {t.id(), number, static_cast<int>(b + 1)};
    games.push_back(id);
  }
  record(t, "round_started", {{"round", number}, {"games", games}}, std::nullopt);
  for (const auto& [board, outcome] : forfeits)
    record_result(t, number, board, outcome, true, std::nullopt);
}

void TournamentDirector::record_result(TournamentState& t, int round, int board, Outcome outcome,
                                       bool forfeit, const std::optional<protocol::UserRef>& by) {
  record(t, "result",
         {{"round", round},
          {"board", board},
          {"outcome", protocol::wire::name(outcome)},
          {"forfeit", forfeit}},
         by);
}

void TournamentDirector::game_finished(protocol::GameId game, const Result& result) {
  const auto it = boards_.find(game);
  if (it == boards_.end()) return;
  TournamentState& t = *tournaments_.at(it->second.tournament);
  const auto& g = t.rounds().at(it->second.round - 1).pairing.games.at(it->second.board - 1);
  if (g.outcome) return;  // the director decided it first
  const auto [outcome, forfeit] = outcome_of(result);
  record_result(t, it->second.round, it->second.board, outcome, forfeit, std::nullopt);
  advance_safely(t);
}

std::vector<protocol::GameId> TournamentDirector::undecided_games() const {
  std::vector<protocol::GameId> out;
  for (const auto& [game, board] : boards_) {
    const TournamentState& t = *tournaments_.at(board.tournament);
    if (!t.rounds().at(board.round - 1).pairing.games.at(board.board - 1).outcome)
      out.push_back(game);
  }
  return out;
}

void TournamentDirector::deadline(protocol::TournamentId id) {
  if (TournamentState* t = find(id)) advance_safely(*t);
}

void TournamentDirector::advance(TournamentState& t) {
  while (true) {
    const std::int64_t now = host_.unix_now_ms();
    if (t.status() == Status::Registering) {
      const auto& starts = t.settings().starts_at_ms;
      if (!starts || now < *starts) {
        host_.arm_tournament(t.id(), starts);
        return;
      }
      if (static_cast<int>(t.players().size()) >= t.settings().min_players) {
        begin(t, std::nullopt);
        continue;
      }
      record(t, "cancelled", {{"reason", "too few players at the start time"}}, std::nullopt);
      set_status(t, "cancelled");
    }
    if (t.status() != Status::Running) {
      host_.arm_tournament(t.id(), std::nullopt);
      return;
    }
    // A league playing all its rounds at once pairs the next as soon as the last has begun.
    const bool together = t.settings().all_rounds_at_once;
    if (t.rounds().empty() ||
        (t.rounds().back().started && (together || t.rounds().back().decided()))) {
      if (pair_next(t, std::nullopt)) continue;
      const bool all_decided = std::all_of(t.rounds().begin(), t.rounds().end(),
                                           [](const auto& r) { return r.decided(); });
      if (!all_decided) {  // together: the last games are still being played
        host_.arm_tournament(t.id(), std::nullopt);
        return;
      }
      record(t, "finished", json::object(), std::nullopt);
      set_status(t, "finished");
      continue;
    }
    const auto& last = t.rounds().back();
    if (!last.started && now >= last.starts_at_ms) {
      start_round(t);
      continue;
    }
    host_.arm_tournament(t.id(), last.started ? std::nullopt : std::optional(last.starts_at_ms));
    return;
  }
}

// ---- views ----

std::string TournamentDirector::list_json(std::optional<protocol::TournamentId> before,
                                          int limit) const {
  json list = json::array();
  auto it = before ? std::make_reverse_iterator(tournaments_.lower_bound(*before))
                   : tournaments_.rbegin();
  for (; it != tournaments_.rend() && static_cast<int>(list.size()) < limit; ++it)
    list.push_back(it->second->summary_json());
  json next = nullptr;
  if (it != tournaments_.rend() && !list.empty()) next = list.back().at("id");
  return json{{"tournaments", list}, {"next_before", next}}.dump();
}

std::optional<std::string> TournamentDirector::view_json(protocol::TournamentId id) const {
  const auto it = tournaments_.find(id);
  if (it == tournaments_.end()) return std::nullopt;
  return it->second->view_json().dump();
}

}  // namespace tengen
