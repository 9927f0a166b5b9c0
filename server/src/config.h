#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tengen {

// Everything the server can be told, from flags or TENGEN_* environment variables (flags win).
// The defaults start a working server with no arguments.
struct Config {
  std::string address = "0.0.0.0";
  unsigned short port = 8080;
  std::string database = "tengen.sqlite3";  // a SQLite file, or a postgres:// URI
  // Empty: share/tengen/web beside the binary's bin/ (default_web_root), the install layout, which
  // the build tree mirrors (web/CMakeLists.txt).
  std::string web_root;
  std::string log_level = "info";
  // When set, the bound port is written here once listening (for tests using port 0).
  std::string port_file;
  // Origins (scheme://host[:port]) whose pages may open WebSockets, besides the server's own.
  std::vector<std::string> allowed_origins;
  // The address players use, when it is not this server's own (behind a TLS proxy:
  // https://go.example.org). Its origin may open WebSockets, and with https the session cookie
  // is marked Secure.
  std::string public_url;
  int threads = 2;  // network threads
  // With PostgreSQL (docs/cluster.md): this node's name, unique among the running nodes (empty:
  // the host name), and how long its leases outlive its last renewal.
  std::string node;
  int lease_ttl_ms = 5000;
  // With PostgreSQL: how long to wait at start for a database that does not accept connections
  // yet (starting, recovering), before exiting with code 3 (docs/operations.md).
  int database_wait_s = 60;
  // With PostgreSQL: the NATS server the nodes talk through (nats://host:4222). Set, this server
  // is one node of several over the database; unset, the only server on it.
  std::string bus;
  // The server's own GNU Go bots (docs/bots.md): "auto" runs them on a single server and not on
  // the nodes of a cluster (there, "on" for one node); "on" or "off".
  std::string bots = "auto";
  std::string gnugo = "/usr/games/gnugo";
  // Empty: tengen-gtp-bridge beside the server binary, or in the build tree (default_bridge).
  std::string bot_bridge;
  // Registration (docs/moderation.md): "open", or "invite" (an invite code is needed); and how many
  // accounts one address may register in a day without an invite (0: no limit).
  std::string registration = "open";
  int registrations_per_address = 20;
  // Analysis after the game (docs/analysis.md): the house worker ("auto": on a single server,
  // "on", "off"), and how long a silent worker keeps its game.
  std::string analysis_worker = "auto";
  int analysis_claim_seconds = 120;
  // --games: "every-node", "hub", or "" (not said: every-node in a cluster).
  std::string games;
  // Games are played on the node of the player who accepted (a cluster not told `--games hub`).
  bool games_on_every_node = false;
  bool analyse_every_game = false;  // every finished game queued, nobody having asked
  bool anyone_may_teach = false;    // --teachers anyone (docs/classes.md)
  int ladder_check_seconds = 5;     // the groups' ladders looked at (docs/groups.md, "Ladders")
  // Proxies whose X-Forwarded-For names the client (http/proxies.h): addresses and networks,
  // comma-separated; none by default.
  std::string trusted_proxies;
  // E-mail through the operator's SMTP relay (docs/mail.md): none without a URL. The relay
  // (smtp://host:587 with STARTTLS, smtps://host:465), its login, whether smtp:// must use
  // STARTTLS ("starttls") or may speak plain text ("none": a relay on this machine), the From
  // line, and how often a player may be told "your move" in one game.
  std::string smtp_url;
  std::string smtp_user;
  std::string smtp_password;
  std::string smtp_tls = "starttls";
  std::string mail_from;
  int your_move_mail_minutes = 60;
  // Web Push (docs/web-client.md, "Push"): on unless "off"; push services beyond the browsers'
  // own, as origins (a self-hosted one; a test's on loopback).
  bool push = true;
  std::vector<std::string> push_services;

  // Argon2id at its minimum cost instead of libsodium's "interactive" cost: for tests only.
  bool fast_password_hashing = false;

  // What to do instead of serving (one-off commands for operators and container health checks).
  enum class Command {
    Serve,
    HealthCheck,
    Backup,
    Import,
    MakeAdmin,
    RemoveAdmin,
    RecomputeRatings,
    MakeWorkerKey,
    RevokeWorkerKey
  };
  Command command = Command::Serve;
  std::string admin_name;   // --make-admin NAME, --remove-admin NAME
  std::string worker_name;  // --make-worker-key NAME, --revoke-worker-key NAME
  std::string backup_to;    // --backup FILE
  std::string import_from;  // --import-sqlite FILE
};

struct ConfigResult {
  std::optional<Config> config;
  std::string error;  // set when the arguments are invalid
  bool help = false;  // --help was asked for
};

ConfigResult parse_config(const std::vector<std::string>& args,
                          const std::vector<std::string>& environment);

std::string usage();

// Whether --database names a PostgreSQL database (postgres:// or postgresql://) rather than a
// SQLite file.
inline bool is_postgres(const std::string& database) {
  return database.starts_with("postgres://") || database.starts_with("postgresql://");
}

// Where the web client is when --web-root is not given: ../share/tengen/web from the folder that
// holds the server binary (/usr/local/bin -> /usr/local/share/tengen/web; the build tree's
// build/PRESET/server -> build/PRESET/share/tengen/web).
std::string default_web_root(const std::string& executable);

// Where tengen-gtp-bridge is when --bot-bridge is not given: beside the server binary (the install
// layout), or in the build tree's build/PRESET/bridge/.
std::string default_bridge(const std::string& executable);
// The same for the analysis worker, tengen-analysis (docs/analysis.md).
std::string default_analysis_worker(const std::string& executable);

// The address a person can open in a browser for a server listening on `address`:`port`
// (http://localhost:8080/ for every interface), and whether it listens on every interface.
struct ListenUrl {
  std::string url;
  bool every_interface = false;
};
ListenUrl listen_url(const std::string& address, unsigned short port);

}  // namespace tengen
