#include "cluster/roles.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/bus.h"
#include "protocol/codec.h"

namespace tengen::cluster {

namespace bus = protocol::bus;

Roles::Roles(Bus& bus, store::Leases& leases, Hooks hooks, std::chrono::milliseconds retry,
             Dispatcher* games)
    : bus_(bus),
      leases_(leases),
      hooks_(std::move(hooks)),
      retry_(retry),
      forwarding_(bus, leases.node(),
                  [this](const std::shared_ptr<Connection>& connection, std::int64_t node,
                         std::string_view text) {
                    if (routes_) routes_->moved(connection, node, text);
                  }) {
  if (games) {
    routes_ = std::make_unique<GameRoutes>(bus_, leases_.node(), *games);
    games_gateway_.emplace(bus_, *games, Gateway::games_subjects(leases_.node()));
  }
  announcements_ = bus_.subscribe(bus::cluster_subject(),
                                  [this](std::string_view data) { hub_announced(data); });
  bus_.flush();
  if (try_become_hub()) return;
  spdlog::info("node {} serves as a front node: another node is the hub", leases_.name());
  waiting_ = std::thread([this] { wait_for_lock(); });
}

Roles::~Roles() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (waiting_.joinable()) waiting_.join();
  announcements_.reset();
  games_gateway_.reset();
  gateway_.reset();  // before the routes it asks
}

bool Roles::try_become_hub() {
  if (!hooks_.try_take_lock()) return false;
  // The last hub's session has ended (the lock says so): its games are this node's to take now.
  leases_.end_game_owners(routes_ != nullptr);
  // Games on every node: the hub knows where every game is played (it tells the others), also
  // those placed before it became the hub, while this node was not listening.
  if (routes_ && hooks_.placements) {
    for (const auto& [game, node] : hooks_.placements()) routes_->set_owner(game, node);
  }
  // The movable games of the nodes that are gone (the last hub's among them) go to the running
  // nodes first, this one included: its recovery then takes its share and leaves the others'.
  if (routes_ && hooks_.spread) {
    constexpr int kAtOnce = 200;
    std::vector<std::int64_t> here;
    std::size_t given = 0, round = 0;
    try {
      while ((round = give_orphans(kAtOnce, here)) == kAtOnce) given += round;
      given += round;
    } catch (const std::exception& e) {  // what is left is this node's recovery's
      spdlog::warn("node {} could not give the games of nodes that are gone to others: {}",
                   leases_.name(), e.what());
    }
    if (given > 0)
      spdlog::info(
          "node {} gave {} games of nodes that are gone to the running nodes ({} to "
          "itself)",
          leases_.name(), given, here.size());
  }
  Dispatcher& hub = hooks_.become_hub();
  // A command of a game played elsewhere that reaches the hub is sent back where it belongs.
  gateway_.emplace(bus_, hub, Gateway::hub_subjects(),
                   [this](std::int64_t game) -> std::optional<std::int64_t> {
                     if (!routes_) return std::nullopt;
                     return routes_->owner(game);
                   });
  bus_.flush();  // the gateway listens before anyone is told to come
  hub_ = &hub;
  forwarding_.release_barriers();  // nothing owed by the last hub is coming
  spdlog::info("node {} is the hub", leases_.name());
  announce();
  // This node's own connections went to the last hub: they come to this one, without the bus.
  hooks_.reattached(router_.take_over(hub));
  return true;
}

void Roles::wait_for_lock() {
  std::unique_lock lock(mutex_);
  bool failing = false;  // said once per spell of failures (the database away: twice a second)
  for (;;) {
    wake_.wait_for(lock, retry_, [this] { return stopping_ || try_now_; });
    if (stopping_) return;
    try_now_ = false;
    lock.unlock();
    bool became = false;
    try {
      became = try_become_hub();
      failing = false;
    } catch (const std::exception& e) {
      if (!failing)
        spdlog::warn("node {} could not try the hub lock: {}", leases_.name(), e.what());
      failing = true;
    }
    lock.lock();
    if (became) return;
  }
}

void Roles::announce() {
  try {
    bus_.publish(bus::cluster_subject(), bus::encode_hub(leases_.node()));
    bus_.flush();
  } catch (const std::exception& e) {
    spdlog::warn("node {} could not say it is the hub: {}", leases_.name(), e.what());
  }
}

void Roles::placing(std::int64_t game, std::int64_t node) {
  if (routes_) routes_->set_owner(game, node);
}

void Roles::tell_owner(std::int64_t game, std::int64_t node) {
  if (!routes_) return;
  routes_->set_owner(game, node);
  try {
    bus_.publish(bus::cluster_subject(), bus::encode(bus::GameOwner{game, node}));
  } catch (const std::exception& e) {
    // The others learn it from the hub at their next command of the game (ToNode::moved).
    spdlog::warn("the nodes could not be told where game {} is played: {}", game, e.what());
  }
}

std::size_t Roles::give_orphans(int limit, std::vector<std::int64_t>& here) {
  if (!routes_ || !hooks_.spread || !hooks_.hand) return 0;
  const auto plan = hooks_.spread(limit);
  if (plan.empty()) return 0;
  const auto self = leases_.node();
  // Its commands that reach the hub meanwhile go to its node at once (which then takes the game
  // itself, if they are there first).
  for (const auto& to : plan) placing(to.game, to.node == self ? 0 : to.node);
  const auto owners = hooks_.hand(plan);
  std::size_t given = 0;
  for (const auto& to : plan) {
    const auto it = std::find_if(owners.begin(), owners.end(),
                                 [&](const store::Handover& o) { return o.game == to.game; });
    if (it == owners.end()) {  // still an orphan: the hub adopts it
      placing(to.game, 0);
      continue;
    }
    ++given;
    if (it->node == self) here.push_back(it->game);
    tell_owner(it->game, it->node == self ? 0 : it->node);
  }
  return given;
}

void Roles::tell_rating_due(Bus& bus, std::int64_t game) {
  try {
    bus.publish(bus::cluster_subject(), bus::encode_rating_due(game));
  } catch (const std::exception& e) {
    // The row stays in the store: the hub rates it at the next word, adoption or start.
    spdlog::warn("the hub could not be told that rated game {} ended: {}", game, e.what());
  }
}

void Roles::hub_announced(std::string_view data) {
  if (const auto due = bus::decode_rating_due(data)) {
    if (is_hub() && hooks_.rate_due) hooks_.rate_due();
    return;
  }
  if (const auto owner = bus::decode_game_owner(data)) {
    if (!routes_) return;
    routes_->set_owner(owner->game, owner->node);
    if (owner->node == leases_.node() && hooks_.bring) hooks_.bring(owner->game);
    return;
  }
  if (const auto left = bus::decode_node_left(data)) {
    if (!routes_ || *left == leases_.node()) return;
    spdlog::info("node {} is gone: its games go to the running nodes", *left);
    routes_->forget_node(*left);
    if (is_hub() && hooks_.adopt_now) hooks_.adopt_now();
    if (is_hub() && hooks_.rate_due) hooks_.rate_due();
    return;
  }
  if (const auto leaving = bus::decode_hub_leaving(data)) {
    if (*leaving == leases_.node() || is_hub()) return;
    spdlog::info("node {} is stopping and has let go of the hub: trying to take it now", *leaving);
    {
      std::lock_guard lock(mutex_);
      try_now_ = true;
    }
    wake_.notify_all();
    return;
  }
  const auto node = bus::decode_hub(data);
  if (!node || *node == leases_.node()) return;
  spdlog::info("node {} is the hub now: this node's connections attach to it again", *node);
  forwarding_.release_barriers();
  hooks_.reattached(forwarding_.reattach("hub"));
}

void Roles::resync() {
  if (routes_) routes_->forget_announcements();
  if (is_hub()) announce();
  forwarding_.release_barriers();
  hooks_.reattached(forwarding_.reattach("bus"));
}

std::size_t Roles::let_go_of_dead_nodes(std::chrono::steady_clock::duration patience,
                                        std::chrono::steady_clock::time_point now) {
  if (!hooks_.gone) return 0;
  // The stand-ins on the hub, and on this node's games' gateway (games on every node).
  std::vector<std::int64_t> nodes;
  if (is_hub()) nodes = gateway_->nodes();
  if (games_gateway_) {
    for (const auto n : games_gateway_->nodes()) nodes.push_back(n);
  }
  // On the hub, the nodes that play games: one found dead has its games forgotten everywhere.
  std::vector<std::int64_t> game_nodes;
  if (is_hub() && routes_) game_nodes = routes_->nodes();
  nodes.insert(nodes.end(), game_nodes.begin(), game_nodes.end());
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  std::erase(nodes, leases_.node());
  std::map<std::int64_t, std::chrono::steady_clock::time_point> dead;
  if (!nodes.empty()) {
    for (const auto n : hooks_.gone(nodes)) {
      const auto seen = suspects_.find(n);
      dead[n] = seen == suspects_.end() ? now : seen->second;
    }
  }
  std::size_t released = 0;
  for (auto it = dead.begin(); it != dead.end();) {
    if (now - it->second < patience) {
      ++it;
      continue;
    }
    auto count = is_hub() ? gateway_->let_go(it->first) : std::size_t{0};
    if (games_gateway_) count += games_gateway_->let_go(it->first);
    if (std::find(game_nodes.begin(), game_nodes.end(), it->first) != game_nodes.end()) {
      try {  // every node forgets where its games were played (this one when it hears it)
        bus_.publish(bus::cluster_subject(), bus::encode_node_left(it->first));
      } catch (const std::exception& e) {
        spdlog::warn("the nodes could not be told that node {} is gone: {}", it->first, e.what());
      }
    }
    released += count;
    spdlog::info("node {} is dead: the hub let go of its {} connections (they left their games)",
                 it->first, count);
    it = dead.erase(it);
  }
  suspects_ = std::move(dead);
  return released;
}

// ---- the router ----

// Each call below hands the connection to its side under the lock: the side's own calls only
// queue (a lane, a bus message), and a connection moving to the hub (take_over) can then not be
// overtaken by what it sent just before.
Dispatcher& Roles::Router::of(const Connection& connection) {
  const auto it = sides_.find(connection.id());
  return it == sides_.end() ? roles_.current() : *it->second.dispatcher;
}

void Roles::Router::connected(const std::shared_ptr<Connection>& connection) {
  std::lock_guard lock(mutex_);
  Dispatcher& side = roles_.current();
  sides_[connection->id()] = {&side, connection};
  side.connected(connection);
}

void Roles::Router::received(const std::shared_ptr<Connection>& connection,
                             protocol::ClientEnvelope command) {
  // A game played on this node's own games' centre, or on another node: sent there.
  if (roles_.routes_ && roles_.routes_->received(connection, command)) return;
  std::shared_lock lock(mutex_);
  of(*connection).received(connection, std::move(command));
}

void Roles::Router::disconnected(const std::shared_ptr<Connection>& connection) {
  std::lock_guard lock(mutex_);
  const auto it = sides_.find(connection->id());
  if (it == sides_.end()) return;
  Dispatcher& side = *it->second.dispatcher;
  sides_.erase(it);
  side.disconnected(connection);
  if (roles_.routes_) roles_.routes_->disconnected(connection);
}

void Roles::Router::answer(const std::shared_ptr<Connection>& connection,
                           const protocol::ServerMessage& message) {
  std::shared_lock lock(mutex_);
  of(*connection).answer(connection, message);
}

std::size_t Roles::Router::take_over(Dispatcher& hub) {
  const auto resync = std::make_shared<const std::string>(
      protocol::encode(protocol::ServerMessage{protocol::Resync{"hub"}}));
  std::size_t moved = 0;
  std::lock_guard lock(mutex_);
  for (auto& [id, side] : sides_) {
    if (side.dispatcher != &roles_.forwarding_) continue;
    auto connection = side.connection.lock();
    if (!connection) continue;  // going: its disconnection follows, to the side it was on
    roles_.forwarding_.release(*connection);
    side.dispatcher = &hub;
    hub.connected(connection);
    connection->send(resync);
    ++moved;
  }
  return moved;
}

void Roles::Router::after_replies(std::function<void()> then) {
  roles_.current().after_replies(std::move(then));
}

}  // namespace tengen::cluster
