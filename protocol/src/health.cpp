#include "protocol/health.h"

#include <nlohmann/json.hpp>

namespace tengen::protocol {

std::string encode(const Health& health) {
  nlohmann::json body{{"status", health.not_ready.empty() ? "ok" : "unavailable"},
                      {"version", health.version},
                      {"schema_version", health.schema_version},
                      {"uptime_ms", health.uptime_ms}};
  if (!health.node.empty()) {
    body["node"] = health.node;
    body["node_id"] = health.node_id;
  }
  if (!health.role.empty()) body["role"] = health.role;
  if (!health.not_ready.empty()) body["reason"] = health.not_ready;
  return body.dump();
}

}  // namespace tengen::protocol
