#pragma once

#include <functional>
#include <future>

#include "games/actor_pool.h"

namespace tengen::games {

// Runs `job` on an owner's mailbox and waits for its answer (or its exception): for callers
// that are not the owners' threads nor a connection's (the HTTP API, an administrator's command,
// start-up). An owner never waits for another this way.
template <typename T>
T wait_for(Mailbox& owner, std::function<T()> job) {
  std::promise<T> done;
  auto result = done.get_future();
  owner.run_or_post([&done, &job] {
    try {
      done.set_value(job());
    } catch (...) {
      done.set_exception(std::current_exception());
    }
  });
  return result.get();
}

}  // namespace tengen::games
