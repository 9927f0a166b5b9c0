#pragma once

#include <chrono>
#include <cstddef>

namespace tengen {

// Limits on each WebSocket connection; docs/limits.md lists them.
struct ConnectionLimits {
  std::size_t max_message_bytes = std::size_t{8} * 1024;    // larger frames: closed with 1009
  std::size_t max_queued_bytes = std::size_t{1024} * 1024;  // a reader this far behind is dropped
  int messages_per_second = 20;                             // sustained command rate
  int message_burst = 40;                                   // commands at once
  // Refused (rate-limited) commands at once before the client is dropped, and how fast that
  // allowance comes back: "far over the limit" means now, not fifty times over a day.
  int abuse_strikes = 50;
  std::chrono::milliseconds abuse_strike_refill{1000};
  std::chrono::milliseconds handshake_timeout{10'000};  // to send a whole HTTP request or upgrade
  std::chrono::milliseconds idle_timeout{60'000};       // pings are sent at half of it
  int connections_per_address = 32;
  std::chrono::milliseconds rtt_ping_interval{10'000};  // pings that measure the round trip (lag)
};

}  // namespace tengen
