// tengen-load: the server under load, measured (docs/performance.md). It starts the real server on
// a fresh database, registers players, opens N games between pairs of WebSocket connections (plus
// spectators and idle connections if asked), plays random legal moves at a set rate or as fast as
// possible, and reports connections held, acknowledged moves per second, the move round trip (the
// mover's command to the opponent's event) at p50/p90/p99/max, and the server's CPU and memory;
// then it stops the server and checks that every acknowledged move is in the database. With --echo
// it measures a bare WebSocket echo server (the server's framing, nothing else) the same way, as
// the baseline of what the network stack alone does on this machine. It always ends by itself.
#include <sched.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "client.h"
#include "engine/board.h"
#include "engine/game.h"
#include "engine/geometry.h"
#include "engine/move_error.h"
#include "engine/rules.h"
#include "protocol/overloaded.h"
#include "protocol/server_reader.h"
#include "store/postgres.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace fs = std::filesystem;
using asio::awaitable;
using asio::use_awaitable;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using tengen::Overloaded;
using namespace std::chrono_literals;

struct Options {
  std::string server = "build/bench/server/tengen-server";
  std::string echo;  // the echo server binary: measure the baseline instead
  int games = 100;
  double rate = 1.0;    // moves per second per game; 0: as fast as possible
  int spectators = 0;   // per game
  int idle = 0;         // extra connections that only hold on
  double seconds = 10;  // the measured window
  int server_threads = 2;
  int size = 19;
  // Both players pass once a game has this many moves (0: never): the scoring phase starts, the
  // server suggests dead stones, Black resigns and a new game begins.
  std::size_t pass_after = 0;
  // Players of a McMahon tournament started half-way through the window (0: none): its first
  // round is paired and its games created while the other games play on.
  int tournament = 0;
  // A finished 300-move game, read back from the store this many times in the window (each time
  // a guest opens it after nobody watched it: it had left memory), while the games play.
  int cold_loads = 0;
  // An empty PostgreSQL database to run the server on (a postgres:// URI), instead of a fresh
  // SQLite file.
  std::string database;
  // Several nodes over the --database (docs/cluster.md): the NATS server and how many nodes;
  // the first started is the hub, and connections go to the nodes in turn.
  std::string bus;
  int nodes = 1;
  // A relay (docs/events.md, "Relays") followed by this many spectators instead of games: its
  // director enters moves over HTTP, every spectator follows its board and commentary room.
  int relay = 0;
  // Each server process pinned to one core (node i to core i modulo the cores): how games spread
  // over nodes compares with one node on one core (docs/cluster.md).
  bool pin = false;
  // Games on every node (the nodes run with --games every-node): a game's two players connect to
  // the same node, where their game is then played (docs/cluster.md, "Games on every node").
  bool every_node = false;
};

// Loopback addresses to connect from: the server allows 32 connections and 10 registrations per
// address, so a load of thousands spreads over 127.0.x.y.
asio::ip::address_v4 source_address(int index) {
  const int n = index + 2;  // 127.0.0.2 upwards
  return asio::ip::make_address_v4("127.0." + std::to_string(n / 250) + "." +
                                   std::to_string(n % 250 + 2));
}

// ---- the process under test ----

struct Child {
  pid_t pid = -1;
  int port = 0;
};

// `core`: the one core the process may run on (none: any).
Child start_child(const std::vector<std::string>& argv, const fs::path& port_file,
                  std::optional<int> core = std::nullopt) {
  fs::remove(port_file);
  Child c;
  c.pid = fork();
  if (c.pid == 0) {
    if (core) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(*core, &set);
      if (sched_setaffinity(0, sizeof set, &set) != 0) _exit(126);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  for (int i = 0; i < 3000; ++i) {  // polling is fine here: this is not a test
    std::ifstream in(port_file);
    int port = 0;
    if (in >> port && port > 0) {
      c.port = port;
      return c;
    }
    if (waitpid(c.pid, nullptr, WNOHANG) == c.pid)
      throw std::runtime_error(argv[0] + " exited before listening");
    std::this_thread::sleep_for(10ms);
  }
  kill(c.pid, SIGKILL);
  throw std::runtime_error(argv[0] + " did not report a port within 30 s");
}

struct ProcessUsage {
  double cpu_seconds = 0;
  long rss_kib = 0;
  long peak_rss_kib = 0;
};

ProcessUsage usage_of(pid_t pid) {
  ProcessUsage u;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  long utime = 0, stime = 0;
  for (int i = 3; fields >> field; ++i) {
    if (i == 14) utime = std::stol(field);
    if (i == 15) {
      stime = std::stol(field);
      break;
    }
  }
  u.cpu_seconds = static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmRSS:")) u.rss_kib = std::stol(line.substr(6));
    if (line.starts_with("VmHWM:")) u.peak_rss_kib = std::stol(line.substr(6));
  }
  return u;
}

// One HTTP request from `from` (a token if not empty): the status and the body.
std::pair<int, std::string> http_call(int port, asio::ip::address_v4 from, http::verb verb,
                                      const std::string& target, const std::string& token,
                                      const std::string& body) {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.socket().open(asio::ip::tcp::v4());
  stream.socket().bind({from, 0});
  stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"),
                                         static_cast<unsigned short>(port)));
  http::request<http::string_body> req(verb, target, 11);
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::content_type, "application/json");
  if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
  req.body() = body;
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  return {res.result_int(), res.body()};
}

// ---- statistics ----

struct Latencies {
  std::vector<std::int64_t> us;
  std::int64_t at(double q) {
    if (us.empty()) return 0;
    std::sort(us.begin(), us.end());
    return us[std::min(us.size() - 1,
                       static_cast<std::size_t>(q * static_cast<double>(us.size())))];
  }
  std::string summary() {
    char buf[160];
    std::snprintf(
        buf, sizeof buf, "p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms (%zu samples)",
        at(0.5) / 1000.0, at(0.9) / 1000.0, at(0.99) / 1000.0,
        us.empty() ? 0.0 : static_cast<double>(*std::max_element(us.begin(), us.end())) / 1000.0,
        us.size());
    return buf;
  }
};

std::string fmt_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

// ---- reading the server's messages ----

// The top-level fields of a server message the hot path needs, read without building a JSON
// document: most messages under load are acks and move events, and parsing each whole cost the
// load generator as much CPU as the server spent on the move (both share this machine's cores).
// Raw values: strings without their quotes (these fields never hold escapes), numbers as text.
struct Fields {
  std::string_view type, cid, game, color, vertex;
};

Fields top_level_fields(std::string_view m) {
  Fields f;
  int depth = 0;
  std::string_view* value_of = nullptr;  // the field whose value comes next
  for (std::size_t i = 0; i < m.size(); ++i) {
    const char c = m[i];
    if (c == '"') {
      std::size_t end = i + 1;
      while (end < m.size() && m[end] != '"') end += m[end] == '\\' ? 2 : 1;
      if (end >= m.size()) break;
      const std::string_view text = m.substr(i + 1, end - i - 1);
      if (value_of) {
        *value_of = text;
        value_of = nullptr;
      } else if (depth == 1 && end + 1 < m.size() && m[end + 1] == ':') {
        value_of = text == "type"     ? &f.type
                   : text == "cid"    ? &f.cid
                   : text == "game"   ? &f.game
                   : text == "color"  ? &f.color
                   : text == "vertex" ? &f.vertex
                                      : nullptr;
        ++end;  // past the colon
      }
      i = end;
    } else if (value_of && c != ' ') {  // a value that is not a string: a number, or anything else
      const std::size_t stop = m.find_first_of(",}", i);
      if (c != '{' && c != '[')
        *value_of = m.substr(i, stop == std::string_view::npos ? std::string_view::npos : stop - i);
      value_of = nullptr;
      --i;  // read this character again for nesting
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return f;
}

std::int64_t to_int(std::string_view text) {
  std::int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

// The number in one of our cids ("l42").
std::uint32_t cid_number(std::string_view cid) {
  return cid.size() > 1 && cid[0] == 'l' ? static_cast<std::uint32_t>(to_int(cid.substr(1))) : 0;
}

// ---- the load ----

struct Player;

struct Table {  // one game between two players, replayed by the engine to pick legal moves
  std::int64_t id = 0;
  Player* black = nullptr;
  Player* white = nullptr;
  std::optional<tengen::Game> game;
  Clock::time_point last_sent{};
  Clock::time_point sent_at{};  // of the move in flight
  bool in_flight = false;
};

struct Connection : tengen::load::WsClient {
  using WsClient::WsClient;
  bool open = false;
};

struct Player {
  int index = 0;
  std::string name;
  std::string token;
  std::int64_t id = 0;
  std::shared_ptr<Connection> conn;
  Player* partner = nullptr;  // the other player of its table (the challenger is even)
  Table* table = nullptr;
  std::uint64_t next_cid = 0;
  double tokens = 30;  // of the server's rate limit (take_token)
  Clock::time_point refilled{};
};

// A player of the tournament (--tournament): registers, then only reads.
struct Entrant {
  std::string name, token;
  std::shared_ptr<Connection> conn;
};

class Load {
 public:
  Load(Options o, std::vector<int> ports)
      : o_(std::move(o)), ports_(std::move(ports)), timer_(io_) {}

  void register_players() {
    players_.resize(static_cast<std::size_t>(o_.games) * 2);
    for (std::size_t i = 0; i < players_.size(); ++i) {
      Player& p = players_[i];
      p.index = static_cast<int>(i);
      p.name = "load" + std::to_string(i);
      const auto reply =
          post(source_address(static_cast<int>(i) / 10), "/api/v1/register",
               json{{"username", p.name}, {"password", "load test password"}}.dump());
      const json j = json::parse(reply);
      p.token = j.at("token");
      p.id = j.at("user").at("id");
      p.partner = &players_[i ^ 1];
    }
    // The entrants register from addresses of their own (10 registrations per address).
    const std::size_t first = (players_.size() + 9) / 10 * 10;
    entrants_.resize(static_cast<std::size_t>(o_.tournament));
    for (std::size_t i = 0; i < entrants_.size(); ++i) {
      Entrant& e = entrants_[i];
      e.name = "entrant" + std::to_string(i);
      const auto reply =
          post(source_address(static_cast<int>((first + i) / 10)), "/api/v1/register",
               json{{"username", e.name}, {"password", "load test password"}}.dump());
      e.token = json::parse(reply).at("token");
    }
    if (o_.cold_loads > 0) {  // the two players of the game read back (--cold-loads)
      const int from = static_cast<int>((first + entrants_.size() + 9) / 10);
      for (int i = 0; i < 2; ++i) {
        const auto reply =
            post(source_address(from), "/api/v1/register",
                 json{{"username", "cold" + std::to_string(i)}, {"password", "load test password"}}
                     .dump());
        cold_tokens_[i] = json::parse(reply).at("token");
      }
    }
  }

  // Runs the whole load; returns when the window is over and the moves in flight are answered.
  void run() {
    for (auto& p : players_) asio::co_spawn(io_, connect_player(&p), asio::detached);
    for (int g = 0; g < o_.games; ++g) {
      for (int s = 0; s < o_.spectators; ++s) spectator_slots_.push_back(g);
    }
    asio::co_spawn(io_, schedule(), asio::detached);
    io_.run();
  }

  void report() {
    const ProcessUsage& before = usage_before_;
    const ProcessUsage& after = usage_after_;
    const double wall = window_seconds_;
    const double moves_per_s = static_cast<double>(window_acked_) / o_.seconds;
    std::cout << "connections held:         " << open_connections() << " (players "
              << players_.size() << ", spectators " << spectator_slots_.size() << ", idle "
              << o_.idle << ")\n";
    std::cout << "games:                    " << o_.games << " on " << o_.size << "x" << o_.size
              << ", "
              << (o_.rate > 0 ? fmt_number(o_.rate) + " moves/s each"
                              : std::string("as fast as possible"))
              << "\n";
    std::printf("moves acknowledged:       %llu in %.1f s: %.0f moves/s\n",
                static_cast<unsigned long long>(window_acked_), o_.seconds, moves_per_s);
    // Counted as the echo baseline counts them (1 in + 1 out per round trip), in and out.
    std::printf(
        "frames at the server:     %.0f/s in and out (each move: 1 in; ack + 2 events + %d "
        "spectators' out)\n",
        moves_per_s * (4.0 + o_.spectators), o_.spectators);
    std::cout << "move round trip:          " << rtt_.summary() << "\n";
    if (o_.pass_after > 0) {
      std::printf(
          "scoring phases:           %llu begun (passes after %zu moves), each with a "
          "dead-stone suggestion\n",
          static_cast<unsigned long long>(window_scorings_), o_.pass_after);
    }
    if (o_.tournament > 0) report_tournament();
    if (o_.cold_loads > 0) {
      std::printf(
          "cold loads:               %d of a finished %d-move game (game %lld), join to "
          "ack: %s\n",
          static_cast<int>(cold_.us.size()), cold_moves_, static_cast<long long>(cold_game_),
          cold_.summary().c_str());
      std::printf("games read back (server): %lld (games_loaded_total during the window)\n",
                  static_cast<long long>(games_loaded_after_ - games_loaded_before_));
    }
    if (rate_limited_ > 0) {
      std::printf(
          "rate limited:             %llu moves refused (20 commands/s per connection) and sent "
          "again\n",
          static_cast<unsigned long long>(rate_limited_));
    }
    if (errors_ > 0) std::printf("errors:                   %d\n", errors_);
    if (server_pids_.size() > 1) {
      double total = 0;
      for (std::size_t i = 0; i < server_pids_.size(); ++i) {
        const double cpu = nodes_after_[i].cpu_seconds - nodes_before_[i].cpu_seconds;
        total += cpu;
        std::printf("node %zu CPU (%s):%s %.0f%% of one core, %.1f us a move\n", i + 1,
                    i == 0 ? "the hub" : "a front", i == 0 ? "     " : "    ", 100.0 * cpu / wall,
                    window_acked_ ? 1e6 * cpu / static_cast<double>(window_acked_) : 0.0);
      }
      std::printf("all nodes' CPU:           %.0f%% of one core, %.1f us a move\n",
                  100.0 * total / wall,
                  window_acked_ ? 1e6 * total / static_cast<double>(window_acked_) : 0.0);
    }
    std::printf("server CPU:               %.0f%% of one core (%.1f s over %.1f s)%s\n",
                100.0 * (after.cpu_seconds - before.cpu_seconds) / wall,
                after.cpu_seconds - before.cpu_seconds, wall,
                server_pids_.size() > 1 ? ": the hub's" : "");
    std::printf("server memory:            %ld KiB now, %ld KiB peak\n", after.rss_kib,
                after.peak_rss_kib);
    if (o_.idle > 0 && idle_open_ > 0) {
      std::printf("idle connections:         %d open, %.1f KiB each at the server\n", idle_open_,
                  static_cast<double>(idle_rss_after_ - idle_rss_before_) / idle_open_);
    }
  }

  void report_tournament() {
    if (!tournament_acked_) {
      std::printf("tournament:               not started and acknowledged within the window\n");
      return;
    }
    // The moves whose round trip overlapped the start: sent before it was acknowledged, their
    // opponent's view arriving after it was sent.
    Latencies during;
    for (const auto& [sent, seen] : around_start_) {
      if (sent <= *tournament_acked_ && seen >= tournament_sent_)
        during.us.push_back(
            std::chrono::duration_cast<std::chrono::microseconds>(seen - sent).count());
    }
    std::printf(
        "tournament start:         %d players, McMahon round 1 paired, %d games started, "
        "acknowledged in %.1f ms\n",
        o_.tournament, tournament_games_ / 2,
        std::chrono::duration<double, std::milli>(*tournament_acked_ - tournament_sent_).count());
    std::cout << "other games meanwhile:    " << during.summary() << "\n";
  }

  // (user id, cid number) of every acknowledged move.
  const std::vector<std::pair<std::int64_t, std::uint32_t>>& acked() const { return acked_; }
  // The server's processes: one, or the cluster's nodes, the hub first.
  void set_server_pids(std::vector<pid_t> pids) {
    server_pids_ = std::move(pids);
    server_pid_ = server_pids_.front();
  }
  int failures() const { return failures_; }

 private:
  std::string post(asio::ip::address_v4 from, const std::string& target, const std::string& body) {
    auto [status, answer] = http_call(ports_.front(), from, http::verb::post, target, "", body);
    if (status >= 300) throw std::runtime_error(target + ": " + answer);
    return answer;
  }

  awaitable<std::shared_ptr<Connection>> open_connection(int index, const std::string& token) {
    auto conn = std::make_shared<Connection>(io_);
    auto& socket = conn->socket();
    socket.open(asio::ip::tcp::v4());
    socket.bind({source_address(index / 30), 0});
    // With several nodes, each in turn: a game's two players on different nodes; with games on
    // every node, on the same one (players 2g and 2g + 1 are game g's).
    const int turn = o_.every_node ? index / 2 : index;
    const int port = ports_[static_cast<std::size_t>(turn) % ports_.size()];
    co_await socket.async_connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"),
                                                          static_cast<unsigned short>(port)),
                                  use_awaitable);
    co_await conn->handshake("/ws/v1", token);
    conn->open = true;
    connections_.push_back(conn);
    co_return conn;
  }

  std::string command(Player& p, json message) {
    message["v"] = 1;
    const std::string cid = "l" + std::to_string(++p.next_cid);
    message["cid"] = cid;
    p.conn->send(message.dump());
    return cid;
  }

  awaitable<void> connect_player(Player* p) {
    try {
      p->conn = co_await open_connection(p->index, p->token);
      ++ready_;
      for (;;) {
        const std::string_view text = co_await p->conn->read();
        const Fields f = top_level_fields(text);
        if (f.type == "move") {
          on_move(*p, f);
        } else if (f.type == "ack") {
          on_ack(*p, f.cid);
        } else {
          on_message(*p, text);
        }
      }
    } catch (const std::exception& e) {
      if (!stopping_) {
        ++failures_;
        std::cerr << p->name << ": " << e.what() << "\n";
      }
    }
    if (p->conn) p->conn->open = false;
  }

  // A guest connection that only reads: idle, or watching `game`.
  awaitable<void> guest(int index, std::optional<std::int64_t> game) {
    try {
      auto conn = co_await open_connection(index, "");
      if (game) {
        conn->send(json{{"v", 1}, {"type", "join"}, {"cid", "w"}, {"game", *game}}.dump());
      } else {
        ++idle_open_;
      }
      for (;;) co_await conn->read();
    } catch (const std::exception& e) {
      if (!stopping_) {
        ++failures_;
        std::cerr << (game ? "spectator " : "idle connection ") << index << ": " << e.what()
                  << "\n";
      }
    }
  }

  // A tournament player: registers, then only reads (the director also creates and starts it).
  awaitable<void> entrant(Entrant* e, int index) {
    try {
      e->conn = co_await open_connection(index, e->token);
      ++entrants_ready_;
      for (;;) {
        const std::string_view text = co_await e->conn->read();
        const Fields f = top_level_fields(text);
        if (f.type == "ack") {
          if (f.cid == "tcreate") {
            const auto ack = tengen::protocol::read_server_message(text);
            if (ack && std::holds_alternative<tengen::protocol::Ack>(*ack))
              tournament_ = std::get<tengen::protocol::Ack>(*ack).tournament;
          }
          if (f.cid == "tregister") ++entrants_registered_;
          if (f.cid == "tstart") tournament_acked_ = Clock::now();
        } else if (f.type == "game_started") {
          ++tournament_games_;
        } else if (f.type == "error") {
          ++errors_;
          if (errors_ <= 5) std::cerr << e->name << ": " << text << "\n";
        }
      }
    } catch (const std::exception& ex) {
      if (!stopping_) {
        ++failures_;
        std::cerr << e->name << ": " << ex.what() << "\n";
      }
    }
    if (e->conn) e->conn->open = false;
  }

  // The entrants connect, the first creates a McMahon tournament and all register, ranks from
  // 20k to 5d; it starts later, in the window.
  awaitable<void> prepare_tournament(int first_index) {
    for (std::size_t i = 0; i < entrants_.size(); ++i)
      asio::co_spawn(io_, entrant(&entrants_[i], first_index + static_cast<int>(i)),
                     asio::detached);
    const auto give_up = Clock::now() + 60s;
    const int n = static_cast<int>(entrants_.size());
    while (entrants_ready_ < n && Clock::now() < give_up) co_await tick(5ms);
    const json settings = {
        {"name", "Load McMahon"},
        {"system", "mcmahon"},
        {"rounds", 5},
        {"game",
         {{"width", 19},
          {"ruleset", "japanese"},
          {"time", {{"system", "fischer"}, {"main_ms", 600000}, {"increment_ms", 10000}}}}},
        {"mcmahon", {{"bar", "3d"}, {"floor", "20k"}}},
        {"handicap", {{"by_score_gap", true}, {"correction", 1}, {"ceiling", 9}}}};
    entrants_[0].conn->send(json{
        {"v", 1},
        {"type", "create_tournament"},
        {"cid", "tcreate"},
        {"settings", settings}}.dump());
    while (!tournament_ && Clock::now() < give_up) co_await tick(5ms);
    if (!tournament_) throw std::runtime_error("the tournament was not created");
    for (std::size_t i = 0; i < entrants_.size(); ++i) {
      const int r = static_cast<int>(i % 25);  // 20k … 1k, 1d … 5d
      const std::string rank = r < 20 ? std::to_string(20 - r) + "k" : std::to_string(r - 19) + "d";
      entrants_[i].conn->send(json{
          {"v", 1},
          {"type", "tournament_register"},
          {"cid", "tregister"},
          {"tournament", *tournament_},
          {"rank", rank}}.dump());
    }
    while (entrants_registered_ < n && Clock::now() < give_up) co_await tick(5ms);
    if (entrants_registered_ < n) throw std::runtime_error("not every entrant registered");
  }

  // Reads one connection until the reply to `cid` (an ack or an error); false on an error.
  static awaitable<bool> reply_to(Connection& conn, const std::string& cid) {
    for (;;) {
      const std::string_view text = co_await conn.read();
      const Fields f = top_level_fields(text);
      if (f.cid != cid) continue;
      if (f.type == "error") std::cerr << "cold load: " << text << "\n";
      co_return f.type == "ack";
    }
  }

  // Reads one connection until the ack of `cid`.
  static awaitable<tengen::protocol::Ack> ack_of(Connection& conn, const std::string& cid) {
    for (;;) {
      const auto m = tengen::protocol::read_server_message(co_await conn.read());
      if (!m) continue;
      if (const auto* ack = std::get_if<tengen::protocol::Ack>(&*m); ack && ack->cid == cid)
        co_return *ack;
    }
  }

  // --cold-loads: two players play a 19×19 game of 300 random legal moves, Black resigns, both
  // leave; nobody watches it, so it leaves the server's memory.
  awaitable<void> prepare_cold_game(int first_index) {
    std::shared_ptr<Connection> black = co_await open_connection(first_index, cold_tokens_[0]);
    std::shared_ptr<Connection> white = co_await open_connection(first_index + 1, cold_tokens_[1]);
    black->send(json{{"v", 1},
                     {"type", "create_challenge"},
                     {"cid", "c0"},
                     {"opponent", "cold1"},
                     {"settings",
                      {{"width", 19},
                       {"ruleset", "chinese"},
                       {"color", "black"},
                       {"time", {{"system", "none"}}}}}}
                    .dump());
    const auto challenge = (co_await ack_of(*black, "c0")).challenge.value_or(0);
    white->send(
        json{{"v", 1}, {"type", "accept_challenge"}, {"cid", "c1"}, {"challenge", challenge}}
            .dump());
    cold_game_ = (co_await ack_of(*white, "c1")).game.value_or(0);
    tengen::Game game(tengen::Board(19, 19), *tengen::Rules::preset("chinese"));
    const tengen::Geometry g{19, 19};
    std::uniform_int_distribution<int> coord(0, 18);
    for (int n = 0; n < 300; ++n) {
      Connection& mover = n % 2 == 0 ? *black : *white;
      std::optional<tengen::Point> point;
      for (int tries = 0; tries < 200 && !point; ++tries) {
        const auto p = g.point(coord(random_), coord(random_));
        if (game.check(tengen::Move{game.to_move(), p}) == tengen::MoveError::Ok) point = p;
      }
      if (!point) break;  // a full board: the game is long enough
      game.play(tengen::Move{game.to_move(), *point});
      const std::string cid = "m" + std::to_string(n);
      mover.send(json{{"v", 1},
                      {"type", "play"},
                      {"cid", cid},
                      {"game", cold_game_},
                      {"vertex", g.to_gtp(*point)}}
                     .dump());
      if (!co_await reply_to(mover, cid)) throw std::runtime_error("the cold game's move failed");
      ++cold_moves_;
      co_await tick(26ms);  // under the server's 20 commands a second per connection
    }
    black->send(json{{"v", 1}, {"type", "resign"}, {"cid", "r"}, {"game", cold_game_}}.dump());
    if (!co_await reply_to(*black, "r")) throw std::runtime_error("the cold game's resignation");
    for (auto* c : {black.get(), white.get()}) {
      c->send(json{{"v", 1}, {"type", "leave"}, {"cid", "x"}, {"game", cold_game_}}.dump());
      if (!co_await reply_to(*c, "x")) throw std::runtime_error("leaving the cold game");
    }
  }

  // One of the guests that open the finished game in the window, one after another: join (the
  // server reads the game back), then leave (it leaves memory again).
  awaitable<void> cold_reader(int index, int turn, int readers) {
    try {
      auto conn = co_await open_connection(index, "");
      const auto every = std::chrono::duration<double>(o_.seconds) * readers / o_.cold_loads;
      {  // the readers take turns: each starts its round a share of the interval after the last
        asio::steady_timer wait(io_, Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                        every * turn / readers));
        co_await wait.async_wait(use_awaitable);
      }
      int n = 0;
      while (measuring_ && cold_started_ < o_.cold_loads) {
        ++cold_started_;
        const auto sent = Clock::now();
        const std::string cid = "j" + std::to_string(n++);
        conn->send(json{{"v", 1}, {"type", "join"}, {"cid", cid}, {"game", cold_game_}}.dump());
        if (!co_await reply_to(*conn, cid)) break;
        cold_.us.push_back(
            std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent).count());
        conn->send(
            json{{"v", 1}, {"type", "leave"}, {"cid", cid + "x"}, {"game", cold_game_}}.dump());
        if (!co_await reply_to(*conn, cid + "x")) break;
        const auto next = sent + std::chrono::duration_cast<Clock::duration>(every);
        if (next > Clock::now()) {  // a timer of its own: tick()'s is the schedule's
          asio::steady_timer wait(io_, next);
          co_await wait.async_wait(use_awaitable);
        }
      }
    } catch (const std::exception& e) {
      if (!stopping_) {
        ++failures_;
        std::cerr << "cold reader " << index << ": " << e.what() << "\n";
      }
    }
  }

  // The server's counter of games read back from the store (/metrics).
  long long games_loaded() {
    asio::io_context io;
    beast::tcp_stream stream(io);
    stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"),
                                           static_cast<unsigned short>(ports_.front())));
    http::request<http::empty_body> req(http::verb::get, "/metrics", 11);
    req.set(http::field::host, "127.0.0.1");
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    const std::string& body = res.body();
    const std::string name = "\ntengen_games_loaded_total ";
    const auto at = body.find(name);
    return at == std::string::npos ? -1 : to_int(std::string_view(body).substr(at + name.size()));
  }

  void start_table(Player& challenger) {
    command(challenger, {{"type", "create_challenge"},
                         {"opponent", challenger.partner->name},
                         {"settings",
                          {{"width", o_.size},
                           {"ruleset", "chinese"},
                           {"color", "black"},
                           {"time", {{"system", "none"}}}}}});
  }

  // Everything but acks and moves, read by the protocol's lenient reader of server messages.
  void on_message(Player& p, std::string_view text) {
    const auto message = tengen::protocol::read_server_message(text);
    if (!message) return;  // presence and the like: nothing to do
    // The partner's challenge: announced, or already in the lobby if it was made before this
    // connection's lobby snapshot.
    const auto accept_if_mine = [&](const tengen::protocol::Challenge& c) {
      if (c.opponent && c.opponent->id == p.id)
        command(p, {{"type", "accept_challenge"}, {"challenge", c.id}});
    };
    std::visit(Overloaded{
                   [&](const tengen::protocol::ChallengeOpened& o) { accept_if_mine(o.challenge); },
                   [&](const tengen::protocol::LobbySnapshot& l) {
                     for (const auto& c : l.challenges) accept_if_mine(c);
                   },
                   [&](const tengen::protocol::GameStarted& g) {
                     if (p.index % 2 == 0) {  // the challenger sets the table up once
                       auto table = std::make_unique<Table>();
                       table->id = g.game;
                       table->black = &p;
                       table->white = p.partner;
                       table->game.emplace(tengen::Board(o_.size, o_.size),
                                           *tengen::Rules::preset("chinese"));
                       p.table = p.partner->table = table.get();
                       tables_[g.game] = std::move(table);
                     }
                     command(p, {{"type", "join"}, {"game", g.game}});
                   },
                   [&](const tengen::protocol::GameSnapshot& s) {
                     if (p.table && p.table->id == s.game && &p == p.table->black &&
                         p.table->game->moves().empty()) {
                       snapshots_ready_.insert(p.table->id);
                       // A game that replaced one that ended: its first move is due now (the
                       // first games' are spread over an interval when the window opens).
                       if (measuring_) due_.push_back(p.table->id);
                     }
                   },
                   [&](const tengen::protocol::Error& e) { on_error(p, e, text); },
                   [&](const tengen::protocol::RoomEvent& e) {
                     const bool scoring =
                         std::holds_alternative<tengen::protocol::ScoringStarted>(e.body);
                     if (!scoring && !std::holds_alternative<tengen::protocol::GameEnded>(e.body))
                       return;
                     if (!p.table || p.table->id != e.game || &p != p.table->black) return;
                     // A new game between the same two.
                     if (scoring) {
                       if (measuring_) ++window_scorings_;
                       command(p, {{"type", "resign"}, {"game", p.table->id}});
                     }
                     tables_.erase(p.table->id);
                     p.table = p.partner->table = nullptr;
                     if (!stopping_) start_table(p);
                   },
                   [](const auto&) {},
               },
               *message);
  }

  void on_error(Player& p, const tengen::protocol::Error& e, std::string_view text) {
    const auto it = e.cid ? move_cids_.find(cid_key(p, cid_number(*e.cid))) : move_cids_.end();
    if (it != move_cids_.end() && e.code == tengen::protocol::ErrorCode::RateLimited) {
      // Over the server's 20 commands a second per connection: the table tries again.
      ++rate_limited_;
      const auto table = tables_.find(it->second);
      if (table != tables_.end()) {
        table->second->in_flight = false;
        due_.push_back(table->first);
      }
      move_cids_.erase(it);
      return;
    }
    ++errors_;
    if (errors_ <= 5) std::cerr << p.name << ": " << text << "\n";
  }

  static std::uint64_t cid_key(const Player& p, std::uint32_t cid) {
    return (static_cast<std::uint64_t>(p.index) << 32) | cid;
  }

  void on_ack(Player& p, std::string_view cid) {
    const std::uint32_t number = cid_number(cid);
    const auto it = move_cids_.find(cid_key(p, number));
    if (it == move_cids_.end()) return;
    if (measuring_) ++window_acked_;
    acked_.emplace_back(p.id, number);
    move_cids_.erase(it);
  }

  // The opponent's view of a move: the round trip ends here; the table's game moves on.
  void on_move(Player& p, const Fields& m) {
    Table* t = p.table;
    if (!t || t->id != to_int(m.game)) return;
    const bool mine = (m.color == "black") == (&p == t->black);
    if (mine) return;  // the mover's own copy
    if (t->in_flight) {
      const auto now = Clock::now();
      if (measuring_)
        rtt_.us.push_back(
            std::chrono::duration_cast<std::chrono::microseconds>(now - t->sent_at).count());
      if (tournament_started_ && (!tournament_acked_ || now <= *tournament_acked_ + 1s))
        around_start_.emplace_back(t->sent_at, now);
      t->in_flight = false;
    }
    const tengen::Geometry g{o_.size, o_.size};
    const auto color = m.color == "black" ? tengen::Color::Black : tengen::Color::White;
    t->game->play(tengen::Move{
        color, m.vertex == "pass" ? tengen::kPass : *g.parse_gtp(std::string(m.vertex))});
    // As fast as possible: at once, without waiting for the scheduler's next tick.
    if (o_.rate > 0 || !measuring_ || !move(*t)) due_.push_back(t->id);
  }

  // The server takes 20 commands a second from a connection (40 at once); like a real client,
  // the load keeps under that instead of drawing rate_limited errors.
  static bool take_token(Player& p, Clock::time_point now) {
    const double earned = std::chrono::duration<double>(now - p.refilled).count() * 20.0;
    p.tokens = std::min(30.0, p.tokens + earned);  // 10 of the 40 left for the other commands
    p.refilled = now;
    if (p.tokens < 1) return false;
    p.tokens -= 1;
    return true;
  }

  // Moves one table: a random legal point (a few tries), else a pass. False if the mover must
  // wait for its rate (the table stays due).
  bool move(Table& t) {
    if (t.in_flight || stopping_) return true;
    if (t.game->phase() != tengen::Game::Phase::Playing) return true;  // scoring_started comes
    Player& mover = t.game->to_move() == tengen::Color::Black ? *t.black : *t.white;
    if (!take_token(mover, Clock::now())) return false;
    const tengen::Geometry g{o_.size, o_.size};
    std::string vertex = "pass";
    std::uniform_int_distribution<int> coord(0, o_.size - 1);
    const bool passing = o_.pass_after > 0 && t.game->moves().size() >= o_.pass_after;
    for (int tries = 0; tries < 40 && !passing; ++tries) {
      const auto p = g.point(coord(random_), coord(random_));
      if (t.game->check(tengen::Move{t.game->to_move(), p}) == tengen::MoveError::Ok) {
        vertex = g.to_gtp(p);
        break;
      }
    }
    t.in_flight = true;
    t.sent_at = t.last_sent = Clock::now();
    // Written by hand: building a JSON document per move cost more than the server's decoding.
    const std::uint32_t cid = static_cast<std::uint32_t>(++mover.next_cid);
    std::string text = R"({"v":1,"type":")";
    text += vertex == "pass" ? "pass" : "play";
    text += R"(","cid":"l)" + std::to_string(cid) + R"(","game":)" + std::to_string(t.id);
    if (vertex != "pass") text += R"(,"vertex":")" + vertex + '"';
    text += '}';
    mover.conn->send(text);
    move_cids_[cid_key(mover, cid)] = t.id;
    // The mover's own board follows when its move event arrives at the opponent (on_move).
    return true;
  }

  awaitable<void> schedule() {
    setup_start_ = Clock::now();
    // Everybody connected, then every table started.
    const auto give_up = Clock::now() + 60s;
    while (ready_ < static_cast<int>(players_.size()) && Clock::now() < give_up) co_await tick(5ms);
    connected_at_ = Clock::now();
    for (std::size_t i = 0; i < players_.size(); i += 2) start_table(players_[i]);
    while (snapshots_ready_.size() < static_cast<std::size_t>(o_.games) && Clock::now() < give_up)
      co_await tick(5ms);
    for (std::size_t s = 0; s < spectator_slots_.size(); ++s) {
      const auto it = std::next(tables_.begin(), static_cast<long>(spectator_slots_[s]) %
                                                     static_cast<long>(tables_.size()));
      asio::co_spawn(io_, guest(static_cast<int>(players_.size() + s), it->first), asio::detached);
    }
    // The idle connections, with the server's memory before and after them.
    idle_rss_before_ = usage_of(server_pid_).rss_kib;
    const int first_idle = static_cast<int>(players_.size() + spectator_slots_.size());
    for (int i = 0; i < o_.idle; ++i)
      asio::co_spawn(io_, guest(first_idle + i, std::nullopt), asio::detached);
    const auto idle_deadline = Clock::now() + 60s;
    while (idle_open_ < o_.idle && Clock::now() < idle_deadline) co_await tick(5ms);
    co_await tick(200ms);  // their lobby snapshots written
    idle_rss_after_ = usage_of(server_pid_).rss_kib;
    if (!entrants_.empty()) co_await prepare_tournament(first_idle + o_.idle);
    const int first_cold = first_idle + o_.idle + static_cast<int>(entrants_.size()) + 30;
    if (o_.cold_loads > 0) co_await prepare_cold_game(first_cold);
    // Black's first moves, spread over one interval.
    std::vector<Table*> all;
    for (auto& [id, t] : tables_) all.push_back(t.get());
    const auto interval = o_.rate > 0 ? std::chrono::duration<double>(1.0 / o_.rate)
                                      : std::chrono::duration<double>(0);
    const auto start = Clock::now();
    for (std::size_t i = 0; i < all.size(); ++i) {
      all[i]->last_sent =
          start - std::chrono::duration_cast<Clock::duration>(interval) +
          std::chrono::duration_cast<Clock::duration>(
              interval * (static_cast<double>(i) / static_cast<double>(all.size())));
      due_.push_back(all[i]->id);
    }
    usage_before_ = usage_of(server_pid_);
    nodes_before_.clear();
    for (const pid_t pid : server_pids_) nodes_before_.push_back(usage_of(pid));
    if (o_.cold_loads > 0) games_loaded_before_ = games_loaded();
    measuring_ = true;
    window_start_ = Clock::now();
    constexpr int kColdReaders = 4;
    for (int r = 0; r < std::min(kColdReaders, o_.cold_loads); ++r)
      asio::co_spawn(
          io_, cold_reader(first_cold + 60 + r * 30, r, std::min(kColdReaders, o_.cold_loads)),
          asio::detached);
    // Said on stderr, for a profiler to attach to the window only (docs/performance.md).
    std::cerr << "tengen-load: connected in "
              << std::chrono::duration<double>(connected_at_ - setup_start_).count()
              << " s, games and the rest set up in "
              << std::chrono::duration<double>(window_start_ - connected_at_).count()
              << " s; measuring for " << o_.seconds << " s" << std::endl;
    const auto end = window_start_ + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(o_.seconds));
    const auto half_way = window_start_ + (end - window_start_) / 2;
    while (Clock::now() < end) {
      if (!entrants_.empty() && !tournament_started_ && Clock::now() >= half_way) {
        tournament_started_ = true;
        tournament_sent_ = Clock::now();
        entrants_[0].conn->send(json{
            {"v", 1}, {"type", "tournament_start"}, {"cid", "tstart"}, {"tournament", *tournament_}}
                                    .dump());
      }
      // Each table whose opponent's move arrived moves again once its interval has passed.
      std::deque<std::int64_t> waiting;
      const auto now = Clock::now();
      while (!due_.empty()) {
        const auto id = due_.front();
        due_.pop_front();
        const auto it = tables_.find(id);
        if (it == tables_.end()) continue;
        if (now - it->second->last_sent >= interval) {
          if (!move(*it->second)) waiting.push_back(id);
        } else {
          waiting.push_back(id);
        }
      }
      due_ = std::move(waiting);
      co_await tick(1ms);  // at rate 0 too: moves go out from on_move, this only retries
    }
    measuring_ = false;
    if (o_.cold_loads > 0) games_loaded_after_ = games_loaded();
    window_seconds_ = std::chrono::duration<double>(Clock::now() - window_start_).count();
    usage_after_ = usage_of(server_pid_);
    nodes_after_.clear();
    for (const pid_t pid : server_pids_) nodes_after_.push_back(usage_of(pid));
    stopping_ = true;
    // The moves in flight are answered (or 5 s pass), then everything closes.
    const auto drain = Clock::now() + 5s;
    auto in_flight = [&] {
      return std::any_of(tables_.begin(), tables_.end(),
                         [](const auto& t) { return t.second->in_flight; });
    };
    while (in_flight() && Clock::now() < drain) co_await tick(5ms);
    open_at_end_ = count_open();
    for (auto& c : connections_) {
      c->close();
    }
  }

  awaitable<void> tick(std::chrono::milliseconds d) {
    timer_.expires_after(d);
    co_await timer_.async_wait(use_awaitable);
  }

  int count_open() const {
    return static_cast<int>(std::count_if(connections_.begin(), connections_.end(),
                                          [](const auto& c) { return c->open; }));
  }
  // Connections open when the window ended (they are closed after it).
  int open_connections() const { return stopping_ ? open_at_end_ : count_open(); }

  Options o_;
  ProcessUsage usage_before_, usage_after_;
  std::vector<ProcessUsage> nodes_before_, nodes_after_;  // each node's, with several
  std::vector<pid_t> server_pids_;
  double window_seconds_ = 0;
  std::vector<int> ports_;
  asio::io_context io_;
  asio::steady_timer timer_;
  std::vector<Player> players_;
  std::vector<std::shared_ptr<Connection>> connections_;
  std::map<std::int64_t, std::unique_ptr<Table>> tables_;
  std::set<std::int64_t> snapshots_ready_;
  std::deque<std::int64_t> due_;
  std::vector<int> spectator_slots_;
  std::mt19937 random_{12345};
  Latencies rtt_;
  std::vector<Entrant> entrants_;  // the tournament's players (--tournament)
  // --cold-loads: the finished game, its players' tokens, its moves, and each read's latency.
  std::array<std::string, 2> cold_tokens_;
  std::int64_t cold_game_ = 0;
  int cold_moves_ = 0;
  int cold_started_ = 0;  // reads asked for so far
  Latencies cold_;
  long long games_loaded_before_ = 0;
  long long games_loaded_after_ = 0;
  int entrants_ready_ = 0;
  int entrants_registered_ = 0;
  int tournament_games_ = 0;  // game_started messages the entrants received (two a game)
  std::optional<std::int64_t> tournament_;
  bool tournament_started_ = false;
  Clock::time_point tournament_sent_;
  std::optional<Clock::time_point> tournament_acked_;
  // (sent, seen by the opponent) of the other games' moves from the start on.
  std::vector<std::pair<Clock::time_point, Clock::time_point>> around_start_;
  std::vector<std::pair<std::int64_t, std::uint32_t>> acked_;
  std::unordered_map<std::uint64_t, std::int64_t>
      move_cids_;  // sent, not yet acknowledged: cid_key → table
  std::uint64_t window_acked_ = 0;
  Clock::time_point window_start_{};
  Clock::time_point setup_start_{};
  Clock::time_point connected_at_{};
  int ready_ = 0;
  int idle_open_ = 0;
  long idle_rss_before_ = 0;
  long idle_rss_after_ = 0;
  int open_at_end_ = 0;
  int errors_ = 0;
  std::uint64_t rate_limited_ = 0;
  std::uint64_t window_scorings_ = 0;  // scoring phases begun (dead-stone suggestions) measured
  int failures_ = 0;
  bool measuring_ = false;
  bool stopping_ = false;
  pid_t server_pid_ = -1;
};

int read_sqlite_moves(const fs::path& file, std::set<std::pair<std::int64_t, std::string>>& stored);

// The moves stored with a cid, by user, from a PostgreSQL database.
std::set<std::pair<std::int64_t, std::string>> stored_moves(const std::string& uri) {
  tengen::store::pg::Connection db(uri);
  const auto r = db.query(
      "SELECT user_id, cid FROM game_events WHERE cid IS NOT NULL AND kind IN ('move', 'pass')");
  std::set<std::pair<std::int64_t, std::string>> stored;
  for (int i = 0; i < r.rows(); ++i) stored.insert({r.int64(i, 0), r.text(i, 1)});
  return stored;
}

// Every acknowledged move is in the database, under the cid it was sent with.
int check_database(const fs::path& file, const std::string& uri, const Load& load) {
  std::set<std::pair<std::int64_t, std::string>> stored;
  if (!uri.empty()) {
    stored = stored_moves(uri);
  } else if (auto status = read_sqlite_moves(file, stored); status != 0) {
    return status;
  }
  std::size_t missing = 0;
  for (const auto& [user, cid] : load.acked())
    missing += !stored.contains({user, "l" + std::to_string(cid)});
  std::printf(
      "durability:               %zu acknowledged moves, %zu in the database, %zu missing\n",
      load.acked().size(), stored.size(), missing);
  return missing == 0 ? 0 : 1;
}

int read_sqlite_moves(const fs::path& file,
                      std::set<std::pair<std::int64_t, std::string>>& stored) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    std::cerr << "cannot open " << file << "\n";
    return 1;
  }
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(
      db, "SELECT user_id, cid FROM game_events WHERE cid IS NOT NULL AND kind IN ('move', 'pass')",
      -1, &st, nullptr);
  while (sqlite3_step(st) == SQLITE_ROW) {
    stored.insert(
        {sqlite3_column_int64(st, 0), reinterpret_cast<const char*>(sqlite3_column_text(st, 1))});
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return 0;
}

constexpr const char* kUsage = R"(usage: tengen-load [options]
  --server PATH        tengen-server binary (default build/bench/server/tengen-server)
  --echo PATH          measure this echo server (bench/load/echo_server.cpp) instead
  --games N            concurrent games, two connections each (default 100)
  --rate R             moves per second per game; 0 = as fast as possible (default 1)
  --spectators K       spectators per game (default 0)
  --idle C             extra connections that only hold on (default 0)
  --seconds S          the measured window (default 10)
  --threads T          the server's network threads (default 2)
  --size N             board size (default 19)
  --pass-after M       both players pass once a game has M moves: a scoring phase and its
                       dead-stone suggestion, then a new game (default 0: never)
  --cold-loads N       a finished 300-move game, left unwatched so that it leaves memory, is
                       opened N times in the window by guests (each a read back from the
                       store); reports the reads' latency and the other games' round trips
  --tournament P       P more players register for a McMahon tournament, started half-way
                       through the window; reports the other games' round trips meanwhile
  --database URI       run the server on this empty PostgreSQL database (postgres://...)
                       instead of a fresh SQLite file; the durability check reads it there
  --relay K            instead of games: one 19x19 relay (docs/events.md) followed by K
                       spectators (guests, its board and its commentary room); its director
                       enters moves over HTTP at --rate a second (0: the next once every
                       spectator has the last), at most 180; reports the fan-out latency
  --bus URL --nodes N  N servers on the --database, a cluster over this NATS server
                       (nats://...; docs/cluster.md): the first is the hub, players go to
                       the nodes in turn (a game's two players on different nodes)
  --every-node         with --nodes: the nodes play games too (--games every-node), and a
                       game's two players connect to the same node, which plays their game
  --pin                each server process on one core of its own: node i on core i
                       (modulo the cores); the load tool, PostgreSQL and NATS are not pinned
)";

}  // namespace

int echo_main(const Options& o, const fs::path& dir);
int relay_main(const Options& o, const fs::path& dir);

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has = i + 1 < argc;
    if (a == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--server" && has)
      o.server = argv[++i];
    else if (a == "--echo" && has)
      o.echo = argv[++i];
    else if (a == "--games" && has)
      o.games = std::stoi(argv[++i]);
    else if (a == "--rate" && has)
      o.rate = std::stod(argv[++i]);
    else if (a == "--spectators" && has)
      o.spectators = std::stoi(argv[++i]);
    else if (a == "--idle" && has)
      o.idle = std::stoi(argv[++i]);
    else if (a == "--seconds" && has)
      o.seconds = std::stod(argv[++i]);
    else if (a == "--threads" && has)
      o.server_threads = std::stoi(argv[++i]);
    else if (a == "--size" && has)
      o.size = std::stoi(argv[++i]);
    else if (a == "--pass-after" && has)
      o.pass_after = std::stoul(argv[++i]);
    else if (a == "--tournament" && has)
      o.tournament = std::stoi(argv[++i]);
    else if (a == "--cold-loads" && has)
      o.cold_loads = std::stoi(argv[++i]);
    else if (a == "--database" && has)
      o.database = argv[++i];
    else if (a == "--bus" && has)
      o.bus = argv[++i];
    else if (a == "--nodes" && has)
      o.nodes = std::stoi(argv[++i]);
    else if (a == "--relay" && has)
      o.relay = std::stoi(argv[++i]);
    else if (a == "--pin")
      o.pin = true;
    else if (a == "--every-node")
      o.every_node = true;
    else {
      std::cerr << "tengen-load: unknown or incomplete option '" << a << "'\n" << kUsage;
      return 64;
    }
  }
  if (o.nodes < 1 || (o.nodes > 1 && (o.bus.empty() || o.database.empty()))) {
    std::cerr << "tengen-load: --nodes N above 1 needs --bus and a PostgreSQL --database\n";
    return 64;
  }
  rlimit files{};
  getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = files.rlim_max;  // the server inherits it
  setrlimit(RLIMIT_NOFILE, &files);
  signal(SIGPIPE, SIG_IGN);

  const fs::path dir = fs::temp_directory_path() / ("tengen-load-" + std::to_string(getpid()));
  fs::create_directories(dir);
  // A watchdog: whatever happens, the run ends.
  const double limit = o.seconds + 120;
  std::thread([limit] {
    std::this_thread::sleep_for(std::chrono::duration<double>(limit));
    std::cerr << "tengen-load: still running after " << limit << " s: giving up\n";
    kill(0, SIGKILL);
  }).detach();
  int status = 0;
  try {
    if (!o.echo.empty()) {
      status = echo_main(o, dir);
    } else if (o.relay > 0) {
      status = relay_main(o, dir);
    } else {
      const fs::path db = dir / "load.sqlite3";
      std::vector<Child> servers;
      for (int n = 0; n < o.nodes; ++n) {
        const fs::path port_file = dir / ("port-" + std::to_string(n));
        std::vector<std::string> command{
            o.server, "--address", "127.0.0.1", "--port", "0", "--port-file", port_file.string(),
            "--database", o.database.empty() ? db.string() : o.database, "--log-level", "warn",
            "--threads", std::to_string(o.server_threads), "--insecure-fast-password-hashing",
            "yes",
            // every player registers from 127.0.0.1
            "--registrations-per-address", "0"};
        if (!o.bus.empty()) {
          for (const std::string a : {"--bus", o.bus.c_str(), "--node"}) command.push_back(a);
          command.push_back("load-" + std::to_string(n + 1));
          for (const std::string a : {"--games", o.every_node ? "every-node" : "hub"})
            command.push_back(a);
        }
        std::optional<int> core;
        if (o.pin) core = n % static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        servers.push_back(start_child(command, port_file, core));
      }
      std::vector<int> ports;
      std::vector<pid_t> pids;
      for (const auto& c : servers) {
        ports.push_back(c.port);
        pids.push_back(c.pid);
      }
      Load load(o, ports);
      load.set_server_pids(pids);
      load.register_players();
      load.run();
      load.report();
      // A graceful stop commits everything acknowledged (it was already). Front nodes first.
      for (auto it = servers.rbegin(); it != servers.rend(); ++it) {
        kill(it->pid, SIGTERM);
        int server_status = 0;
        waitpid(it->pid, &server_status, 0);
      }
      status = check_database(db, o.database, load);
      if (load.failures() > 0) {
        std::cerr << load.failures() << " connections failed\n";
        status = 1;
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "tengen-load: " << e.what() << "\n";
    status = 1;
  }
  fs::remove_all(dir);
  return status;
}

// ---- the baseline: the same connections against a bare echo server ----

namespace {

struct EchoRun {
  asio::io_context io;
  int port = 0;
  std::string payload;
  Latencies rtt;
  std::uint64_t round_trips = 0;
  bool measuring = false;
  bool stopping = false;
  int failures = 0;
};

// A guest's WebSocket to the server at `port` (from a loopback address of its own: 30 a
// source address), upgraded at `target`.
awaitable<std::shared_ptr<tengen::load::WsClient>> guest_socket(asio::io_context& io, int port,
                                                                int index,
                                                                const std::string& target) {
  auto ws = std::make_shared<tengen::load::WsClient>(io);
  auto& socket = ws->socket();
  socket.open(asio::ip::tcp::v4());
  socket.bind({source_address(index / 30), 0});
  co_await socket.async_connect(
      {asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)}, use_awaitable);
  co_await ws->handshake(target, "");
  co_return ws;
}

awaitable<void> echo_client(EchoRun& run, int index) {
  try {
    const auto ws = co_await guest_socket(run.io, run.port, index, "/");
    while (!run.stopping) {
      const auto sent = Clock::now();
      ws->send(run.payload);
      co_await ws->read();
      if (run.measuring) {
        ++run.round_trips;
        run.rtt.us.push_back(
            std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent).count());
      }
    }
  } catch (const std::exception& e) {
    ++run.failures;
    std::cerr << "echo connection " << index << ": " << e.what() << "\n";
  }
}

awaitable<void> echo_window(EchoRun& run, double seconds, pid_t pid, ProcessUsage& before,
                            ProcessUsage& after) {
  asio::steady_timer timer(run.io);
  timer.expires_after(1s);  // connected and warm
  co_await timer.async_wait(use_awaitable);
  before = usage_of(pid);
  run.measuring = true;
  timer.expires_after(
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)));
  co_await timer.async_wait(use_awaitable);
  run.measuring = false;
  after = usage_of(pid);
  run.stopping = true;
}

}  // namespace

int echo_main(const Options& o, const fs::path& dir) {
  Child echo = start_child({o.echo, "--threads", std::to_string(o.server_threads), "--port-file",
                            (dir / "port").string()},
                           dir / "port");
  EchoRun run;
  run.port = echo.port;
  // A move event as the server sends it: the frames are the same size as the real ones.
  run.payload =
      R"({"v":1,"type":"move","game":42,"seq":18,"color":"black","vertex":"C3","captured":[],"clock":null,"lag_credit_ms":0})";
  // One message in flight per game, as in the saturated server run (one move in flight per table).
  for (int i = 0; i < o.games; ++i) asio::co_spawn(run.io, echo_client(run, i), asio::detached);
  ProcessUsage before, after;
  asio::co_spawn(run.io, echo_window(run, o.seconds, echo.pid, before, after), asio::detached);
  run.io.run();
  kill(echo.pid, SIGTERM);
  waitpid(echo.pid, nullptr, 0);
  const double per_s = static_cast<double>(run.round_trips) / o.seconds;
  std::printf("echo connections:         %d, one %zu-byte message in flight each\n", o.games,
              run.payload.size());
  std::printf(
      "echo round trips:         %.0f/s (frames at the echo server: %.0f/s, 1 in + 1 out)\n", per_s,
      2 * per_s);
  std::cout << "echo round trip:          " << run.rtt.summary() << "\n";
  std::printf("echo server CPU:          %.0f%% of one core\n",
              100.0 * (after.cpu_seconds - before.cpu_seconds) / o.seconds);
  return run.failures == 0 ? 0 : 1;
}

// ---- a relay and its spectators (--relay) ----

namespace {

struct RelayRun {
  asio::io_context io;
  int port = 0;
  std::int64_t board = 0, commentary = 0;
  std::atomic<int> joined = 0;  // spectators following both boards
  std::atomic<int> failures = 0;
  std::mutex mutex;  // the director's thread writes `sent`, the spectators read it
  std::map<int, Clock::time_point> sent;
  std::map<int, int> reached;                 // move: spectators that have it on the board
  std::map<int, std::int64_t> last_us;        // move: the last spectator's latency
  Latencies board_us, commentary_us, all_us;  // each delivery; each move's last delivery
  std::condition_variable all_reached;
  int spectators = 0;
  std::atomic<bool> stopping = false;
};

// The moves: 19x19 points both of whose coordinates are even, then both odd: no two are
// neighbours, so none is ever captured and every one is legal.
std::vector<std::string> relay_moves() {
  std::vector<std::string> out;
  const std::string columns = "ABCDEFGHJKLMNOPQRST";
  for (int parity : {0, 1})
    for (int y = parity; y < 19; y += 2)
      for (int x = parity; x < 19; x += 2)
        out.push_back(columns[static_cast<std::size_t>(x)] + std::to_string(19 - y));
  return out;
}

awaitable<void> relay_spectator(RelayRun& run, int index) {
  try {
    const auto ws = co_await guest_socket(run.io, run.port, index, "/ws/v1");
    for (const auto review : {run.board, run.commentary})
      ws->send(json{
          {"v", 1}, {"type", "review_join"}, {"cid", std::to_string(review)}, {"review", review}}
                   .dump());
    int snapshots = 0;
    while (!run.stopping) {
      const auto text = co_await ws->read();
      const auto now = Clock::now();
      const json m = json::parse(text);
      const auto type = m.value("type", "");
      if (type == "review_snapshot" && ++snapshots == 2) ++run.joined;
      if (type != "review_update" || m.value("change", "") != "node_added") continue;
      const int move = m.at("seq").get<int>() - 1;  // the first change is the board's role
      const bool on_board = m.at("review").get<std::int64_t>() == run.board;
      std::lock_guard lock(run.mutex);
      const auto it = run.sent.find(move);
      if (it == run.sent.end()) continue;
      const auto us =
          std::chrono::duration_cast<std::chrono::microseconds>(now - it->second).count();
      (on_board ? run.board_us : run.commentary_us).us.push_back(us);
      if (on_board && ++run.reached[move] == run.spectators) {
        run.all_us.us.push_back(us);
        run.all_reached.notify_all();
      }
    }
  } catch (const std::exception& e) {
    if (!run.stopping) {
      ++run.failures;
      std::cerr << "relay spectator " << index << ": " << e.what() << "\n";
    }
  }
}

}  // namespace

int relay_main(const Options& o, const fs::path& dir) {
  const fs::path db = dir / "relay.sqlite3";
  Child server = start_child(
      {o.server, "--address", "127.0.0.1", "--port", "0", "--port-file", (dir / "port").string(),
       "--database", db.string(), "--log-level", "warn", "--threads",
       std::to_string(o.server_threads), "--insecure-fast-password-hashing", "yes", "--bots", "off",
       "--analysis-worker", "off"},
      dir / "port");
  RelayRun run;
  run.port = server.port;
  run.spectators = o.relay;
  const auto director_address = asio::ip::make_address_v4("127.0.1.250");
  const auto [registered, account] =
      http_call(run.port, director_address, http::verb::post, "/api/v1/register", "",
                json{{"username", "director"}, {"password", "load test password"}}.dump());
  if (registered >= 300) throw std::runtime_error("register: " + account);
  const std::string token = json::parse(account).at("token");
  const auto [made, relay] = http_call(
      run.port, director_address, http::verb::post, "/api/v1/relays", token,
      json{{"event", "Load test"}, {"black", "Black player"}, {"white", "White player"}}.dump());
  if (made != 201) throw std::runtime_error("relay: " + relay);
  const json r = json::parse(relay);
  run.board = r.at("board");
  run.commentary = r.at("commentary");
  const auto id = r.at("id").get<std::int64_t>();

  for (int i = 0; i < o.relay; ++i) asio::co_spawn(run.io, relay_spectator(run, i), asio::detached);
  std::thread spectators([&] { run.io.run(); });
  const auto stop = [&] {
    run.stopping = true;
    run.io.stop();
    if (spectators.joinable()) spectators.join();
    kill(server.pid, SIGTERM);
    waitpid(server.pid, nullptr, 0);
  };
  Latencies answer_us;
  int entered = 0, limited = 0;
  double elapsed = 0;
  ProcessUsage before, after;
  try {
    for (int i = 0; i < 3000 && run.joined < o.relay && run.failures == 0; ++i)
      std::this_thread::sleep_for(10ms);  // not a test: a tool waiting for its connections
    if (run.joined < o.relay) throw std::runtime_error("the spectators did not all join");
    // The director: a move, then the next at the rate asked for (or once everyone has the last).
    const auto moves = relay_moves();
    before = usage_of(server.pid);
    const auto start = Clock::now();
    const auto window =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
    for (std::size_t n = 1; n <= moves.size() && Clock::now() - start < window; ++n) {
      if (o.rate > 0)
        std::this_thread::sleep_until(
            start + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(static_cast<double>(n - 1) / o.rate)));
      // Sent, and sent again a moment later while refused as faster than a director may enter
      // moves (docs/limits.md); timed from the send that is accepted.
      Clock::time_point sent;
      int status = 429;
      std::string answer;
      for (bool first = true; status == 429; first = false) {
        if (!first) {
          ++limited;
          std::this_thread::sleep_for(20ms);
        }
        sent = Clock::now();
        {
          std::lock_guard lock(run.mutex);
          run.sent[static_cast<int>(n)] = sent;
        }
        std::tie(status, answer) =
            http_call(run.port, director_address, http::verb::post,
                      "/api/v1/relays/" + std::to_string(id) + "/moves", token,
                      json{{"move", moves[n - 1]}, {"number", n}}.dump());
      }
      if (status != 200) throw std::runtime_error("move " + std::to_string(n) + ": " + answer);
      answer_us.us.push_back(
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent).count());
      ++entered;
      if (o.rate <= 0) {
        std::unique_lock lock(run.mutex);
        run.all_reached.wait_for(lock, 5s,
                                 [&] { return run.reached[static_cast<int>(n)] == o.relay; });
      }
    }
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    {  // the last deliveries
      std::unique_lock lock(run.mutex);
      run.all_reached.wait_for(lock, 5s, [&] { return run.reached[entered] == o.relay; });
    }
    after = usage_of(server.pid);
  } catch (...) {
    stop();
    throw;
  }
  stop();

  // Every acknowledged move is stored.
  sqlite3* sql = nullptr;
  sqlite3_open(db.string().c_str(), &sql);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(sql, "SELECT count(*) FROM relay_moves", -1, &st, nullptr);
  const int stored = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
  sqlite3_finalize(st);
  sqlite3_close(sql);

  std::lock_guard lock(run.mutex);
  std::printf("relay spectators:         %d guests, each following the board and its commentary\n",
              o.relay);
  std::printf("moves entered:            %d in %.1f s (%s a second asked), %d stored, %d missing\n",
              entered, elapsed, o.rate > 0 ? fmt_number(o.rate).c_str() : "as fast as possible",
              stored, entered - stored);
  if (limited > 0)
    std::printf(
        "                          %d times refused 429 (the director's rate), sent again\n",
        limited);
  std::cout << "director's answer:        " << answer_us.summary() << "\n";
  std::cout << "fan-out, board:           " << run.board_us.summary() << "\n";
  std::cout << "fan-out, commentary:      " << run.commentary_us.summary() << "\n";
  std::cout << "every spectator has it:   " << run.all_us.summary() << "\n";
  std::printf("server CPU:               %.0f%% of one core, %.0f us a move\n",
              100.0 * (after.cpu_seconds - before.cpu_seconds) / elapsed,
              entered > 0 ? 1e6 * (after.cpu_seconds - before.cpu_seconds) / entered : 0.0);
  std::printf("server memory:            %ld MiB\n", after.rss_kib / 1024);
  return run.failures == 0 && stored == entered ? 0 : 1;
}
