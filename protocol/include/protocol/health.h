#pragma once

#include <string>

namespace tengen::protocol {

// The body of GET /healthz: enough for a probe and for a person reading it.
struct Health {
  std::string version;
  int schema_version = 0;
  long long uptime_ms = 0;
  // With PostgreSQL, the node that answers (docs/cluster.md): its --node name and its id among
  // the database's nodes. Left out when empty (a SQLite server is alone).
  std::string node;
  long long node_id = 0;
  // With several nodes (--bus): "hub" or "front".
  std::string role;
  // Why the node is not ready, or empty when it is: "status" is then "unavailable" and GET
  // /healthz answers 503 (docs/operations.md).
  std::string not_ready;
};

std::string encode(const Health& health);

}  // namespace tengen::protocol
