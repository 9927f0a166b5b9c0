// Each connection's lane (lobby/lanes.h): its steps run one after another, in the order pushed,
// whether they finish at once or later on another thread; lanes do not wait for each other; a
// full lane refuses; after_current waits for what every lane holds now.
#include "lobby/lanes.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace tengen {
namespace {

TEST(Lanes, AStepThatFinishesLaterHoldsBackItsConnectionsNextStepOnly) {
  Lanes lanes;
  std::vector<std::string> ran;
  Lanes::Done first_done;
  lanes.push(1, [&](Lanes::Own&, Lanes::Done done) {
    ran.push_back("1a");
    first_done = std::move(done);  // finishes later (a game's actor)
  });
  lanes.push(1, [&](Lanes::Own&, const Lanes::Done& done) {
    ran.push_back("1b");
    done();
  });
  lanes.push(2, [&](Lanes::Own&, const Lanes::Done& done) {
    ran.push_back("2a");
    done();
  });
  EXPECT_EQ(ran, (std::vector<std::string>{"1a", "2a"}));  // 1b waits; 2 does not
  first_done();
  EXPECT_EQ(ran, (std::vector<std::string>{"1a", "2a", "1b"}));
}

TEST(Lanes, ManyStepsThatFinishAtOnceRunInOrderWithoutRecursing) {
  Lanes lanes;
  Lanes::Done hold;
  lanes.push(7, [&](Lanes::Own&, Lanes::Done done) { hold = std::move(done); });
  std::vector<int> ran;
  for (int i = 0; i < static_cast<int>(Lanes::kMaxWaiting); ++i) {
    ASSERT_TRUE(lanes.push(7, [&ran, i](Lanes::Own&, const Lanes::Done& done) {
      ran.push_back(i);
      done();
    }));
  }
  // Full: the next is refused, and nothing of it runs.
  EXPECT_FALSE(lanes.push(7, [&](Lanes::Own&, const Lanes::Done&) { ran.push_back(-1); }));
  hold();
  ASSERT_EQ(ran.size(), Lanes::kMaxWaiting);
  for (int i = 0; i < static_cast<int>(ran.size()); ++i) EXPECT_EQ(ran[i], i);
}

TEST(Lanes, WhatAConnectionOwnsGoesFromStepToStepAndTheLaneGoesWhenClosed) {
  Lanes lanes;
  lanes.push(3, [](Lanes::Own& own, const Lanes::Done& done) {
    own.joined.insert(42);
    done();
  });
  std::set<protocol::GameId> seen;
  lanes.push(3, [&](Lanes::Own& own, const Lanes::Done& done) {
    seen = own.joined;
    done();
  });
  EXPECT_EQ(seen, (std::set<protocol::GameId>{42}));
  EXPECT_EQ(lanes.size(), 1u);
  lanes.close(3);
  EXPECT_EQ(lanes.size(), 0u);
}

TEST(Lanes, AfterCurrentWaitsForWhatEveryLaneHoldsNow) {
  Lanes lanes;
  Lanes::Done one, two;
  lanes.push(1, [&](Lanes::Own&, Lanes::Done done) { one = std::move(done); });
  lanes.push(2, [&](Lanes::Own&, Lanes::Done done) { two = std::move(done); });
  bool after = false;
  lanes.after_current([&] { after = true; });
  EXPECT_FALSE(after);
  one();
  EXPECT_FALSE(after);
  two();
  EXPECT_TRUE(after);
  bool idle = false;
  lanes.after_current([&] { idle = true; });  // nothing under way: at once
  EXPECT_TRUE(idle);
}

TEST(Lanes, AConnectionForwardedFromAnotherNodeRunsElsewhereNotOnTheBussThread) {
  std::vector<std::function<void()>> parked;  // the pool, run by hand
  Lanes lanes([&](std::function<void()> job) { parked.push_back(std::move(job)); });
  std::vector<std::string> ran;
  lanes.push(
      9,
      [&](Lanes::Own&, const Lanes::Done& done) {
        ran.push_back("first");
        done();
      },
      true);
  lanes.push(9, [&](Lanes::Own&, const Lanes::Done& done) {
    ran.push_back("second");
    done();
  });
  EXPECT_TRUE(ran.empty());  // neither ran on the pushing thread
  ASSERT_EQ(parked.size(), 1u);
  parked.front()();
  EXPECT_EQ(ran, (std::vector<std::string>{"first", "second"}));
}

}  // namespace
}  // namespace tengen
