#include "config.h"

#include <gtest/gtest.h>

#include "http/proxies.h"

namespace tengen {
namespace {

TEST(Config, StartsWithNoArguments) {
  const auto parsed = parse_config({}, {});
  ASSERT_TRUE(parsed.config) << parsed.error;
  EXPECT_EQ(parsed.config->port, 8080);
  EXPECT_EQ(parsed.config->database, "tengen.sqlite3");
  EXPECT_TRUE(parsed.config->web_root.empty());  // then beside the binary: default_web_root
}

TEST(Config, TheWebClientIsFoundBesideTheBinary) {
  EXPECT_EQ(default_web_root("/usr/local/bin/tengen-server"), "/usr/local/share/tengen/web");
  EXPECT_EQ(default_web_root("/home/me/tengen/build/release/server/tengen-server"),
            "/home/me/tengen/build/release/share/tengen/web");
}

TEST(Config, TheStartUpLogGivesAnAddressAPersonCanOpen) {
  EXPECT_EQ(listen_url("0.0.0.0", 8080).url, "http://localhost:8080/");
  EXPECT_TRUE(listen_url("0.0.0.0", 8080).every_interface);
  EXPECT_TRUE(listen_url("::", 80).every_interface);
  EXPECT_EQ(listen_url("127.0.0.1", 9000).url, "http://localhost:9000/");
  EXPECT_FALSE(listen_url("127.0.0.1", 9000).every_interface);
  EXPECT_EQ(listen_url("192.168.1.20", 8080).url, "http://192.168.1.20:8080/");
  EXPECT_EQ(listen_url("fe80::1", 8080).url, "http://[fe80::1]:8080/");
}

TEST(Config, FlagsOverrideEnvironment) {
  const auto parsed = parse_config({"--port", "9000", "--database=/tmp/x.sqlite3"},
                                   {"TENGEN_PORT=7000", "TENGEN_LOG_LEVEL=debug", "HOME=/root"});
  ASSERT_TRUE(parsed.config) << parsed.error;
  EXPECT_EQ(parsed.config->port, 9000);
  EXPECT_EQ(parsed.config->database, "/tmp/x.sqlite3");
  EXPECT_EQ(parsed.config->log_level, "debug");
}

TEST(Config, OneOffCommandsTakeTheSameOptions) {
  const auto check = parse_config({"--health-check"}, {"TENGEN_PORT=8123"});
  ASSERT_TRUE(check.config) << check.error;
  EXPECT_EQ(check.config->command, Config::Command::HealthCheck);
  EXPECT_EQ(check.config->port, 8123);
  const auto copy = parse_config({"--backup", "/backups/today.sqlite3"},
                                 {"TENGEN_DATABASE=/data/tengen.sqlite3"});
  ASSERT_TRUE(copy.config) << copy.error;
  EXPECT_EQ(copy.config->command, Config::Command::Backup);
  EXPECT_EQ(copy.config->backup_to, "/backups/today.sqlite3");
  EXPECT_EQ(copy.config->database, "/data/tengen.sqlite3");
  EXPECT_EQ(parse_config({}, {}).config->command, Config::Command::Serve);
  EXPECT_EQ(parse_config({"--backup"}, {}).error, "--backup needs a file to write");
  EXPECT_EQ(parse_config({"--backup="}, {}).error, "--backup needs a file to write");
}

TEST(Config, BadInputNamesTheProblem) {
  EXPECT_EQ(parse_config({"--port", "70000"}, {}).error,
            "port must be a number from 0 to 65535, not '70000'");
  EXPECT_EQ(parse_config({"--frobnicate"}, {}).error, "unknown option '--frobnicate'");
  EXPECT_EQ(parse_config({"--port"}, {}).error, "--port needs a value");
  EXPECT_EQ(parse_config({}, {"TENGEN_LOG_LEVEL=loud"}).error,
            "TENGEN_LOG_LEVEL: unknown log level 'loud'");
  EXPECT_EQ(parse_config({"--database="}, {}).error, "--database must not be empty");
  const auto no_origins = parse_config({}, {"TENGEN_ALLOWED_ORIGINS="});  // as compose.yaml sets it
  ASSERT_TRUE(no_origins.config) << no_origins.error;
  EXPECT_TRUE(no_origins.config->allowed_origins.empty());
  EXPECT_TRUE(parse_config({"--help"}, {}).help);
  EXPECT_EQ(parse_config({"--public-url", "go.example.org"}, {}).error,
            "the public URL looks like https://go.example.org (no path), not 'go.example.org'");
  EXPECT_EQ(parse_config({"--public-url", "https://example.org/go"}, {}).error,
            "the public URL looks like https://go.example.org (no path), not "
            "'https://example.org/go'");
  EXPECT_EQ(parse_config({"--lease-ttl", "100"}, {}).error,
            "the lease TTL must be milliseconds from 300 to 600000, not '100'");
  EXPECT_EQ(parse_config({}, {"TENGEN_LEASE_TTL=5s"}).error,
            "TENGEN_LEASE_TTL: the lease TTL must be milliseconds from 300 to 600000, not '5s'");
  EXPECT_EQ(parse_config({"--node", std::string(65, 'n')}, {}).error,
            "a node name has at most 64 characters");
  EXPECT_EQ(parse_config({"--import-sqlite"}, {}).error,
            "--import-sqlite needs the SQLite file to read");
  EXPECT_EQ(parse_config({"--import-sqlite", "old.sqlite3"}, {}).error,
            "--import-sqlite copies a SQLite file into the PostgreSQL database that --database "
            "names (postgres://...)");
  EXPECT_EQ(parse_config({"--bus", "localhost:4222"}, {}).error,
            "the bus is a NATS server's address, nats://host:port, not 'localhost:4222'");
  EXPECT_EQ(parse_config({"--bus", "nats://127.0.0.1:4222"}, {}).error,
            "--bus joins several nodes over one PostgreSQL database: --database must be a "
            "postgres:// URI");
}

// A node of several over one PostgreSQL is named (the host name when not) and keeps its leases
// for a time to live.
TEST(Config, ANodeHasANameAndALeaseTime) {
  const auto defaults = parse_config({}, {});
  ASSERT_TRUE(defaults.config);
  EXPECT_EQ(defaults.config->node, "");
  EXPECT_EQ(defaults.config->lease_ttl_ms, 5000);
  const auto set = parse_config({"--node", "go-2", "--database", "postgres://tengen@db/go"},
                                {"TENGEN_LEASE_TTL=3000", "TENGEN_BUS=nats://nats:4222"});
  ASSERT_TRUE(set.config) << set.error;
  EXPECT_EQ(set.config->node, "go-2");
  EXPECT_EQ(set.config->bus, "nats://nats:4222");
  EXPECT_EQ(set.config->lease_ttl_ms, 3000);
  EXPECT_TRUE(set.config->games_on_every_node) << "a cluster plays games on every node";
  EXPECT_FALSE(defaults.config->games_on_every_node) << "one server: no other node";
  const auto hub = parse_config({"--database", "postgres://tengen@db/go"},
                                {"TENGEN_BUS=nats://nats:4222", "TENGEN_GAMES=hub"});
  ASSERT_TRUE(hub.config) << hub.error;
  EXPECT_FALSE(hub.config->games_on_every_node) << "every game on the hub, as asked";
  const auto every = parse_config({"--database", "postgres://tengen@db/go"},
                                  {"TENGEN_BUS=nats://nats:4222", "TENGEN_GAMES=every-node"});
  ASSERT_TRUE(every.config) << every.error;
  EXPECT_TRUE(every.config->games_on_every_node);
  EXPECT_EQ(parse_config({"--games", "everywhere"}, {}).error,
            "--games takes hub or every-node, not 'everywhere'");
  EXPECT_EQ(parse_config({"--games", "every-node"}, {}).error,
            "--games every-node spreads games over the nodes of a cluster: it needs --bus "
            "(docs/cluster.md)");
}

// Behind a TLS proxy the server hears plain HTTP: --public-url tells it what players see, so that
// the session cookie is marked Secure and the public origin may open WebSockets.
TEST(Config, APublicUrlIsAlsoAnAllowedOrigin) {
  const auto c = parse_config(
      {"--public-url", "https://go.example.org/", "--allowed-origins", "https://club.example.org"},
      {});
  ASSERT_TRUE(c.config) << c.error;
  EXPECT_EQ(c.config->public_url, "https://go.example.org");
  EXPECT_EQ(c.config->allowed_origins,
            (std::vector<std::string>{"https://club.example.org", "https://go.example.org"}));
  EXPECT_TRUE(parse_config({}, {"TENGEN_PUBLIC_URL="}).config->public_url.empty());
}

// Web Push (docs/web-client.md, "Push"): on unless off; push services beyond the browsers' own
// are origins, listed with commas.
TEST(Config, PushAndItsServices) {
  const auto defaults = parse_config({}, {});
  EXPECT_TRUE(defaults.config->push);
  EXPECT_TRUE(defaults.config->push_services.empty());
  const auto set = parse_config(
      {"--push", "off"}, {"TENGEN_PUSH_SERVICES=https://push.example.org, http://127.0.0.1:9000"});
  ASSERT_TRUE(set.config) << set.error;
  EXPECT_FALSE(set.config->push);
  EXPECT_EQ(set.config->push_services,
            (std::vector<std::string>{"https://push.example.org", "http://127.0.0.1:9000"}));
  EXPECT_EQ(parse_config({"--push", "maybe"}, {}).error, "--push takes on or off, not 'maybe'");
  EXPECT_EQ(parse_config({"--push-services", "https://push.example.org/send"}, {}).error,
            "a push service looks like https://push.example.org (no path), not "
            "'https://push.example.org/send'");
  EXPECT_EQ(parse_config({"--push-services", "push.example.org"}, {}).error,
            "a push service looks like https://push.example.org (no path), not 'push.example.org'");
  EXPECT_TRUE(parse_config({}, {"TENGEN_PUSH_SERVICES="}).config->push_services.empty());
}

// Registration control and the proxies whose X-Forwarded-For is believed (docs/moderation.md,
// docs/operations.md).
TEST(Config, RegistrationAndTrustedProxies) {
  const auto defaults = parse_config({}, {});
  EXPECT_EQ(defaults.config->registration, "open");
  EXPECT_EQ(defaults.config->registrations_per_address, 20);
  EXPECT_EQ(defaults.config->trusted_proxies, "");
  const auto set = parse_config({"--registration", "invite", "--registrations-per-address", "0"},
                                {"TENGEN_TRUSTED_PROXIES=172.16.0.0/12, ::1"});
  ASSERT_TRUE(set.config) << set.error;
  EXPECT_EQ(set.config->registration, "invite");
  EXPECT_EQ(set.config->registrations_per_address, 0);
  EXPECT_EQ(parse_config({"--registration", "closed"}, {}).error,
            "--registration takes open or invite, not 'closed'");
  EXPECT_FALSE(parse_config({"--registrations-per-address", "-1"}, {}).config);
  EXPECT_EQ(parse_config({"--trusted-proxies", "caddy"}, {}).error,
            "a trusted proxy is an IP address or a network (172.16.0.0/12), not 'caddy'");
  EXPECT_FALSE(parse_config({"--trusted-proxies", "10.0.0.0/33"}, {}).config);
  EXPECT_TRUE(parse_config({}, {"TENGEN_TRUSTED_PROXIES="}).config);
  const auto make_admin = parse_config({"--make-admin", "ann", "--database", "x.sqlite3"}, {});
  EXPECT_EQ(make_admin.config->command, Config::Command::MakeAdmin);
  EXPECT_EQ(make_admin.config->admin_name, "ann");
  EXPECT_EQ(parse_config({"--remove-admin"}, {}).error, "--remove-admin needs the user's name");
}

TEST(Config, EMailNeedsASenderAndThePublicUrlForItsLinks) {
  const auto none = parse_config({}, {});
  EXPECT_EQ(none.config->smtp_url, "") << "no relay: no e-mail";
  EXPECT_EQ(none.config->smtp_tls, "starttls");
  EXPECT_EQ(none.config->your_move_mail_minutes, 60);
  const auto set = parse_config(
      {"--smtp-url", "smtp://smtp.example.org:587", "--mail-from", "Tengen <go@example.org>",
       "--public-url", "https://go.example.org", "--your-move-mail-minutes", "180"},
      {"TENGEN_SMTP_USER=tengen", "TENGEN_SMTP_PASSWORD=secret"});
  ASSERT_TRUE(set.config) << set.error;
  EXPECT_EQ(set.config->smtp_user, "tengen");
  EXPECT_EQ(set.config->smtp_password, "secret");
  EXPECT_EQ(set.config->your_move_mail_minutes, 180);
  EXPECT_EQ(parse_config({"--smtp-url", "smtp://smtp.example.org:587"}, {}).error,
            "e-mail (--smtp-url) needs --mail-from (\"Tengen <go@example.org>\", the sender) and "
            "--public-url (where the links in mails point)");
  EXPECT_EQ(
      parse_config({"--smtp-url", "http://smtp.example.org"}, {}).error,
      "the SMTP relay is smtp://host:port or smtps://host:port, not 'http://smtp.example.org'");
  EXPECT_EQ(parse_config({"--smtp-tls", "maybe"}, {}).error,
            "--smtp-tls takes starttls or none, not 'maybe'");
  EXPECT_EQ(
      parse_config({"--mail-from", "Tengen <go@example.org>\r\nBcc: x@example.org"}, {}).error,
      "--mail-from is an address, alone or as \"Name <go@example.org>\", not 'Tengen "
      "<go@example.org>\r\nBcc: x@example.org'");
  EXPECT_FALSE(parse_config({"--your-move-mail-minutes", "0"}, {}).config);
  // The compose file passes them empty when unset: none.
  EXPECT_TRUE(
      parse_config({}, {"TENGEN_SMTP_URL=", "TENGEN_MAIL_FROM=", "TENGEN_SMTP_USER="}).config);
}

TEST(TrustedProxies, OnlyATrustedPeersForwardedAddressIsBelieved) {
  const auto parsed = TrustedProxies::parse("172.16.0.0/12, ::1");
  ASSERT_TRUE(std::holds_alternative<TrustedProxies>(parsed));
  const auto& proxies = std::get<TrustedProxies>(parsed);
  EXPECT_TRUE(proxies.trusts("172.18.0.3"));
  EXPECT_TRUE(proxies.trusts("::ffff:172.18.0.3")) << "IPv4 mapped into IPv6";
  EXPECT_FALSE(proxies.trusts("172.32.0.1"));
  EXPECT_TRUE(proxies.trusts("::1"));
  // Caddy forwards a player: the player's address.
  EXPECT_EQ(proxies.client_address("172.18.0.3", "203.0.113.7"), "203.0.113.7");
  // The player wrote a header of their own: what Caddy appended is believed, not what they wrote.
  EXPECT_EQ(proxies.client_address("172.18.0.3", "1.2.3.4, 203.0.113.7"), "203.0.113.7");
  // Two proxies in a row (both trusted): the first untrusted address from the right.
  EXPECT_EQ(proxies.client_address("172.18.0.3", "203.0.113.7, 172.18.0.9"), "203.0.113.7");
  // From anyone else the header means nothing.
  EXPECT_EQ(proxies.client_address("198.51.100.2", "1.2.3.4"), "198.51.100.2");
  EXPECT_EQ(proxies.client_address("172.18.0.3", ""), "172.18.0.3");
  EXPECT_EQ(proxies.client_address("172.18.0.3", "unknown"), "172.18.0.3");
  EXPECT_EQ(TrustedProxies().client_address("172.18.0.3", "203.0.113.7"), "172.18.0.3");
}

}  // namespace
}  // namespace tengen
