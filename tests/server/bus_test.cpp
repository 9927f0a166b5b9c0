// The bus between nodes (cluster/bus.h) on a real NATS server (tests/support/temp_nats.h):
// messages in order to every subscriber, and the connection back after NATS restarts.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "cluster/nats_bus.h"
#include "support/gathered.h"
#include "support/temp_nats.h"

namespace tengen::cluster {
namespace {

using namespace std::chrono_literals;

// What a subscriber received, in order.
class Inbox : public testing::Gathered<std::string> {
 public:
  Bus::Handler handler() {
    return [this](std::string_view data) { add(std::string(data)); };
  }
};

TEST(NatsBus, EverySubscriberGetsEveryMessageInTheOrderPublished) {
  testing::TempNats nats;
  NatsBus a(nats.url(), "a");
  NatsBus b(nats.url(), "b");
  Inbox first, second, other;
  const auto s1 = b.subscribe("tengen.node.2", first.handler());
  const auto s2 = a.subscribe("tengen.node.2", second.handler());
  const auto s3 = b.subscribe("tengen.node.3", other.handler());
  b.flush();  // the subscriptions reached the server
  a.flush();
  constexpr int kMessages = 5000;
  for (int i = 0; i < kMessages; ++i) a.publish("tengen.node.2", std::to_string(i));
  a.publish("tengen.node.3", std::string(100'000, 'x'));  // a large one: a whole game's record
  a.flush();
  for (Inbox* inbox : {&first, &second}) {
    const auto got = inbox->wait_for(kMessages);
    ASSERT_EQ(got.size(), static_cast<std::size_t>(kMessages));
    for (int i = 0; i < kMessages; ++i)
      ASSERT_EQ(got[static_cast<std::size_t>(i)], std::to_string(i));
  }
  const auto large = other.wait_for(1);
  ASSERT_EQ(large.size(), 1u);
  EXPECT_EQ(large[0].size(), 100'000u);
}

// Questions and answers: an answer of any size comes back whole (in parts under NATS's 1 MiB
// limit: a tournament of many hundreds of entrants asked through a front node, docs/cluster.md);
// one nobody answers is said so at once, not after the patience.
TEST(NatsBus, AnAnswerOfAnySizeComesBackWholeAndNobodyAnsweringIsToldAtOnce) {
  testing::TempNats nats;
  NatsBus hub(nats.url(), "hub");
  NatsBus front(nats.url(), "front");
  std::string big;
  for (int i = 0; big.size() < 3 * 1024 * 1024; ++i) big += std::to_string(i) + ",";
  const auto answering = hub.answer("tengen.hub.reads", [&](std::string_view question) {
    if (question == "big") return big;
    if (question == "empty") return std::string();
    return "you asked " + std::string(question);
  });
  hub.flush();
  EXPECT_EQ(front.request("tengen.hub.reads", "small", 5s), "you asked small");
  EXPECT_EQ(front.request("tengen.hub.reads", "empty", 5s), "");
  const auto whole = front.request("tengen.hub.reads", "big", 5s);
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->size(), big.size());
  EXPECT_TRUE(*whole == big) << "every part, in order";
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_FALSE(front.request("tengen.nobody", "anyone?", 5s));
  EXPECT_LT(std::chrono::steady_clock::now() - asked, 4s) << "told, not timed out";
}

TEST(NatsBus, ItReconnectsWhenNatsComesBack) {
  testing::TempNats nats;
  std::mutex mutex;
  std::condition_variable changed;
  bool down = false, back = false;
  NatsBus bus(nats.url(), "a",
              {.disconnected =
                   [&] {
                     std::lock_guard lock(mutex);
                     down = true;
                     changed.notify_all();
                   },
               .reconnected =
                   [&] {
                     std::lock_guard lock(mutex);
                     back = true;
                     changed.notify_all();
                   },
               .dropped = {}});
  Inbox inbox;
  const auto subscription = bus.subscribe("tengen.hub", inbox.handler());
  bus.flush();
  nats.stop();
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, 10s, [&] { return down; }));
  }
  nats.restart();
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, 20s, [&] { return back; }));
  }
  bus.publish("tengen.hub", "after");  // its subscription was made again on reconnecting
  bus.flush();
  EXPECT_EQ(inbox.wait_for(1), std::vector<std::string>{"after"});
}

TEST(NatsBus, NothingArrivesOnceASubscriptionIsGone) {
  testing::TempNats nats;
  NatsBus bus(nats.url(), "a");
  Inbox kept, dropped;
  const auto stays = bus.subscribe("tengen.hub", kept.handler());
  auto goes = bus.subscribe("tengen.hub", dropped.handler());
  bus.flush();
  bus.publish("tengen.hub", "1");
  bus.flush();
  ASSERT_EQ(dropped.wait_for(1).size(), 1u);
  goes.reset();
  bus.publish("tengen.hub", "2");
  bus.flush();
  EXPECT_EQ(kept.wait_for(2), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(dropped.wait_for(1), std::vector<std::string>{"1"});
}

TEST(NatsBus, ANodeThatCannotReachNatsSaysSo) {
  try {
    NatsBus bus("nats://127.0.0.1:1", "a");
    ADD_FAILURE() << "connected to nothing";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot connect to NATS at nats://127.0.0.1:1"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tengen::cluster
