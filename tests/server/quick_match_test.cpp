// Quick match: the queue's rules on their own (QuickMatch), then through the real stack.
#include "lobby/quick_match.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/many_players.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using std::chrono::milliseconds;
using std::chrono::seconds;

const Steady t0{};

QuickMatch::Waiting waiting(std::int64_t id, double rating, int size = 19,
                            protocol::Speed speed = protocol::Speed::Live, Steady since = t0) {
  return {{id, "p" + std::to_string(id)}, {size, speed}, rating, since};
}

TEST(QuickMatchQueue, TheRangeWidensEveryTenSecondsAndOpensToAnyoneAfterNinety) {
  EXPECT_EQ(QuickMatch::range(milliseconds(0)), 150);
  EXPECT_EQ(QuickMatch::range(milliseconds(9'999)), 150);
  EXPECT_EQ(QuickMatch::range(milliseconds(10'000)), 250);
  EXPECT_EQ(QuickMatch::range(milliseconds(89'999)), 950);
  EXPECT_TRUE(std::isinf(QuickMatch::range(milliseconds(90'000))));
}

TEST(QuickMatchQueue, PlayersAreMatchedOnlyWithinBothRangesAndTheSamePool) {
  QuickMatch q;
  ASSERT_TRUE(q.add(waiting(1, 1500)));
  ASSERT_TRUE(q.add(waiting(2, 1700)));                              // two ranks stronger
  ASSERT_TRUE(q.add(waiting(3, 1520, 9)));                           // another size
  ASSERT_TRUE(q.add(waiting(4, 1510, 19, protocol::Speed::Blitz)));  // another speed
  EXPECT_TRUE(q.match(t0).empty());
  EXPECT_EQ(q.waiting_for({19, protocol::Speed::Live}), 2);
  // 200 apart: both ranges reach 250 after 10 s.
  EXPECT_TRUE(q.match(t0 + milliseconds(9'999)).empty());
  const auto pairs = q.match(t0 + seconds(10));
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].first.user.id, 1);
  EXPECT_EQ(pairs[0].second.user.id, 2);
  EXPECT_FALSE(q.of(1) || q.of(2));
  EXPECT_TRUE(q.of(3) && q.of(4));
}

TEST(QuickMatchQueue, ANewcomerIsNotPairedBeyondTheirOwnRangeBySomeoneWhoWaitedLong) {
  QuickMatch q;
  ASSERT_TRUE(q.add(waiting(1, 1500)));
  ASSERT_TRUE(q.add(waiting(2, 1900, 19, protocol::Speed::Live, t0 + seconds(60))));
  EXPECT_TRUE(q.match(t0 + seconds(60)).empty()) << "400 apart: the newcomer's range is 150";
  EXPECT_EQ(q.match(t0 + seconds(90)).size(), 1u) << "after 30 s, 450 is within both";
}

TEST(QuickMatchQueue, TheLongestWaiterGetsTheClosestRatingAndASecondSeekReplacesTheFirst) {
  QuickMatch q;
  ASSERT_TRUE(q.add(waiting(1, 1500)));
  ASSERT_TRUE(q.add(waiting(1, 1500, 9)));  // changed their mind: 9×9 now
  EXPECT_EQ(q.waiting_for({19, protocol::Speed::Live}), 0);
  ASSERT_TRUE(q.add(waiting(2, 1580, 9)));
  ASSERT_TRUE(q.add(waiting(3, 1510, 9)));
  const auto pairs = q.match(t0);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].second.user.id, 3);
  EXPECT_TRUE(q.cancel(2));
  EXPECT_FALSE(q.cancel(2));
  EXPECT_TRUE(q.empty());
}

TEST(QuickMatchQueue, TheGamesAreEvenRatedByoYomiBySizeAndSpeed) {
  const auto blitz9 = QuickMatch::settings({9, protocol::Speed::Blitz});
  EXPECT_EQ(blitz9.width, 9);
  EXPECT_EQ(blitz9.height, 9);
  EXPECT_TRUE(blitz9.rated);
  EXPECT_EQ(blitz9.handicap, 0);
  EXPECT_EQ(blitz9.color, protocol::GameSettings::ColorChoice::Automatic);
  EXPECT_EQ(blitz9.time.system, protocol::TimeControl::System::ByoYomi);
  EXPECT_EQ(blitz9.time.main_ms, 60'000);
  EXPECT_EQ(blitz9.time.period_ms, 10'000);
  const auto live19 = QuickMatch::settings({19, protocol::Speed::Live});
  EXPECT_EQ(live19.time.main_ms, 20 * 60'000);
  EXPECT_EQ(live19.time.periods, 5);
  EXPECT_EQ(live19.time.period_ms, 30'000);
  for (int size : {9, 13, 19}) {
    for (auto speed : {protocol::Speed::Blitz, protocol::Speed::Live})
      EXPECT_FALSE(protocol::validate(QuickMatch::settings({size, speed}))) << size;
  }
}

// ---- through the server ----

class QuickMatching : public testing::ManyPlayers {
 protected:
  static json seek(int size, const std::string& speed) {
    return {{"type", "seek"}, {"size", size}, {"speed", speed}};
  }
};

TEST_F(QuickMatching, TwoPlayersSeekingTheSameGameArePairedIntoARatedGame) {
  auto ann = player("ann");
  auto bob = player("bob");
  EXPECT_EQ(ann->command(seek(9, "blitz"))["type"], "ack");
  const json waiting = ann->wait_type("seeking");
  EXPECT_EQ(waiting["seek"]["size"], 9);
  EXPECT_EQ(waiting["waiting"], 1);
  // A second tab of ann's learns of the seek when it connects.
  auto ann2 = player("ann");
  EXPECT_EQ(ann2->wait_type("seeking")["seek"]["speed"], "blitz");

  EXPECT_EQ(bob->command(seek(9, "blitz"))["type"], "ack");
  for (auto* c : {ann.get(), ann2.get(), bob.get()}) {
    const json started = c->wait_type("game_started");
    EXPECT_EQ(started["settings"]["width"], 9);
    EXPECT_EQ(started["settings"]["rated"], true);
    EXPECT_EQ(started["settings"]["time"]["main_ms"], 60'000);
    const json ended = c->wait(
        [&](const json& m) { return m.value("type", "") == "seeking" && m["seek"].is_null(); });
    EXPECT_EQ(ended["game"], started["game"]);
  }
  const json created = bob->command(seek(9, "blitz"));
  EXPECT_EQ(created["type"], "ack") << "seeking again, for another game";
  EXPECT_EQ(bob->command({{"type", "cancel_seek"}})["type"], "ack");
  // Unread messages wait in order: bob's first seek (two waiting), its end, this one, its end.
  const json cancelled = bob->wait([](const json& m) {
    return m.value("type", "") == "seeking" && m["seek"].is_null() && m["game"].is_null();
  });
  EXPECT_EQ(cancelled["waiting"], 0);
}

TEST_F(QuickMatching, DifferentSizesWaitAndALeavingPlayerIsNoLongerWaiting) {
  auto ann = player("ann");
  auto bob = player("bob");
  EXPECT_EQ(ann->command(seek(19, "live"))["type"], "ack");
  EXPECT_EQ(bob->command(seek(13, "live"))["type"], "ack");
  stack_->advance(seconds(120));  // the queue is looked at again; ranges do not cross pools
  ann.reset();                    // gone: the seek goes with the last connection
  auto cyd = player("cyd");
  EXPECT_EQ(cyd->command(seek(19, "live"))["type"], "ack");
  EXPECT_EQ(cyd->wait_type("seeking")["waiting"], 1) << "ann's seek left with her";
  auto dan = player("dan");
  EXPECT_EQ(dan->command(seek(13, "live"))["type"], "ack");
  EXPECT_EQ(dan->wait_type("game_started")["settings"]["width"], 13);
  EXPECT_EQ(bob->wait_type("game_started")["settings"]["width"], 13);
}

TEST_F(QuickMatching, AGuestOrABadSeekIsRefusedInWords) {
  auto guest = std::make_unique<testing::WsClient>(stack_->port(),
                                                   testing::WsClient::Options{"", "", "/ws/v1"});
  const json refused = guest->command(seek(19, "live"));
  EXPECT_EQ(refused["code"], "not_authenticated");
  auto ann = player("ann");
  const json odd = ann->command(seek(11, "live"));
  EXPECT_EQ(odd["code"], "bad_field");
  EXPECT_NE(odd["message"].get<std::string>().find("9, 13 or 19"), std::string::npos) << odd;
  EXPECT_EQ(ann->command(seek(9, "correspondence"))["code"], "bad_field");
}

}  // namespace
}  // namespace tengen
