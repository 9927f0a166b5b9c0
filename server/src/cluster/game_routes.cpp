#include "cluster/game_routes.h"

#include <spdlog/spdlog.h>

#include <vector>

#include "cluster/forwarding.h"
#include "protocol/bus.h"
#include "protocol/codec.h"
#include "protocol/families.h"

namespace tengen::cluster {

namespace bus = protocol::bus;

GameRoutes::GameRoutes(Bus& bus, std::int64_t self, Dispatcher& local)
    : bus_(bus), self_(self), local_(local) {
  subscription_ = bus_.subscribe(bus::node_games_subject(self_),
                                 [this](std::string_view data) { delivered(data); });
}

GameRoutes::~GameRoutes() {
  subscription_.reset();
}

std::optional<std::int64_t> GameRoutes::owner(std::int64_t game) const {
  std::lock_guard lock(mutex_);
  const auto it = owners_.find(game);
  if (it == owners_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::int64_t> GameRoutes::nodes() const {
  std::set<std::int64_t> out;
  std::lock_guard lock(mutex_);
  for (const auto& [game, node] : owners_) out.insert(node);
  return {out.begin(), out.end()};
}

void GameRoutes::set_owner(std::int64_t game, std::int64_t node) {
  std::vector<std::shared_ptr<Connection>> resync;
  {
    std::lock_guard lock(mutex_);
    const auto it = owners_.find(game);
    const std::int64_t before = it == owners_.end() ? 0 : it->second;
    if (before == node) return;
    if (node == 0) {
      owners_.erase(it);
    } else {
      owners_[game] = node;
    }
    // Played elsewhere before (its node is gone): whoever sent that node commands joins again.
    if (before != 0 && before != self_) resync = announced_to(before);
  }
  if (resync.empty()) return;
  spdlog::info("game {} is played elsewhere now: {} connections join their games again", game,
               resync.size());
  tell_to_resync(resync, "game moved");
}

void GameRoutes::forget_node(std::int64_t node) {
  if (node == self_) return;
  std::vector<std::shared_ptr<Connection>> resync;
  {
    std::lock_guard lock(mutex_);
    std::erase_if(owners_, [node](const auto& entry) { return entry.second == node; });
    resync = announced_to(node);
  }
  if (resync.empty()) return;
  spdlog::info("node {} is gone: {} connections join their games again", node, resync.size());
  tell_to_resync(resync, "game moved");
}

std::vector<std::shared_ptr<Connection>> GameRoutes::announced_to(std::int64_t node) {
  std::vector<std::shared_ptr<Connection>> out;
  for (auto& [id, held] : held_) {
    if (held.nodes.erase(node) == 0) continue;
    if (auto c = held.connection.lock()) out.push_back(std::move(c));
  }
  return out;
}

void GameRoutes::tell_to_resync(const std::vector<std::shared_ptr<Connection>>& connections,
                                std::string_view why) {
  const auto text = std::make_shared<const std::string>(
      protocol::encode(protocol::ServerMessage{protocol::Resync{std::string(why)}}));
  for (const auto& c : connections) c->send(text);
}

bool GameRoutes::received(const std::shared_ptr<Connection>& connection,
                          const protocol::ClientEnvelope& command) {
  if (protocol::family(command.message) != protocol::Family::Game) return false;
  const auto node = owner(*protocol::game_of(command.message));
  if (!node) return false;
  send(connection, *node, command, {});
  return true;
}

void GameRoutes::moved(const std::shared_ptr<Connection>& connection, std::int64_t node,
                       std::string_view text) {
  auto decoded = protocol::decode_client(text);
  auto* command = std::get_if<protocol::ClientEnvelope>(&decoded);
  if (!command || protocol::family(command->message) != protocol::Family::Game) return;
  const auto game = *protocol::game_of(command->message);
  bool disagree = false;
  {
    std::lock_guard lock(mutex_);
    const auto it = owners_.find(game);
    if (it != owners_.end() && it->second != node) {
      // The hub's word on the bus came meanwhile and says otherwise (a dead node's game given to
      // another: the two travel on different subjects, either may be the older): neither is
      // trusted, the client sends the command again, to the hub, whose answer is the newest.
      owners_.erase(it);
      disagree = true;
    } else {
      owners_[game] = node;  // learnt from the hub: its word on the bus was missed, or is late
    }
  }
  if (disagree) {
    tell_to_resync({connection}, "game moved");
    return;
  }
  send(connection, node, *command, std::string(text));
}

void GameRoutes::send(const std::shared_ptr<Connection>& connection, std::int64_t node,
                      const protocol::ClientEnvelope& command, std::string text) {
  bool announce = false;
  {
    std::lock_guard lock(mutex_);
    auto& held = held_[connection->id()];
    held.connection = connection;
    if (node == self_) {
      announce = !std::exchange(held.local, true);
    } else {
      announce = held.nodes.insert(node).second;
    }
  }
  if (node == self_) {
    if (announce) local_.connected(connection);
    local_.received(connection, command);
    return;
  }
  if (text.empty()) text = protocol::encode(command);
  try {
    // Announced first: its command travels after it, on the same subject.
    if (announce) {
      bus_.publish(bus::games_subject(node), bus::encode(bus::ToHub{bus::ToHub::Op::Connected,
                                                                    self_,
                                                                    connection->id(),
                                                                    bus_user(connection->user()),
                                                                    connection->rtt_ms(),
                                                                    {}}));
    }
    bus_.publish(bus::games_subject(node),
                 bus::encode(bus::ToHub{bus::ToHub::Op::Received, self_, connection->id(),
                                        std::nullopt, connection->rtt_ms(), std::move(text)}));
  } catch (const std::exception& e) {
    // Lost, as the bus allows: the client sends it again when it resyncs (its bus back).
    spdlog::warn("a command for node {}'s game was lost: {}", node, e.what());
  }
}

void GameRoutes::disconnected(const std::shared_ptr<Connection>& connection) {
  Held held;
  {
    std::lock_guard lock(mutex_);
    const auto it = held_.find(connection->id());
    if (it == held_.end()) return;
    held = std::move(it->second);
    held_.erase(it);
  }
  if (held.local) local_.disconnected(connection);
  for (const auto node : held.nodes) {
    try {
      bus_.publish(bus::games_subject(node), bus::encode(bus::ToHub{bus::ToHub::Op::Disconnected,
                                                                    self_,
                                                                    connection->id(),
                                                                    std::nullopt,
                                                                    std::nullopt,
                                                                    {}}));
    } catch (const std::exception& e) {
      spdlog::warn("node {} could not be told that a connection went: {}", node, e.what());
    }
  }
}

void GameRoutes::forget_announcements() {
  std::lock_guard lock(mutex_);
  for (auto& [id, held] : held_) held.nodes.clear();
}

void GameRoutes::delivered(std::string_view data) {
  const auto m = bus::decode_to_node(data);
  if (!m) {
    spdlog::warn("node {}: an unreadable message from a game's node, dropped", self_);
    return;
  }
  if (m->barrier) return;  // barriers go to the hub only
  std::shared_ptr<Connection> to;
  {
    std::lock_guard lock(mutex_);
    const auto it = held_.find(m->connection);
    if (it == held_.end()) return;  // it went meanwhile
    to = it->second.connection.lock();
    // The game's node did not know it (restarted, or the announcement lost): announced again at
    // the next command, which the client sends once told to resync.
    if (to && m->unknown) it->second.nodes.clear();
  }
  if (!to) return;
  if (m->unknown) {
    tell_to_resync({to}, "lost");
    return;
  }
  std::vector<std::shared_ptr<const std::string>> texts;
  texts.reserve(m->texts.size());
  for (auto& t : m->texts) texts.push_back(std::make_shared<const std::string>(std::move(t)));
  to->send_all(std::move(texts));
}

}  // namespace tengen::cluster
