#include "metrics.h"

#include <sstream>

namespace tengen {
namespace {

template <typename T>
void metric(std::ostringstream& out, const char* name, const char* type, const char* help,
            T value) {
  out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n'
      << name << ' ' << value << '\n';
}

}  // namespace

std::string Metrics::render(const Gauges& g, double uptime_s) const {
  std::ostringstream out;
  metric(out, "tengen_uptime_seconds", "gauge", "Seconds since the server started.", uptime_s);
  metric(out, "tengen_ws_connections", "gauge", "Open WebSocket connections.",
         ws_connections.load());
  metric(out, "tengen_ws_connections_total", "counter", "WebSocket connections opened.",
         ws_connections_total.load());
  metric(out, "tengen_ws_messages_total", "counter", "Commands received over WebSockets.",
         ws_messages_total.load());
  metric(out, "tengen_ws_errors_total", "counter", "Commands answered with an error.",
         ws_errors_total.load());
  metric(out, "tengen_ws_dropped_total", "counter", "Clients dropped as too slow or abusive.",
         ws_dropped_total.load());
  metric(out, "tengen_ws_pongs_total", "counter",
         "Answers to the server's pings, each a round trip measured for lag compensation.",
         ws_pongs_total.load());
  metric(out, "tengen_http_requests_total", "counter", "HTTP requests served.",
         http_requests_total.load());
  metric(out, "tengen_moves_total", "counter", "Moves and passes played (rate() gives moves/s).",
         moves_total.load());
  metric(out, "tengen_games_started_total", "counter", "Games started.",
         games_started_total.load());
  metric(out, "tengen_lease_renewals_total", "counter",
         "Times this node renewed its liveness (with PostgreSQL).", lease_renewals_total.load());
  metric(out, "tengen_lease_renewal_failures_total", "counter",
         "Renewals that could not reach the database.", lease_renewal_failures_total.load());
  metric(out, "tengen_lease_renewal_seconds_total", "counter",
         "Time spent renewing (divided by renewals: the database's round trip).",
         static_cast<double>(lease_renewal_us_total.load()) / 1e6);
  metric(out, "tengen_chat_lines_elsewhere_total", "counter",
         "Lines of chat posted on other nodes that this node's chat rates counted too.",
         chat_lines_elsewhere_total.load());
  metric(out, "tengen_games_taken_over_total", "counter",
         "Games this node took over from nodes whose liveness ran out.",
         games_taken_over_total.load());
  metric(out, "tengen_games_loaded_total", "counter",
         "Games read back from the store into memory (a finished game opened again, a game taken "
         "over).",
         games_loaded_total.load());
  if (node_is_hub.load() >= 0) {
    metric(out, "tengen_node_is_hub", "gauge",
           "1 if this node runs the hub, 0 if it is a front node (with --bus).",
           node_is_hub.load());
    metric(out, "tengen_bus_published_total", "counter", "Messages this node put on the bus.",
           bus_published_total.load());
    metric(out, "tengen_bus_received_total", "counter", "Messages this node took off the bus.",
           bus_received_total.load());
    metric(out, "tengen_bus_resyncs_total", "counter",
           "Times this node attached its connections again (the hub moved, or the bus broke).",
           bus_resyncs_total.load());
    metric(out, "tengen_ws_reattached_total", "counter",
           "Connections attached again to a new hub without being closed, told to resync.",
           ws_reattached_total.load());
  }
  metric(out, "tengen_ready", "gauge",
         "1 if the node is ready (GET /healthz 200), 0 while the database or the bus is away.",
         g.ready);
  metric(out, "tengen_database_reconnects_total", "counter",
         "Connections to PostgreSQL made again after the database ended or lost them.",
         g.database_reconnects);
  metric(out, "tengen_analysis_unfinished", "gauge",
         "Analyses waiting for a worker or being analysed (games and review boards' positions).",
         g.analysis_unfinished);
  metric(out, "tengen_analysis_workers_seen", "gauge",
         "Analysis workers that asked for work in the last five minutes.", g.analysis_workers_seen);
  metric(out, "tengen_games_active", "gauge", "Games not yet over.", g.games_active);
  metric(out, "tengen_challenges_open", "gauge", "Open challenges.", g.challenges_open);
  metric(out, "tengen_users_online", "gauge", "Logged-in users with a connection.", g.users_online);
  metric(out, "tengen_journal_commits_total", "counter",
         "Transactions the journal committed (one fsync each).", g.journal_commits);
  metric(out, "tengen_journal_rows_total", "counter",
         "Rows the journal wrote (rows/commits = events per commit).", g.journal_rows);
  metric(out, "tengen_journal_commit_seconds_total", "counter", "Time spent committing.",
         g.journal_commit_seconds);
  return out.str();
}

}  // namespace tengen
