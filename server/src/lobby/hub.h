#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "clock.h"
#include "metrics.h"
#include "rooms/room.h"
#include "rooms/timers.h"
#include "ws/connection.h"

namespace tengen {

// The lobby and the rooms behind every WebSocket connection (SPEC §4, §7): challenges, online
// users, games. One mutex serialises it; each connection's own strand delivers what it sends.
class Hub final : public Dispatcher {
 public:
  using FindUser = std::function<std::optional<protocol::UserRef>(const std::string& name)>;
  // Decides who takes Black when the settings say "automatic": true means the challenger.
  using DrawBlack = std::function<bool()>;
  // `bytes` random bytes as hex digits, for nigiri secrets: cryptographic in the server,
  // seeded in tests.
  using RandomHex = std::function<std::string(std::size_t bytes)>;

  struct Services {
    FindUser find_user;
    DrawBlack draw_black;
    RandomHex random_hex;
    Clock* clock = nullptr;
    Timers* timers = nullptr;  // must stop before the hub goes; without, deadlines are only
                               // noticed when a command arrives
    RoomOptions room;
    Metrics* metrics = nullptr;
  };

  explicit Hub(Services services);
  ~Hub() override;
  Hub(const Hub&) = delete;
  Hub& operator=(const Hub&) = delete;

  Metrics::Gauges gauges();

  // A game's deadline came (Timers calls this from its thread).
  void deadline(protocol::GameId game);

  // A game's SGF record, if there is such a game.
  std::optional<std::string> sgf(protocol::GameId game);

  void connected(const std::shared_ptr<Connection>& connection) override;
  void received(const std::shared_ptr<Connection>& connection, protocol::ClientEnvelope command) override;
  void disconnected(const std::shared_ptr<Connection>& connection) override;

 private:
  using Reply = std::variant<protocol::Ack, protocol::Error>;
  static constexpr std::size_t kRememberedCommands = 512;  // per user, for repeated cids

  Reply handle(const std::shared_ptr<Connection>& who, const std::string& cid, const protocol::ClientMessage& m,
               Steady now, std::set<protocol::GameId>& touched);
  Reply room_command(const protocol::UserRef& user, const std::shared_ptr<Connection>& who, Room& room,
                     const std::string& cid, const protocol::ClientMessage& m, Steady now);
  void rearm(const std::set<protocol::GameId>& games);
  Reply create(const protocol::UserRef& me, const std::string& cid, const protocol::CreateChallenge& m);
  Reply accept(const protocol::UserRef& me, const std::string& cid, protocol::ChallengeId id);
  Reply close_challenge(const protocol::UserRef& me, const std::string& cid, protocol::ChallengeId id, bool decline);
  void broadcast_challenge(const protocol::Challenge& c, const protocol::ServerMessage& m);
  void send_to_user(std::int64_t user, const std::shared_ptr<const std::string>& text);
  bool visible_to(const protocol::Challenge& c, const std::optional<store::UserRecord>& user) const;

  Services services_;
  Metrics* metrics_;
  std::mutex mutex_;
  std::map<std::uint64_t, std::shared_ptr<Connection>> connections_;
  std::map<std::uint64_t, std::set<protocol::GameId>> joined_;  // by connection
  std::map<std::int64_t, int> online_;                           // connections per user
  std::map<protocol::ChallengeId, protocol::Challenge> challenges_;
  std::map<protocol::GameId, std::unique_ptr<Room>> rooms_;
  protocol::ChallengeId next_challenge_ = 0;
  protocol::GameId next_game_ = 0;
  struct Remembered {
    std::deque<std::string> order;
    std::map<std::string, std::shared_ptr<const std::string>> acks;
  };
  std::map<std::string, Remembered> applied_;  // by user (or connection, for guests)
};

}  // namespace tengen
