#include "analysis/every_game.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace tengen {
namespace {
constexpr std::int64_t kDayMs = 24 * 3600 * 1000;
constexpr std::int64_t kOverlapMs = 60 * 1000;
}  // namespace

EveryGame::EveryGame(Analysis& analysis, Clock& clock, std::chrono::seconds every)
    : analysis_(analysis), clock_(clock), every_(every), since_ms_(clock.unix_ms() - kDayMs) {
  look();
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, every_, [this] { return stopping_; })) {
      lock.unlock();
      look();
      lock.lock();
    }
  });
}

EveryGame::~EveryGame() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void EveryGame::look() {
  const auto now = clock_.unix_ms();
  try {
    const auto queued = analysis_.queue_ended(since_ms_);
    if (queued.games > 0) spdlog::info("analysis: {} finished games queued", queued.games);
    // A full queue may have left some out: the next look starts from the same time (within the
    // day), so they are queued once there is room.
    if (!queued.full)
      since_ms_ = now - kOverlapMs;
    else
      since_ms_ = std::max(since_ms_, now - kDayMs);
  } catch (const std::exception& e) {  // the database away: the next look tries from the same time
    spdlog::warn("analysis: could not queue the finished games: {}", e.what());
  }
}

}  // namespace tengen
