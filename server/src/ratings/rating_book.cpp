#include "ratings/rating_book.h"

#include <algorithm>

#include "protocol/codec.h"
#include "protocol/settings.h"

namespace tengen {

void RatingBook::load(const std::vector<store::StoredRating>& stored) {
  std::lock_guard lock(mutex_);
  for (const auto& r : stored) by_user_[r.user_id] = r;
}

std::optional<store::RatingSeeded> RatingBook::seed(std::int64_t user, const ratings::Rating& start,
                                                    std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  seeds_[user] = start;
  if (by_user_.contains(user)) return std::nullopt;  // rated already, or seeded before
  by_user_[user] = {user, start.rating, start.deviation, start.volatility, 0, now_ms};
  return store::RatingSeeded{user, start.rating, start.deviation, start.volatility, now_ms};
}

std::map<std::int64_t, ratings::Rating> RatingBook::seeds() const {
  std::lock_guard lock(mutex_);
  return seeds_;
}

ratings::Rating RatingBook::at(std::int64_t user, std::int64_t now_ms) const {
  std::lock_guard lock(mutex_);
  return at_locked(user, now_ms);
}

ratings::Rating RatingBook::at_locked(std::int64_t user, std::int64_t now_ms) const {
  const auto it = by_user_.find(user);
  if (it == by_user_.end()) {
    const auto seeded = seeds_.find(user);
    return seeded == seeds_.end() ? ratings::Rating{} : seeded->second;
  }
  const auto& r = it->second;
  if (r.games == 0) return {r.rating, r.deviation, r.volatility};  // a seed: no game to age from
  return ratings::decayed({r.rating, r.deviation, r.volatility},
                          static_cast<double>(now_ms - r.updated_at_ms));
}

std::vector<store::RatingChanged> RatingBook::rate(const RatedGame& game, const Result& result,
                                                   std::int64_t now_ms) {
  if (result.kind == Result::Kind::Void || result.kind == Result::Kind::Unknown) return {};
  const double black_score = result.winner == Color::Black   ? 1
                             : result.winner == Color::White ? 0
                                                             : 0.5;  // jigo
  std::lock_guard lock(mutex_);
  const auto after = ratings::rate_game(
      at_locked(game.black, now_ms), at_locked(game.white, now_ms), black_score,
      ratings::black_advantage_ranks(game.handicap, game.komi, game.customary_komi));
  std::vector<store::RatingChanged> changes;
  for (const auto& [user, r] :
       {std::pair{game.black, after.black}, std::pair{game.white, after.white}}) {
    auto& stored = by_user_[user];
    stored = {user, r.rating, r.deviation, r.volatility, stored.games + 1, now_ms};
    changes.push_back({user, game.game, r.rating, r.deviation, r.volatility, stored.games, now_ms});
  }
  return changes;
}

std::optional<std::pair<RatingBook::RatedGame, Result>> RatingBook::rated_game(
    const store::GameSummary& g) {
  if (!g.result || !g.ended_at_ms) return std::nullopt;
  const auto decoded = protocol::decode_stored_settings(g.settings);
  const auto* settings = std::get_if<protocol::GameSettings>(&decoded);
  const auto result = Result::parse_sgf(*g.result);
  if (!settings || !settings->rated || !result) return std::nullopt;
  return std::pair{
      RatedGame{g.id, g.black_id, g.white_id, settings->handicap,
                protocol::rules_of(*settings).komi, Rules::preset(settings->ruleset).komi},
      *result};
}

std::vector<store::RatingChanged> RatingBook::replay(
    const std::vector<store::GameSummary>& games,
    const std::map<std::int64_t, ratings::Rating>& seeds) {
  RatingBook book;
  book.seeds_ = seeds;
  std::vector<store::RatingChanged> history;
  for (const auto& g : games) {
    const auto rated = rated_game(g);
    if (!rated) continue;
    for (auto& row : book.rate(rated->first, rated->second, *g.ended_at_ms))
      history.push_back(std::move(row));
  }
  return history;
}

std::vector<store::RatingSeeded> RatingBook::unplayed_seeds(
    const std::vector<store::RatingChanged>& history,
    const std::map<std::int64_t, ratings::Rating>& seeds, std::int64_t now_ms) {
  std::vector<store::RatingSeeded> out;
  for (const auto& [user, r] : seeds) {
    const bool played = std::any_of(history.begin(), history.end(),
                                    [user = user](const auto& row) { return row.user_id == user; });
    if (!played) out.push_back({user, r.rating, r.deviation, r.volatility, now_ms});
  }
  return out;
}

void RatingBook::replace(const std::vector<store::RatingChanged>& history) {
  std::lock_guard lock(mutex_);
  by_user_.clear();
  for (const auto& r : history) {
    by_user_[r.user_id] = {r.user_id, r.rating, r.deviation, r.volatility, r.games, r.at_ms};
  }
  // Seeded players who played no rated game start where their seed says (at_locked).
}

}  // namespace tengen
