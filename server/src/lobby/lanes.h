#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>

#include "protocol/messages.h"

namespace tengen {

// Each connection's commands, one after another (docs/architecture.md, "Owners"). A command may
// be handled by a game's actor on another thread; the connection's next command waits in its
// lane until the one before has been submitted, so that replies leave in the order the commands
// came even when two commands go to two owners. What a lane holds belongs to whichever of its
// steps runs (the games the connection joined); no step of one lane runs beside another.
class Lanes {
 public:
  // A connection's own state, touched only by the step of its lane that runs.
  struct Own {
    std::set<protocol::GameId> joined;  // to leave when the connection goes
  };
  // Calls `done` (from any thread, once) when what it did is submitted.
  using Done = std::function<void()>;
  using Step = std::function<void(Own& own, Done done)>;
  // A connection may have this many commands waiting behind the one that runs (docs/limits.md);
  // the session's rate limit keeps it far below unless an owner stalls.
  static constexpr std::size_t kMaxWaiting = 256;

  // Where a lane runs when its first step must not run on the pusher's thread (`elsewhere`).
  using Elsewhere = std::function<void(std::function<void()>)>;
  explicit Lanes(Elsewhere elsewhere = {}) : elsewhere_(std::move(elsewhere)) {}

  // Runs `step` now if the connection's lane is idle (on this thread, or through Elsewhere if
  // `elsewhere`), after the steps before it otherwise. False, and nothing queued, when kMaxWaiting
  // wait already.
  bool push(std::uint64_t connection, Step step, bool elsewhere = false);
  // The lane goes once what it holds has run (the connection went).
  void close(std::uint64_t connection);
  // Runs `then` once every step pushed so far, on every lane, is done (on the thread that ends
  // the last of them, or this one).
  void after_current(std::function<void()> then);
  std::size_t size() const;

 private:
  struct Lane {
    std::deque<Step> waiting;
    bool busy = false;
    bool closing = false;
    Own own;
  };
  void drive(std::uint64_t connection, Lane& lane, Step step);
  Step next(std::uint64_t connection);

  Elsewhere elsewhere_;
  mutable std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::unique_ptr<Lane>> lanes_;
};

}  // namespace tengen
