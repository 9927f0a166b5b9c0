#include "lobby/commit_path.h"

#include <unordered_map>

namespace tengen {
namespace {

// The messages grouped by recipient, each one's in the order they were produced, so
// that each is handed its share at once (a connection: one post to its strand, not one each).
using Texts = std::vector<std::shared_ptr<const std::string>>;
std::vector<std::pair<std::shared_ptr<Recipient>, Texts>> by_connection(
    decltype(Outbox::sends) sends) {
  std::vector<std::pair<std::shared_ptr<Recipient>, Texts>> grouped;
  std::unordered_map<const Recipient*, std::size_t> slot;
  grouped.reserve(sends.size());
  for (auto& [to, text] : sends) {
    const auto [it, added] = slot.try_emplace(to.get(), grouped.size());
    if (added) grouped.emplace_back(std::move(to), Texts{});
    grouped[it->second].second.push_back(std::move(text));
  }
  return grouped;
}

}  // namespace

void CommitPath::submit(Outbox& out) {
  out.ended.clear();
  if (out.empty()) return;
  const std::int64_t at = clock_.unix_ms();
  for (auto& w : out.writes) {
    std::visit(
        [at](auto& row) {
          if constexpr (requires { row.at_ms; }) {
            if (row.at_ms == 0) row.at_ms = at;
          }
        },
        w);
  }
  journal_.submit(std::move(out.writes), [sends = by_connection(std::move(out.sends))]() mutable {
    for (auto& [to, texts] : sends) to->send_all(std::move(texts));
  });
  out = {};
}

}  // namespace tengen
