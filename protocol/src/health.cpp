#include "protocol/health.h"

#include <nlohmann/json.hpp>

namespace tengen::protocol {

std::string encode(const Health& health) {
  nlohmann::json body{{"status", "ok"},
                      {"version", health.version},
                      {"schema_version", health.schema_version},
                      {"uptime_ms", health.uptime_ms}};
  if (!health.node.empty()) {
    body["node"] = health.node;
    body["node_id"] = health.node_id;
  }
  if (!health.role.empty()) body["role"] = health.role;
  return body.dump();
}

}  // namespace tengen::protocol
