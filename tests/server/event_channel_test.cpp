#include "rooms/event_channel.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tengen {
namespace {

// A member that remembers the texts it was sent (through the outbox, as the journal delivers).
class Member final : public Recipient {
 public:
  explicit Member(std::int64_t user) {
    if (!user) return;
    user_.emplace();
    user_->id = user;
    user_->username = "u" + std::to_string(user);
  }
  void send(std::shared_ptr<const std::string> message) override { got.push_back(*message); }
  std::uint64_t id() const override { return 1; }
  const std::optional<store::UserRecord>& user() const override { return user_; }
  std::vector<std::string> got;

 private:
  std::optional<store::UserRecord> user_;
};

std::shared_ptr<const std::string> text(std::string s) {
  return std::make_shared<const std::string>(std::move(s));
}

// Delivers what the outbox holds, as the commit path does once it is durable.
void deliver(Outbox& out) {
  for (auto& [to, t] : out.sends) to->send(t);
  out.sends.clear();
}

// Sees everything but what is for spectators only, as a player in play would.
bool not_spectators_only(const EventChannel::Member&, const EventAudience& a) {
  return !a.spectators_only;
}

TEST(EventChannel, PublishesToTheMembersWhoMaySeeAndNumbersEachEvent) {
  EventChannel channel(10, 1000);
  auto a = std::make_shared<Member>(1);
  auto b = std::make_shared<Member>(2);
  EXPECT_TRUE(channel.add(a));
  EXPECT_FALSE(channel.add(a)) << "a member once";
  channel.add(b);
  Outbox out;
  const auto first = channel.next();
  channel.publish({first, text("move"), {}}, out, not_spectators_only);
  const auto second = channel.next();
  channel.publish({second, text("aside"), {.spectators_only = true}}, out,
                  [&](const auto& m, const EventAudience& e) {
                    return !e.spectators_only || m == b;  // b is a spectator
                  });
  deliver(out);
  EXPECT_EQ(first, 1);
  EXPECT_EQ(second, 2);
  EXPECT_EQ(a->got, (std::vector<std::string>{"move"}));
  EXPECT_EQ(b->got, (std::vector<std::string>{"move", "aside"}));
  EXPECT_TRUE(channel.remove(a));
  EXPECT_FALSE(channel.remove(a));
  channel.broadcast(text("count"), out);
  deliver(out);
  EXPECT_EQ(a->got.size(), 1u) << "gone";
  EXPECT_EQ(b->got.back(), "count");
}

TEST(EventChannel, ResumesWhatWasMissedWhileItIsKeptElseAsksForASnapshot) {
  EventChannel channel(3, 1000);
  Outbox out;
  for (int i = 1; i <= 5; ++i)
    channel.publish({channel.next(), text("e" + std::to_string(i)), {}}, out, not_spectators_only);
  // Kept: 3, 4, 5.
  auto back = std::make_shared<Member>(1);
  EXPECT_TRUE(channel.resume(back, 2, out, not_spectators_only));
  deliver(out);
  EXPECT_EQ(back->got, (std::vector<std::string>{"e3", "e4", "e5"}));
  EXPECT_TRUE(channel.resume(back, 5, out, not_spectators_only)) << "missed nothing";
  EXPECT_FALSE(channel.resume(back, 1, out, not_spectators_only)) << "event 2 is gone";
  EXPECT_FALSE(channel.resume(back, 6, out, not_spectators_only)) << "from the future";
  EXPECT_FALSE(channel.resume(back, std::nullopt, out, not_spectators_only));
  deliver(out);
  EXPECT_EQ(back->got.size(), 3u);
}

TEST(EventChannel, KeepsAtMostItsBytesButAlwaysTheNewestAndRewritesAKeptText) {
  EventChannel channel(100, 10);
  Outbox out;
  channel.publish({channel.next(), text("aaaa"), {}}, out, not_spectators_only);
  channel.publish({channel.next(), text("bbbb"), {}}, out, not_spectators_only);
  channel.publish({channel.next(), text("cccc"), {}}, out, not_spectators_only);  // 12 bytes
  auto back = std::make_shared<Member>(1);
  EXPECT_FALSE(channel.resume(back, 0, out, not_spectators_only)) << "event 1 went: too big";
  EXPECT_TRUE(channel.resume(back, 1, out, not_spectators_only));
  deliver(out);
  EXPECT_EQ(back->got, (std::vector<std::string>{"bbbb", "cccc"}));
  channel.rewrite(3, text("c"));
  channel.publish({channel.next(), text("dddd"), {}}, out, not_spectators_only);  // 9 bytes
  back->got.clear();
  EXPECT_TRUE(channel.resume(back, 1, out, not_spectators_only)) << "the rewrite freed room";
  deliver(out);
  EXPECT_EQ(back->got, (std::vector<std::string>{"bbbb", "c", "dddd"}));

  channel.publish({channel.next(), text(std::string(50, 'x')), {}}, out, not_spectators_only);
  back->got.clear();
  EXPECT_TRUE(channel.resume(back, 4, out, not_spectators_only)) << "the newest, whatever its size";
  deliver(out);
  EXPECT_EQ(back->got.size(), 1u);
}

TEST(EventChannel, OneThatKeepsNothingAlwaysAsksForASnapshot) {
  EventChannel channel(0, 0);  // a review board's
  Outbox out;
  channel.publish({channel.next(), text("change"), {}}, out, not_spectators_only);
  auto back = std::make_shared<Member>(1);
  EXPECT_FALSE(channel.resume(back, 0, out, not_spectators_only));
  EXPECT_TRUE(channel.resume(back, 1, out, not_spectators_only)) << "nothing missed";
  channel.restore_seq(40);
  EXPECT_EQ(channel.next(), 41);
}

}  // namespace
}  // namespace tengen
