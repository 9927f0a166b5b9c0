// The memory of applied commands that answers a repeated cid without applying it again.
#include "lobby/command_memory.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tengen
