#include "events/simuls.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/codec.h"
#include "ratings/glicko2.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using Refusal = Simuls::Refusal;

Refusal no_simul(std::int64_t id) {
  return {404, "not_found", "no simul " + std::to_string(id)};
}
Refusal not_open(const store::SimulRow& s) {
  return {409, "not_open",
          s.state == "cancelled" ? "the simul was cancelled by its host"
                                 : "the simul has started: nobody joins or leaves it now"};
}

protocol::GameSettings settings_of(const store::SimulRow& s) {
  auto settings = protocol::decode_settings(s.settings);
  return std::holds_alternative<protocol::GameSettings>(settings)
             ? std::get<protocol::GameSettings>(settings)
             : protocol::GameSettings{};
}

wire::SimulSummary summary(const store::SimulRow& s) {
  const bool over = s.state == "playing" && s.games_over >= s.started;
  return {s.id,      {s.host_id, s.host_name},    s.name,       settings_of(s),  s.boards,
          s.players, over ? "finished" : s.state, s.games_over, s.created_at_ms, s.started_at_ms};
}

bool contains(const std::vector<std::int64_t>& ids, std::int64_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

protocol::GameSettings Simuls::board_settings(protocol::GameSettings settings, double player,
                                              double host) {
  settings.color = protocol::GameSettings::ColorChoice::White;
  if (!settings.automatic_handicap) return settings;
  settings.automatic_handicap = false;
  const int ranks = ratings::rank_index(host) > ratings::rank_index(player)
                        ? ratings::rank_difference(player, host)
                        : 0;
  if (ranks >= 1) settings.komi = 0.5;
  protocol::fit_handicap(settings, ranks);
  return settings;
}

std::chrono::milliseconds Simuls::start_timeout(int boards) const {
  return std::min(limits_.first_move_most,
                  std::chrono::milliseconds(60'000) + (boards - 1) * limits_.first_move_per_board);
}

Simuls::Maybe Simuls::too_fast(const store::UserRecord& me) {
  std::lock_guard lock(rate_mutex_);
  if (action_rate_.try_take(std::to_string(me.id), s_.clock.steady_now())) return std::nullopt;
  return Refusal{429, "rate_limited", "too many simul actions at once: wait a few seconds"};
}

Simuls::Maybe Simuls::student_stays(const store::UserRecord& me) {
  if (!s_.protected_student || !s_.protected_student(me.id)) return std::nullopt;
  return Refusal{403, "protected_student",
                 "you are a student of a class: you play your class's games, not simuls open to "
                 "everyone"};
}

Simuls::Answer<store::SimulRow> Simuls::find(std::int64_t simul) {
  auto s = s_.store.simul(simul);
  if (!s) return no_simul(simul);
  return std::move(*s);
}

Simuls::Answer<std::int64_t> Simuls::create(const store::UserRecord& me,
                                            const wire::SimulForm& form) {
  if (auto no = too_fast(me)) return *no;
  if (me.is_bot) return Refusal{403, "bots_cannot", "a bot's account hosts no simuls"};
  if (auto no = student_stays(me)) return *no;
  if (s_.store.running_of(me.id) > 0)
    return Refusal{409, "simul_running",
                   "you host a simul already: cancel it, or finish its games, first"};
  if (s_.store.open_count() >= limits_.open)
    return Refusal{409, "too_many_simuls",
                   "the server has " + std::to_string(limits_.open) +
                       " simuls open for players, its most: try again once one has started"};
  return s_.store.create(me.id, form.name, protocol::encode_settings(form.settings), form.boards,
                         now());
}

std::vector<wire::SimulSummary> Simuls::list() {
  std::vector<wire::SimulSummary> out;
  for (const auto& s : s_.store.list(limits_.list)) out.push_back(summary(s));
  return out;
}

Simuls::Answer<wire::SimulPage> Simuls::page(std::int64_t simul) {
  auto found = find(simul);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& s = std::get<store::SimulRow>(found);
  wire::SimulPage page{summary(s), {}};
  const auto settings = settings_of(s);
  const auto host = s_.store.rating_of(s.host_id).first;
  for (const auto& p : s_.store.players(simul)) {
    // Before the start, the stones the start would give; after it, those it gave.
    const int handicap = p.game_id ? p.handicap : board_settings(settings, p.rating, host).handicap;
    page.boards.push_back({{p.user_id, p.name},
                           ratings::rank_name(p.rating, p.deviation),
                           p.joined_at_ms,
                           handicap,
                           p.game_id,
                           p.result});
  }
  return page;
}

Simuls::Maybe Simuls::join(std::int64_t simul, const store::UserRecord& me) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(simul);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& s = std::get<store::SimulRow>(found);
  if (s.state != "open") return not_open(s);
  if (auto no = student_stays(me)) return *no;
  if (s.host_id == me.id)
    return Refusal{409, "host_plays_all", "you host this simul: you play every board"};
  if (s_.blocked_by &&
      (contains(s_.blocked_by(me.id), s.host_id) || contains(s_.blocked_by(s.host_id), me.id)))
    return Refusal{403, "blocked", "no games between you and " + s.host_name};
  if (s_.store.joined_open(me.id) >= limits_.joined)
    return Refusal{409, "too_many_joined",
                   "you have joined " + std::to_string(limits_.joined) +
                       " simuls that have not started: leave one first"};
  switch (s_.store.join(simul, me.id, now())) {
    case store::SimulStore::Joined::Yes:
      return std::nullopt;
    case store::SimulStore::Joined::Already:
      return Refusal{409, "already_joined", "you have joined this simul already"};
    case store::SimulStore::Joined::Full:
      return Refusal{
          409, "simul_full",
          "the simul has " + std::to_string(s.boards) + " players, as many as its boards"};
    case store::SimulStore::Joined::NotOpen:
      break;
  }
  auto now_found = find(simul);
  if (auto* no = std::get_if<Refusal>(&now_found)) return *no;
  return not_open(std::get<store::SimulRow>(now_found));
}

Simuls::Maybe Simuls::leave(std::int64_t simul, const store::UserRecord& me) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(simul);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  if (s_.store.leave(simul, me.id)) return std::nullopt;
  auto now_found = find(simul);
  if (auto* no = std::get_if<Refusal>(&now_found)) return *no;
  const auto& s = std::get<store::SimulRow>(now_found);
  if (s.state != "open") return not_open(s);
  return Refusal{409, "not_joined", "you have not joined this simul"};
}

Simuls::Maybe Simuls::cancel(std::int64_t simul, const store::UserRecord& me) {
  auto found = find(simul);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& s = std::get<store::SimulRow>(found);
  if (s.host_id != me.id && !me.is_admin)
    return Refusal{403, "not_host", "only the simul's host cancels it"};
  if (!s_.store.move(simul, "open", "cancelled", now())) return not_open(s);
  return std::nullopt;
}

Simuls::Answer<int> Simuls::start(std::int64_t simul, const store::UserRecord& me) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(simul);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& s = std::get<store::SimulRow>(found);
  if (s.host_id != me.id) return Refusal{403, "not_host", "only the simul's host starts it"};
  if (s.state != "open") return not_open(s);
  if (s.players < 2)
    return Refusal{409, "too_few_players",
                   "a simul starts with at least 2 players; " + std::to_string(s.players) +
                       (s.players == 1 ? " has" : " have") + " joined"};
  // Claimed first: nobody joins or leaves from now on, and a start sent twice (a browser retrying
  // its request, or two nodes) opens the games once.
  if (!s_.store.move(simul, "open", "playing", now())) return not_open(s);
  const auto settings = settings_of(s);
  const auto host = s_.store.rating_of(s.host_id).first;
  const auto players = s_.store.players(simul);
  const auto first_move = start_timeout(static_cast<int>(players.size()));
  int started = 0;
  std::vector<std::int64_t> failed;
  for (const auto& p : players) {
    const auto board = board_settings(settings, p.rating, host);
    const auto game = s_.start_game(board, p.user_id, s.host_id, first_move);
    if (const auto* why = std::get_if<std::string>(&game)) {
      spdlog::warn("simul {}: no game for {}: {}", simul, p.name, *why);
      failed.push_back(p.user_id);
      continue;
    }
    s_.store.set_game(simul, p.user_id, std::get<std::int64_t>(game), board.handicap);
    ++started;
  }
  if (started == 0) {  // the server could not start games (its database away, say): as before
    s_.store.move(simul, "playing", "open", now());
    return Refusal{503, "unavailable", "no game could start: try again in a moment"};
  }
  // A player whose game could not start (their account restricted meanwhile, say) leaves the
  // simul; the others play on.
  for (const auto user : failed) s_.store.drop(simul, user);
  return started;
}

}  // namespace tengen
