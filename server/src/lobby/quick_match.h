#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "protocol/messages.h"
#include "rooms/game_clock.h"

namespace tengen {

// Quick match (docs/games.md): players waiting for a game of a board size and a speed, paired by
// rating. Two waiting players are paired when their ratings differ by no more than either one's
// range, which starts at 150 points (a rank and a half) and widens by 100 every 10 s waited, to
// anyone after 90 s. The oldest seek is served first, with the closest rating. No locking and no
// clock of its own: the lobby calls it on its mailbox with the time.
class QuickMatch {
 public:
  struct Waiting {
    protocol::UserRef user;
    protocol::Seek seek;
    double rating = 0;
    Steady since{};
    // Games on every node: the node of the connection that sought (0: none, or the hub's own).
    std::int64_t node = 0;
  };
  struct Pair {
    Waiting first;  // the one who waited longer
    Waiting second;
  };

  static constexpr double kFirstRange = 150;
  static constexpr double kWidening = 100;
  static constexpr Millis kWidenEvery{10'000};
  static constexpr Millis kAnyoneAfter{90'000};
  // At most this many waiting at once on a server (each player has at most one seek).
  static constexpr std::size_t kMaxWaiting = 2'000;

  // The rating range of a seek that has waited this long.
  static double range(Millis waited);
  // The settings of a quick-match game: even, colours by rating, Japanese rules, rated, byo-yomi
  // by size and speed.
  static protocol::GameSettings settings(const protocol::Seek& seek);

  // Replaces the user's seek, if any; false if the server is full of seekers.
  bool add(Waiting waiting);
  // Whether the user was waiting.
  bool cancel(std::int64_t user);
  std::optional<Waiting> of(std::int64_t user) const;
  // Players waiting for this size and speed.
  std::int64_t waiting_for(const protocol::Seek& seek) const;
  bool empty() const { return waiting_.empty(); }
  // Every pair that may play now, taken out of the queue; never two players `apart` says may not
  // meet (one blocks the other).
  std::vector<Pair> match(Steady now,
                          const std::function<bool(std::int64_t, std::int64_t)>& apart = {});

 private:
  std::vector<Waiting> waiting_;  // in the order they came
};

}  // namespace tengen
