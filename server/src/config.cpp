#include "config.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <string_view>

#include "http/proxies.h"
#include "mail/message.h"

namespace tengen {
namespace {

struct Option {
  std::string_view flag;
  std::string_view env;
  std::string_view help;
};

constexpr Option kOptions[] = {
    {"--address", "TENGEN_ADDRESS", "address to listen on (default 0.0.0.0)"},
    {"--port", "TENGEN_PORT", "TCP port for HTTP and WebSocket (default 8080; 0 picks one)"},
    {"--database", "TENGEN_DATABASE",
     "SQLite file (default tengen.sqlite3), or a PostgreSQL URI: postgres://user@host/db"},
    {"--web-root", "TENGEN_WEB_ROOT",
     "directory of the static web client (default ../share/tengen/web from the binary's folder)"},
    {"--log-level", "TENGEN_LOG_LEVEL", "trace, debug, info, warn, error (default info)"},
    {"--port-file", "TENGEN_PORT_FILE", "write the bound port to this file once listening"},
    {"--allowed-origins", "TENGEN_ALLOWED_ORIGINS",
     "comma-separated origins besides the server's own that may open WebSockets"},
    {"--public-url", "TENGEN_PUBLIC_URL",
     "the address players use behind a proxy (https://go.example.org): its origin may open "
     "WebSockets; https marks the session cookie Secure"},
    {"--threads", "TENGEN_THREADS", "network threads (default 2)"},
    {"--node", "TENGEN_NODE",
     "with PostgreSQL: this node's name, unique among running nodes (default the host name)"},
    {"--bus", "TENGEN_BUS",
     "with PostgreSQL: the NATS server of several nodes over one database (nats://host:4222)"},
    {"--lease-ttl", "TENGEN_LEASE_TTL",
     "with PostgreSQL: milliseconds a dead node's games wait before others take them (default "
     "5000)"},
    {"--games", "TENGEN_GAMES",
     "with a bus: every-node (the default: a live game, rated or not, played on the node of the "
     "player who accepted its challenge or sought last in quick match) or hub (every game played "
     "on the hub); docs/cluster.md"},
    {"--database-wait", "TENGEN_DATABASE_WAIT",
     "with PostgreSQL: seconds to wait at start for a database that does not accept connections "
     "yet, then exit with code 3 (default 60)"},
    {"--bots", "TENGEN_BOTS",
     "the server's own GNU Go players: on, off, or auto (default: on, except on the nodes of a "
     "cluster)"},
    {"--gnugo", "TENGEN_GNUGO", "the GNU Go the bots run (default /usr/games/gnugo)"},
    {"--bot-bridge", "TENGEN_BOT_BRIDGE",
     "the tengen-gtp-bridge the bots run through (default: beside this binary)"},
    {"--trusted-proxies", "TENGEN_TRUSTED_PROXIES",
     "addresses or networks of proxies (Caddy) whose X-Forwarded-For names the client, for the "
     "per-address limits (comma-separated; none by default)"},
    {"--registration", "TENGEN_REGISTRATION",
     "open, or invite: registering needs an invite code from an administrator (default open)"},
    {"--registrations-per-address", "TENGEN_REGISTRATIONS_PER_ADDRESS",
     "accounts one address may register in a day without an invite code (default 20; 0: no "
     "limit)"},
    {"--smtp-url", "TENGEN_SMTP_URL",
     "the SMTP relay that sends e-mail (smtp://host:587 with STARTTLS, smtps://host:465); none: "
     "no e-mail (docs/mail.md)"},
    {"--smtp-user", "TENGEN_SMTP_USER", "the relay's login name, if it wants one"},
    {"--smtp-password", "TENGEN_SMTP_PASSWORD",
     "the relay's password (better in the environment than on the command line)"},
    {"--smtp-tls", "TENGEN_SMTP_TLS",
     "starttls: an smtp:// relay must offer STARTTLS (default); none: plain text, for a relay on "
     "this machine"},
    {"--mail-from", "TENGEN_MAIL_FROM",
     "the From line of mails, e.g. \"Tengen <go@example.org>\" (required with --smtp-url)"},
    {"--your-move-mail-minutes", "TENGEN_YOUR_MOVE_MAIL_MINUTES",
     "a player is told 'your move' by mail at most once per game in this many minutes (default "
     "60)"},
    {"--push", "TENGEN_PUSH",
     "on: players may have their devices told 'your move' and more by Web Push, signed with this "
     "server's own key (default); off: no push (docs/web-client.md, \"Push\")"},
    {"--push-services", "TENGEN_PUSH_SERVICES",
     "push services beyond the browsers' own, as origins (https://push.example.org), "
     "comma-separated; none by default"},
    {"--analysis-worker", "TENGEN_ANALYSIS_WORKER",
     "auto: a house analysis worker with GNU Go (tengen-analysis beside this binary) on a single "
     "server, none in a cluster (default); on; off (docs/analysis.md)"},
    {"--analyse-every-game", "TENGEN_ANALYSE_EVERY_GAME",
     "on: every finished game of 10 moves or more is queued for analysis, nobody having asked "
     "(default off)"},
    {"--analysis-claim-seconds", "TENGEN_ANALYSIS_CLAIM_SECONDS",
     "an analysis worker silent this long loses its game to another worker (default 120)"},
    {"--ladder-check-seconds", "TENGEN_LADDER_CHECK_SECONDS",
     "how often the groups' ladders are looked at for ended games and challenges not accepted in "
     "time (default 5)"},
    {"--teachers", "TENGEN_TEACHERS",
     "appointed: only those the administrators make teachers make classes (default); anyone: "
     "every player may (docs/classes.md)"},
    {"--insecure-fast-password-hashing", "TENGEN_INSECURE_FAST_PASSWORD_HASHING",
     "yes: minimum Argon2id cost, for tests only (default no)"},
};

// The items of a comma-separated list, each without the spaces around it (empty ones too).
std::vector<std::string_view> comma_list(std::string_view value) {
  std::vector<std::string_view> items;
  while (!value.empty()) {
    const auto comma = value.find(',');
    std::string_view item = value.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    items.push_back(item);
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return items;
}

std::optional<std::string> apply(Config& config, std::string_view flag, const std::string& value) {
  // Empty means none for these (compose files set variables to empty by default).
  if (value.empty() && flag != "--port-file" && flag != "--allowed-origins" &&
      flag != "--public-url" && flag != "--trusted-proxies" && !flag.starts_with("--smtp-") &&
      flag != "--mail-from" && flag != "--push-services")
    return std::string(flag) + " must not be empty";
  if (flag == "--address") {
    config.address = value;
  } else if (flag == "--port") {
    unsigned port = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), port);
    if (ec != std::errc{} || end != value.data() + value.size() || port > 65535) {
      return "port must be a number from 0 to 65535, not '" + value + "'";
    }
    config.port = static_cast<unsigned short>(port);
  } else if (flag == "--database") {
    config.database = value;
  } else if (flag == "--web-root") {
    config.web_root = value;
  } else if (flag == "--log-level") {
    static constexpr std::string_view kLevels[] = {"trace", "debug", "info", "warn", "error"};
    bool known = false;
    for (auto level : kLevels) known = known || level == value;
    if (!known) return "unknown log level '" + value + "'";
    config.log_level = value;
  } else if (flag == "--port-file") {
    config.port_file = value;
  } else if (flag == "--public-url") {
    std::string_view url = value;
    while (url.ends_with('/')) url.remove_suffix(1);
    const auto host = url.find("://");
    if (!value.empty() &&
        (!(url.starts_with("http://") || url.starts_with("https://")) ||
         url.find('/', host + 3) != std::string_view::npos || host + 3 == url.size())) {
      return "the public URL looks like https://go.example.org (no path), not '" + value + "'";
    }
    config.public_url = url;
  } else if (flag == "--allowed-origins") {
    config.allowed_origins.clear();
    for (const auto origin : comma_list(value)) {
      if (!origin.starts_with("http://") && !origin.starts_with("https://")) {
        return "an allowed origin looks like https://go.example.org, not '" + std::string(origin) +
               "'";
      }
      config.allowed_origins.emplace_back(origin);
    }
  } else if (flag == "--threads") {
    int threads = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), threads);
    if (ec != std::errc{} || end != value.data() + value.size() || threads < 1 || threads > 64) {
      return "threads must be a number from 1 to 64, not '" + value + "'";
    }
    config.threads = threads;
  } else if (flag == "--node") {
    if (value.size() > 64) return "a node name has at most 64 characters";
    config.node = value;
  } else if (flag == "--bus") {
    if (!value.starts_with("nats://"))
      return "the bus is a NATS server's address, nats://host:port, not '" + value + "'";
    config.bus = value;
  } else if (flag == "--lease-ttl") {
    int ms = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
    if (ec != std::errc{} || end != value.data() + value.size() || ms < 300 || ms > 600'000) {
      return "the lease TTL must be milliseconds from 300 to 600000, not '" + value + "'";
    }
    config.lease_ttl_ms = ms;
  } else if (flag == "--database-wait") {
    int seconds = -1;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (ec != std::errc{} || end != value.data() + value.size() || seconds < 0 || seconds > 3600) {
      return "the database wait must be seconds from 0 to 3600, not '" + value + "'";
    }
    config.database_wait_s = seconds;
  } else if (flag == "--bots") {
    if (value != "on" && value != "off" && value != "auto")
      return "--bots takes on, off or auto, not '" + value + "'";
    config.bots = value;
  } else if (flag == "--gnugo") {
    config.gnugo = value;
  } else if (flag == "--bot-bridge") {
    config.bot_bridge = value;
  } else if (flag == "--trusted-proxies") {
    const auto parsed = TrustedProxies::parse(value);
    if (const auto* problem = std::get_if<std::string>(&parsed)) return *problem;
    config.trusted_proxies = value;
  } else if (flag == "--registration") {
    if (value != "open" && value != "invite")
      return "--registration takes open or invite, not '" + value + "'";
    config.registration = value;
  } else if (flag == "--analysis-worker") {
    if (value != "auto" && value != "on" && value != "off")
      return "--analysis-worker takes auto, on or off, not '" + value + "'";
    config.analysis_worker = value;
  } else if (flag == "--teachers") {
    if (value != "appointed" && value != "anyone")
      return "--teachers takes appointed or anyone, not '" + value + "'";
    config.anyone_may_teach = value == "anyone";
  } else if (flag == "--games") {
    if (value != "hub" && value != "every-node")
      return "--games takes hub or every-node, not '" + value + "'";
    config.games = value;
  } else if (flag == "--analyse-every-game") {
    if (value != "on" && value != "off")
      return "--analyse-every-game takes on or off, not '" + value + "'";
    config.analyse_every_game = value == "on";
  } else if (flag == "--analysis-claim-seconds") {
    int n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc{} || end != value.data() + value.size() || n < 1 || n > 86'400)
      return "--analysis-claim-seconds must be a number from 1 to 86400, not '" + value + "'";
    config.analysis_claim_seconds = n;
  } else if (flag == "--ladder-check-seconds") {
    int n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc{} || end != value.data() + value.size() || n < 1 || n > 3600)
      return "--ladder-check-seconds must be a number from 1 to 3600, not '" + value + "'";
    config.ladder_check_seconds = n;
  } else if (flag == "--registrations-per-address") {
    int n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc{} || end != value.data() + value.size() || n < 0 || n > 100'000) {
      return "--registrations-per-address must be a number from 0 (no limit) to 100000, not '" +
             value + "'";
    }
    config.registrations_per_address = n;
  } else if (flag == "--smtp-url") {
    if (!value.empty() && !value.starts_with("smtp://") && !value.starts_with("smtps://"))
      return "the SMTP relay is smtp://host:port or smtps://host:port, not '" + value + "'";
    config.smtp_url = value;
  } else if (flag == "--smtp-user") {
    config.smtp_user = value;
  } else if (flag == "--smtp-password") {
    config.smtp_password = value;
  } else if (flag == "--smtp-tls") {
    if (value != "starttls" && value != "none")
      return "--smtp-tls takes starttls or none, not '" + value + "'";
    config.smtp_tls = value;
  } else if (flag == "--mail-from") {
    const bool one_line = std::none_of(value.begin(), value.end(), [](char c) {
      return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
    });
    if (!value.empty() && (!one_line || mail::address_problem(mail::bare_address(value)))) {
      return "--mail-from is an address, alone or as \"Name <go@example.org>\", not '" + value +
             "'";
    }
    config.mail_from = value;
  } else if (flag == "--your-move-mail-minutes") {
    int n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc{} || end != value.data() + value.size() || n < 1 || n > 10'080) {
      return "--your-move-mail-minutes must be a number from 1 to 10080 (a week), not '" + value +
             "'";
    }
    config.your_move_mail_minutes = n;
  } else if (flag == "--push") {
    if (value != "on" && value != "off") return "--push takes on or off, not '" + value + "'";
    config.push = value == "on";
  } else if (flag == "--push-services") {
    config.push_services.clear();
    for (const auto origin : comma_list(value)) {
      const auto host = origin.find("://");
      if (!(origin.starts_with("http://") || origin.starts_with("https://")) ||
          origin.find('/', host + 3) != std::string_view::npos || host + 3 == origin.size()) {
        return "a push service looks like https://push.example.org (no path), not '" +
               std::string(origin) + "'";
      }
      config.push_services.emplace_back(origin);
    }
  } else if (flag == "--insecure-fast-password-hashing") {
    if (value != "yes" && value != "no")
      return std::string(flag) + " takes yes or no, not '" + value + "'";
    config.fast_password_hashing = value == "yes";
  }
  return std::nullopt;
}

}  // namespace

std::string usage() {
  std::string text =
      "usage: tengen-server [options]\n\noptions (each also as an environment variable):\n";
  for (const auto& o : kOptions) {
    text += "  " + std::string(o.flag) + " VALUE";
    text += std::string(o.flag.size() < 14 ? 14 - o.flag.size() : 1, ' ');
    text += std::string(o.env) + "  " + std::string(o.help) + "\n";
  }
  text += "\ncommands (instead of serving):\n";
  text +=
      "  --health-check         ask the server at --port on this machine for /healthz; exit 0 if "
      "it is up\n";
  text +=
      "  --backup FILE          copy the --database into FILE with SQLite's online backup (safe "
      "while serving; for PostgreSQL use pg_dump)\n";
  text +=
      "  --import-sqlite FILE   copy everything in the SQLite FILE (accounts, games, ratings, "
      "tournaments) into the empty PostgreSQL --database\n";
  text +=
      "  --make-admin NAME      make the registered user NAME an administrator of the --database "
      "(safe while serving)\n";
  text += "  --remove-admin NAME    take the administrator's role from NAME\n";
  text +=
      "  --make-worker-key NAME a key for the analysis worker NAME (docs/analysis.md), printed "
      "once\n";
  text += "  --revoke-worker-key NAME  the worker NAME's key stops working\n";
  text +=
      "  --recompute-ratings    rebuild every rating from the finished games (stop the server "
      "first)\n";
  text += "  --help                 show this text\n";
  return text;
}

ConfigResult parse_config(const std::vector<std::string>& args,
                          const std::vector<std::string>& environment) {
  Config config;
  for (const auto& entry : environment) {
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    const std::string_view name(entry.data(), eq);
    for (const auto& o : kOptions) {
      if (o.env != name) continue;
      if (auto error = apply(config, o.flag, entry.substr(eq + 1))) {
        return {std::nullopt, std::string(name) + ": " + *error, false};
      }
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    std::string value;
    if (flag == "--help" || flag == "-h") return {std::nullopt, "", true};
    if (flag == "--health-check") {
      config.command = Config::Command::HealthCheck;
      continue;
    }
    if (flag == "--backup" || flag.starts_with("--backup=")) {
      if (flag == "--backup" && i + 1 >= args.size())
        return {std::nullopt, "--backup needs a file to write", false};
      config.backup_to =
          flag == "--backup" ? args[++i] : flag.substr(std::string_view("--backup=").size());
      if (config.backup_to.empty()) return {std::nullopt, "--backup needs a file to write", false};
      config.command = Config::Command::Backup;
      continue;
    }
    if (flag == "--import-sqlite" || flag.starts_with("--import-sqlite=")) {
      if (flag == "--import-sqlite" && i + 1 >= args.size())
        return {std::nullopt, "--import-sqlite needs the SQLite file to read", false};
      config.import_from = flag == "--import-sqlite"
                               ? args[++i]
                               : flag.substr(std::string_view("--import-sqlite=").size());
      if (config.import_from.empty())
        return {std::nullopt, "--import-sqlite needs the SQLite file to read", false};
      config.command = Config::Command::Import;
      continue;
    }
    if (flag == "--recompute-ratings") {
      config.command = Config::Command::RecomputeRatings;
      continue;
    }
    if (flag == "--make-worker-key" || flag == "--revoke-worker-key") {
      if (i + 1 >= args.size() || args[i + 1].empty())
        return {std::nullopt, flag + " needs the worker's name", false};
      config.worker_name = args[++i];
      config.command = flag == "--make-worker-key" ? Config::Command::MakeWorkerKey
                                                   : Config::Command::RevokeWorkerKey;
      continue;
    }
    if (flag == "--make-admin" || flag == "--remove-admin") {
      if (i + 1 >= args.size() || args[i + 1].empty())
        return {std::nullopt, flag + " needs the user's name", false};
      config.admin_name = args[++i];
      config.command =
          flag == "--make-admin" ? Config::Command::MakeAdmin : Config::Command::RemoveAdmin;
      continue;
    }
    if (const auto eq = flag.find('='); eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag.resize(eq);
    } else {
      bool known = false;
      for (const auto& o : kOptions) known = known || o.flag == flag;
      if (known && i + 1 >= args.size()) return {std::nullopt, flag + " needs a value", false};
      if (known) value = args[++i];
    }
    bool known = false;
    for (const auto& o : kOptions) known = known || o.flag == flag;
    if (!known) return {std::nullopt, "unknown option '" + flag + "'", false};
    if (auto error = apply(config, flag, value)) return {std::nullopt, *error, false};
  }
  if (!config.public_url.empty()) config.allowed_origins.push_back(config.public_url);
  if (config.command == Config::Command::Import && !is_postgres(config.database)) {
    return {std::nullopt,
            "--import-sqlite copies a SQLite file into the PostgreSQL database that --database "
            "names (postgres://...)",
            false};
  }
  if (!config.smtp_url.empty() && (config.mail_from.empty() || config.public_url.empty())) {
    return {std::nullopt,
            "e-mail (--smtp-url) needs --mail-from (\"Tengen <go@example.org>\", the sender) and "
            "--public-url (where the links in mails point)",
            false};
  }
  if (!config.bus.empty() && !is_postgres(config.database)) {
    return {std::nullopt,
            "--bus joins several nodes over one PostgreSQL database: --database must be a "
            "postgres:// URI",
            false};
  }
  if (config.games == "every-node" && config.bus.empty()) {
    return {std::nullopt,
            "--games every-node spreads games over the nodes of a cluster: it needs --bus "
            "(docs/cluster.md)",
            false};
  }
  // A cluster plays games on every node unless told `hub`; a single server has only itself.
  config.games_on_every_node = !config.bus.empty() && config.games != "hub";
  return {config, "", false};
}

std::string default_web_root(const std::string& executable) {
  const std::filesystem::path binary(executable);
  return (binary.parent_path() / ".." / "share" / "tengen" / "web").lexically_normal().string();
}

namespace {
// A program of this repository beside the server's binary (an install), or where the build tree
// puts it (bridge/).
std::string helper_program(const std::string& executable, const char* name) {
  const auto folder = std::filesystem::path(executable).parent_path();
  const auto beside = folder / name;
  if (std::filesystem::exists(beside)) return beside.string();
  return (folder / ".." / "bridge" / name).lexically_normal().string();
}
}  // namespace

std::string default_bridge(const std::string& executable) {
  return helper_program(executable, "tengen-gtp-bridge");
}

std::string default_analysis_worker(const std::string& executable) {
  return helper_program(executable, "tengen-analysis");
}

ListenUrl listen_url(const std::string& address, unsigned short port) {
  const bool every = address == "0.0.0.0" || address == "::";
  std::string host = address;
  if (every || address == "127.0.0.1" || address == "::1") {
    host = "localhost";
  } else if (address.find(':') != std::string::npos) {
    host = "[" + address + "]";  // an IPv6 address in a URL
  }
  return {"http://" + host + ":" + std::to_string(port) + "/", every};
}

}  // namespace tengen
