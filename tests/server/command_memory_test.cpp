// The memory of applied commands that answers a repeated cid without applying it again.
#include "lobby/command_memory.h"

#include <gtest/gtest.h>

#include <future>

namespace tengen {
namespace {

std::shared_ptr<const std::string> ack(const std::string& text) {
  return std::make_shared<const std::string>(text);
}

TEST(CommandMemory, RecallsWhatWasRememberedForTheSameKeyOnly) {
  CommandMemory memory;
  EXPECT_EQ(memory.recall(1, "a"), nullptr);
  memory.remember(1, "a", ack("ack a"));
  ASSERT_NE(memory.recall(1, "a"), nullptr);
  EXPECT_EQ(*memory.recall(1, "a"), "ack a");
  EXPECT_EQ(memory.recall(2, "a"), nullptr);   // another account's cids are its own
  EXPECT_EQ(memory.recall(-1, "a"), nullptr);  // and a guest's
}

TEST(CommandMemory, KeepsTheNewestOfEachKeyAndForgetsTheOldest) {
  CommandMemory memory;
  for (std::size_t i = 0; i < CommandMemory::kPerKey; ++i)
    memory.remember(7, "c" + std::to_string(i), ack(std::to_string(i)));
  memory.remember(8, "c0", ack("other"));
  ASSERT_NE(memory.recall(7, "c0"), nullptr);
  // Remembering a cid again replaces its ack without taking a second place.
  memory.remember(7, "c0", ack("again"));
  EXPECT_EQ(*memory.recall(7, "c0"), "again");
  ASSERT_NE(memory.recall(7, "c1"), nullptr);
  memory.remember(7, "new", ack("new"));  // one more than the bound: the oldest goes
  EXPECT_EQ(memory.recall(7, "c0"), nullptr);
  EXPECT_NE(memory.recall(7, "c1"), nullptr);
  EXPECT_NE(memory.recall(7, "new"), nullptr);
  EXPECT_EQ(*memory.recall(8, "c0"), "other");  // other keys untouched
}

TEST(CommandMemory, ForgetsAGuestsCommandsWhenAsked) {
  CommandMemory memory;
  memory.remember(-5, "x", ack("x"));
  memory.remember(5, "x", ack("x"));
  memory.forget(-5);
  EXPECT_EQ(memory.recall(-5, "x"), nullptr);
  EXPECT_NE(memory.recall(5, "x"), nullptr);
}

TEST(CommandMemory, ACidUnderWayIsClaimedOnceAndTheSecondArrivalGetsTheFirstsAck) {
  CommandMemory memory;
  EXPECT_EQ(memory.begin(3, "m"), nullptr);      // claimed: apply it
  EXPECT_EQ(memory.begin(3, "other"), nullptr);  // another cid is not held up
  memory.end(3, "other", nullptr);
  // The same cid from a second connection of the account, while the first is being applied:
  // it waits for the first's outcome instead of applying the command a second time.
  auto second = std::async(std::launch::async, [&] { return memory.begin(3, "m"); });
  memory.end(3, "m", ack("ack m"));
  const auto answered = second.get();
  ASSERT_NE(answered, nullptr);
  EXPECT_EQ(*answered, "ack m");
  EXPECT_EQ(*memory.recall(3, "m"), "ack m");
}

TEST(CommandMemory, ARefusedCommandLeavesItsCidFreeToBeSentAgain) {
  CommandMemory memory;
  EXPECT_EQ(memory.begin(4, "r"), nullptr);
  auto second = std::async(std::launch::async, [&] { return memory.begin(4, "r"); });
  memory.end(4, "r", nullptr);       // refused: nothing remembered
  EXPECT_EQ(second.get(), nullptr);  // so the second arrival holds the claim and applies it
  memory.end(4, "r", ack("ack r"));
  EXPECT_EQ(*memory.begin(4, "r"), "ack r");
}

}  // namespace
}  // namespace tengen
