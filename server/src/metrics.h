#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace tengen {

// Counters for GET /metrics (Prometheus text format). Lock-free: bumped from any thread.
struct Metrics {
  std::atomic<std::int64_t> ws_connections{0};         // open now
  std::atomic<std::uint64_t> ws_connections_total{0};  // ever opened
  std::atomic<std::uint64_t> ws_messages_total{0};     // commands received
  std::atomic<std::uint64_t> ws_errors_total{0};       // commands answered with an error
  std::atomic<std::uint64_t> ws_dropped_total{0};      // slow or abusive clients dropped
  std::atomic<std::uint64_t> ws_pongs_total{0};        // answers to pings: round trips measured
  std::atomic<std::uint64_t> http_requests_total{0};
  std::atomic<std::uint64_t> moves_total{0};  // moves and passes played
  std::atomic<std::uint64_t> games_started_total{0};
  // Leases (docs/cluster.md; with SQLite the node is alone and these stay 0).
  std::atomic<std::uint64_t> lease_renewals_total{0};
  std::atomic<std::uint64_t> lease_renewal_failures_total{0};  // the store could not be reached
  std::atomic<std::uint64_t> lease_renewal_us_total{0};        // time spent renewing
  std::atomic<std::uint64_t> chat_lines_elsewhere_total{0};  // counted here, posted on another node
  std::atomic<std::uint64_t> games_taken_over_total{0};      // from nodes whose liveness ran out
  std::atomic<std::uint64_t> games_loaded_total{0};  // read back from the store (GameDirectory)
  // The bus between nodes (with --bus; docs/cluster.md).
  std::atomic<std::uint64_t> bus_published_total{0};  // messages this node put on the bus
  std::atomic<std::uint64_t> bus_received_total{0};   // messages it took off the bus
  std::atomic<std::uint64_t> bus_resyncs_total{0};    // its connections attached again
  std::atomic<std::uint64_t> ws_reattached_total{0};  // connections attached again, in all
  std::atomic<std::int64_t> node_is_hub{-1};          // 1 the hub, 0 a front node; -1 alone

  struct Gauges {
    std::int64_t games_active = 0;
    std::int64_t challenges_open = 0;
    std::int64_t users_online = 0;
    // The journal's group commit (store/journal.h).
    std::uint64_t journal_commits = 0;
    std::uint64_t journal_rows = 0;
    double journal_commit_seconds = 0;
    // Readiness (GET /healthz): 1 ready, 0 not (the database or, on a front node, the bus away).
    int ready = 1;
    std::uint64_t database_reconnects = 0;  // connections to PostgreSQL made again after a loss
    // Analysis (docs/analysis.md): jobs waiting or being analysed (games and review boards'
    // positions), and the workers that asked for work in the last five minutes.
    std::int64_t analysis_unfinished = 0;
    std::int64_t analysis_workers_seen = 0;
  };

  // `gauges` is asked at render time (the hub's state); `uptime_s` since start.
  std::string render(const Gauges& gauges, double uptime_s) const;
};

}  // namespace tengen
