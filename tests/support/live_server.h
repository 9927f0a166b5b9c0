#pragma once

// The whole server stack (a SQLite file or, given a postgres:// URI, a PostgreSQL database;
// accounts, API, centre, HTTP/WebSocket server) on 127.0.0.1 and a free port, run on a thread of
// the test. Time is the test's: a manual clock and manual timers that fire when the test advances
// it. "Automatic" colours go to the challenger as Black and nigiri secrets come from a seeded
// generator, so that games are deterministic.
#include <iomanip>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include "accounts/accounts.h"
#include "centre/centre.h"
#include "cluster/hub_reads.h"
#include "events/relays.h"
#include "http/api.h"
#include "http/http_server.h"
#include "mail/mailer.h"
#include "mail/waiting.h"
#include "metrics.h"
#include "store/journal.h"
#include "store/stores.h"
#include "support/gated_worker.h"
#include "support/manual_clock.h"
#include "support/manual_timers.h"

namespace tengen::testing {

class LiveStack {
 public:
  // The server's limits, but connections idle for up to ten years of the manual clock: tests jump
  // time by hours (flags, tournaments) while their clients read nothing, and the pings and idle
  // checks run on that clock. The tests of the idle timeout set their own.
  static ConnectionLimits limits() {
    ConnectionLimits l;
    l.idle_timeout = std::chrono::hours(24 * 365 * 10);
    return l;
  }

  // E-mail (docs/mail.md): the mailer's options and how it sends (none: nothing is sent). The
  // mailer's thread is not started: tests run its rounds (mailer().run_once()).
  struct Mail {
    Mailer::Options options;
    Mailer::Send send;
  };

  // Puts something in front of the game store (a test's store whose reads it holds back).
  using WrapStore = std::function<std::unique_ptr<store::GameStore>(store::GameStore& real)>;

  // `ratings_sweep`: how often the centre reads the games left to rate by other nodes
  // (Centre::Services::ratings_sweep; none by default, as on one server).
  LiveStack(const std::string& database, ConnectionLimits limits = LiveStack::limits(),
            RoomOptions room = {}, Mail mail = {}, const WrapStore& wrap = {},
            std::chrono::milliseconds ratings_sweep = {})
      : stores_(store::Stores::open(database)),
        wrapped_(wrap ? wrap(*stores_->games) : nullptr),
        game_store_(wrapped_ ? wrapped_.get() : stores_->games.get()) {
    accounts_.emplace(*stores_->accounts, clock_, Accounts::Options::fastest_for_tests(),
                      stores_->moderation.get());
    mailer_.emplace(*stores_->mail, *accounts_, clock_, mail.options, mail.send,
                    [this](std::int64_t user) -> std::optional<std::vector<WaitingGame>> {
                      return waiting_games(centre_->games_of(user), user);
                    });
    journal_.emplace(*game_store_);
    room.dead_stone_playouts = 200;
    auto ref = [](const std::optional<store::UserRecord>& u) -> std::optional<protocol::UserRef> {
      if (!u) return std::nullopt;
      return protocol::UserRef{u->id, u->username};
    };
    centre_.emplace(Centre::Services{
        .find_user = [this,
                      ref](const std::string& name) { return ref(accounts_->find_user(name)); },
        .find_user_by_id = [this, ref](std::int64_t id) { return ref(accounts_->find_user(id)); },
        .journal = &*journal_,
        .store = &*game_store_,
        .draw_black = [] { return true; },
        .random_hex = [this](std::size_t bytes) { return random_hex(bytes); },
        .clock = &clock_,
        .timers = &timers_,
        .worker = &*worker_,
        .room = room,
        .metrics = &metrics_,
        .leases = nullptr,
        .moderation = stores_->moderation.get(),
        .calendar_of = [this](std::int64_t id) { return accounts_->calendar(id); },
        .notify = [this](const PlayerNotice& n) { mailer_->notice(n); },
        .ratings_sweep = ratings_sweep});
    recovered_ = centre_->recover(*game_store_);
    relays_.emplace(
        Relays::Services{
            .store = *stores_->relays,
            .clock = clock_,
            .boards = [this](const protocol::http::RelayOp& op) { return reads().relay(op); }},
        Relays::Limits{});
    api_.emplace(
        *accounts_,
        GameArchive{.store = &*game_store_, .clock = &clock_, .hub = reads(), .relays = &*relays_},
        false, stores_->moderation.get(), &*mailer_);
    Config config;
    config.address = "127.0.0.1";
    config.port = 0;
    config.allowed_origins = {"https://club.example.org"};
    server_.emplace(config,
                    HttpServer::Handlers{
                        .health_json = [] { return std::string("{}"); },
                        .not_ready = {},
                        .api = &*api_,
                        .accounts = &*accounts_,
                        .dispatcher = &centre_->router(),
                        .clock = &clock_,
                        .connection_timers = &connection_timers_,
                        .metrics_text = [this] { return metrics_.render(centre_->gauges(), 0); },
                        .metrics = &metrics_,
                        .session_ended = {}},
                    limits);
    thread_ = std::thread([this] { server_->run(); });
  }
  ~LiveStack() {
    server_->stop();
    thread_.join();
    timers_.set_handler({});
    centre_->stop();             // the games' actors finish what they were given
    worker_.reset();             // before the centre its jobs call
    journal_->barrier().wait();  // the last replies go out while the server's executor lives
  }
  LiveStack(const LiveStack&) = delete;
  LiveStack& operator=(const LiveStack&) = delete;

  int port() const { return server_->port(); }
  ManualClock& clock() { return clock_; }
  ManualTimers& timers() { return timers_; }
  GatedWorker& worker() { return *worker_; }
  // Moves time on and delivers the deadlines that came.
  void advance(std::chrono::milliseconds d) {
    clock_.advance(d);
    timers_.fire_due(clock_.steady_now());
    connection_timers_.fire_due(clock_.steady_now());
  }
  Accounts& accounts() { return *accounts_; }
  Mailer& mailer() { return *mailer_; }
  store::MailStore& mail_store() { return *stores_->mail; }
  store::ModerationStore& moderation() { return *stores_->moderation; }
  Metrics& metrics() { return metrics_; }
  Centre& centre() { return *centre_; }
  store::GameStore& games() { return *game_store_; }
  store::Journal& journal() { return *journal_; }
  Api& api() { return *api_; }
  // The centre's reads of its own (what a front node asks of it over the bus).
  HubReads reads() { return cluster::hub_reads_of(*centre_); }
  const Centre::Recovered& recovered() const { return recovered_; }

  // Registers a user and returns a session token for it.
  std::string token_for(const std::string& name) {
    const auto outcome = accounts_->register_user(name, "a fine password", "test", "127.0.0.1");
    return std::get<Accounts::LoggedIn>(outcome).token;
  }

 private:
  std::string random_hex(std::size_t bytes) {
    std::lock_guard lock(random_mutex_);
    std::ostringstream out;
    for (std::size_t i = 0; i < bytes; ++i)
      out << std::hex << std::setw(2) << std::setfill('0') << (random_() & 0xff);
    return out.str();
  }

  ManualClock clock_;
  ManualTimers timers_;
  ManualTimers connection_timers_;  // pings and idle checks
  std::optional<GatedWorker> worker_{std::in_place};
  std::mutex random_mutex_;
  std::mt19937_64 random_{20261122};
  std::unique_ptr<store::Stores> stores_;  // as the server opens them: migrated and locked
  std::unique_ptr<store::GameStore> wrapped_;
  store::GameStore* game_store_;
  std::optional<Accounts> accounts_;
  std::optional<Mailer> mailer_;
  std::optional<store::Journal> journal_;
  Metrics metrics_;
  std::optional<Centre> centre_;
  Centre::Recovered recovered_;
  std::optional<Relays> relays_;  // relays (docs/events.md), over this stack's review boards
  std::optional<Api> api_;
  std::optional<HttpServer> server_;
  std::thread thread_;
};

}  // namespace tengen::testing
