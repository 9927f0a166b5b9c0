#include <sodium.h>
#include <spdlog/spdlog.h>
#ifdef TENGEN_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <string>

#include "accounts/accounts.h"
#include "analysis/analysis.h"
#include "analysis/every_game.h"
#include "bots/house_bots.h"
#include "bots/supervisor.h"
#include "centre/centre.h"
#include "clock.h"
#include "cluster/hub_reads.h"
#include "cluster/lease_keeper.h"
#include "cluster/nats_bus.h"
#include "cluster/roles.h"
#include "config.h"
#include "events/pair_games.h"
#include "events/relays.h"
#include "events/simuls.h"
#include "groups/classes.h"
#include "groups/groups.h"
#include "groups/ladders.h"
#include "http/api.h"
#include "http/http_server.h"
#include "mail/mailer.h"
#include "mail/message.h"
#include "mail/waiting.h"
#include "ops.h"
#include "protocol/bus.h"
#include "protocol/health.h"
#include "push/pusher.h"
#include "ratings/recompute.h"
#include "rooms/timers.h"
#include "stop.h"
#include "store/admin_role.h"
#include "store/hub_lock.h"
#include "store/import.h"
#include "store/journal.h"
#include "store/postgres_leases.h"
#include "store/stores.h"
#include "store/unreachable.h"
#include "ws/backlog_guard.h"

extern char** environ;

namespace {

std::vector<std::string> environment() {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) env.emplace_back(*e);
  return env;
}

// Which allocator this process uses, for the start-up log (server/CMakeLists.txt,
// TENGEN_ALLOCATOR). Debian builds jemalloc unprefixed: linked, it is the whole process's malloc,
// and its mallctl answers with the version.
std::string allocator() {
#ifdef TENGEN_JEMALLOC
  const char* version = nullptr;
  std::size_t size = sizeof version;
  if (mallctl("version", &version, &size, nullptr, 0) == 0 && version)
    return std::string("jemalloc ") + version;
#endif
  return "the C library's malloc";
}

// GNU Go's level in the house analysis worker (docs/analysis.md, "How long it takes").
constexpr int kHouseAnalysisLevel = 10;

// The default node name (--node): this machine's.
std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "tengen";
  return name;
}

// `bytes` random bytes from libsodium, in hex.
std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  randombytes_buf(raw.data(), raw.size());
  std::string hex(bytes * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), raw.data(), raw.size());
  hex.pop_back();
  return hex;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tengen;
  const auto parsed = parse_config(std::vector<std::string>(argv + 1, argv + argc), environment());
  if (parsed.help) {
    std::cout << usage();
    return 0;
  }
  if (!parsed.config) {
    std::cerr << "tengen-server: " << parsed.error << "\n\n" << usage();
    return 2;
  }
  Config config = *parsed.config;
  if (config.command == Config::Command::HealthCheck) return health_check(config);
  if (config.command == Config::Command::Backup) return backup(config, config.backup_to);
  // A one-off command that says what it did, or why it could not.
  const auto say = [](const std::function<std::string()>& command) {
    try {
      std::cout << command() << "\n";
      return 0;
    } catch (const std::exception& e) {
      std::cerr << "tengen-server: " << e.what() << "\n";
      return 1;
    }
  };
  if (config.command == Config::Command::MakeAdmin ||
      config.command == Config::Command::RemoveAdmin) {
    return say([&] {
      return store::set_admin_role(config.database, config.admin_name,
                                   config.command == Config::Command::MakeAdmin,
                                   SystemClock().unix_ms());
    });
  }
  if (config.command == Config::Command::MakeWorkerKey ||
      config.command == Config::Command::RevokeWorkerKey) {
    return say([&] {
      auto store = store::open_analysis_store(config.database);
      const auto now = SystemClock().unix_ms();
      const auto& name = config.worker_name;
      if (config.command == Config::Command::RevokeWorkerKey) {
        if (!store->revoke_worker(name, now))
          throw std::runtime_error("there is no analysis worker '" + name + "' with a key");
        return "the key of the analysis worker '" + name + "' no longer works";
      }
      const auto key = Analysis::make_key(*store, name, now);
      if (!key)
        throw std::runtime_error("a worker is named '" + name +
                                 "' already, or the name is not 1 to 40 letters, digits, '-', "
                                 "'_' or '.'");
      return "the analysis worker '" + name + "' has its key (shown only now; keep it secret):\n" +
             *key + "\nrun: tengen-analysis --server URL --key-file FILE (docs/analysis.md)";
    });
  }
  if (config.command == Config::Command::RecomputeRatings)
    return say([&] {
      return ratings::recompute_ratings(config.database, house_bot_starts(default_house_bots()));
    });
  if (config.command == Config::Command::Import) {
    try {
      const auto imported = store::import_sqlite(config.import_from, config.database);
      std::cout << "import: " << config.import_from << " -> "
                << store::without_password(config.database) << "\n";
      for (const auto& [table, rows] : imported.rows)
        std::cout << "  " << table << ": " << rows << " rows\n";
      return 0;
    } catch (const std::exception& e) {
      std::cerr << "import: " << e.what() << "\n";
      return 1;
    }
  }
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  if (config.web_root.empty()) {
    std::error_code ec;
    config.web_root =
        default_web_root(std::filesystem::read_symlink("/proc/self/exe", ec).string());
  }

  try {
    const bool postgres = is_postgres(config.database);
    const bool clustered = !config.bus.empty();  // parse_config: only with PostgreSQL
    const auto stores = store::Stores::open(
        config.database, {config.node.empty() ? host_name() : config.node,
                          std::chrono::milliseconds(config.lease_ttl_ms), clustered,
                          std::chrono::seconds(config.database_wait_s)});
    const int schema = stores->schema;
    spdlog::info("{}database {} at schema version {}; memory from {}",
                 postgres ? "PostgreSQL " : "", stores->described, schema, allocator());
    if (postgres) {
      spdlog::info("joined as node {} ({}), leases of {} ms", stores->leases->name(),
                   stores->leases->node(), config.lease_ttl_ms);
    }
    store::GameStore& game_store = *stores->games;

    SystemClock clock;
    auto account_options = config.fast_password_hashing ? Accounts::Options::fastest_for_tests()
                                                        : Accounts::Options::interactive();
    account_options.registrations_per_address = config.registrations_per_address;
    account_options.invite_only = config.registration == "invite";
    Accounts accounts(*stores->accounts, clock, account_options, stores->moderation.get());
    store::Journal journal(game_store);
    Metrics metrics;
    auto timers = make_asio_timers();
    auto connection_timers = make_asio_timers();  // pings and idle checks: the server's own
    auto worker = make_thread_worker();
    auto user_ref =
        [](const std::optional<store::UserRecord>& user) -> std::optional<protocol::UserRef> {
      if (!user) return std::nullopt;
      return protocol::UserRef{user->id, user->username};
    };
    // The hub: built now on a single server; in a cluster, when this node becomes the hub
    // (cluster::Roles), which may be at once or when another hub goes. Published once recovered.
    std::optional<Centre> hub;  // the centre of this node while it is the hub
    std::atomic<Centre*> serving{nullptr};
    // In front of it: commands refused while the database is away and this many wait for it
    // (docs/limits.md).
    constexpr std::size_t kMostWaitingForTheDatabase = 10'000;
    std::optional<BacklogGuard> guarded;
    // E-mail (docs/mail.md): with a relay, mails are queued and sent by the mailer's thread;
    // without, nothing is sent. Digests are the hub's (it knows who is to move).
    std::optional<mail::SmtpRelay> relay;
    if (!config.smtp_url.empty()) {
      relay.emplace(mail::SmtpRelay::Options{config.smtp_url, config.smtp_user,
                                             config.smtp_password, config.smtp_tls != "none"});
    }
    Mailer::Options mail_options;
    mail_options.from = config.mail_from;
    mail_options.public_url = config.public_url;
    mail_options.your_move_interval = std::chrono::minutes(config.your_move_mail_minutes);
    std::optional<Mailer> mailer;
    mailer.emplace(*stores->mail, accounts, clock, mail_options,
                   relay ? Mailer::Send([&relay](const std::string& from, const std::string& to,
                                                 const std::string& data) {
                     return relay->send(from, to, data);
                   })
                         : Mailer::Send{},
                   [&serving](std::int64_t user) -> std::optional<std::vector<WaitingGame>> {
                     Centre* h = serving.load();
                     if (!h) return std::nullopt;
                     return waiting_games(h->games_of(user), user);
                   });
    // Web Push (docs/web-client.md, "Push"): devices told "your move" and games starting, from
    // the store's queue by the pusher's thread, signed with this server's key (made at first
    // start, kept in the store). Its VAPID contact: the mail sender, else the public URL.
    std::optional<Pusher> pusher;
    if (config.push) {
      Pusher::Options push_options;
      push_options.services = config.push_services;
      push_options.subject =
          !config.mail_from.empty() ? "mailto:" + mail::bare_address(config.mail_from)
          : config.public_url.starts_with("https://") ? config.public_url
                                                      : "mailto:tengen@localhost";
      pusher.emplace(*stores->push, clock, push_options, push::http_post);
    }
    // Games on every node (docs/cluster.md): set once the cluster's roles are.
    std::atomic<cluster::Roles*> roles_ready{nullptr};
    // What a centre is built with: the hub's, or (games on every node) a node's own games'.
    auto centre_services = [&](Timers* centre_timers) {
      auto services = Centre::Services{
          .find_user = [&](const std::string& name) { return user_ref(accounts.find_user(name)); },
          .find_user_by_id = [&](std::int64_t id) { return user_ref(accounts.find_user(id)); },
          .journal = &journal,
          .store = &game_store,
          // "automatic" colours between equal ratings: a coin toss.
          .draw_black = [] { return randombytes_uniform(2) == 0; },
          .random_hex = random_hex,
          .clock = &clock,
          .timers = centre_timers,
          .worker = worker.get(),
          .room = {},
          .metrics = &metrics,
          .leases = stores->leases.get(),
          .moderation = stores->moderation.get(),
          .groups = stores->groups.get(),
          .classes = stores->classes.get(),
          .calendar_of = [&](std::int64_t id) { return accounts.calendar(id); },
          .notify =
              [&mailer, &pusher](const PlayerNotice& n) {
                mailer->notice(n);
                if (pusher) pusher->notice(n);
              },
          // The house bots' accounts (bots, not people who took such a name).
          .rating_starts =
              [&accounts] {
                std::vector<std::pair<std::int64_t, ratings::Rating>> out;
                for (const auto& [name, start] : house_bot_starts(default_house_bots())) {
                  const auto user = accounts.find_user(name);
                  if (user && user->is_bot) out.emplace_back(user->id, start);
                }
                return out;
              }};
      // Games on every node: a game another node adopted a moment ago is sent there.
      if (config.games_on_every_node && !config.bus.empty()) {
        services.taken_elsewhere = [&](protocol::GameId game) {
          auto* r = roles_ready.load();
          if (!r) return false;
          const auto owner =
              dynamic_cast<store::PostgresLeases&>(*stores->leases).owner_elsewhere(game);
          if (!owner) return false;
          r->placing(game, *owner);
          return true;
        };
      }
      return services;
    };
    std::unique_ptr<cluster::NatsBus> bus;  // several nodes (--bus)
    // Games on every node: one chat rate per account across the cluster. A line a centre's rate
    // counted is said on the bus, and the other centres' rates (this node's other one, the other
    // nodes') count it too; each is told apart by its counter, twice the node's id for the hub's
    // centre, one more for the node's own games' centre.
    const auto chat_counter = [&stores](int which) { return stores->leases->node() * 2 + which; };
    auto chat_posted = [&bus, &chat_counter](int which) {
      return [&bus, counter = chat_counter(which)](std::int64_t user) {
        try {
          bus->publish(protocol::bus::chat_subject(),
                       protocol::bus::encode(protocol::bus::ChatPosted{user, counter}));
        } catch (const std::exception& e) {
          spdlog::warn("could not tell the other nodes of a line of chat: {}", e.what());
        }
      };
    };
    // Games on every node: the games the lobby places on this node, played by a centre of its
    // own (its lobby unused), with timers of its own.
    std::unique_ptr<Timers> own_timers;
    std::optional<Centre> own_games;
    // Its annulled rated games' ratings are rebuilt by the hub (set once the hub's reads are).
    std::function<std::size_t()> rebuild_ratings_at_hub;
    if (clustered && config.games_on_every_node) {
      own_timers = make_asio_timers();
      auto services = centre_services(own_timers.get());
      services.games_only = true;
      // Its rated games' ratings are the hub's (Centre::rate_due). Said on the bus itself, which
      // outlives this centre's journal callbacks (the roles go first at a stop).
      services.rating_due = [&bus](protocol::GameId game) {
        cluster::Roles::tell_rating_due(*bus, game);
      };
      services.rebuild_ratings_at_hub = [&rebuild_ratings_at_hub] {
        return rebuild_ratings_at_hub();
      };
      services.chat_posted = chat_posted(1);
      own_games.emplace(std::move(services));
      spdlog::info("games are played on every node: those placed here by the lobby, here");
    }
    // Games on every node: the reads of a game played on another node are asked of it, those
    // of a game played on this node's own centre asked of that; the others are the hub's.
    auto with_games_elsewhere = [&](HubReads hub_reads) {
      if (!own_games) return hub_reads;
      const auto reads_of = [&](std::int64_t game) -> std::optional<HubReads> {
        auto* r = roles_ready.load();
        const auto owner = r ? r->owner_of(game) : std::nullopt;
        if (!owner) return std::nullopt;
        if (*owner == stores->leases->node()) return cluster::hub_reads_of(*own_games);
        return cluster::ask_node(*bus, *owner);
      };
      hub_reads.live_sgf = [reads_of, here = hub_reads.live_sgf](std::int64_t game) {
        const auto there = reads_of(game);
        return there ? there->live_sgf(game) : here(game);
      };
      hub_reads.game_action = [reads_of, here = hub_reads.game_action](std::int64_t game,
                                                                       const std::string& action) {
        const auto there = reads_of(game);
        return there ? there->game_action(game, action) : here(game, action);
      };
      return hub_reads;
    };
    auto build_hub = [&]() -> Centre& {
      auto services = centre_services(timers.get());
      if (config.games_on_every_node && !config.bus.empty()) {
        services.placing = [&roles_ready](protocol::GameId game, std::int64_t node) {
          if (auto* r = roles_ready.load()) r->placing(game, node);
        };
        services.placed = [&roles_ready](protocol::GameId game, std::int64_t node) {
          if (auto* r = roles_ready.load()) r->tell_owner(game, node);
        };
        services.chat_posted = chat_posted(0);
        // A node's word that a rated game ended may be lost on the bus: the hub also reads the
        // games left to rate every 10 s (one short query; the table is empty most of the time).
        services.ratings_sweep = std::chrono::seconds(10);
        // Recovery leaves the games this node plays already on its own centre there.
        services.played_elsewhere = [&](protocol::GameId game) {
          if (own_games && own_games->plays(game)) return true;
          auto* r = roles_ready.load();
          return r != nullptr && r->owner_of(game).has_value();
        };
        // A player's list of games: those the other nodes play too.
        services.games_elsewhere = [&](std::int64_t user) {
          protocol::MyGames all;
          auto* r = roles_ready.load();
          for (const auto node : r ? r->game_nodes() : std::vector<std::int64_t>{}) {
            auto some =
                node == stores->leases->node()
                    ? own_games->games_of(user)
                    : cluster::ask_node(*bus, node, std::chrono::milliseconds(500)).my_games(user);
            for (auto& g : some.games) all.games.push_back(std::move(g));
          }
          return all;
        };
      }
      // Games on every node: one node, two centres, never the same game in both — a game this
      // node's own centre plays, or another node does, is not read back into the hub's.
      if (config.games_on_every_node && !config.bus.empty()) {
        services.known_elsewhere = [&](protocol::GameId game) {
          if (own_games && own_games->plays(game)) {
            if (auto* r = roles_ready.load()) r->placing(game, stores->leases->node());
            return true;
          }
          auto* r = roles_ready.load();
          return r != nullptr && r->owner_of(game).has_value();
        };
      }
      hub.emplace(std::move(services));
      guarded.emplace(hub->router(), [&journal] {
        return journal.waiting_for_store() && journal.backlog() >= kMostWaitingForTheDatabase;
      });
      return *hub;
    };
    auto recover_hub = [&] {
      const auto recovery_start = std::chrono::steady_clock::now();
      Centre::Recovered recovered;
      try {
        recovered = hub->recover(game_store);
      } catch (...) {
        // Half recovered (the database lost meanwhile; in a cluster the roles try again, with a
        // centre built anew): this one goes once nothing can call it any more, neither its
        // timers nor the journal with what it submitted.
        timers->set_handler({});
        journal.barrier().wait();
        guarded.reset();
        hub.reset();
        throw;
      }
      journal.barrier().wait();
      spdlog::info("recovered {} unfinished games, {} open challenges and {} open reviews in {} ms",
                   recovered.games, recovered.challenges, recovered.reviews,
                   std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::steady_clock::now() - recovery_start)
                       .count());
      serving = &*hub;
    };
    // The hub's reads: its own on the hub; asked of the hub over the bus on a front node.
    std::optional<HubReads> hub_reads_remote;  // set before the server starts, in a cluster
    auto reads = [&]() -> HubReads {
      if (Centre* h = serving.load()) return with_games_elsewhere(cluster::hub_reads_of(*h));
      if (hub_reads_remote) return *hub_reads_remote;
      throw Unavailable("the server is starting: try again in a moment");
    };
    rebuild_ratings_at_hub = [&reads] { return reads().rebuild_ratings(); };
    // Analysis after the game (docs/analysis.md): the queue in the store, filled by players and
    // emptied by workers over HTTP.
    Analysis::Limits analysis_limits;
    analysis_limits.claim_ms = std::int64_t{config.analysis_claim_seconds} * 1000;
    Analysis analysis(*stores->analysis, *stores->positions, game_store, clock, analysis_limits);
    // --analyse-every-game: the finished games queued by the server itself (before it listens,
    // those of the last day).
    std::optional<EveryGame> every_game;
    if (config.analyse_every_game) every_game.emplace(analysis, clock, std::chrono::seconds(30));
    // Groups (docs/groups.md): kept in the store; the hub follows their members (the groups'
    // challenges) and carries their news to members' connections. A hub away for a moment loses
    // the news, not the change: a page that reads the group again sees it.
    auto to_hub = [](const char* what, const std::function<void()>& send) {
      try {
        send();
      } catch (const std::exception& e) {
        spdlog::warn("a group's {} did not reach the hub: {}", what, e.what());
      }
    };
    auto blocked_ids = [&](std::int64_t user) {
      std::vector<std::int64_t> ids;
      for (const auto& u : stores->moderation->blocked_by(user)) ids.push_back(u.id);
      return ids;
    };
    // A protected class's student (docs/classes.md) joins no group, simul or pair Go game.
    auto protected_student = [&](std::int64_t user) {
      return stores->classes->protected_student(user);
    };
    Groups groups(
        {.store = *stores->groups,
         .clock = clock,
         .changed =
             [&](std::int64_t group) { to_hub("change", [&] { reads().group_changed(group); }); },
         .tell =
             [&](const std::vector<std::int64_t>& users, std::optional<std::int64_t> from,
                 const std::string& text) {
               to_hub("news", [&] { reads().tell(users, from, text); });
             },
         .blocked_by = blocked_ids,
         .protected_student = protected_student},
        Groups::Limits{});
    Classes classes(
        {.store = *stores->classes,
         .groups = *stores->groups,
         .accounts = accounts,
         .clock = clock,
         .anyone_may_teach = config.anyone_may_teach,
         .changed =
             [&](std::int64_t group) { to_hub("change", [&] { reads().group_changed(group); }); },
         .round_robin = [&](const protocol::TournamentSettings& settings, std::int64_t director,
                            const std::vector<std::int64_t>& players)
             -> std::variant<std::int64_t, std::string> {
           try {
             return reads().class_tournament(protocol::encode_tournament_settings(settings),
                                             director, players);
           } catch (const std::exception& e) {
             return std::string(e.what());
           }
         },
         .random = [](std::uint32_t bound) { return randombytes_uniform(bound); }},
        Classes::Limits{});
    // A game no challenge opened (a ladder's, a simul's board), started on the hub.
    auto start_game_within =
        [&](const protocol::GameSettings& settings, std::int64_t black, std::int64_t white,
            std::chrono::milliseconds start_timeout) -> std::variant<std::int64_t, std::string> {
      try {
        return reads().start_game(protocol::encode_settings(settings), black, white,
                                  start_timeout.count());
      } catch (const std::exception& e) {
        return std::string(e.what());
      }
    };
    Ladders ladders(
        {.store = *stores->ladders,
         .groups = *stores->groups,
         .clock = clock,
         .start_game =
             [&](const protocol::GameSettings& settings, std::int64_t black, std::int64_t white) {
               return start_game_within(settings, black, white, {});
             },
         .changed = [&](const store::GroupRow& g) { groups.ladder_changed(g); },
         .blocked_by = blocked_ids},
        Ladders::Limits{});
    // Ladder games that ended and challenges not accepted in time, resolved every few seconds.
    LadderSweeper ladder_sweeper(ladders, std::chrono::seconds(config.ladder_check_seconds));
    Simuls simuls({.store = *stores->simuls,
                   .clock = clock,
                   .start_game = start_game_within,
                   .blocked_by = blocked_ids,
                   .protected_student = protected_student},
                  Simuls::Limits{});
    PairGames pair_games(
        {.store = *stores->pairs,
         .clock = clock,
         .start_game =
             [&](const protocol::GameSettings& settings, std::int64_t black, std::int64_t white) {
               return start_game_within(settings, black, white, {});
             },
         .blocked_by = blocked_ids,
         .protected_student = protected_student},
        PairGames::Limits{});
    Relays relays({.store = *stores->relays,
                   .clock = clock,
                   .boards = [&](const protocol::http::RelayOp& op) { return reads().relay(op); },
                   .analysis = &analysis},
                  Relays::Limits{});
    Api api(
        accounts,
        GameArchive{
            .store = &game_store,
            .clock = &clock,
            .hub = {
                .live_sgf = [&](std::int64_t game) { return reads().live_sgf(game); },
                .tournaments = [&](const store::Page& page) { return reads().tournaments(page); },
                .tournament = [&](std::int64_t id) { return reads().tournament(id); },
                .reviews =
                    [&](const protocol::http::Viewer& viewer) { return reads().reviews(viewer); },
                .review_sgf =
                    [&](std::int64_t id, const protocol::http::Viewer& viewer) {
                      return reads().review_sgf(id, viewer);
                    },
                .create_review =
                    [&](const protocol::http::ReviewRequest& r) {
                      return reads().create_review(r);
                    },
                .relay = [&](const protocol::http::RelayOp& op) { return reads().relay(op); },
                .reload_player = [&](std::int64_t user) { reads().reload_player(user); },
                .account_restricted = [&](std::int64_t user) { reads().account_restricted(user); },
                .group_changed = [&](std::int64_t group) { reads().group_changed(group); },
                .start_game =
                    [&](const std::string& settings, std::int64_t black, std::int64_t white,
                        std::int64_t start_timeout_ms) {
                      return reads().start_game(settings, black, white, start_timeout_ms);
                    },
                .class_tournament =
                    [&](const std::string& settings, std::int64_t director,
                        const std::vector<std::int64_t>& players) {
                      return reads().class_tournament(settings, director, players);
                    },
                .import_tournament =
                    [&](const std::string& xml, std::int64_t director) {
                      return reads().import_tournament(xml, director);
                    },
                .add_tournament_players =
                    [&](std::int64_t tournament, std::int64_t director, const std::string& csv) {
                      return reads().add_tournament_players(tournament, director, csv);
                    },
                .tell = [&](const std::vector<std::int64_t>& users,
                            std::optional<std::int64_t> from,
                            const std::string& text) { reads().tell(users, from, text); },
                .game_action =
                    [&](std::int64_t game, const std::string& action) {
                      return reads().game_action(game, action);
                    },
                .my_games = [&](std::int64_t user) { return reads().my_games(user); },
                .rebuild_ratings = [&] { return reads().rebuild_ratings(); }},
            .analysis = &analysis,
            .groups = &groups,
            .ladders = &ladders,
            .classes = &classes,
            .simuls = &simuls,
            .pairs = &pair_games,
            .relays = &relays},
        config.public_url.starts_with("https://"), stores->moderation.get(), &*mailer,
        pusher ? &*pusher : nullptr);

    // Several nodes (--bus): the bus, the hub lock, and this node's role.
    std::atomic<HttpServer*> listening{nullptr};
    // Whether the bus is up (a front node without it cannot serve its players: not ready).
    std::atomic<bool> bus_up{true};
    std::unique_ptr<store::HubLock> hub_lock;
    // On the hub: the hub's reads, answered to front nodes. On every node: sessions ended on
    // other nodes, whose WebSockets here close too.
    std::unique_ptr<cluster::Bus::Subscription> hub_answers;
    std::unique_ptr<cluster::Bus::Subscription> session_ends;
    // Games on every node: the lines of chat posted elsewhere, counted here too.
    std::unique_ptr<cluster::Bus::Subscription> chat_lines;
    // Games on every node: the reads of this node's own games, answered to the hub.
    std::unique_ptr<cluster::Bus::Subscription> own_answers;
    // With SQLite nobody else could take a game: no keeper. With PostgreSQL, once listening.
    std::optional<cluster::LeaseKeeper> keeper;
    std::atomic<cluster::LeaseKeeper*> keeping{nullptr};  // read by other threads: set once built
    // The bus's thread asks the keeper to look for orphans now (a node left): under a lock that
    // the keeper's end takes too, so that it never asks a keeper being destroyed (found by TSan).
    struct {
      std::mutex mutex;
      cluster::LeaseKeeper* keeper = nullptr;
    } look_now;
    std::unique_ptr<cluster::Roles> roles;
    if (clustered) {
      bus = std::make_unique<cluster::NatsBus>(
          config.bus, stores->leases->name(),
          cluster::NatsBus::Events{
              .disconnected =
                  [&bus_up, &roles_ready, &listening] {
                    bus_up = false;
                    auto* r = roles_ready.load();
                    const bool front = r && !r->is_hub();
                    spdlog::warn(
                        "lost the bus; reconnecting{}",
                        front ? " (this front node's players are told to come back later)" : "");
                    // A front node's players can do nothing without the bus: told at once
                    // (1013), they reconnect with their backoff, through the proxy to a node
                    // that is ready, or here once the bus is back.
                    if (auto* server = listening.load(); server && front)
                      server->close_websockets_for_later();
                  },
              .reconnected =
                  [&roles_ready, &bus_up] {
                    spdlog::info("the bus is back");
                    bus_up = true;
                    if (auto* r = roles_ready.load()) r->resync();
                  },
              .dropped =
                  [&roles_ready](const std::string& subject) {
                    spdlog::warn("fell behind on the bus: messages on {} were dropped", subject);
                    if (auto* r = roles_ready.load()) r->resync();
                  }},
          &metrics);
      hub_lock = std::make_unique<store::HubLock>(
          config.database, "tengen-node-" + std::to_string(stores->leases->node()),
          // The holder's grace after the database comes back: a lease, and 2 s at least (the
          // holder's reconnection waits up to 500 ms between tries, its keeper ticks every 250).
          std::max(std::chrono::milliseconds(config.lease_ttl_ms),
                   std::chrono::milliseconds(2000)));
      metrics.node_is_hub = 0;  // until it becomes the hub
      roles = std::make_unique<cluster::Roles>(
          *bus, *stores->leases,
          cluster::Roles::Hooks{
              .try_take_lock = [&hub_lock] { return hub_lock->try_take(); },
              .become_hub = [&]() -> Dispatcher& {
                Centre& built = build_hub();
                recover_hub();
                hub_answers = cluster::answer_hub_reads(
                    *bus, with_games_elsewhere(cluster::hub_reads_of(built)));
                metrics.node_is_hub = 1;
                return *guarded;
              },
              .reattached =
                  [&metrics](std::size_t connections) {
                    ++metrics.bus_resyncs_total;
                    metrics.ws_reattached_total += connections;
                  },
              // A cluster is on PostgreSQL: its leases are PostgreSQL's.
              .gone = [leases = &dynamic_cast<store::PostgresLeases&>(*stores->leases)](
                          const std::vector<std::int64_t>& nodes) { return leases->gone(nodes); },
              .bring =
                  [&own_games](std::int64_t game) {
                    if (own_games) own_games->bring(game);
                  },
              .adopt_now =
                  [&look_now] {
                    std::lock_guard lock(look_now.mutex);
                    if (look_now.keeper) look_now.keeper->look_now();
                  },
              .placements = [leases = &dynamic_cast<store::PostgresLeases&>(
                                 *stores->leases)] { return leases->placements(); },
              .rate_due =
                  [&serving] {
                    if (Centre* h = serving.load()) h->rate_due();
                  },
              .spread = [leases = &dynamic_cast<store::PostgresLeases&>(*stores->leases)](
                            int limit) { return leases->spread(limit); },
              .hand = [leases = &dynamic_cast<store::PostgresLeases&>(*stores->leases)](
                          const std::vector<store::Handover>& plan) { return leases->hand(plan); }},
          std::chrono::milliseconds(500), own_games ? &own_games->router() : nullptr);
      roles_ready = roles.get();
      if (own_games) {
        own_answers = cluster::answer_game_reads(*bus, cluster::hub_reads_of(*own_games),
                                                 stores->leases->node());
      }
      hub_reads_remote = cluster::ask_hub(*bus);
      // A logout or revocation on another node closes this node's WebSockets opened with the
      // session too (a bus that was down meanwhile makes every client reconnect, which asks anew).
      session_ends =
          bus->subscribe(protocol::bus::sessions_subject(),
                         [&listening, node = stores->leases->node()](std::string_view data) {
                           const auto ended = protocol::bus::decode_session_ended(data);
                           if (!ended || ended->node == node) return;  // its own: closed already
                           if (auto* s = listening.load())
                             s->end_session(ended->session, ended->why);
                         });
    }

    if (clustered && own_games) {
      chat_lines =
          bus->subscribe(protocol::bus::chat_subject(),
                         [&serving, &own_games, &chat_counter](std::string_view data) {
                           const auto line = protocol::bus::decode_chat_posted(data);
                           if (!line) return;
                           if (Centre* h = serving.load(); h && line->counter != chat_counter(0))
                             h->chat_elsewhere(line->user);
                           if (line->counter != chat_counter(1))
                             own_games->chat_elsewhere(line->user);
                         });
    }
    if (!clustered) build_hub();  // recovered once the port is bound
    const auto started = std::chrono::steady_clock::now();
    // Ready to serve players (docs/operations.md): the database reachable, and on a front node
    // the bus up; else why not.
    auto database_away = [&] {
      const auto* k = keeping.load();
      return journal.waiting_for_store() || (k && !k->reachable());
    };
    auto not_ready = [&]() -> std::string {
      if (database_away()) return "the database cannot be reached";
      if (roles && !roles->is_hub() && !bus_up.load()) return "the bus cannot be reached";
      return "";
    };
    HttpServer server(
        config,
        {.health_json =
             [&] {
               const auto up = std::chrono::steady_clock::now() - started;
               return protocol::encode(protocol::Health{
                   TENGEN_VERSION, schema,
                   std::chrono::duration_cast<std::chrono::milliseconds>(up).count(),
                   postgres ? stores->leases->name() : std::string(),
                   postgres ? stores->leases->node() : 0,
                   roles ? (roles->is_hub() ? "hub" : "front") : std::string(), not_ready()});
             },
         .not_ready = not_ready,
         .api = &api,
         .accounts = &accounts,
         .dispatcher = roles ? &roles->dispatcher() : static_cast<Dispatcher*>(&*guarded),
         .clock = &clock,
         .connection_timers = connection_timers.get(),
         .metrics_text =
             [&] {
               const std::chrono::duration<double> up = std::chrono::steady_clock::now() - started;
               Centre* h = serving.load();
               auto gauges = h ? h->gauges() : Metrics::Gauges{};
               // Games on every node: those this node plays on its own centre too.
               if (own_games) gauges.games_active += own_games->gauges().games_active;
               const auto journaled = journal.stats();
               gauges.journal_commits = journaled.commits;
               gauges.journal_rows = journaled.writes;
               gauges.journal_commit_seconds = static_cast<double>(journaled.commit_us) / 1e6;
               gauges.ready = not_ready().empty() ? 1 : 0;
               gauges.database_reconnects =
                   postgres ? store::pg::Connection::reconnects_total() : 0;
               if (gauges.ready) {  // the store answers: the analysis queue's length
                 const auto queue = analysis.queue();
                 gauges.analysis_unfinished = queue.unfinished;
                 gauges.analysis_workers_seen = queue.workers_seen;
               }
               return metrics.render(gauges, up.count());
             },
         .metrics = &metrics,
         .session_ended =
             [&bus, &stores](std::int64_t session, const std::string& why) {
               if (!bus) return;
               try {
                 bus->publish(protocol::bus::sessions_subject(),
                              protocol::bus::encode(protocol::bus::SessionEnded{
                                  stores->leases->node(), session, why}));
               } catch (const std::exception& e) {
                 spdlog::warn("could not tell the other nodes that session {} ended: {}", session,
                              e.what());
               }
             }});
    listening = &server;
    // Recovery after the port is bound: a busy port fails at once, not after replaying every
    // game; connections wait in the backlog until run().
    if (!clustered) recover_hub();
    if (!std::filesystem::exists(std::filesystem::path(config.web_root) / "index.html")) {
      spdlog::warn(
          "no web client in {} (no index.html there): pages will answer 404; set --web-root",
          config.web_root);
    } else {
      spdlog::info("serving the web client from {}", config.web_root);
    }
    const auto url = listen_url(config.address, server.port());
    if (url.every_interface) {
      spdlog::info("listening on every interface ({}), port {}: open {}", config.address,
                   server.port(), url.url);
    } else {
      spdlog::info("listening on {} only, port {}: open {}", config.address, server.port(),
                   url.url);
    }
    if (!config.public_url.empty()) {
      spdlog::info(
          "players come through {}{}", config.public_url,
          config.public_url.starts_with("https://") ? " (session cookies are Secure)" : "");
    }
    if (postgres) {
      // The hub lock this node holds, if any: one server's from the start, a cluster's once
      // this node is the hub.
      store::HubLock* held = stores->hub_lock ? stores->hub_lock.get() : hub_lock.get();
      keeper.emplace(
          *stores->leases, std::chrono::milliseconds(config.lease_ttl_ms),
          cluster::LeaseKeeper::Hooks{
              // Games on every node, on the hub: a dead or stopping node's movable games go to
              // the running nodes with the fewest games (docs/cluster.md, "A node that dies").
              .spread = [&serving, &roles_ready](int limit) -> std::size_t {
                auto* r = roles_ready.load();
                Centre* h = serving.load();
                if (!r || !r->is_hub() || !h) return 0;
                std::vector<std::int64_t> here;
                const auto given = r->give_orphans(limit, here);
                if (given == 0) return 0;
                if (!here.empty()) h->adopt(here);
                // A rated game the dead node ended may not have been reported.
                h->rate_due();
                return given;
              },
              // Only a hub owns games (a front node has none to take).
              .adopt =
                  [&serving, &roles_ready](const std::vector<std::int64_t>& games) {
                    Centre* h = serving.load();
                    if (!h) return std::size_t{0};
                    const auto taken = h->adopt(games);
                    // A rated game the dead node ended may not have been reported.
                    if (!taken.empty() && roles_ready.load()) h->rate_due();
                    // Games on every node: a dead node's games are the hub's now; the players
                    // who sent them commands there join them again here.
                    if (auto* r = roles_ready.load())
                      for (const auto game : taken) r->tell_owner(game, 0);
                    return taken.size();
                  },
              .lost =
                  [&](const std::string& why) {
                    stop_process(ExitCode::Superseded, "node " + stores->leases->name() + ": " +
                                                           why + " (restart it to serve again)");
                  },
              .keep_lock = [held] { return !held || !held->held() || held->keep(); },
              // The players on this node are told when the database goes away and
              // when it is back (their moves wait meanwhile).
              .ticked =
                  [&, told = false]() mutable {
                    const bool away = database_away();
                    if (away == told) return;
                    told = away;
                    if (auto* s = listening.load()) {
                      s->tell_all(
                          protocol::Service{away ? "degraded" : "ok", away ? "database" : ""});
                    }
                  },
              // The hub lets go of the connections of front nodes that died.
              .renewed =
                  [&roles, ttl = std::chrono::milliseconds(config.lease_ttl_ms)] {
                    if (roles) roles->let_go_of_dead_nodes(ttl, std::chrono::steady_clock::now());
                  }},
          &metrics);
      keeping = &*keeper;
      {
        std::lock_guard lock(look_now.mutex);
        look_now.keeper = &*keeper;
      }
    }
    // The server's own bots, once it listens (their bridges connect back to it).
    std::optional<HouseBots> house_bots;
    if (config.bots == "on" || (config.bots == "auto" && !clustered)) {
      std::error_code ec;
      const auto self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
      const bool every = config.address == "0.0.0.0" || config.address == "::";
      std::string host = every ? "127.0.0.1" : config.address;
      if (host.find(':') != std::string::npos) host = "[" + host + "]";
      HouseBots::Options options{
          .bridge = config.bot_bridge.empty() ? default_bridge(self) : config.bot_bridge,
          .gnugo = config.gnugo,
          .server_url = "http://" + host + ":" + std::to_string(server.port()),
          .log_level = config.log_level == "info" ? "warn" : config.log_level,
          .random_hex = random_hex,
          .started = {}};
      if (auto why = HouseBots::unavailable(options); !why.empty()) {
        spdlog::warn("no bots: {}", why);
      } else {
        house_bots.emplace(accounts, default_house_bots(), std::move(options));
        house_bots->start();
        // Their accounts exist now: their ratings start from their levels (a first start).
        if (Centre* h = serving.load()) h->seed_starts();
      }
    }
    // The house analysis worker (docs/analysis.md): GNU Go analysing finished games that players
    // ask about, with a fresh key of its own at each start, only in its environment.
    std::optional<Supervisor> house_worker;
    if (config.analysis_worker == "on" || (config.analysis_worker == "auto" && !clustered)) {
      std::error_code ec;
      const auto self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
      const auto program = default_analysis_worker(self);
      const bool every = config.address == "0.0.0.0" || config.address == "::";
      std::string host = every ? "127.0.0.1" : config.address;
      if (host.find(':') != std::string::npos) host = "[" + host + "]";
      if (access(program.c_str(), X_OK) != 0) {
        spdlog::warn("no house analysis worker: no {} to run", program);
      } else if (access(config.gnugo.c_str(), X_OK) != 0) {
        spdlog::warn("no house analysis worker: no GNU Go at {}", config.gnugo);
      } else {
        house_worker.emplace(Supervisor::Options{});
        house_worker->start(
            {{"analysis",
              "the house analysis worker",
              {program, "--server", "http://" + host + ":" + std::to_string(server.port()),
               "--engine", "gnugo", "--gnugo", config.gnugo, "--level",
               std::to_string(kHouseAnalysisLevel), "--poll-ms", "2000", "--log-level",
               config.log_level == "info" ? "warn" : config.log_level},
              {"TENGEN_WORKER_KEY=" + analysis.renew_key("house")}}});
        spdlog::info("house analysis worker: GNU Go {} at level {}", config.gnugo,
                     kHouseAnalysisLevel);
      }
    }
    if (relay) {
      spdlog::info("e-mail through {} as {}", store::without_password(config.smtp_url),
                   config.mail_from);
      mailer->start();
    }
    if (!config.port_file.empty()) std::ofstream(config.port_file) << server.port() << '\n';
    server.run();
    mailer->stop();  // its thread stops before the hub its digests ask
    house_bots.reset();
    house_worker.reset();
    keeping = nullptr;
    {
      std::lock_guard lock(look_now.mutex);
      look_now.keeper = nullptr;
    }
    keeper.reset();
    roles_ready = nullptr;
    own_answers.reset();
    roles.reset();  // no more becoming the hub, nor forwarding
    hub_answers.reset();
    session_ends.reset();
    chat_lines.reset();
    if (hub) hub->stop();  // the games' actors finish what they were given (arming timers)
    if (own_games) own_games->stop();
    timers.reset();  // before the hub they call
    own_timers.reset();
    worker.reset();
    // The last replies go out while their connections' executor lives; while the database is
    // away, what waits was never acknowledged and is given up after a moment.
    journal.close();
    // A node that played games ends its liveness now that everything it acknowledged is stored:
    // its games are anyone's to take at once (docs/cluster.md, "Stopping a node").
    const bool ended = clustered && config.games_on_every_node && [&] {
      try {
        stores->leases->end();
        return true;
      } catch (const std::exception& e) {
        spdlog::warn("could not end this node's liveness (its games wait for it to run out): {}",
                     e.what());
        return false;
      }
    }();
    // A hub that stops hands over at once (docs/cluster.md, "Stopping a node"): everything it
    // acknowledged is stored, so it lets go of the hub lock and says so, and a waiting node
    // takes it now rather than at its next try; the front nodes' players resync, not reconnect.
    if (hub_lock && hub_lock->held()) {
      hub_lock->release();
      try {
        bus->publish(protocol::bus::cluster_subject(),
                     protocol::bus::encode_hub_leaving(stores->leases->node()));
        bus->flush();
        spdlog::info("let go of the hub: another node takes it now");
      } catch (const std::exception& e) {
        spdlog::warn("could not say that this node lets go of the hub: {}", e.what());
      }
    } else if (ended) {
      try {
        bus->publish(protocol::bus::cluster_subject(),
                     protocol::bus::encode_node_left(stores->leases->node()));
        bus->flush();
      } catch (const std::exception& e) {
        spdlog::warn("could not say that this node stopped: {}", e.what());
      }
    }
    spdlog::info("stopped cleanly");
    return 0;
  } catch (const store::Unreachable& e) {
    spdlog::critical("{}", e.what());
    return static_cast<int>(ExitCode::DatabaseUnreachable);
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return static_cast<int>(ExitCode::Failure);
  }
}
