#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "analysis/analysis.h"

namespace tengen {

// --analyse-every-game (docs/analysis.md): every finished game is queued for analysis, nobody
// having asked. At start (before the server listens) the games that ended in the last day, then
// every `every` those that ended since the last look (a minute's overlap: games that end as it
// looks are not missed; a game queued already is not queued again). The queue's bound holds: while
// it is full, looks start from the same time, so the games left out are queued once there is
// room (within the day).
class EveryGame {
 public:
  EveryGame(Analysis& analysis, Clock& clock, std::chrono::seconds every);
  ~EveryGame();  // stops the thread
  EveryGame(const EveryGame&) = delete;
  EveryGame& operator=(const EveryGame&) = delete;

 private:
  void look();  // queues what ended since the last look
  Analysis& analysis_;
  Clock& clock_;
  std::chrono::seconds every_;
  std::int64_t since_ms_ = 0;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;  // last: it starts once the rest is ready
};

}  // namespace tengen
