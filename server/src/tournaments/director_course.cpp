#include <algorithm>
#include <utility>

#include "tournaments/director.h"

namespace tengen {
namespace {

// The tournament's course (docs/tournaments.md): its start, each round paired, started and
// decided, its games' results taken in, and its end. The commands are in director.cpp.

using json = nlohmann::json;
using Status = TournamentState::Status;
using tournament::Outcome;
using tournament::System;

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
  const auto active = t.active(static_cast<int>(played) + 1);
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

void TournamentDirector::start_round(TournamentState& t, const std::optional<protocol::UserRef>& by,
                                     const std::vector<int>& online_tables) {
  const bool on_boards = t.settings().over_the_board;
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
    const bool online = std::find(online_tables.begin(), online_tables.end(),
                                  static_cast<int>(b + 1)) != online_tables.end();
    if (on_boards && !online) {  // played on table b + 1: its result is entered
      games.push_back(nullptr);
      continue;
    }
    const auto id = host_.start_tournament_game(game_settings(t, g), black->user, white->user,
                                                options_for(t, number, static_cast<int>(b + 1)));
    boards_[id] = {t.id(), number, static_cast<int>(b + 1)};
    games.push_back(id);
  }
  record(t, "round_started", {{"round", number}, {"games", games}}, by);
  for (const auto& [board, outcome] : forfeits)
    record_result(t, number, board, outcome, true, std::nullopt);
}

void TournamentDirector::record_result(TournamentState& t, int round, int board, Outcome outcome,
                                       bool forfeit, const std::optional<protocol::UserRef>& by,
                                       bool confirmed) {
  json r{{"round", round},
         {"board", board},
         {"outcome", protocol::wire::name(outcome)},
         {"forfeit", forfeit}};
  if (confirmed) r["confirmed"] = true;
  record(t, "result", std::move(r), by);
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
    if (t.settings().over_the_board) {  // the director publishes it
      host_.arm_tournament(t.id(), std::nullopt);
      return;
    }
    if (!last.started && now >= last.starts_at_ms) {
      start_round(t);
      continue;
    }
    host_.arm_tournament(t.id(), last.started ? std::nullopt : std::optional(last.starts_at_ms));
    return;
  }
}

}  // namespace tengen
