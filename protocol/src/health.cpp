#include "protocol/health.h"

#include <nlohmann/json.hpp>

namespace tengen::protocol {

std::string encode(const Health& health) {
  return nlohmann::json{{"status", "ok"},
                        {"version", health.version},
                        {"schema_version", health.schema_version},
                        {"uptime_ms", health.uptime_ms}}
      .dump();
}

}  // namespace tengen::protocol
