#include "bridge.h"

#include <spdlog/spdlog.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdio>
#include <deque>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "bot_game.h"
#include "engine/geometry.h"
#include "engine_process.h"
#include "protocol/codec.h"
#include "protocol/overloaded.h"
#include "protocol/server_reader.h"
#include "time_control.h"

namespace tengen::bridge {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using asio::awaitable;
using asio::use_awaitable;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

// The account cannot be used: trying again will not help.
struct Fatal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct HttpReply {
  unsigned status = 0;
  std::string body;
};

constexpr auto kSetupDeadline = 120s;  // engines that load a network take a while to start
constexpr auto kQueryDeadline = 60s;
constexpr auto kFlagGrace = 15s;  // past the clock the server has ended the game anyway
constexpr int kMaxRefusals = 10;  // commands of one game the server refused before giving it up

std::string random_hex(std::size_t bytes) {
  std::random_device device;
  std::string out;
  for (std::size_t i = 0; i < bytes; ++i) {
    char buf[3];
    std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned>(device() & 0xff));
    out += buf;
  }
  return out;
}

std::string komi_text(double komi) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", komi);
  return buf;
}

// KGS's names for the rulesets an engine may know (kgs-rules).
std::string kgs_rules(Ruleset ruleset) {
  switch (ruleset) {
    case Ruleset::Chinese:
    case Ruleset::TrompTaylor:
    case Ruleset::Ing:
      return "chinese";
    case Ruleset::Aga:
      return "aga";
    case Ruleset::NewZealand:
      return "new_zealand";
    case Ruleset::Japanese:
    case Ruleset::Korean:
      return "japanese";
  }
  return "japanese";
}

// GTP's names of the colours.
std::string gtp_color(Color c) {
  return c == Color::Black ? "black" : "white";
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The completion of a detached coroutine: an escaped exception is logged, not lost.
auto report(std::string what) {
  return [what = std::move(what)](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      spdlog::error("{} failed: {}", what, ex.what());
    }
  };
}

}  // namespace

class Bridge::Impl : public std::enable_shared_from_this<Impl> {
 public:
  Impl(asio::io_context& io, Config config, BridgeOptions options)
      : io_(io),
        config_(std::move(config)),
        options_(options),
        backoff_timer_(io),
        cid_prefix_("b" + random_hex(4)) {}

  void start() { asio::co_spawn(io_, run(shared_from_this()), report("the connection loop")); }

  void stop() {
    if (stopping_) return;
    stopping_ = true;
    spdlog::info("stopping");
    backoff_timer_.cancel();
    if (session_) {
      beast::get_lowest_layer(session_->ws).cancel();
      beast::get_lowest_layer(session_->ws).close();
    }
    for (auto& [id, slot] : slots_) slot->wake.cancel();
    // A request waiting on a server that accepts but does not answer (one shutting down) would
    // otherwise keep the bridge for its whole 15 s.
    for (auto* stream : http_streams_) stream->close();
  }

  int exit_code() const { return exit_code_; }

 private:
  struct Session {
    explicit Session(asio::io_context& io) : ws(io) {}
    websocket::stream<beast::tcp_stream> ws;
    std::deque<std::string> outbox;
    bool writing = false;
  };

  // A game the bot plays, with its engine.
  struct Slot {
    Slot(asio::io_context& io, protocol::GameId id, std::int64_t me) : game(id, me), wake(io) {}
    BotGame game;
    asio::steady_timer wake;  // cancelled whenever the game changed
    std::unique_ptr<EngineProcess> engine;
    std::set<std::string> known;             // the engine's list_commands
    std::vector<std::string> engine_stones;  // handicap stones the engine has
    std::vector<PlayedMove> engine_moves;    // moves the engine has, in order
    std::vector<std::string> placement;      // the engine's free handicap plan
    std::optional<std::uint64_t> dead_at;    // turn_seq of `dead`
    std::set<std::string> dead;
    bool snapshot_requested = false;
    bool abandoned = false;  // the server will not let the bot into it
    bool greeted = false;
    int refusals = 0;
    std::string log_name() const { return "game " + std::to_string(game.id()); }
  };

  // What a command was for, to make sense of its error.
  struct Pending {
    enum class Kind : std::uint8_t {
      Move,
      GameCommand,
      Join,
      Accept,
      Create,
      Other
    } kind = Kind::Other;
    protocol::GameId game = 0;
    protocol::ChallengeId challenge = 0;
  };

  // ---- connection ----

  // The engine runs and speaks GTP: checked once at start, so that a wrong command line stops
  // the bridge instead of resigning every game it accepts.
  awaitable<void> check_engine() {
    try {
      EngineProcess engine(io_.get_executor(), config_.engine, "engine check", config_.log_gtp);
      const GtpReply name = co_await engine.command("name", kSetupDeadline);
      const GtpReply version = co_await engine.command("version", kQueryDeadline);
      spdlog::info("engine: {} {}", name.ok ? name.text : "(no name)",
                   version.ok ? version.text : "");
      co_await engine.quit();
    } catch (const EngineFailure& e) {
      throw Fatal("the engine does not work: " + std::string(e.what()));
    }
  }

  static awaitable<void> run(std::shared_ptr<Impl> self) {
    try {
      co_await self->check_engine();
    } catch (const Fatal& e) {
      spdlog::critical("{}", e.what());
      self->exit_code_ = 2;
      self->stop();
      co_return;
    }
    auto backoff = 250ms;
    while (!self->stopping_) {
      const auto began = std::chrono::steady_clock::now();
      try {
        co_await self->serve();
      } catch (const Fatal& e) {
        spdlog::critical("{}", e.what());
        self->exit_code_ = 2;
        self->stop();
      } catch (const std::exception& e) {
        const auto* system = dynamic_cast<const boost::system::system_error*>(&e);
        const std::string why = system ? system->code().message() : e.what();
        if (!self->stopping_) {
          spdlog::warn("{} {}:{}: {}",
                       self->connected() ? "connection lost to" : "cannot connect to",
                       self->config_.host, self->config_.port, why);
        }
      }
      self->disconnected();
      if (self->stopping_) break;
      if (std::chrono::steady_clock::now() - began > 30s) backoff = 250ms;
      // ±25%, so that the bots of a restarted server do not all come back at the same instant.
      const auto jitter = std::uniform_real_distribution<double>(0.75, 1.25)(self->random_);
      self->backoff_timer_.expires_after(
          std::chrono::duration_cast<std::chrono::milliseconds>(backoff * jitter));
      boost::system::error_code ec;
      co_await self->backoff_timer_.async_wait(asio::redirect_error(use_awaitable, ec));
      backoff = std::min<std::chrono::milliseconds>(backoff * 2, 5s);
    }
  }

  awaitable<HttpReply> http_request(http::verb method, std::string target, std::string body) {
    asio::ip::tcp::resolver resolver(io_);
    if (stopping_) throw std::runtime_error("stopping");
    beast::tcp_stream stream(io_);
    stream.expires_after(15s);
    http_streams_.insert(&stream);
    struct Forget {
      std::set<beast::tcp_stream*>& streams;
      beast::tcp_stream* stream;
      ~Forget() { streams.erase(stream); }
    } forget{http_streams_, &stream};
    const auto endpoints =
        co_await resolver.async_resolve(config_.host, config_.port, use_awaitable);
    co_await stream.async_connect(endpoints, use_awaitable);
    http::request<http::string_body> request(method, target, 11);
    request.set(http::field::host, config_.host);
    request.set(http::field::user_agent, "tengen-gtp-bridge");
    if (!token_.empty()) request.set(http::field::authorization, "Bearer " + token_);
    if (!body.empty()) {
      request.set(http::field::content_type, "application/json");
      request.body() = std::move(body);
      request.prepare_payload();
    }
    co_await http::async_write(stream, request, use_awaitable);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    co_await http::async_read(stream, buffer, response, use_awaitable);
    boost::system::error_code ignored;
    stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    co_return HttpReply{response.result_int(), response.body()};
  }

  static std::string error_message(const HttpReply& reply) {
    const json j = json::parse(reply.body, nullptr, false);
    if (j.is_object() && j.contains("error")) return j["error"].value("message", reply.body);
    return "HTTP " + std::to_string(reply.status);
  }

  awaitable<void> log_in() {
    token_.clear();
    const std::string credentials =
        json{{"username", config_.username}, {"password", config_.password}}.dump();
    HttpReply reply = co_await http_request(http::verb::post, "/api/v1/login", credentials);
    if (reply.status == 401 && options_.register_account) {
      json bot = json::parse(credentials);
      bot["bot"] = true;
      reply = co_await http_request(http::verb::post, "/api/v1/register", bot.dump());
      if (reply.status != 201)
        throw Fatal("cannot register the bot account '" + config_.username +
                    "': " + error_message(reply));
      spdlog::info("registered the bot account '{}'", config_.username);
    }
    if (reply.status == 401)
      throw Fatal("cannot log in as '" + config_.username + "': " + error_message(reply));
    if (reply.status != 200 && reply.status != 201)
      throw std::runtime_error("logging in: " + error_message(reply));
    const json j = json::parse(reply.body);
    token_ = j.at("token").get<std::string>();
    me_ = j.at("user").at("id").get<std::int64_t>();
    const HttpReply profile =
        co_await http_request(http::verb::get, "/api/v1/users/" + config_.username, "");
    const json p = json::parse(profile.body, nullptr, false);
    if (!p.is_object() || !p.contains("user") || !p["user"].value("bot", false)) {
      throw Fatal(
          "'" + config_.username +
          "' is not a bot account: programs play under bot accounts only, so that everyone can see "
          "it "
          "(register one with \"bot\": true, or start the bridge with --register for a new name)");
    }
    spdlog::info("logged in as the bot '{}' (id {})", config_.username, me_);
  }

  // The unfinished games of this bot, from before a restart or a lost connection.
  awaitable<std::vector<protocol::GameId>> live_games() {
    const HttpReply reply = co_await http_request(
        http::verb::get, "/api/v1/users/" + config_.username + "/games?limit=100", "");
    std::vector<protocol::GameId> ids;
    const json j = json::parse(reply.body, nullptr, false);
    if (reply.status != 200 || !j.is_object())
      throw std::runtime_error("listing the bot's games: " + error_message(reply));
    for (const auto& g : j.value("games", json::array())) {
      if (g.value("result", json()).is_null()) ids.push_back(g.at("id").get<protocol::GameId>());
    }
    co_return ids;
  }

  awaitable<void> serve() {
    if (token_.empty()) co_await log_in();
    auto session = std::make_shared<Session>(io_);
    asio::ip::tcp::resolver resolver(io_);
    const auto endpoints =
        co_await resolver.async_resolve(config_.host, config_.port, use_awaitable);
    beast::get_lowest_layer(session->ws).expires_after(15s);
    co_await beast::get_lowest_layer(session->ws).async_connect(endpoints, use_awaitable);
    beast::get_lowest_layer(session->ws).expires_never();
    auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::client);
    timeouts.idle_timeout = 30s;  // a silent server is pinged, then dropped
    timeouts.keep_alive_pings = true;
    session->ws.set_option(timeouts);
    session->ws.set_option(
        websocket::stream_base::decorator([token = token_](websocket::request_type& req) {
          req.set(http::field::authorization, "Bearer " + token);
          req.set(http::field::user_agent, "tengen-gtp-bridge");
        }));
    co_await session->ws.async_handshake(config_.host + ":" + config_.port, "/ws/v1",
                                         use_awaitable);
    session->ws.text(true);
    session_ = session;
    spdlog::info("connected to {}:{}", config_.host, config_.port);
    for (const auto id : co_await live_games()) slot_for(id);
    for (auto& [id, slot] : slots_) request_snapshot(*slot);
    beast::flat_buffer buffer;
    for (;;) {
      co_await session->ws.async_read(buffer, use_awaitable);
      const std::string text = beast::buffers_to_string(buffer.data());
      buffer.consume(buffer.size());
      handle(text);
      if (stopping_) break;
    }
  }

  void disconnected() {
    session_.reset();
    pending_.clear();
    pending_accepts_.clear();
    our_challenge_.reset();
    posting_ = false;
    for (auto& [id, slot] : slots_) {
      slot->game.lost_track();  // what was sent may be lost: wait for a snapshot
      slot->snapshot_requested = false;
    }
  }

  bool connected() const { return session_ != nullptr; }

  void send(const protocol::ClientMessage& message, Pending pending) {
    if (!session_) return;
    const std::string cid = cid_prefix_ + "-" + std::to_string(++next_cid_);
    pending_[cid] = pending;
    session_->outbox.push_back(protocol::encode(protocol::ClientEnvelope{cid, message}));
    if (!session_->writing) {
      session_->writing = true;
      asio::co_spawn(io_, write_all(session_), report("writing"));
    }
  }

  static awaitable<void> write_all(std::shared_ptr<Session> session) {
    while (!session->outbox.empty()) {
      boost::system::error_code ec;
      co_await session->ws.async_write(asio::buffer(session->outbox.front()),
                                       asio::redirect_error(use_awaitable, ec));
      if (ec) break;  // the read loop sees the same end
      session->outbox.pop_front();
    }
    session->writing = false;
  }

  // ---- what the server says ----

  void handle(const std::string& text) {
    const auto message = protocol::read_server_message(text);
    if (!message) return;
    std::visit(Overloaded{
                   [&](const protocol::Welcome& w) {
                     if (!w.user) {  // the session ended: log in again
                       token_.clear();
                       throw std::runtime_error("the server no longer knows the session");
                     }
                   },
                   [&](const protocol::LobbySnapshot& l) {
                     for (const auto& c : l.challenges) {
                       if (c.challenger.id == me_) {
                         our_challenge_ = c.id;
                       } else {
                         consider(c);
                       }
                     }
                     maintain_challenge();
                   },
                   [&](const protocol::ChallengeOpened& o) {
                     if (o.challenge.challenger.id != me_) consider(o.challenge);
                   },
                   [&](const protocol::ChallengeClosed& c) {
                     pending_accepts_.erase(c.challenge);
                     if (our_challenge_ == c.challenge) our_challenge_.reset();
                     maintain_challenge();
                   },
                   [&](const protocol::GameStarted& g) {
                     if (g.black.id != me_ && g.white.id != me_) return;
                     spdlog::info("game {} started: {} (black) vs {} (white)", g.game, g.black.name,
                                  g.white.name);
                     request_snapshot(slot_for(g.game));
                     maintain_challenge();
                   },
                   [&](const protocol::GameSnapshot& s) {
                     const auto it = slots_.find(s.game);
                     if (it == slots_.end()) return;
                     Slot& slot = *it->second;
                     slot.snapshot_requested = false;
                     slot.game.apply(s, std::chrono::steady_clock::now());
                     greet(slot);
                     slot.wake.cancel();
                   },
                   [&](const protocol::RoomEvent& e) {
                     const auto it = slots_.find(e.game);
                     if (it == slots_.end()) return;
                     Slot& slot = *it->second;
                     if (slot.game.apply(e, std::chrono::steady_clock::now()) ==
                         BotGame::Applied::NeedSnapshot) {
                       request_snapshot(slot);
                     }
                     slot.wake.cancel();
                   },
                   [&](const protocol::Ack& a) {
                     const auto it = pending_.find(a.cid);
                     if (it == pending_.end()) return;
                     if (it->second.kind == Pending::Kind::Create) {
                       posting_ = false;
                       if (a.challenge) our_challenge_ = *a.challenge;
                     }
                     pending_.erase(it);
                   },
                   [&](const protocol::Error& e) { refused(e); },
                   [](const auto&) {},
               },
               *message);
  }

  void refused(const protocol::Error& e) {
    const auto it = e.cid ? pending_.find(*e.cid) : pending_.end();
    if (it == pending_.end()) {
      spdlog::warn("server error: {}", e.message);
      return;
    }
    const Pending p = it->second;
    pending_.erase(it);
    switch (p.kind) {
      case Pending::Kind::Accept:
        pending_accepts_.erase(p.challenge);
        spdlog::info("could not accept challenge {}: {}", p.challenge, e.message);
        return;
      case Pending::Kind::Create:
        posting_ = false;
        challenge_refused_ = true;  // the configured challenge is wrong: do not insist
        spdlog::error("the server refused the bot's challenge: {}", e.message);
        return;
      case Pending::Kind::Other:
        spdlog::warn("server error: {}", e.message);
        return;
      default:
        break;
    }
    const auto slot_it = slots_.find(p.game);
    if (slot_it == slots_.end()) return;
    Slot& slot = *slot_it->second;
    if (p.kind == Pending::Kind::Join) {
      spdlog::warn("{}: cannot join it ({}); leaving it", slot.log_name(), e.message);
      slot.abandoned = true;
    } else if (p.kind == Pending::Kind::Move && e.code == protocol::ErrorCode::IllegalMove) {
      slot.game.give_up("the engine's move was refused: " + e.message);
    } else if (++slot.refusals >= kMaxRefusals) {
      slot.game.give_up("the server refused the bot's commands " + std::to_string(kMaxRefusals) +
                        " times; the last: " + e.message);
    } else {
      spdlog::info("{}: the server refused a command ({}); looking again", slot.log_name(),
                   e.message);
      slot.game.lost_track();
      request_snapshot(slot);
    }
    slot.wake.cancel();
  }

  // ---- challenges ----

  int room_left() const {
    return config_.accept.max_games - static_cast<int>(slots_.size()) -
           static_cast<int>(pending_accepts_.size());
  }

  void consider(const protocol::Challenge& c) {
    const bool direct = c.opponent && c.opponent->id == me_;
    if (c.opponent && !direct) return;
    std::optional<std::string> why;
    if (direct ? !config_.accept.direct : !config_.accept.open) {
      why = direct ? "this bot takes open challenges only" : "";
    } else if (auto problem = refusal(config_.accept, c.settings)) {
      why = problem;
    } else if (room_left() <= 0) {
      why = "this bot is playing as many games as it may";
    }
    if (why) {
      if (!direct) return;
      spdlog::info("declining challenge {} from {}: {}", c.id, c.challenger.name, *why);
      send(protocol::DeclineChallenge{c.id, *why}, {});
      return;
    }
    if (pending_accepts_.contains(c.id)) return;
    spdlog::info("accepting challenge {} from {}", c.id, c.challenger.name);
    pending_accepts_.insert(c.id);
    send(protocol::AcceptChallenge{c.id}, {Pending::Kind::Accept, 0, c.id});
    maintain_challenge();
  }

  // Keeps the bot's own challenge open while it has room for another game, and withdraws it
  // when it has none.
  void maintain_challenge() {
    if (!config_.challenge || !connected() || stopping_ || challenge_refused_ || posting_) return;
    if (our_challenge_ && room_left() <= 0) {
      send(protocol::CancelChallenge{*our_challenge_}, {});
      our_challenge_.reset();
    } else if (!our_challenge_ && room_left() > 0) {
      posting_ = true;
      send(protocol::CreateChallenge{*config_.challenge, std::nullopt},
           {Pending::Kind::Create, 0, 0});
    }
  }

  // ---- games ----

  Slot& slot_for(protocol::GameId id) {
    auto& slot = slots_[id];
    if (!slot) {
      slot = std::make_shared<Slot>(io_, id, me_);
      asio::co_spawn(io_, play(shared_from_this(), slot), report("game " + std::to_string(id)));
    }
    return *slot;
  }

  void request_snapshot(Slot& slot) {
    if (slot.snapshot_requested || !connected()) return;
    slot.snapshot_requested = true;
    slot.game.lost_track();
    send(protocol::JoinGame{slot.game.id(), std::nullopt},
         {Pending::Kind::Join, slot.game.id(), 0});
  }

  void greet(Slot& slot) {
    if (slot.greeted || config_.greeting.empty() || slot.game.finished() ||
        !slot.game.moves().empty())
      return;
    slot.greeted = true;
    send(protocol::SendChat{slot.game.id(), config_.greeting},
         {Pending::Kind::Other, slot.game.id(), 0});
  }

  // One game from its start to its end: whenever it changed, do what it needs next.
  static awaitable<void> play(std::shared_ptr<Impl> self, std::shared_ptr<Slot> slot) {
    while (!self->stopping_ && !slot->game.finished() && !slot->abandoned) {
      const auto action = self->connected() ? slot->game.next_action() : std::nullopt;
      if (!action) {
        slot->wake.expires_at(std::chrono::steady_clock::time_point::max());
        boost::system::error_code ec;
        co_await slot->wake.async_wait(asio::redirect_error(use_awaitable, ec));
        continue;
      }
      try {
        co_await self->act(*slot, *action);
      } catch (const EngineFailure& e) {  // logged as the reason when the bot resigns
        slot->engine.reset();
        slot->game.give_up(e.what());
      }
    }
    if (slot->engine) co_await slot->engine->quit();
    if (slot->game.finished() || slot->abandoned) {
      if (slot->game.finished())
        spdlog::info("game {} over: {}", slot->game.id(),
                     slot->game.result().value_or(Result{}).to_sgf());
      self->slots_.erase(slot->game.id());
      self->maintain_challenge();
    }
  }

  awaitable<void> act(Slot& slot, const Action& action) {
    BotGame& g = slot.game;
    const auto id = g.id();
    if (std::holds_alternative<ChooseNigiri>(action)) {
      std::optional<std::string> guess;
      if (std::get<ChooseNigiri>(action).guesser)
        guess = std::random_device{}() % 2 ? "odd" : "even";
      send(protocol::NigiriChoice{id, random_hex(16), guess}, {Pending::Kind::GameCommand, id, 0});
      g.chose_nigiri();
    } else if (std::holds_alternative<AnswerUndo>(action)) {
      send(protocol::AnswerUndo{id, config_.accept_undo}, {Pending::Kind::GameCommand, id, 0});
      g.answered_undo();
    } else if (std::holds_alternative<GiveUp>(action)) {
      spdlog::error("{}: resigning: {}", slot.log_name(), g.give_up_reason());
      send(protocol::Resign{id}, {Pending::Kind::GameCommand, id, 0});
      g.resigned();
    } else if (const auto* judge = std::get_if<JudgeMarking>(&action)) {
      co_await judge_marking(slot, judge->version);
    } else {
      co_await think(slot);
    }
  }

  awaitable<GtpReply> ask(Slot& slot, std::string command,
                          std::chrono::milliseconds deadline = kQueryDeadline) {
    co_return co_await slot.engine->command(std::move(command), deadline);
  }

  awaitable<void> must(Slot& slot, std::string command,
                       std::chrono::milliseconds deadline = kQueryDeadline) {
    const GtpReply reply = co_await ask(slot, command, deadline);
    if (!reply.ok) throw EngineFailure("the engine refused '" + command + "': " + reply.text);
  }

  // A fresh engine for the game: board, komi, rules and clock.
  awaitable<void> start_engine(Slot& slot) {
    const BotGame& g = slot.game;
    slot.engine = std::make_unique<EngineProcess>(io_.get_executor(), config_.engine,
                                                  slot.log_name(), config_.log_gtp);
    slot.engine_stones.clear();
    slot.engine_moves.clear();
    slot.placement.clear();
    slot.dead_at.reset();
    const GtpReply commands = co_await ask(slot, "list_commands", kSetupDeadline);
    slot.known.clear();
    if (commands.ok) {
      for (const auto& name : split_vertices(commands.text)) slot.known.insert(lower(name));
    }
    co_await must(slot, "boardsize " + std::to_string(g.settings().width));
    co_await must(slot, "clear_board");
    co_await must(slot, "komi " + komi_text(g.komi()));
    if (slot.known.contains("kgs-rules"))
      co_await ask(slot, "kgs-rules " + kgs_rules(g.settings().ruleset));
    const bool kgs_time = slot.known.contains("kgs-time_settings");
    const auto time = time_settings_command(g.settings().time, kgs_time);
    if (!(co_await ask(slot, time)).ok)
      spdlog::warn("{}: the engine refused '{}'", slot.log_name(), time);
  }

  // Brings the engine's position to the server's: the moves it lacks, or from scratch.
  awaitable<void> sync(Slot& slot) {
    if (!slot.engine) co_await start_engine(slot);
    const BotGame& g = slot.game;
    const auto& moves = g.moves();
    const std::set<std::string> stones(g.handicap_stones().begin(), g.handicap_stones().end());
    const bool same_stones =
        std::set<std::string>(slot.engine_stones.begin(), slot.engine_stones.end()) == stones;
    const bool prefix =
        slot.engine_moves.size() <= moves.size() &&
        std::equal(slot.engine_moves.begin(), slot.engine_moves.end(), moves.begin());
    if (!same_stones || !prefix) {
      co_await must(slot, "clear_board");
      slot.engine_stones.clear();
      slot.engine_moves.clear();
      if (!stones.empty()) {
        std::string command = "set_free_handicap";
        for (const auto& v : g.handicap_stones()) command += " " + v;
        co_await must(slot, command);
        slot.engine_stones = g.handicap_stones();
      }
    }
    for (std::size_t i = slot.engine_moves.size(); i < moves.size(); ++i) {
      co_await must(slot, "play " + gtp_color(moves[i].color) + " " + moves[i].vertex);
      slot.engine_moves.push_back(moves[i]);
    }
  }

  awaitable<void> place_handicap_stone(Slot& slot) {
    BotGame& g = slot.game;
    const auto turn = g.turn_seq();
    if (!slot.engine) co_await start_engine(slot);
    if (slot.placement.empty()) {
      co_await must(slot, "clear_board");
      const GtpReply plan =
          co_await ask(slot, "place_free_handicap " + std::to_string(g.settings().handicap));
      if (!plan.ok)
        throw EngineFailure("the engine cannot place free handicap stones: " + plan.text);
      slot.placement = split_vertices(plan.text);
      slot.engine_stones = slot.placement;
      slot.engine_moves.clear();
    }
    const auto& placed = g.handicap_stones();
    const auto next =
        std::find_if(slot.placement.begin(), slot.placement.end(), [&](const std::string& v) {
          return std::find(placed.begin(), placed.end(), v) == placed.end();
        });
    if (next == slot.placement.end())
      throw EngineFailure("the engine placed fewer handicap stones than the game has");
    if (g.turn_seq() != turn || g.finished()) co_return;
    send(protocol::PlayMove{g.id(), *next, std::nullopt}, {Pending::Kind::Move, g.id(), 0});
    g.thought();
  }

  awaitable<void> think(Slot& slot) {
    BotGame& g = slot.game;
    if (g.placing()) {
      co_await place_handicap_stone(slot);
      co_return;
    }
    const auto turn = g.turn_seq();
    const auto started = std::chrono::steady_clock::now();
    co_await sync(slot);
    const auto clock = g.my_clock(std::chrono::steady_clock::now());
    std::chrono::milliseconds deadline = std::chrono::seconds(config_.max_think_seconds);
    if (clock) {
      const bool kgs_time = slot.known.contains("kgs-time_settings");
      if (const auto command =
              time_left_command(g.settings().time, *clock, gtp_color(*g.my_color()), kgs_time)) {
        co_await ask(slot, *command);
      }
      if (const auto left = time_to_flag_ms(g.settings().time, *clock))
        deadline = std::chrono::milliseconds(*left) + kFlagGrace;
    }
    const bool cleanup = g.settling() && slot.known.contains("kgs-genmove_cleanup");
    const std::string command =
        (cleanup ? "kgs-genmove_cleanup " : "genmove ") + gtp_color(*g.my_color());
    const GtpReply reply = co_await ask(slot, command, deadline);
    if (!reply.ok) throw EngineFailure("the engine refused '" + command + "': " + reply.text);
    const std::string move = lower(reply.text);
    const Geometry geometry{g.settings().width, g.settings().height};
    if (move != "pass" && move != "resign" && !geometry.parse_gtp(move)) {
      throw EngineFailure("the engine answered '" + command + "' with '" + reply.text +
                          "', not a move");
    }
    if (move != "resign")
      slot.engine_moves.push_back({*g.my_color(), move == "pass" ? "pass" : reply.text});
    if (g.finished() || g.turn_seq() != turn || g.stale())
      co_return;  // the game moved on meanwhile
    const auto think_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - started)
                              .count();
    const Pending pending{Pending::Kind::Move, g.id(), 0};
    if (move == "resign") {
      spdlog::info("{}: the engine resigns", slot.log_name());
      send(protocol::Resign{g.id()}, pending);
    } else if (move == "pass") {
      send(protocol::PassMove{g.id(), think_ms}, pending);
    } else {
      send(protocol::PlayMove{g.id(), reply.text, think_ms}, pending);
    }
    g.thought();
  }

  awaitable<void> judge_marking(Slot& slot, std::uint64_t version) {
    BotGame& g = slot.game;
    const auto turn = g.turn_seq();
    Judgement judgement = AcceptMarking{version};
    co_await sync(slot);
    if (slot.known.contains("final_status_list")) {
      if (slot.dead_at != turn) {
        const GtpReply dead = co_await ask(slot, "final_status_list dead");
        if (!dead.ok)
          throw EngineFailure("the engine refused 'final_status_list dead': " + dead.text);
        const auto list = split_vertices(dead.text);
        slot.dead = std::set<std::string>(list.begin(), list.end());
        slot.dead_at = turn;
      }
      if (!g.marking() || g.marking()->version != version || g.stale())
        co_return;  // changed meanwhile
      judgement = tengen::bridge::judge_marking(slot.dead, *g.marking(), g.marking_by_opponent(),
                                                g.corrected_marking());
    }
    const auto id = g.id();
    std::visit(
        Overloaded{
            [&](const MarkChain& m) {
              send(protocol::MarkDead{id, m.vertex, m.dead}, {Pending::Kind::GameCommand, id, 0});
            },
            [&](const AcceptMarking& a) {
              send(protocol::AcceptScore{id, a.version}, {Pending::Kind::GameCommand, id, 0});
            },
            [&](const ResumeToSettle&) {
              spdlog::info(
                  "{}: the opponent's marking differs from the engine's: resuming play to settle "
                  "it",
                  slot.log_name());
              send(protocol::ResumePlay{id}, {Pending::Kind::GameCommand, id, 0});
            },
        },
        judgement);
    g.judged(version, judgement);
  }

  asio::io_context& io_;
  Config config_;
  BridgeOptions options_;
  asio::steady_timer backoff_timer_;
  std::mt19937 random_{std::random_device{}()};
  std::string cid_prefix_;
  std::uint64_t next_cid_ = 0;
  std::string token_;
  std::int64_t me_ = 0;
  std::shared_ptr<Session> session_;
  std::set<beast::tcp_stream*> http_streams_;  // requests under way, closed by stop()
  std::map<std::string, Pending> pending_;
  std::set<protocol::ChallengeId> pending_accepts_;
  std::optional<protocol::ChallengeId> our_challenge_;
  bool posting_ = false;
  bool challenge_refused_ = false;
  std::map<protocol::GameId, std::shared_ptr<Slot>> slots_;
  bool stopping_ = false;
  int exit_code_ = 0;
};

Bridge::Bridge(asio::io_context& io, Config config, BridgeOptions options)
    : impl_(std::make_shared<Impl>(io, std::move(config), options)) {}
Bridge::~Bridge() = default;
void Bridge::start() {
  impl_->start();
}
void Bridge::stop() {
  impl_->stop();
}
int Bridge::exit_code() const {
  return impl_->exit_code();
}

}  // namespace tengen::bridge
