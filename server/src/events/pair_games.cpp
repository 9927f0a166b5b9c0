#include "events/pair_games.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/codec.h"
#include "ratings/glicko2.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using Refusal = PairGames::Refusal;

Refusal no_pair(std::int64_t id) {
  return {404, "not_found", "no pair Go game " + std::to_string(id)};
}
Refusal not_open(const store::PairRow& s) {
  return {409, "not_open",
          s.state == "cancelled" ? "the game was cancelled by its host"
                                 : "the game has started: nobody joins or leaves it now"};
}

protocol::GameSettings settings_of(const store::PairRow& s) {
  auto settings = protocol::decode_stored_settings(s.settings);
  return std::holds_alternative<protocol::GameSettings>(settings)
             ? std::get<protocol::GameSettings>(settings)
             : protocol::GameSettings{};
}

wire::PairSummary summary(const store::PairRow& s) {
  const bool finished = s.state == "playing" && s.over;
  return {s.id,
          {s.host_id, s.host_name},
          s.name,
          settings_of(s),
          s.team_size,
          s.black,
          s.white,
          finished ? "finished" : s.state,
          s.game_id,
          s.result,
          s.created_at_ms,
          s.started_at_ms};
}

bool contains(const std::vector<std::int64_t>& ids, std::int64_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

PairGames::Maybe PairGames::too_fast(const store::UserRecord& me) {
  std::lock_guard lock(rate_mutex_);
  if (action_rate_.try_take(std::to_string(me.id), s_.clock.steady_now())) return std::nullopt;
  return Refusal{429, "rate_limited", "too many pair Go actions at once: wait a few seconds"};
}

PairGames::Maybe PairGames::student_stays(const store::UserRecord& me) {
  if (!s_.protected_student || !s_.protected_student(me.id)) return std::nullopt;
  return Refusal{403, "protected_student",
                 "you are a student of a class: you play your class's games, not pair Go games "
                 "open to everyone"};
}

PairGames::Answer<store::PairRow> PairGames::find(std::int64_t pair) {
  auto s = s_.store.pair(pair);
  if (!s) return no_pair(pair);
  return std::move(*s);
}

PairGames::Answer<std::int64_t> PairGames::create(const store::UserRecord& me,
                                                  const wire::PairForm& form) {
  if (auto no = too_fast(me)) return *no;
  if (me.is_bot) return Refusal{403, "bots_cannot", "a bot's account hosts no pair Go games"};
  if (auto no = student_stays(me)) return *no;
  if (s_.store.running_of(me.id) > 0)
    return Refusal{409, "pair_running",
                   "you host a pair Go game already: cancel it, or finish its game, first"};
  if (s_.store.open_count() >= limits_.open)
    return Refusal{409, "too_many_pairs",
                   "the server has " + std::to_string(limits_.open) +
                       " pair Go games open for players, its most: try again once one has "
                       "started"};
  return s_.store.create(me.id, form.name, protocol::encode_settings(form.settings), form.team_size,
                         now());
}

std::vector<wire::PairSummary> PairGames::list() {
  std::vector<wire::PairSummary> out;
  for (const auto& s : s_.store.list(limits_.list)) out.push_back(summary(s));
  return out;
}

PairGames::Answer<wire::PairPage> PairGames::page(std::int64_t pair) {
  auto found = find(pair);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  wire::PairPage page{summary(std::get<store::PairRow>(found)), {}, {}};
  for (const auto& p : s_.store.players(pair)) {
    (p.team == "black" ? page.black : page.white)
        .push_back({{p.user_id, p.name}, ratings::rank_name(p.rating, p.deviation)});
  }
  return page;
}

PairGames::Maybe PairGames::join(std::int64_t pair, const store::UserRecord& me, Color team) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(pair);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& s = std::get<store::PairRow>(found);
  if (s.state != "open") return not_open(s);
  if (auto no = student_stays(me)) return *no;
  if (s_.blocked_by) {
    const auto mine = s_.blocked_by(me.id);
    for (const auto& p : s_.store.players(pair)) {
      if (p.user_id == me.id) continue;
      if (contains(mine, p.user_id) || contains(s_.blocked_by(p.user_id), me.id))
        return Refusal{403, "blocked", "no games between you and " + p.name};
    }
  }
  if (s_.store.joined_open(me.id) >= limits_.joined)
    return Refusal{409, "too_many_joined",
                   "you have joined " + std::to_string(limits_.joined) +
                       " pair Go games that have not started: leave one first"};
  const std::string colour = team == Color::White ? "white" : "black";
  switch (s_.store.join(pair, me.id, colour, now())) {
    case store::PairStore::Joined::Yes:
      return std::nullopt;
    case store::PairStore::Joined::Already:
      return Refusal{409, "already_joined",
                     "you are in this game's teams already: leave first to change team"};
    case store::PairStore::Joined::TeamFull:
      return Refusal{409, "team_full",
                     "the " + colour + " team has " + std::to_string(s.team_size) +
                         " players, as many as a team has"};
    case store::PairStore::Joined::NotOpen:
      break;
  }
  auto now_found = find(pair);
  if (auto* no = std::get_if<Refusal>(&now_found)) return *no;
  return not_open(std::get<store::PairRow>(now_found));
}

PairGames::Maybe PairGames::leave(std::int64_t pair, const store::UserRecord& me) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(pair);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  if (s_.store.leave(pair, me.id)) return std::nullopt;
  auto now_found = find(pair);
  if (auto* no = std::get_if<Refusal>(&now_found)) return *no;
  const auto& s = std::get<store::PairRow>(now_found);
  if (s.state != "open") return not_open(s);
  return Refusal{409, "not_joined", "you have not joined this game"};
}

PairGames::Maybe PairGames::cancel(std::int64_t pair, const store::UserRecord& me) {
  auto found = find(pair);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& s = std::get<store::PairRow>(found);
  if (s.host_id != me.id && !me.is_admin)
    return Refusal{403, "not_host", "only the game's host cancels it"};
  if (!s_.store.move(pair, "open", "cancelled", now())) return not_open(s);
  return std::nullopt;
}

PairGames::Answer<std::int64_t> PairGames::start(std::int64_t pair, const store::UserRecord& me) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(pair);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& s = std::get<store::PairRow>(found);
  if (s.host_id != me.id) return Refusal{403, "not_host", "only the game's host starts it"};
  if (s.state != "open") return not_open(s);
  if (s.black < s.team_size || s.white < s.team_size)
    return Refusal{409, "teams_not_full",
                   "both teams need " + std::to_string(s.team_size) + " players; Black has " +
                       std::to_string(s.black) + " and White " + std::to_string(s.white)};
  // Claimed first: nobody joins or leaves from now on, and a start sent twice opens one game.
  if (!s_.store.move(pair, "open", "playing", now())) return not_open(s);
  auto settings = settings_of(s);
  protocol::Teams teams;
  for (const auto& p : s_.store.players(pair))
    (p.team == "black" ? teams.black : teams.white).push_back({p.user_id, p.name});
  const auto black = teams.black.front().id;
  const auto white = teams.white.front().id;
  settings.teams = std::move(teams);
  const auto game = s_.start_game(settings, black, white);
  if (const auto* why = std::get_if<std::string>(&game)) {
    // Nothing started (the database away, a player blocked or suspended meanwhile): as before.
    spdlog::warn("pair Go game {}: the game could not start: {}", pair, *why);
    s_.store.move(pair, "playing", "open", now());
    return Refusal{409, "cannot_start", "the game could not start: " + *why};
  }
  s_.store.set_game(pair, std::get<std::int64_t>(game));
  return std::get<std::int64_t>(game);
}

}  // namespace tengen
