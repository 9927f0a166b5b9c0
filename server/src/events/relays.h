#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "accounts/rate_limiter.h"
#include "action_refusal.h"
#include "clock.h"
#include "protocol/relay_api.h"
#include "store/account_store.h"
#include "store/relay_store.h"

namespace tengen {

class Analysis;  // analysis/analysis.h

// Relays of games played over the board (docs/events.md, "Relays"): a director (a person, or a
// relay program with the director's session) announces the game with its players' real names,
// round and table, and enters each move as it is played. The game is a review board only those
// moves change; its commentary room is an ordinary review board, which the director may hand to
// a commentator, and which follows the game's line as it grows. With a delay, spectators see the
// analysis workers' view of the position that many moves behind. Called by the HTTP API on any
// node; the boards live with the review boards' owner (`boards`: the hub, over the bus in a
// cluster), the rows in the store.
class Relays {
 public:
  struct Limits {
    int live_per_director = 20;  // a championship's top boards, entered by one director
    int live = 200;              // live relays on the server
    int list = 50;               // shown in the list
    // Announcing, moves, take-backs, results, closing: this many at once, then one a `refill`
    // (a relay program entering every board of a championship, or catching up after a break in
    // its connection).
    int actions_burst = 60;
    std::chrono::milliseconds actions_refill{100};
  };
  using Refusal = ActionRefusal;
  template <class T>
  using Answer = ActionAnswer<T>;
  using Maybe = ActionMaybe;
  struct Services {
    store::RelayStore& store;
    Clock& clock;
    // The review boards' owner (HubReads::relay): a status and the answer's body.
    std::function<std::pair<int, std::string>(const protocol::http::RelayOp&)> boards;
    // The spectators' delayed analysis; none: relays offer none.
    Analysis* analysis = nullptr;
  };

  Relays(Services services, Limits limits) : s_(std::move(services)), limits_(limits) {}

  Answer<protocol::http::RelaySummary> create(const store::UserRecord& me,
                                              const protocol::http::RelayForm& form);
  std::vector<protocol::http::RelaySummary> list();
  Answer<protocol::http::RelaySummary> relay(std::int64_t id);
  // The relay's moves once this one is in.
  Answer<int> move(std::int64_t id, const store::UserRecord& me,
                   const protocol::http::RelayMoveForm& form);
  // The relay's moves once its last is taken back.
  Answer<int> take_back(std::int64_t id, const store::UserRecord& me);
  Maybe finish(std::int64_t id, const store::UserRecord& me, const std::string& result);
  // By its director, or an administrator (moderation): no longer listed, both boards closed.
  Maybe close(std::int64_t id, const store::UserRecord& me);
  // The spectators' analysis (JSON): the position `delay` moves behind the game's, as far as
  // the workers have come.
  Answer<std::string> analysis(std::int64_t id);
  bool analysis_offered() const noexcept { return s_.analysis != nullptr; }

 private:
  Answer<store::RelayRow> directed(std::int64_t id, const store::UserRecord& me);
  Maybe too_fast(const store::UserRecord& me);
  // The relay's game board closes on its owner, and its commentary room with it if asked; a
  // failure is logged (the relay's row says what happened).
  void close_boards(const store::RelayRow& row, bool commentary_too);
  std::int64_t now() const { return s_.clock.unix_ms(); }

  Services s_;
  Limits limits_;
  std::mutex rate_mutex_;
  RateLimiter action_rate_{limits_.actions_burst, limits_.actions_refill};
};

}  // namespace tengen
