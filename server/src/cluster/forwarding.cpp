#include "cluster/forwarding.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <utility>

#include "protocol/bus.h"
#include "protocol/codec.h"
#include "protocol/families.h"

namespace tengen::cluster {

namespace bus = protocol::bus;

std::optional<bus::User> bus_user(const std::optional<store::UserRecord>& u) {
  if (!u) return std::nullopt;
  return bus::User{u->id, u->username, u->is_bot, u->created_at_ms, u->is_admin};
}

namespace {

// A front node's connection as the hub sees it. Its id is the gateway's own (the high bit set, so
// that it never meets a number of the hub's local connections, which count from 1): a connection
// attached again (a new hub, the bus back) is a new stand-in, never confused with the last.
class RemoteConnection final : public Connection {
 public:
  RemoteConnection(Bus& bus, std::string (*reply)(std::int64_t), std::int64_t node,
                   std::uint64_t number, std::uint64_t id, std::optional<bus::User> user,
                   std::optional<std::int64_t> rtt)
      : bus_(bus),
        reply_(reply),
        node_(node),
        number_(number),
        id_((std::uint64_t{1} << 63) | id),
        rtt_(rtt.value_or(-1)) {
    if (user) {
      user_ = store::UserRecord{user->id, user->name, "", user->bot, user->created_at_ms};
      user_->is_admin = user->admin;
    }
  }

  void send(std::shared_ptr<const std::string> message) override { send_all({std::move(message)}); }
  // In bus messages of at most about kBusMessageBytes (NATS refuses more than 1 MiB; one message
  // of the server's is at most 512 KiB, docs/limits.md), in order.
  void send_all(std::vector<std::shared_ptr<const std::string>> messages) override {
    bus::ToNode out{number_, {}, std::nullopt};
    std::size_t bytes = 0;
    for (const auto& m : messages) {
      if (!out.texts.empty() && bytes + m->size() > kBusMessageBytes) {
        publish(out);
        out.texts.clear();
        bytes = 0;
      }
      out.texts.push_back(*m);
      bytes += m->size();
    }
    if (!out.texts.empty()) publish(out);
  }
  std::uint64_t id() const override { return id_; }
  const std::optional<store::UserRecord>& user() const override { return user_; }
  bool forwarded() const override { return true; }
  std::int64_t node() const override { return node_; }
  std::optional<std::int64_t> rtt_ms() const override {
    const auto rtt = rtt_.load();
    if (rtt < 0) return std::nullopt;
    return rtt;
  }
  void set_rtt(std::optional<std::int64_t> rtt) {
    if (rtt) rtt_ = *rtt;
  }

 private:
  static constexpr std::size_t kBusMessageBytes = 256 * 1024;

  void publish(const bus::ToNode& out) {
    try {
      bus_.publish(reply_(node_), bus::encode(out));
    } catch (const std::exception& e) {
      // Lost, as the bus allows: the client resumes by sequence number when the node attaches
      // it again (its bus back: docs/cluster.md).
      spdlog::warn("a message for node {} was lost: {}", node_, e.what());
    }
  }

  Bus& bus_;
  std::string (*const reply_)(std::int64_t);
  const std::int64_t node_;
  const std::uint64_t number_;
  const std::uint64_t id_;
  std::optional<store::UserRecord> user_;
  std::atomic<std::int64_t> rtt_;
};

}  // namespace

// ---- the front node ----

ForwardingDispatcher::ForwardingDispatcher(Bus& bus, std::int64_t node, Moved moved)
    : bus_(bus), node_(node), moved_(std::move(moved)), patience_([this] { run_out_barriers(); }) {
  subscription_ =
      bus_.subscribe(bus::node_subject(node_), [this](std::string_view data) { delivered(data); });
  // A roll call of none: whatever the hub still holds of this node's last life (killed, or
  // restarted under its name) goes.
  roll(bus::ToHub::Op::RollCall);
  roll(bus::ToHub::Op::RollEnd);
}

void ForwardingDispatcher::roll(bus::ToHub::Op op) {
  try {
    tell_hub(op, 0, std::nullopt, std::nullopt, {});
  } catch (const std::exception& e) {
    spdlog::warn("node {}: the hub could not be told which connections it holds: {}", node_,
                 e.what());
  }
}

ForwardingDispatcher::~ForwardingDispatcher() {
  subscription_.reset();
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  barrier_added_.notify_all();
  patience_.join();
  release_barriers();
}

void ForwardingDispatcher::release_barriers() {
  std::map<std::uint64_t, Barrier> pending;
  {
    std::lock_guard lock(mutex_);
    pending.swap(barriers_);
  }
  for (auto& [id, barrier] : pending) barrier.then();
}

void ForwardingDispatcher::run_out_barriers() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    auto next = std::chrono::steady_clock::time_point::max();
    for (const auto& [id, barrier] : barriers_) next = std::min(next, barrier.until);
    barrier_added_.wait_until(lock, next);
    std::vector<std::function<void()>> due;
    const auto now = std::chrono::steady_clock::now();
    for (auto it = barriers_.begin(); it != barriers_.end();) {
      if (it->second.until > now) {
        ++it;
        continue;
      }
      due.push_back(std::move(it->second.then));
      it = barriers_.erase(it);
    }
    if (due.empty()) continue;
    lock.unlock();
    spdlog::warn("node {}: the hub passed no barrier within {} s; going on without", node_,
                 kBarrierPatience.count());
    for (auto& then : due) then();
    lock.lock();
  }
}

void ForwardingDispatcher::tell_hub(bus::ToHub::Op op, std::uint64_t connection,
                                    std::optional<bus::User> user, std::optional<std::int64_t> rtt,
                                    std::string text) {
  bus_.publish(bus::hub_subject(), bus::encode(bus::ToHub{op, node_, connection, std::move(user),
                                                          rtt, std::move(text)}));
}

void ForwardingDispatcher::connected(const std::shared_ptr<Connection>& connection) {
  {
    std::lock_guard lock(mutex_);
    connections_[connection->id()] = connection;
  }
  tell_hub(bus::ToHub::Op::Connected, connection->id(), bus_user(connection->user()),
           connection->rtt_ms(), {});
}

std::size_t ForwardingDispatcher::reattach(std::string_view reason) {
  std::vector<std::shared_ptr<Connection>> live;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, weak] : connections_) {
      if (auto c = weak.lock()) live.push_back(std::move(c));
    }
  }
  const auto resync = resync_text(reason);
  roll(bus::ToHub::Op::RollCall);
  for (const auto& c : live) attach_again(*c, resync);
  roll(bus::ToHub::Op::RollEnd);
  return live.size();
}

std::shared_ptr<const std::string> ForwardingDispatcher::resync_text(std::string_view reason) {
  return std::make_shared<const std::string>(
      protocol::encode(protocol::ServerMessage{protocol::Resync{std::string(reason)}}));
}

void ForwardingDispatcher::attach_again(Connection& c,
                                        const std::shared_ptr<const std::string>& resync) {
  // Announced first: what the client sends once told travels after it, on the same subject.
  try {
    tell_hub(bus::ToHub::Op::Connected, c.id(), bus_user(c.user()), c.rtt_ms(), {});
  } catch (const std::exception& e) {
    spdlog::warn("node {}: connection {} could not be attached again: {}", node_, c.id(), e.what());
  }
  c.send(resync);
}

void ForwardingDispatcher::release(const Connection& connection) {
  std::lock_guard lock(mutex_);
  connections_.erase(connection.id());
}

void ForwardingDispatcher::received(const std::shared_ptr<Connection>& connection,
                                    protocol::ClientEnvelope command) {
  tell_hub(bus::ToHub::Op::Received, connection->id(), std::nullopt, connection->rtt_ms(),
           protocol::encode(command));
}

void ForwardingDispatcher::disconnected(const std::shared_ptr<Connection>& connection) {
  {
    std::lock_guard lock(mutex_);
    connections_.erase(connection->id());
  }
  tell_hub(bus::ToHub::Op::Disconnected, connection->id(), std::nullopt, std::nullopt, {});
}

void ForwardingDispatcher::answer(const std::shared_ptr<Connection>& connection,
                                  const protocol::ServerMessage& message) {
  tell_hub(bus::ToHub::Op::Answer, connection->id(), std::nullopt, std::nullopt,
           protocol::encode(message));
}

void ForwardingDispatcher::after_replies(std::function<void()> then) {
  std::uint64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    id = ++next_barrier_;
    barriers_[id] = {std::chrono::steady_clock::now() + kBarrierPatience, std::move(then)};
  }
  barrier_added_.notify_all();
  tell_hub(bus::ToHub::Op::Barrier, id, std::nullopt, std::nullopt, {});
}

void ForwardingDispatcher::delivered(std::string_view data) {
  const auto m = bus::decode_to_node(data);
  if (!m) {
    spdlog::warn("node {}: an unreadable message on the bus, dropped", node_);
    return;
  }
  if (m->barrier) {
    std::function<void()> then;
    {
      std::lock_guard lock(mutex_);
      const auto it = barriers_.find(*m->barrier);
      if (it == barriers_.end()) return;
      then = std::move(it->second.then);
      barriers_.erase(it);
    }
    then();
    return;
  }
  std::shared_ptr<Connection> to;
  {
    std::lock_guard lock(mutex_);
    const auto it = connections_.find(m->connection);
    if (it != connections_.end()) to = it->second.lock();
  }
  if (!to) return;  // it went meanwhile
  if (m->moved) {   // a game played elsewhere: its command goes there
    if (moved_ && !m->texts.empty()) moved_(to, *m->moved, m->texts.front());
    return;
  }
  if (m->unknown) {  // the hub lost it: attached again, its client told to resync
    spdlog::info("node {}: the hub did not know connection {}: attaching it again", node_,
                 m->connection);
    attach_again(*to, resync_text("lost"));
    return;
  }
  std::vector<std::shared_ptr<const std::string>> texts;
  texts.reserve(m->texts.size());
  for (auto& t : m->texts) texts.push_back(std::make_shared<const std::string>(std::move(t)));
  to->send_all(std::move(texts));
}

// ---- the hub's node ----

Gateway::Subjects Gateway::hub_subjects() {
  return {bus::hub_subject(), &bus::node_subject};
}

Gateway::Subjects Gateway::games_subjects(std::int64_t node) {
  return {bus::games_subject(node), &bus::node_games_subject};
}

Gateway::Gateway(Bus& bus, Dispatcher& hub, Subjects subjects, Elsewhere elsewhere)
    : bus_(bus), hub_(hub), subjects_(std::move(subjects)), elsewhere_(std::move(elsewhere)) {
  subscription_ =
      bus_.subscribe(subjects_.listen, [this](std::string_view data) { arrived(data); });
}

bool Gateway::sent_elsewhere(const bus::ToHub& m, const protocol::ClientEnvelope& command) {
  if (!elsewhere_ || protocol::family(command.message) != protocol::Family::Game) return false;
  const auto owner = elsewhere_(*protocol::game_of(command.message));
  if (!owner) return false;
  try {
    bus_.publish(subjects_.reply(m.node),
                 bus::encode(bus::ToNode{m.connection, {m.text}, std::nullopt, false, *owner}));
  } catch (const std::exception& e) {
    spdlog::warn("node {} could not be told where game {} is played: {}", m.node,
                 *protocol::game_of(command.message), e.what());
  }
  return true;
}

Gateway::~Gateway() {
  subscription_.reset();  // nothing arrives after this
  // What arrived before may still be queued at the hub (a barrier's answer holds `this`): wait
  // until the hub has run it, so that nothing runs on a gone gateway. Found by TSan: a server's
  // exit freed its gateway while the journal thread was answering a front node's barrier.
  std::promise<void> drained;
  auto done = drained.get_future();
  hub_.after_replies([&drained] { drained.set_value(); });
  done.wait();
}

std::size_t Gateway::connections() const {
  std::lock_guard lock(mutex_);
  return remote_.size();
}

void Gateway::arrived(std::string_view data) {
  const auto m = bus::decode_to_hub(data);
  if (!m) {
    spdlog::warn("the hub: an unreadable message on the bus, dropped");
    return;
  }
  const std::pair key{m->node, m->connection};
  if (m->op == bus::ToHub::Op::RollCall || m->op == bus::ToHub::Op::RollEnd) {
    roll(m->node, m->op == bus::ToHub::Op::RollCall);
    return;
  }
  if (m->op == bus::ToHub::Op::Barrier) {
    hub_.after_replies([this, node = m->node, id = m->connection] {
      bus_.publish(subjects_.reply(node), bus::encode(bus::ToNode{0, {}, id}));
    });
    return;
  }
  std::shared_ptr<Connection> connection;
  std::shared_ptr<Connection> replaced;  // the same connection attached again: its stand-in goes
  {
    std::lock_guard lock(mutex_);
    if (m->op == bus::ToHub::Op::Connected) {
      connection = std::make_shared<RemoteConnection>(bus_, subjects_.reply, m->node, m->connection,
                                                      ++next_id_, m->user, m->rtt_ms);
      auto& slot = remote_[key];
      replaced = std::exchange(slot, connection);
      if (const auto roll = unanswered_.find(m->node); roll != unanswered_.end())
        roll->second.erase(m->connection);
    } else if (const auto it = remote_.find(key); it != remote_.end()) {
      connection = it->second;
      if (m->op == bus::ToHub::Op::Disconnected) remote_.erase(it);
    }
  }
  if (!connection) {
    // Its announcement was lost (or its stand-in let go while it lived): the node is told, and
    // attaches it again. A departure needs no answer.
    if (m->op == bus::ToHub::Op::Received || m->op == bus::ToHub::Op::Answer) {
      try {
        bus_.publish(subjects_.reply(m->node),
                     bus::encode(bus::ToNode{m->connection, {}, std::nullopt, true}));
      } catch (const std::exception& e) {
        spdlog::warn("the hub could not tell node {} of an unknown connection: {}", m->node,
                     e.what());
      }
    }
    return;
  }
  switch (m->op) {
    case bus::ToHub::Op::Connected:
      hub_.connected(connection);
      // The stand-in it replaces leaves its rooms (the client joins them again) after the new
      // one is there, so that the player does not leave the lobby's presence meanwhile.
      if (replaced) hub_.disconnected(replaced);
      break;
    case bus::ToHub::Op::Received: {
      static_cast<RemoteConnection&>(*connection).set_rtt(m->rtt_ms);
      auto decoded = protocol::decode_client(m->text);
      if (auto* command = std::get_if<protocol::ClientEnvelope>(&decoded)) {
        if (sent_elsewhere(*m, *command)) break;
        hub_.received(connection, std::move(*command));
      } else {
        hub_.answer(connection, std::get<protocol::Error>(decoded));
      }
      break;
    }
    case bus::ToHub::Op::Disconnected:
      hub_.disconnected(connection);
      break;
    case bus::ToHub::Op::Answer:
      hub_.after_replies([connection, text = std::make_shared<const std::string>(m->text)] {
        connection->send(text);
      });
      break;
    case bus::ToHub::Op::Barrier:
    case bus::ToHub::Op::RollCall:
    case bus::ToHub::Op::RollEnd:
      break;
  }
}

void Gateway::roll(std::int64_t node, bool begin) {
  std::vector<std::shared_ptr<Connection>> gone;
  {
    std::lock_guard lock(mutex_);
    if (begin) {
      auto& unanswered = unanswered_[node];
      unanswered.clear();
      for (const auto& [key, connection] : remote_) {
        if (key.first == node) unanswered.insert(key.second);
      }
      return;
    }
    const auto it = unanswered_.find(node);
    if (it == unanswered_.end()) return;
    for (const auto number : it->second) {
      if (const auto r = remote_.find({node, number}); r != remote_.end()) {
        gone.push_back(std::move(r->second));
        remote_.erase(r);
      }
    }
    unanswered_.erase(it);
  }
  if (gone.empty()) return;
  spdlog::info("the hub let go of {} connections of node {} that it no longer holds", gone.size(),
               node);
  leave(gone);
}

std::vector<std::int64_t> Gateway::nodes() const {
  std::vector<std::int64_t> out;
  std::lock_guard lock(mutex_);
  for (const auto& [key, connection] : remote_) {
    if (out.empty() || out.back() != key.first) out.push_back(key.first);  // ordered by node
  }
  return out;
}

std::size_t Gateway::let_go(std::int64_t node) {
  std::vector<std::shared_ptr<Connection>> gone;
  {
    std::lock_guard lock(mutex_);
    for (auto it = remote_.lower_bound({node, 0});
         it != remote_.end() && it->first.first == node;) {
      gone.push_back(std::move(it->second));
      it = remote_.erase(it);
    }
    unanswered_.erase(node);
  }
  leave(gone);
  return gone.size();
}

void Gateway::leave(const std::vector<std::shared_ptr<Connection>>& gone) {
  for (const auto& connection : gone) hub_.disconnected(connection);
}

}  // namespace tengen::cluster
