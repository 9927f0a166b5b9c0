#include "ratings/recompute.h"

#include <chrono>
#include <set>

#include "ratings/rating_book.h"
#include "store/stores.h"

namespace tengen::ratings {

std::string recompute_ratings(const std::string& database,
                              const std::map<std::string, ratings::Rating>& starts) {
  const auto stores = store::Stores::open(database);
  const auto games = stores->games->games_in_order_of_ending();
  std::map<std::int64_t, ratings::Rating> seeds;
  for (const auto& [name, start] : starts) {
    const auto user = stores->accounts->user_by_name(name);
    if (user && user->is_bot) seeds[user->id] = start;
  }
  auto history = RatingBook::replay(games, seeds);
  std::set<std::int64_t> players;
  for (const auto& row : history) players.insert(row.user_id);
  const auto rows = history.size();
  auto unplayed =
      RatingBook::unplayed_seeds(history, seeds,
                                 std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
  const std::vector<store::Write> write{
      store::RatingsReplaced{std::move(history), std::move(unplayed)}};
  stores->games->write(write);
  return "rebuilt the ratings of " + std::to_string(players.size()) + " players from " +
         std::to_string(rows / 2) + " rated games (" + std::to_string(games.size()) +
         " finished games read)";
}

}  // namespace tengen::ratings
