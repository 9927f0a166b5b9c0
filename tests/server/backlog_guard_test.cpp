// The guard in front of the hub (ws/backlog_guard.h): while the database is away and too much
// waits for it, a command is refused with `unavailable` and never reaches the hub; otherwise
// everything passes through untouched.
#include "ws/backlog_guard.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tengen {
namespace {

class Nobody final : public Connection {
 public:
  void send(std::shared_ptr<const std::string>) override {}
  std::uint64_t id() const override { return 7; }
  const std::optional<store::UserRecord>& user() const override { return user_; }

 private:
  std::optional<store::UserRecord> user_;
};

// What the dispatcher behind the guard was given.
class Behind final : public Dispatcher {
 public:
  void connected(const std::shared_ptr<Connection>&) override { seen.push_back("connected"); }
  void received(const std::shared_ptr<Connection>&, protocol::ClientEnvelope command) override {
    seen.push_back("received " + command.cid);
  }
  void disconnected(const std::shared_ptr<Connection>&) override { seen.push_back("disconnected"); }
  void answer(const std::shared_ptr<Connection>&, const protocol::ServerMessage& m) override {
    seen.push_back("answer " + protocol::encode(m));
  }
  void after_replies(std::function<void()> then) override { then(); }
  std::vector<std::string> seen;
};

TEST(BacklogGuard, RefusesCommandsOnlyWhileOverloadedAndPassesTheRestThrough) {
  Behind hub;
  bool overloaded = false;
  BacklogGuard guard(hub, [&] { return overloaded; });
  const auto c = std::make_shared<Nobody>();
  guard.connected(c);
  guard.received(c, protocol::ClientEnvelope{"a-1", protocol::ListMyGames{}});
  overloaded = true;
  guard.received(c, protocol::ClientEnvelope{"a-2", protocol::ListMyGames{}});
  overloaded = false;
  guard.received(c, protocol::ClientEnvelope{"a-3", protocol::ListMyGames{}});
  guard.disconnected(c);
  bool after = false;
  guard.after_replies([&] { after = true; });

  ASSERT_EQ(hub.seen.size(), 5u);
  EXPECT_EQ(hub.seen[0], "connected");
  EXPECT_EQ(hub.seen[1], "received a-1");
  EXPECT_NE(hub.seen[2].find("\"type\":\"error\""), std::string::npos) << hub.seen[2];
  EXPECT_NE(hub.seen[2].find("\"cid\":\"a-2\""), std::string::npos) << hub.seen[2];
  EXPECT_NE(hub.seen[2].find("\"code\":\"unavailable\""), std::string::npos) << hub.seen[2];
  EXPECT_EQ(hub.seen[3], "received a-3");
  EXPECT_EQ(hub.seen[4], "disconnected");
  EXPECT_TRUE(after);
}

}  // namespace
}  // namespace tengen
