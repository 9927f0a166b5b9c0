#include "lobby/presence.h"

#include <algorithm>

namespace tengen {

bool Presence::connected(const std::shared_ptr<Connection>& connection) {
  all_[connection->id()] = connection;
  const auto& user = connection->user();
  if (!user) return false;
  auto& theirs = online_[user->id];
  theirs.push_back(connection);
  return theirs.size() == 1;
}

bool Presence::disconnected(const Connection& connection) {
  all_.erase(connection.id());
  const auto& user = connection.user();
  if (!user) return false;
  const auto it = online_.find(user->id);
  if (it == online_.end()) return false;
  std::erase_if(it->second, [&](const auto& c) { return c.get() == &connection; });
  if (!it->second.empty()) return false;
  online_.erase(it);
  return true;
}

void Presence::send_to_user(std::int64_t user, const std::shared_ptr<const std::string>& text,
                            Outbox& out) const {
  if (const auto it = online_.find(user); it != online_.end()) {
    for (const auto& c : it->second) out.send(c, text);
  }
}

void Presence::send_to_all(const std::shared_ptr<const std::string>& text, Outbox& out) const {
  for (const auto& [id, c] : all_) out.send(c, text);
}

void Presence::send_to_all_but(const std::function<bool(std::int64_t user)>& skip,
                               const std::shared_ptr<const std::string>& text, Outbox& out) const {
  for (const auto& [id, c] : all_) {
    if (!(c->user() && skip(c->user()->id))) out.send(c, text);
  }
}

std::vector<protocol::UserRef> Presence::listed() const {
  std::vector<protocol::UserRef> users;
  for (const auto& [id, conns] : online_) {
    if (users.size() == kListed) break;
    users.push_back({id, conns.front()->user()->username});
  }
  return users;
}

bool Presence::note(const protocol::UserRef& user, bool online) {
  const bool first = changes_.empty();
  changes_.insert_or_assign(user.id, std::pair{user, online});
  return first;
}

std::optional<protocol::Presence> Presence::take_message() {
  if (changes_.empty()) return std::nullopt;
  protocol::Presence p;
  auto it = changes_.begin();
  for (std::size_t n = 0; it != changes_.end() && n < kListed; ++it, ++n)
    (it->second.second ? p.online : p.offline).push_back(it->second.first);
  changes_.erase(changes_.begin(), it);
  p.online_count = online_count();
  return p;
}

}  // namespace tengen
