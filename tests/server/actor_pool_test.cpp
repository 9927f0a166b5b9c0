// The owners' mailboxes (games/actor_pool.h): a job may hold its mailbox until another owner
// answers; nothing of that mailbox runs meanwhile, and everything runs once it is let go.
#include "games/actor_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>

namespace tengen::games {
namespace {

TEST(Mailbox, AHeldMailboxRunsNothingUntilItIsLetGoThenEverythingInOrder) {
  ActorPool pool(2);
  auto mailbox = pool.mailbox();
  std::promise<std::function<void()>> held;
  mailbox->post([&] { held.set_value(mailbox->hold()); });
  const auto let_go = held.get_future().get();
  // Held: a job given to it queues (an idle mailbox would run it here, on this thread).
  std::atomic<int> ran = 0;
  std::promise<void> second_ran;
  mailbox->run_or_post([&] { ran = 1; });
  mailbox->post([&] {
    ran = ran * 10 + 2;
    second_ran.set_value();
  });
  EXPECT_EQ(ran, 0);
  let_go();
  let_go();  // once is enough; twice changes nothing
  second_ran.get_future().get();
  EXPECT_EQ(ran, 12);
}

TEST(Mailbox, AHoldLetGoBeforeItsJobEndsHoldsNothing) {
  ActorPool pool(2);
  auto mailbox = pool.mailbox();
  mailbox->run_or_post([&] { mailbox->hold()(); });  // answered at once (the same owner's turn)
  bool ran = false;
  mailbox->run_or_post([&] { ran = true; });  // idle again: runs here
  EXPECT_TRUE(ran);
}

}  // namespace
}  // namespace tengen::games
