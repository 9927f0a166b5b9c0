// The deadlines the server runs on (rooms/asio_timers.cpp), on the real clock. Each test waits
// for the handler to report, with a generous bound; none sleeps.
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "rooms/timers.h"
#include "support/gathered.h"

namespace tengen {
namespace {

using namespace std::chrono_literals;

// The games whose deadlines fired, in order.
class Fired : public testing::Gathered<protocol::GameId> {
 public:
  Timers::Fire handler() {
    return [this](const TimerId& id) { add(std::get<GameDeadline>(id).game); };
  }
};

TEST(AsioTimers, ADeadlineFiresOnceAndArmingTheSameOneAgainFiresAgain) {
  Fired fired;
  auto timers = make_asio_timers();
  timers->set_handler(fired.handler());
  const auto at = std::chrono::steady_clock::now() + 5ms;
  timers->arm(GameDeadline{7}, at);
  EXPECT_EQ(fired.wait_for(1), std::vector<protocol::GameId>{7});
  // A room whose deadline did not move after it fired arms the same instant again: asking for
  // what was already asked is skipped, except after it fired.
  timers->arm(GameDeadline{7}, at);
  EXPECT_EQ(fired.wait_for(2), (std::vector<protocol::GameId>{7, 7}));
}

TEST(AsioTimers, ArmingAgainReplacesAndNoDeadlineCancels) {
  Fired fired;
  auto timers = make_asio_timers();
  timers->set_handler(fired.handler());
  const auto now = std::chrono::steady_clock::now();
  timers->arm(GameDeadline{1}, now + 1h);
  timers->arm(GameDeadline{1}, std::nullopt);  // cancelled
  timers->arm(GameDeadline{1}, std::nullopt);  // and again: nothing to do
  timers->arm(GameDeadline{2}, now + 1h);
  timers->arm(GameDeadline{2}, now);  // brought forward: fires at once
  timers->arm(GameDeadline{3}, now + 1ms);
  // The timer thread takes the requests in order, so game 1 was cancelled before 3 fired.
  EXPECT_EQ(fired.wait_for(2), (std::vector<protocol::GameId>{2, 3}));
  timers->arm(GameDeadline{1}, now);  // re-armed after a cancel
  EXPECT_EQ(fired.wait_for(3), (std::vector<protocol::GameId>{2, 3, 1}));
}

}  // namespace
}  // namespace tengen
