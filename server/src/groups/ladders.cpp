#include "groups/ladders.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "protocol/codec.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using Refusal = Ladders::Refusal;
constexpr std::int64_t kDayMs = 24LL * 3600 * 1000;

bool runs(const std::optional<std::string>& role) {
  return role == "owner" || role == "admin";
}
bool belongs(const std::optional<std::string>& role) {
  return runs(role) || role == "member";
}

Refusal no_ladder(std::int64_t id) {
  return {404, "not_found", "no ladder " + std::to_string(id)};
}
Refusal closed_ladder() {
  return {409, "ladder_closed", "the ladder is closed: its standings stay, nothing moves"};
}

wire::LadderSummary summary(const store::LadderRow& l, int players) {
  auto settings = protocol::decode_settings(l.settings);
  return {l.id,
          l.group_id,
          l.name,
          std::holds_alternative<protocol::GameSettings>(settings)
              ? std::get<protocol::GameSettings>(settings)
              : protocol::GameSettings{},
          l.reach,
          l.accept_days,
          l.on_win,
          players,
          l.created_at_ms,
          l.closed_at_ms};
}

// The player's entry in `players` (which must outlive the pointer), or null.
const store::LadderPlayer* on(const std::vector<store::LadderPlayer>& players, std::int64_t user) {
  const auto found = std::find_if(players.begin(), players.end(),
                                  [&](const auto& p) { return p.user_id == user; });
  return found == players.end() ? nullptr : &*found;
}

}  // namespace

std::optional<Refusal> Ladders::too_fast(const store::UserRecord& me) {
  std::lock_guard lock(rate_mutex_);
  if (action_rate_.try_take(std::to_string(me.id), s_.clock.steady_now())) return std::nullopt;
  return Refusal{429, "rate_limited", "too many ladder actions at once: wait a few seconds"};
}

Ladders::Answer<Ladders::Found> Ladders::find(std::int64_t ladder,
                                              std::optional<std::int64_t> viewer) {
  auto l = s_.store.ladder(ladder);
  if (!l) return no_ladder(ladder);
  auto g = s_.groups.group(l->group_id);
  if (!g) return no_ladder(ladder);
  std::optional<std::string> role;
  if (viewer) role = s_.groups.role(g->id, *viewer);
  return Found{std::move(*l), std::move(*g), std::move(role)};
}

void Ladders::event(const store::LadderRow& ladder, const std::string& kind,
                    const std::string& user, const std::string& other, int rung,
                    std::optional<std::int64_t> game) {
  nlohmann::json e{{"kind", kind}, {"user", user}};
  if (!other.empty()) e["other"] = other;
  if (rung) e["rung"] = rung;
  if (game) e["game"] = *game;
  s_.store.add_event(ladder.id, now(), e.dump(), limits_.history_kept);
}

void Ladders::told(const store::LadderRow& ladder) {
  if (!s_.changed) return;
  if (const auto g = s_.groups.group(ladder.group_id)) s_.changed(*g);
}

Ladders::Answer<std::int64_t> Ladders::create(std::int64_t group, const store::UserRecord& me,
                                              const wire::LadderForm& form) {
  if (auto no = too_fast(me)) return *no;
  const auto g = s_.groups.group(group);
  if (!g) return Refusal{404, "not_found", "no group " + std::to_string(group)};
  if (!runs(s_.groups.role(group, me.id)) && !me.is_admin)
    return Refusal{403, "not_group_admin",
                   "only the group's owner and administrators make ladders"};
  if (g->closed_at_ms)
    return Refusal{409, "group_closed", "the group is closed: it can be read, not changed"};
  if (static_cast<int>(s_.store.of_group(group).size()) >= limits_.per_group)
    return Refusal{409, "too_many_ladders",
                   "a group has at most " + std::to_string(limits_.per_group) + " ladders"};
  auto settings = form.settings;
  settings.color = protocol::GameSettings::ColorChoice::Black;
  settings.handicap = 0;
  settings.automatic_handicap = false;
  settings.is_private = false;
  settings.group = group;
  if (const auto why = protocol::validate(settings)) return Refusal{400, "bad_settings", *why};
  store::LadderRow row{0,           group,
                       form.name,   protocol::encode_settings(settings),
                       form.reach,  form.accept_days,
                       form.on_win, 0,
                       std::nullopt};
  const auto id = s_.store.create(row, now());
  row.id = id;
  event(row, "created", me.username);
  told(row);
  return id;
}

Ladders::Answer<std::vector<wire::LadderSummary>> Ladders::of_group(std::int64_t group) {
  if (!s_.groups.group(group))
    return Refusal{404, "not_found", "no group " + std::to_string(group)};
  std::vector<wire::LadderSummary> out;
  for (const auto& l : s_.store.of_group(group))
    out.push_back(summary(l, static_cast<int>(s_.store.players(l.id).size())));
  return out;
}

Ladders::Answer<wire::LadderPage> Ladders::page(std::int64_t ladder,
                                                const std::optional<store::UserRecord>& viewer) {
  auto found = find(ladder, viewer ? std::optional(viewer->id) : std::nullopt);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& f = std::get<Found>(found);
  const auto players = players_of(ladder);
  wire::LadderPage page{summary(f.ladder, static_cast<int>(players.size())),
                        f.group.name,
                        f.role,
                        {},
                        {},
                        s_.store.events(ladder, limits_.history)};
  for (const auto& p : players)
    page.players.push_back({{p.user_id, p.name}, p.rung, p.away, p.joined_at_ms});
  auto challenges = s_.store.challenges(ladder, true, 100);
  for (const auto& c : s_.store.challenges(ladder, false, 20))
    if (c.state != "open" && c.state != "playing") challenges.push_back(c);
  for (const auto& c : challenges)
    page.challenges.push_back({c.id,
                               {c.challenger_id, c.challenger_name},
                               {c.defender_id, c.defender_name},
                               c.created_at_ms,
                               c.deadline_ms,
                               c.state,
                               c.game_id,
                               c.result});
  return page;
}

Ladders::Maybe Ladders::join(std::int64_t ladder, const store::UserRecord& me) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(ladder, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& f = std::get<Found>(found);
  if (!belongs(f.role)) return Refusal{403, "members_only", "a group's ladder is for its members"};
  if (f.ladder.closed_at_ms || f.group.closed_at_ms) return closed_ladder();
  if (static_cast<int>(s_.store.players(ladder).size()) >= limits_.players)
    return Refusal{409, "ladder_full",
                   "the ladder has " + std::to_string(limits_.players) + " players, its most"};
  const auto rung = s_.store.join(ladder, me.id, now());
  if (!rung) return Refusal{409, "already_on_ladder", "you are on this ladder already"};
  event(f.ladder, "joined", me.username, "", *rung);
  told(f.ladder);
  return std::nullopt;
}

Ladders::Maybe Ladders::leave(std::int64_t ladder, const store::UserRecord& me) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(ladder, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& f = std::get<Found>(found);
  for (const auto& c : s_.store.challenges(ladder, true, 100))
    if (c.state == "playing" && (c.challenger_id == me.id || c.defender_id == me.id))
      return Refusal{409, "challenge_in_play",
                     "your ladder game is being played: leave once it is over"};
  if (!s_.store.leave(ladder, me.id, now()))
    return Refusal{409, "not_on_ladder", "you are not on this ladder"};
  event(f.ladder, "left", me.username);
  told(f.ladder);
  return std::nullopt;
}

Ladders::Maybe Ladders::away(std::int64_t ladder, const store::UserRecord& me, bool away) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(ladder, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& f = std::get<Found>(found);
  if (away)
    for (const auto& c : s_.store.challenges(ladder, true, 100))
      if (c.challenger_id == me.id || c.defender_id == me.id)
        return Refusal{409, "challenge_waiting",
                       "answer or finish your open ladder challenge before going away"};
  if (!s_.store.set_away(ladder, me.id, away))
    return Refusal{409, "not_on_ladder", "you are not on this ladder"};
  event(f.ladder, away ? "away" : "back", me.username);
  told(f.ladder);
  return std::nullopt;
}

Ladders::Maybe Ladders::close(std::int64_t ladder, const store::UserRecord& me) {
  auto found = find(ladder, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& f = std::get<Found>(found);
  if (!runs(f.role) && !me.is_admin)
    return Refusal{403, "not_group_admin", "only the group's owner and administrators close it"};
  if (!s_.store.close(ladder, now())) return closed_ladder();
  event(f.ladder, "closed", me.username);
  told(f.ladder);
  return std::nullopt;
}

Ladders::Answer<std::int64_t> Ladders::challenge(std::int64_t ladder, const store::UserRecord& me,
                                                 std::int64_t defender) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(ladder, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& f = std::get<Found>(found);
  if (f.ladder.closed_at_ms || f.group.closed_at_ms) return closed_ladder();
  const auto players = players_of(ladder);
  const auto* mine = on(players, me.id);
  const auto* theirs = on(players, defender);
  if (!mine) return Refusal{409, "not_on_ladder", "join the ladder first"};
  if (!theirs) return Refusal{404, "not_on_ladder", "that player is not on this ladder"};
  if (theirs->rung >= mine->rung)
    return Refusal{409, "not_above", "a ladder challenge goes up: challenge a player above you"};
  if (mine->rung - theirs->rung > f.ladder.reach)
    return Refusal{409, "out_of_reach",
                   "on this ladder you may challenge up to " + std::to_string(f.ladder.reach) +
                       " rungs above yours, not " + std::to_string(mine->rung - theirs->rung)};
  if (mine->away) return Refusal{409, "away", "you are away from the ladder: come back first"};
  if (theirs->away)
    return Refusal{409, "defender_away", theirs->name + " is away from the ladder for now"};
  for (const auto& c : s_.store.challenges(ladder, true, 100)) {
    if (c.challenger_id == me.id || c.defender_id == me.id)
      return Refusal{409, "challenge_waiting",
                     "you have a ladder challenge open or in play already: one at a time"};
    if (c.challenger_id == defender || c.defender_id == defender)
      return Refusal{409, "defender_busy",
                     theirs->name + " has a ladder challenge open or in play already"};
  }
  if (s_.blocked_by) {
    const auto a = s_.blocked_by(me.id), b = s_.blocked_by(defender);
    if (std::find(a.begin(), a.end(), defender) != a.end() ||
        std::find(b.begin(), b.end(), me.id) != b.end())
      return Refusal{403, "blocked", "no games between you and " + theirs->name};
  }
  const auto id =
      s_.store.add_challenge(ladder, me.id, defender, now(), now() + f.ladder.accept_days * kDayMs);
  event(f.ladder, "challenged", me.username, theirs->name);
  told(f.ladder);
  return id;
}

Ladders::Answer<std::int64_t> Ladders::accept(std::int64_t ladder, std::int64_t challenge,
                                              const store::UserRecord& me) {
  auto found = find(ladder, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& f = std::get<Found>(found);
  auto mine = challenge_of(ladder, challenge, me.id, false);
  if (auto* no = std::get_if<Refusal>(&mine)) return *no;
  const auto c = std::get<store::LadderChallengeRow>(std::move(mine));
  if (c.state != "open" || c.deadline_ms <= now())
    return Refusal{409, "not_open", "this challenge is no longer open"};
  const auto settings = protocol::decode_settings(f.ladder.settings);
  if (!std::holds_alternative<protocol::GameSettings>(settings))
    return Refusal{500, "internal", "the ladder's settings cannot be read"};
  // Claimed first, so that an answer sent twice (a browser retrying its request) or from two
  // nodes starts one game.
  if (!s_.store.move(challenge, "open", "playing", std::nullopt, now()))
    return Refusal{409, "not_open", "this challenge is no longer open"};
  const auto game =
      s_.start_game(std::get<protocol::GameSettings>(settings), c.challenger_id, c.defender_id);
  if (const auto* why = std::get_if<std::string>(&game)) {
    s_.store.move(challenge, "playing", "open", std::nullopt, now());
    return Refusal{503, "unavailable", "the game could not start: " + *why};
  }
  const auto id = std::get<std::int64_t>(game);
  s_.store.move(challenge, "playing", "playing", id, now());
  event(f.ladder, "accepted", me.username, c.challenger_name, 0, id);
  told(f.ladder);
  return id;
}

Ladders::Answer<store::LadderChallengeRow> Ladders::challenge_of(std::int64_t ladder,
                                                                 std::int64_t challenge,
                                                                 std::int64_t user,
                                                                 bool challenger) {
  auto c = s_.store.challenge(challenge);
  if (!c || c->ladder_id != ladder)
    return Refusal{404, "not_found", "no challenge " + std::to_string(challenge)};
  if ((challenger ? c->challenger_id : c->defender_id) != user)
    return Refusal{403, "not_yours",
                   challenger ? "only the challenger withdraws a challenge"
                              : "only the player challenged accepts a challenge"};
  return std::move(*c);
}

Ladders::Maybe Ladders::cancel(std::int64_t ladder, std::int64_t challenge,
                               const store::UserRecord& me) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(ladder, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& f = std::get<Found>(found);
  auto mine = challenge_of(ladder, challenge, me.id, true);
  if (auto* no = std::get_if<Refusal>(&mine)) return *no;
  const auto c = std::get<store::LadderChallengeRow>(std::move(mine));
  if (!s_.store.move(challenge, "open", "cancelled", std::nullopt, now()))
    return Refusal{409, "not_open", "this challenge is no longer open"};
  event(f.ladder, "cancelled", me.username, c.defender_name);
  told(f.ladder);
  return std::nullopt;
}

std::vector<store::LadderPlayer> Ladders::players_of(std::int64_t ladder) {
  return s_.store.players(ladder, now());
}

int Ladders::rung_of(std::int64_t ladder, std::int64_t user) {
  const auto players = s_.store.players(ladder);
  const auto* p = on(players, user);
  return p ? p->rung : 0;
}

void Ladders::promote(const store::LadderRow& ladder, std::int64_t challenger,
                      std::int64_t defender) {
  const auto players = players_of(ladder.id);
  const auto* up = on(players, challenger);
  const auto* down = on(players, defender);
  if (!up || !down || up->rung <= down->rung) return;  // one left, or already above
  std::vector<std::pair<std::int64_t, int>> rungs;
  if (ladder.on_win == "move_up") {
    // The challenger takes the defender's rung; those between who are not away move down one
    // slot, the slots of those away staying theirs.
    std::vector<const store::LadderPlayer*> moving;
    for (const auto& p : players)
      if (p.rung >= down->rung && p.rung <= up->rung && (!p.away || &p == up || &p == down))
        moving.push_back(&p);
    rungs.emplace_back(challenger, moving.front()->rung);
    for (std::size_t i = 0; i + 1 < moving.size(); ++i)
      rungs.emplace_back(moving[i]->user_id, moving[i + 1]->rung);
  } else {
    rungs = {{challenger, down->rung}, {defender, up->rung}};
  }
  s_.store.set_rungs(ladder.id, rungs);
}

int Ladders::sweep() {
  std::lock_guard lock(sweep_mutex_);
  int resolved = 0;
  for (const auto& c : s_.store.due(now())) {
    const auto ladder = s_.store.ladder(c.ladder_id);
    if (!ladder) continue;
    try {
      if (c.state == "open" && s_.store.on_vacation(c.defender_id, now())) {
        // The defender went on vacation meanwhile: their rung is frozen, the challenge lapses
        // and nobody moves.
        if (!s_.store.move(c.id, "open", "cancelled", std::nullopt, now())) continue;
        event(*ladder, "lapsed", c.challenger_name, c.defender_name);
      } else if (c.state == "open") {  // not accepted in time: the challenger wins the rung
        if (!s_.store.move(c.id, "open", "expired", std::nullopt, now())) continue;
        const int from = rung_of(ladder->id, c.challenger_id);
        promote(*ladder, c.challenger_id, c.defender_id);
        const int to = rung_of(ladder->id, c.challenger_id);
        event(*ladder, "expired", c.challenger_name, c.defender_name, to != from ? to : 0);
      } else {
        const char winner = c.result.empty() ? '?' : c.result.front();
        const std::string to = winner == 'B' ? "won" : winner == 'W' ? "lost" : "drawn";
        if (!s_.store.move(c.id, "playing", to, std::nullopt, now())) continue;
        if (to == "won") {
          promote(*ladder, c.challenger_id, c.defender_id);
          event(*ladder, "won", c.challenger_name, c.defender_name,
                rung_of(ladder->id, c.challenger_id), c.game_id);
        } else {
          event(*ladder, to == "lost" ? "defended" : "drawn", c.defender_name, c.challenger_name, 0,
                c.game_id);
        }
      }
      ++resolved;
      told(*ladder);
    } catch (const std::exception& e) {
      spdlog::warn("ladder challenge {} not resolved yet: {}", c.id, e.what());
    }
  }
  return resolved;
}

LadderSweeper::LadderSweeper(Ladders& ladders, std::chrono::milliseconds every)
    : ladders_(ladders), every_(every), thread_([this] {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
          lock.unlock();
          try {
            ladders_.sweep();
          } catch (const std::exception& e) {  // the database away: next time
            spdlog::warn("the ladders' sweep failed: {}", e.what());
          }
          lock.lock();
          wake_.wait_for(lock, every_, [this] { return stopping_; });
        }
      }) {}

LadderSweeper::~LadderSweeper() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

}  // namespace tengen
