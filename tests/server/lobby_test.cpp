// The lobby's parts without sockets: who is online (Presence) and the open challenges
// (Challenges).
#include <gtest/gtest.h>

#include "lobby/challenges.h"
#include "lobby/presence.h"
#include "protocol/codec.h"

namespace tengen {
namespace {

class Plain final : public Connection {
 public:
  Plain(std::uint64_t id, std::optional<store::UserRecord> user)
      : id_(id), user_(std::move(user)) {}
  void send(std::shared_ptr<const std::string>) override {}
  std::uint64_t id() const override { return id_; }
  const std::optional<store::UserRecord>& user() const override { return user_; }

 private:
  std::uint64_t id_;
  std::optional<store::UserRecord> user_;
};

std::shared_ptr<Connection> as(std::uint64_t id, std::int64_t user, const std::string& name) {
  return std::make_shared<Plain>(id, store::UserRecord{user, name, "", false, 0});
}

std::shared_ptr<Connection> guest(std::uint64_t id) {
  return std::make_shared<Plain>(id, std::nullopt);
}

// How many messages each connection (by id) was handed.
std::map<std::uint64_t, int> recipients(const Outbox& out) {
  std::map<std::uint64_t, int> n;
  for (const auto& [to, text] : out.sends) ++n[to->id()];
  return n;
}

TEST(Presence, AUserIsOnlineFromTheFirstConnectionToTheLast) {
  Presence p;
  const auto a1 = as(1, 10, "ann"), a2 = as(2, 10, "ann"), g = guest(3);
  EXPECT_TRUE(p.connected(a1));
  EXPECT_FALSE(p.connected(a2));  // a second tab
  EXPECT_FALSE(p.connected(g));   // guests are connected, not online
  EXPECT_EQ(p.online_count(), 1);
  ASSERT_EQ(p.listed().size(), 1u);
  EXPECT_EQ(p.listed()[0].name, "ann");

  Outbox out;
  p.send_to_user(10, std::make_shared<const std::string>("x"), out);
  EXPECT_EQ(recipients(out), (std::map<std::uint64_t, int>{{1, 1}, {2, 1}}));
  out = {};
  p.send_to_all(std::make_shared<const std::string>("y"), out);
  EXPECT_EQ(recipients(out), (std::map<std::uint64_t, int>{{1, 1}, {2, 1}, {3, 1}}));

  EXPECT_FALSE(p.disconnected(*a1));
  EXPECT_TRUE(p.disconnected(*a2));
  EXPECT_EQ(p.online_count(), 0);
  out = {};
  p.send_to_all(std::make_shared<const std::string>("z"), out);
  EXPECT_EQ(recipients(out), (std::map<std::uint64_t, int>{{3, 1}}));
}

TEST(Presence, ChangesGoOutTogetherTheLatestWordOnEachUserAndAtMostKListedAtOnce) {
  Presence p;
  EXPECT_FALSE(p.take_message());
  EXPECT_TRUE(p.note({1, "ann"}, true));    // the first change waiting: arm the timer
  EXPECT_FALSE(p.note({1, "ann"}, false));  // replaces it
  EXPECT_FALSE(p.note({2, "bob"}, true));
  auto m = p.take_message();
  ASSERT_TRUE(m);
  ASSERT_EQ(m->online.size(), 1u);
  EXPECT_EQ(m->online[0].name, "bob");
  ASSERT_EQ(m->offline.size(), 1u);
  EXPECT_EQ(m->offline[0].name, "ann");
  EXPECT_FALSE(p.changes_waiting());

  for (std::int64_t u = 0; u < static_cast<std::int64_t>(Presence::kListed) + 3; ++u)
    p.note({u, "u" + std::to_string(u)}, true);
  m = p.take_message();
  EXPECT_EQ(m->online.size(), Presence::kListed);
  EXPECT_TRUE(p.changes_waiting());
  EXPECT_EQ(p.take_message()->online.size(), 3u);
}

protocol::CreateChallenge open_to(std::optional<std::string> opponent) {
  protocol::CreateChallenge c;
  c.settings.width = c.settings.height = 9;
  c.opponent = std::move(opponent);
  return c;
}

std::optional<protocol::UserRef> find(const std::string& name) {
  if (name == "bob") return protocol::UserRef{2, "bob"};
  if (name == "ann") return protocol::UserRef{1, "ann"};
  return std::nullopt;
}

TEST(Challenges, OpenCancelDeclineAndAcceptEachByTheRightPlayer) {
  Challenges c;
  c.continue_after(41);
  std::vector<store::Write> writes;
  const protocol::UserRef ann{1, "ann"}, bob{2, "bob"}, cat{3, "cat"};
  const auto open = c.open(ann, "c1", open_to(std::nullopt), find, writes);
  ASSERT_TRUE(std::holds_alternative<protocol::Challenge>(open));
  EXPECT_EQ(std::get<protocol::Challenge>(open).id, 42);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<store::ChallengeOpened>(writes[0]));

  const auto direct = c.open(ann, "c2", open_to("bob"), find, writes);
  ASSERT_TRUE(std::holds_alternative<protocol::Challenge>(direct));
  EXPECT_EQ(c.visible_to(std::nullopt).size(), 1u);  // a guest sees the open one only
  EXPECT_EQ(c.visible_to(store::UserRecord{3, "cat", "", false, 0}).size(), 1u);
  EXPECT_EQ(c.visible_to(store::UserRecord{2, "bob", "", false, 0}).size(), 2u);

  auto code = [](const Challenges::Outcome& o) {
    return std::holds_alternative<protocol::Error>(o) ? std::get<protocol::Error>(o).code
                                                      : protocol::ErrorCode::Internal;
  };
  using protocol::ErrorCode;
  EXPECT_EQ(code(c.open(ann, "c3", open_to("nobody"), find, writes)), ErrorCode::NotFound);
  EXPECT_EQ(code(c.open(ann, "c3", open_to("ann"), find, writes)), ErrorCode::Forbidden);
  EXPECT_EQ(code(c.close(bob, "c4", 42, false, writes)), ErrorCode::Forbidden);  // not his
  EXPECT_EQ(code(c.close(cat, "c4", 43, true, writes)), ErrorCode::Forbidden);   // not to her
  EXPECT_EQ(code(c.take_to_accept(ann, "c5", 42)), ErrorCode::Forbidden);        // her own
  EXPECT_EQ(code(c.take_to_accept(cat, "c5", 43)), ErrorCode::Forbidden);        // for bob
  EXPECT_EQ(writes.size(), 2u);  // refusals write nothing
  EXPECT_EQ(c.size(), 2u);

  EXPECT_TRUE(std::holds_alternative<protocol::Challenge>(c.close(bob, "c6", 43, true, writes)));
  EXPECT_TRUE(std::holds_alternative<protocol::Challenge>(c.take_to_accept(cat, "c7", 42)));
  EXPECT_EQ(c.size(), 0u);
  EXPECT_EQ(code(c.take_to_accept(cat, "c8", 42)), ErrorCode::NotFound);
}

TEST(Challenges, OnePlayerMayHoldTenOpenAtOnce) {
  Challenges c;
  std::vector<store::Write> writes;
  for (std::size_t i = 0; i < Challenges::kMaxOpenPerUser; ++i)
    ASSERT_TRUE(std::holds_alternative<protocol::Challenge>(
        c.open({1, "ann"}, "c", open_to(std::nullopt), find, writes)));
  const auto refused = c.open({1, "ann"}, "c", open_to(std::nullopt), find, writes);
  ASSERT_TRUE(std::holds_alternative<protocol::Error>(refused));
  EXPECT_EQ(std::get<protocol::Error>(refused).code, protocol::ErrorCode::Conflict);
  EXPECT_TRUE(std::holds_alternative<protocol::Challenge>(
      c.open({2, "bob"}, "c", open_to(std::nullopt), find, writes)));
}

}  // namespace
}  // namespace tengen
