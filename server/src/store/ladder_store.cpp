#include "store/ladder_store.h"

namespace tengen::store {
namespace {

using sql::Value;

constexpr const char* kLadderColumns =
    "id, group_id, name, settings, reach, accept_days, on_win, created_at, closed_at";

LadderRow ladder_at(const sql::Rows& r, std::size_t i) {
  return {r.integer(i, 0),
          r.integer(i, 1),
          r.text(i, 2),
          r.text(i, 3),
          static_cast<int>(r.integer(i, 4)),
          static_cast<int>(r.integer(i, 5)),
          r.text(i, 6),
          r.integer(i, 7),
          r.optional_integer(i, 8)};
}

constexpr const char* kChallengeSelect =
    "SELECT c.id, c.ladder_id, c.challenger_id, a.username, c.defender_id, d.username,"
    " c.created_at, c.deadline, c.state, c.game_id, c.resolved_at, coalesce(g.result, ''),"
    " g.ended_at FROM ladder_challenges c JOIN users a ON a.id = c.challenger_id"
    " JOIN users d ON d.id = c.defender_id LEFT JOIN games g ON g.id = c.game_id ";

}  // namespace

std::int64_t LadderStore::create(const LadderRow& l, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_
      ->run(
          "INSERT INTO ladders(group_id, name, settings, reach, accept_days, on_win, created_at)"
          " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
          {l.group_id, l.name, l.settings, std::int64_t{l.reach}, std::int64_t{l.accept_days},
           l.on_win, now_ms})
      .integer(0, 0);
}

std::optional<LadderRow> LadderStore::ladder(std::int64_t id) {
  std::lock_guard lock(mutex_);
  const auto r =
      db_->run(std::string("SELECT ") + kLadderColumns + " FROM ladders WHERE id = ?", {id});
  if (r.empty()) return std::nullopt;
  return ladder_at(r, 0);
}

std::vector<LadderRow> LadderStore::of_group(std::int64_t group) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      std::string("SELECT ") + kLadderColumns + " FROM ladders WHERE group_id = ? ORDER BY id",
      {group});
  std::vector<LadderRow> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(ladder_at(r, i));
  return out;
}

bool LadderStore::close(std::int64_t id, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  bool closed = false;
  db_->transaction([&] {
    closed = db_->run("UPDATE ladders SET closed_at = ? WHERE id = ? AND closed_at IS NULL",
                      {now_ms, id})
                 .changed > 0;
    if (closed)
      db_->run(
          "UPDATE ladder_challenges SET state = 'cancelled', resolved_at = ? WHERE ladder_id = ?"
          " AND state = 'open'",
          {now_ms, id});
  });
  return closed;
}

std::vector<LadderPlayer> LadderStore::players(std::int64_t ladder,
                                               std::optional<std::int64_t> at) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT p.user_id, u.username, p.rung,"
      " CASE WHEN p.away <> 0 OR EXISTS (SELECT 1 FROM vacations v WHERE v.user_id = p.user_id"
      " AND v.from_ms <= ? AND v.to_ms > ?) THEN 1 ELSE 0 END,"
      " p.joined_at FROM ladder_players p"
      " JOIN users u ON u.id = p.user_id WHERE p.ladder_id = ? ORDER BY p.rung",
      {at ? sql::Value{*at} : sql::Value{}, at ? sql::Value{*at} : sql::Value{}, ladder});
  std::vector<LadderPlayer> out;
  for (std::size_t i = 0; i < r.size(); ++i)
    out.push_back({r.integer(i, 0), r.text(i, 1), static_cast<int>(r.integer(i, 2)),
                   r.integer(i, 3) != 0, r.integer(i, 4)});
  return out;
}

bool LadderStore::on_vacation(std::int64_t user, std::int64_t at) {
  std::lock_guard lock(mutex_);
  return !db_->run("SELECT 1 FROM vacations WHERE user_id = ? AND from_ms <= ? AND to_ms > ?",
                   {user, at, at})
              .empty();
}

std::optional<int> LadderStore::join(std::int64_t ladder, std::int64_t user, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  std::optional<int> rung;
  db_->transaction([&] {
    const auto bottom =
        db_->run("SELECT coalesce(max(rung), 0) FROM ladder_players WHERE ladder_id = ?", {ladder})
            .integer(0, 0);
    if (db_->run(
               "INSERT INTO ladder_players(ladder_id, user_id, rung, joined_at) VALUES (?, ?, ?, ?)"
               " ON CONFLICT DO NOTHING",
               {ladder, user, bottom + 1, now_ms})
            .changed > 0)
      rung = static_cast<int>(bottom + 1);
  });
  return rung;
}

bool LadderStore::leave(std::int64_t ladder, std::int64_t user, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  bool left = false;
  db_->transaction([&] {
    const auto r =
        db_->run("DELETE FROM ladder_players WHERE ladder_id = ? AND user_id = ? RETURNING rung",
                 {ladder, user});
    if (r.empty()) return;
    left = true;
    db_->run("UPDATE ladder_players SET rung = rung - 1 WHERE ladder_id = ? AND rung > ?",
             {ladder, r.integer(0, 0)});
    db_->run(
        "UPDATE ladder_challenges SET state = 'cancelled', resolved_at = ? WHERE ladder_id = ?"
        " AND state = 'open' AND (challenger_id = ? OR defender_id = ?)",
        {now_ms, ladder, user, user});
  });
  return left;
}

bool LadderStore::set_away(std::int64_t ladder, std::int64_t user, bool away) {
  std::lock_guard lock(mutex_);
  return db_->run("UPDATE ladder_players SET away = ? WHERE ladder_id = ? AND user_id = ?",
                  {std::int64_t{away ? 1 : 0}, ladder, user})
             .changed > 0;
}

void LadderStore::set_rungs(std::int64_t ladder,
                            const std::vector<std::pair<std::int64_t, int>>& rungs) {
  std::lock_guard lock(mutex_);
  db_->transaction([&] {
    for (const auto& [user, rung] : rungs)
      db_->run("UPDATE ladder_players SET rung = ? WHERE ladder_id = ? AND user_id = ?",
               {std::int64_t{rung}, ladder, user});
  });
}

std::int64_t LadderStore::add_challenge(std::int64_t ladder, std::int64_t challenger,
                                        std::int64_t defender, std::int64_t now_ms,
                                        std::int64_t deadline_ms) {
  std::lock_guard lock(mutex_);
  return db_
      ->run(
          "INSERT INTO ladder_challenges(ladder_id, challenger_id, defender_id, created_at,"
          " deadline, state) VALUES (?, ?, ?, ?, ?, 'open') RETURNING id",
          {ladder, challenger, defender, now_ms, deadline_ms})
      .integer(0, 0);
}

std::vector<LadderChallengeRow> LadderStore::challenges_where(const std::string& where,
                                                              const std::vector<Value>& params) {
  const auto r = db_->run(kChallengeSelect + where, params);
  std::vector<LadderChallengeRow> out;
  for (std::size_t i = 0; i < r.size(); ++i)
    out.push_back({r.integer(i, 0), r.integer(i, 1), r.integer(i, 2), r.text(i, 3), r.integer(i, 4),
                   r.text(i, 5), r.integer(i, 6), r.integer(i, 7), r.text(i, 8),
                   r.optional_integer(i, 9), r.optional_integer(i, 10),
                   r.is_null(i, 12) ? "" : r.text(i, 11)});
  return out;
}

std::optional<LadderChallengeRow> LadderStore::challenge(std::int64_t id) {
  std::lock_guard lock(mutex_);
  auto rows = challenges_where("WHERE c.id = ?", {id});
  if (rows.empty()) return std::nullopt;
  return std::move(rows.front());
}

std::vector<LadderChallengeRow> LadderStore::challenges(std::int64_t ladder, bool unresolved_only,
                                                        int limit) {
  std::lock_guard lock(mutex_);
  return challenges_where(std::string("WHERE c.ladder_id = ?") +
                              (unresolved_only ? " AND c.state IN ('open', 'playing')" : "") +
                              " ORDER BY c.id DESC LIMIT ?",
                          {ladder, std::int64_t{limit}});
}

bool LadderStore::move(std::int64_t id, const std::string& from, const std::string& to,
                       std::optional<std::int64_t> game, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  const bool resolved = to != "open" && to != "playing";
  return db_->run(
                "UPDATE ladder_challenges SET state = ?, game_id = coalesce(?, game_id),"
                " resolved_at = ? WHERE id = ? AND state = ?",
                {to, game ? Value(*game) : Value(), resolved ? Value(now_ms) : Value(), id, from})
             .changed > 0;
}

std::vector<LadderChallengeRow> LadderStore::due(std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return challenges_where(
      "WHERE (c.state = 'open' AND c.deadline <= ?) OR (c.state = 'playing' AND g.ended_at IS NOT"
      " NULL) ORDER BY c.id",
      {now_ms});
}

void LadderStore::add_event(std::int64_t ladder, std::int64_t now_ms, const std::string& event,
                            int keep) {
  std::lock_guard lock(mutex_);
  db_->transaction([&] {
    db_->run("INSERT INTO ladder_events(ladder_id, at, event) VALUES (?, ?, ?)",
             {ladder, now_ms, event});
    db_->run(
        "DELETE FROM ladder_events WHERE ladder_id = ? AND id <= (SELECT id FROM ladder_events"
        " WHERE ladder_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
        {ladder, ladder, std::int64_t{keep}});
  });
}

std::vector<std::pair<std::int64_t, std::string>> LadderStore::events(std::int64_t ladder,
                                                                      int limit) {
  std::lock_guard lock(mutex_);
  const auto r =
      db_->run("SELECT at, event FROM ladder_events WHERE ladder_id = ? ORDER BY id DESC LIMIT ?",
               {ladder, std::int64_t{limit}});
  std::vector<std::pair<std::int64_t, std::string>> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.emplace_back(r.integer(i, 0), r.text(i, 1));
  return out;
}

}  // namespace tengen::store
