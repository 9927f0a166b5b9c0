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
  const auto nothing = [] {};
  EXPECT_TRUE(memory.begin(3, "m", nothing).claimed);      // claimed: apply it
  EXPECT_TRUE(memory.begin(3, "other", nothing).claimed);  // another cid is not held up
  memory.end(3, "other", nullptr);
  // The same cid from a second connection of the account, while the first is being applied: it
  // is neither applied a second time nor kept waiting; it is told when to come back.
  int came_back = 0;
  const auto second = memory.begin(3, "m", [&] { ++came_back; });
  EXPECT_FALSE(second.claimed);
  EXPECT_EQ(second.ack, nullptr);
  EXPECT_EQ(came_back, 0);
  memory.end(3, "m", ack("ack m"));
  EXPECT_EQ(came_back, 1);
  const auto again = memory.begin(3, "m", nothing);  // and then gets the first's ack
  ASSERT_NE(again.ack, nullptr);
  EXPECT_EQ(*again.ack, "ack m");
  EXPECT_FALSE(again.claimed);
}

TEST(CommandMemory, ARefusedCommandLeavesItsCidFreeToBeSentAgain) {
  CommandMemory memory;
  const auto nothing = [] {};
  EXPECT_TRUE(memory.begin(4, "r", nothing).claimed);
  bool came_back = false;
  EXPECT_FALSE(memory.begin(4, "r", [&] { came_back = true; }).claimed);
  memory.end(4, "r", nullptr);  // refused: nothing remembered
  EXPECT_TRUE(came_back);
  EXPECT_TRUE(memory.begin(4, "r", nothing).claimed);  // so the second arrival applies it
  memory.end(4, "r", ack("ack r"));
  EXPECT_EQ(*memory.begin(4, "r", nothing).ack, "ack r");
}

}  // namespace
}  // namespace tengen
