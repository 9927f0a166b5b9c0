#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "accounts/rate_limiter.h"
#include "clock.h"
#include "groups/groups.h"
#include "protocol/group_api.h"
#include "store/account_store.h"
#include "store/group_store.h"
#include "store/ladder_store.h"

namespace tengen {

// A group's ladders (docs/groups.md, "Ladders"): players ordered by rung; a player challenges one
// up to `reach` rungs above; the challenged accepts within `accept_days` days (the game starts at
// once, the challenger with Black) or loses the rung as if beaten; a win by the challenger moves
// them up (their places swapped, or the challenger takes the rung and those between move down
// one, skipping players who are away). Called by the HTTP API; sweep() resolves what is due (a
// deadline passed, a ladder game ended), from a thread of its own (LadderSweeper) or a test.
class Ladders {
 public:
  struct Limits {
    int per_group = 10;  // ladders of one group (closed ones count)
    int players = 200;   // on one ladder
    int max_reach = 10;  // rungs up one may challenge
    int max_accept_days = 30;
    int history = 50;         // events shown
    int history_kept = 1000;  // events kept per ladder
    // Joining, leaving, away, challenges and their answers: each tells the group, so an
    // account's are paced (on every ladder together): this many at once, then one every `refill`.
    int actions_burst = 10;
    std::chrono::milliseconds actions_refill{6000};
  };
  using Refusal = Groups::Refusal;
  template <class T>
  using Answer = std::variant<T, Refusal>;
  using Maybe = std::optional<Refusal>;
  struct Services {
    store::LadderStore& store;
    store::GroupStore& groups;
    Clock& clock;
    // Starts a game between the two with these settings: its id, or why not.
    std::function<std::variant<std::int64_t, std::string>(const protocol::GameSettings& settings,
                                                          std::int64_t black, std::int64_t white)>
        start_game;
    // The group's members are told that one of its ladders changed.
    std::function<void(const store::GroupRow& group)> changed;
    // Those `user` blocks: no ladder challenge between two players when either blocks the other.
    std::function<std::vector<std::int64_t>(std::int64_t user)> blocked_by;
  };

  Ladders(Services services, Limits limits) : s_(std::move(services)), limits_(limits) {}

  Answer<std::int64_t> create(std::int64_t group, const store::UserRecord& me,
                              const protocol::http::LadderForm& form);
  Answer<std::vector<protocol::http::LadderSummary>> of_group(std::int64_t group);
  Answer<protocol::http::LadderPage> page(std::int64_t ladder,
                                          const std::optional<store::UserRecord>& viewer);
  Maybe join(std::int64_t ladder, const store::UserRecord& me);
  Maybe leave(std::int64_t ladder, const store::UserRecord& me);
  Maybe away(std::int64_t ladder, const store::UserRecord& me, bool away);
  Maybe close(std::int64_t ladder, const store::UserRecord& me);
  Answer<std::int64_t> challenge(std::int64_t ladder, const store::UserRecord& me,
                                 std::int64_t defender);
  // The game started.
  Answer<std::int64_t> accept(std::int64_t ladder, std::int64_t challenge,
                              const store::UserRecord& me);
  Maybe cancel(std::int64_t ladder, std::int64_t challenge, const store::UserRecord& me);

  // Resolves every challenge that is due: how many.
  int sweep();

 private:
  struct Found {
    store::LadderRow ladder;
    store::GroupRow group;
    std::optional<std::string> role;  // the viewer's in the group
  };
  // The ladder's players by rung, those on a vacation of their account now marked away.
  std::vector<store::LadderPlayer> players_of(std::int64_t ladder);
  Answer<Found> find(std::int64_t ladder, std::optional<std::int64_t> viewer);
  // The ladder's challenge if `user` is its challenger (or, `challenger` false, its defender).
  Answer<store::LadderChallengeRow> challenge_of(std::int64_t ladder, std::int64_t challenge,
                                                 std::int64_t user, bool challenger);
  // The user's rung on the ladder now (0: not on it).
  int rung_of(std::int64_t ladder, std::int64_t user);
  // The challenger beat the defender (or the defender did not accept): the rungs move.
  void promote(const store::LadderRow& ladder, std::int64_t challenger, std::int64_t defender);
  void event(const store::LadderRow& ladder, const std::string& kind, const std::string& user,
             const std::string& other = "", int rung = 0,
             std::optional<std::int64_t> game = std::nullopt);
  void told(const store::LadderRow& ladder);
  std::int64_t now() const { return s_.clock.unix_ms(); }
  std::optional<Refusal> too_fast(const store::UserRecord& me);

  Services s_;
  Limits limits_;
  std::mutex rate_mutex_;
  RateLimiter action_rate_{limits_.actions_burst, limits_.actions_refill};
  std::mutex sweep_mutex_;  // one sweep at a time on this node (nodes are kept apart by the store)
};

// Ladders::sweep every `every`, on a thread of its own, until destroyed.
class LadderSweeper {
 public:
  LadderSweeper(Ladders& ladders, std::chrono::milliseconds every);
  ~LadderSweeper();
  LadderSweeper(const LadderSweeper&) = delete;
  LadderSweeper& operator=(const LadderSweeper&) = delete;

 private:
  Ladders& ladders_;
  std::chrono::milliseconds every_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tengen
