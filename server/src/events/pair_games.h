#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "accounts/rate_limiter.h"
#include "action_refusal.h"
#include "clock.h"
#include "protocol/pair_api.h"
#include "store/account_store.h"
#include "store/pair_store.h"

namespace tengen {

// Pair Go and rengo (docs/events.md, "Pair Go"): a host announces a game of two teams of 2 (pair
// Go) to 4 (rengo), players join the Black or the White team until both are full, and the host
// starts the one game. Its room knows the teams from the game's settings: each colour's members
// move in the order they joined (B1 W1 B2 W2...), share their colour's clock, and may write to
// their own team's chat. Called by the HTTP API; the store keeps every node's answers the same.
class PairGames {
 public:
  struct Limits {
    int open = 100;  // pair Go games open for players on the server
    int joined = 5;  // open ones one account has joined
    int list = 50;   // shown in the list
    // Creating, joining, leaving, starting, cancelling: this many at once, then one a `refill`.
    int actions_burst = 10;
    std::chrono::milliseconds actions_refill{3000};
  };
  using Refusal = ActionRefusal;
  template <class T>
  using Answer = ActionAnswer<T>;
  using Maybe = ActionMaybe;
  struct Services {
    store::PairStore& store;
    Clock& clock;
    // Starts the game (its settings name the teams; the first of each team sits as its colour's
    // player): its id, or why not.
    std::function<std::variant<std::int64_t, std::string>(const protocol::GameSettings& settings,
                                                          std::int64_t black, std::int64_t white)>
        start_game;
    // Those `user` blocks: nobody joins a game with someone they block or who blocks them.
    std::function<std::vector<std::int64_t>(std::int64_t user)> blocked_by;
    // Whether the account is a protected class's student (docs/classes.md), who plays their
    // class, not everyone: they announce and join none. None: no one is.
    std::function<bool(std::int64_t user)> protected_student = {};
  };

  PairGames(Services services, Limits limits) : s_(std::move(services)), limits_(limits) {}

  Answer<std::int64_t> create(const store::UserRecord& me, const protocol::http::PairForm& form);
  std::vector<protocol::http::PairSummary> list();
  Answer<protocol::http::PairPage> page(std::int64_t pair);
  Maybe join(std::int64_t pair, const store::UserRecord& me, Color team);
  Maybe leave(std::int64_t pair, const store::UserRecord& me);
  Maybe cancel(std::int64_t pair, const store::UserRecord& me);
  // The game started: its id.
  Answer<std::int64_t> start(std::int64_t pair, const store::UserRecord& me);

 private:
  Answer<store::PairRow> find(std::int64_t pair);
  Maybe too_fast(const store::UserRecord& me);
  Maybe student_stays(const store::UserRecord& me);
  std::int64_t now() const { return s_.clock.unix_ms(); }

  Services s_;
  Limits limits_;
  std::mutex rate_mutex_;
  RateLimiter action_rate_{limits_.actions_burst, limits_.actions_refill};
};

}  // namespace tengen
