#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "centre/reads.h"
#include "cluster/bus.h"

namespace tengen {
class Centre;
}

namespace tengen::cluster {

// The HTTP API's reads of what only the hub's memory holds (HubReads: a game in play's record,
// the tournaments), across the cluster (docs/cluster.md): the hub answers them on the bus from its
// own, and a front node asks them there, so that a page served by any node shows the same.

// The hub's own reads (what a front node asks of it), from its centre.
HubReads hub_reads_of(Centre& centre);

// The hub's side: answers each question on protocol::bus::hub_reads_subject() from `local`,
// until the subscription goes (before `local`'s owner).
[[nodiscard]] std::unique_ptr<Bus::Subscription> answer_hub_reads(Bus& bus, HubReads local);
// Games on every node (docs/cluster.md): a node answers the reads of the games it plays on
// protocol::bus::game_reads_subject(node), from `local` (its own games' centre).
[[nodiscard]] std::unique_ptr<Bus::Subscription> answer_game_reads(Bus& bus, HubReads local,
                                                                   std::int64_t node);

// A front node's side: the reads, each a question to the hub; each throws Unavailable when no
// hub answers within `patience` (none at all: at once).
HubReads ask_hub(Bus& bus, std::chrono::milliseconds patience = std::chrono::seconds(3));
// The hub's side of games on every node: the reads of the games `node` plays, asked of it.
HubReads ask_node(Bus& bus, std::int64_t node,
                  std::chrono::milliseconds patience = std::chrono::seconds(3));

}  // namespace tengen::cluster
