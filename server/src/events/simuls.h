#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "accounts/rate_limiter.h"
#include "action_refusal.h"
#include "clock.h"
#include "protocol/simul_api.h"
#include "store/account_store.h"
#include "store/simul_store.h"

namespace tengen {

// Simuls (docs/events.md, "Simuls"): a host announces one (its games' settings, 2 to 30 boards),
// players join until the host starts it, and the start opens one game per player, the host White
// on every board, each with its own clock. Its games are ordinary games (their pages, clocks,
// scoring, archive); the simul's page lists the boards with their results. Called by the HTTP API;
// the store keeps every node's answers the same.
class Simuls {
 public:
  struct Limits {
    int open = 100;  // simuls open for players on the server
    int joined = 5;  // open simuls one account has joined
    int list = 50;   // shown in the list
    // Creating, joining, leaving, starting, cancelling: this many at once, then one a `refill`.
    int actions_burst = 10;
    std::chrono::milliseconds actions_refill{3000};
    // Each first move of a simul's games is due within a minute and this much for every board
    // after the first, at most `first_move_most` (docs/events.md): the host answers the boards
    // one after another.
    std::chrono::milliseconds first_move_per_board{20'000};
    std::chrono::milliseconds first_move_most{600'000};
  };
  using Refusal = ActionRefusal;
  template <class T>
  using Answer = ActionAnswer<T>;
  using Maybe = ActionMaybe;
  struct Services {
    store::SimulStore& store;
    Clock& clock;
    // Starts a game between the two with these settings, each first move due within
    // `start_timeout`: its id, or why not.
    std::function<std::variant<std::int64_t, std::string>(const protocol::GameSettings& settings,
                                                          std::int64_t black, std::int64_t white,
                                                          std::chrono::milliseconds start_timeout)>
        start_game;
    // Those `user` blocks: nobody joins the simul of a host they block or who blocks them.
    std::function<std::vector<std::int64_t>(std::int64_t user)> blocked_by;
    // Whether the account is a protected class's student (docs/classes.md), who plays their
    // class, not everyone: they announce and join none. None: no one is.
    std::function<bool(std::int64_t user)> protected_student = {};
  };

  Simuls(Services services, Limits limits) : s_(std::move(services)), limits_(limits) {}

  Answer<std::int64_t> create(const store::UserRecord& me, const protocol::http::SimulForm& form);
  std::vector<protocol::http::SimulSummary> list();
  Answer<protocol::http::SimulPage> page(std::int64_t simul);
  Maybe join(std::int64_t simul, const store::UserRecord& me);
  Maybe leave(std::int64_t simul, const store::UserRecord& me);
  Maybe cancel(std::int64_t simul, const store::UserRecord& me);
  // The games started: how many.
  Answer<int> start(std::int64_t simul, const store::UserRecord& me);

  // The settings of the game a player rated `player` plays against a host rated `host` (docs/
  // events.md): an automatic handicap gives as many stones as ranks between them when the host is
  // stronger (komi 0.5 from one rank), an even game otherwise.
  static protocol::GameSettings board_settings(protocol::GameSettings settings, double player,
                                               double host);
  // The time for each first move in a simul of `boards` boards.
  std::chrono::milliseconds start_timeout(int boards) const;

 private:
  Answer<store::SimulRow> find(std::int64_t simul);
  Maybe too_fast(const store::UserRecord& me);
  Maybe student_stays(const store::UserRecord& me);
  std::int64_t now() const { return s_.clock.unix_ms(); }

  Services s_;
  Limits limits_;
  std::mutex rate_mutex_;
  RateLimiter action_rate_{limits_.actions_burst, limits_.actions_refill};
};

}  // namespace tengen
