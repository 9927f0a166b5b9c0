// tengen-analysis: analyses finished games for a Tengen server with an engine on this machine
// (docs/analysis.md). It only asks: it pulls jobs from the server over HTTP(S) with its worker
// key, runs the engine, and posts the results; it opens no port.
#include <curl/curl.h>
#include <signal.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analysis/engines.h"
#include "analysis/line_process.h"
#include "protocol/analysis_api.h"

namespace {

using namespace std::chrono_literals;
namespace wire = tengen::protocol::http;

constexpr const char* kUsage =
    R"(usage: tengen-analysis --server URL [--key-file FILE] [engine options]

Analyses finished games for a Tengen server (docs/analysis.md). It asks the server for work over
HTTP(S) with a worker key (tengen-server --make-worker-key NAME makes one), runs the engine and
sends the results back. The key comes from --key-file or the environment (TENGEN_WORKER_KEY).

  --server URL        the server, http://host:port or https://host
  --key-file FILE     a file holding the worker key
  --engine NAME       gnugo (default), katago (its analysis engine) or gtp (a GTP engine with
                      kata-analyze, given by --gtp)
  --gnugo PATH        GNU Go's binary (default /usr/games/gnugo)
  --level N           GNU Go's level, 1 to 10 (default 10)
  --katago "CMD ..."  KataGo's analysis engine, e.g. "katago analysis -config a.cfg -model m.bin.gz"
  --gtp "CMD ..."     a GTP engine with kata-analyze, e.g. "katago gtp -config g.cfg -model m.bin.gz"
  --visits N          KataGo's (or the GTP engine's) visits per position (default 400)
  --poll-ms N         how long to wait before asking again when there is no work (default 5000)
  --once              analyse one game (waiting for one), then stop
  --sgf FILE          analyse the game in FILE here and print the result (JSON), asking no
                      server: to try an engine, or to time it (docs/performance.md)
  --log-level LEVEL   trace, debug, info (default), warn, error
)";

std::atomic<bool> stopping{false};

struct Reply {
  long status = 0;
  std::string body;
  std::string error;  // the transfer's failure, if it did not get an answer
};

std::size_t collect(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

class Server {
 public:
  Server(std::string url, std::string key) : url_(std::move(url)), key_(std::move(key)) {
    while (!url_.empty() && url_.back() == '/') url_.pop_back();
  }

  Reply post(const std::string& path, const std::string& body) {
    Reply reply;
    CURL* c = curl_easy_init();
    if (!c) return {0, "", "curl_easy_init failed"};
    const std::string url = url_ + path;
    curl_slist* headers = nullptr;
    headers = curl_slist_append(headers, ("Authorization: Bearer " + key_).c_str());
    headers = curl_slist_append(headers, "Content-Type: application/json");
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
    curl_easy_setopt(c, CURLOPT_USERAGENT, "tengen-analysis");
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https,http");
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 60000L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &reply.body);
    const CURLcode done = curl_easy_perform(c);
    if (done == CURLE_OK)
      curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &reply.status);
    else
      reply.error = curl_easy_strerror(done);
    curl_slist_free_all(headers);
    curl_easy_cleanup(c);
    return reply;
  }

 private:
  std::string url_;
  std::string key_;
};

std::string describe(const Reply& r) {
  return r.error.empty() ? "HTTP " + std::to_string(r.status) + " " + r.body : r.error;
}

void pause_for(std::chrono::milliseconds how_long) {
  const auto until = std::chrono::steady_clock::now() + how_long;
  while (!stopping && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(50ms);
}

int usage_error(const std::string& message) {
  std::cerr << "tengen-analysis: " << message << "\n\n" << kUsage;
  return 64;
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string server_url, key_file, engine_name = "gnugo", gnugo = "/usr/games/gnugo", katago, gtp,
                                    level_name = "info";
  int level = 10, visits = 400, poll_ms = 5000;
  bool once = false;
  std::string sgf_file;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    auto number = [&](int& out, int lo, int hi) {
      try {
        out = std::stoi(argv[++i]);
      } catch (const std::exception&) {
        out = lo - 1;
      }
      return out >= lo && out <= hi;
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--once") {
      once = true;
    } else if (arg == "--sgf" && has_value) {
      sgf_file = argv[++i];
    } else if (arg == "--server" && has_value) {
      server_url = argv[++i];
    } else if (arg == "--key-file" && has_value) {
      key_file = argv[++i];
    } else if (arg == "--engine" && has_value) {
      engine_name = argv[++i];
    } else if (arg == "--gnugo" && has_value) {
      gnugo = argv[++i];
    } else if (arg == "--katago" && has_value) {
      katago = argv[++i];
    } else if (arg == "--gtp" && has_value) {
      gtp = argv[++i];
    } else if (arg == "--log-level" && has_value) {
      level_name = argv[++i];
    } else if (arg == "--level" && has_value) {
      if (!number(level, 1, 10)) return usage_error("--level must be 1 to 10");
    } else if (arg == "--visits" && has_value) {
      if (!number(visits, 1, 1000000)) return usage_error("--visits must be 1 to 1000000");
    } else if (arg == "--poll-ms" && has_value) {
      if (!number(poll_ms, 10, 3600000)) return usage_error("--poll-ms must be 10 to 3600000");
    } else {
      return usage_error("unknown or incomplete option '" + arg + "'");
    }
  }
  if (server_url.empty() && sgf_file.empty()) return usage_error("--server is required");
  if (engine_name != "gnugo" && engine_name != "katago" && engine_name != "gtp")
    return usage_error("--engine must be gnugo, katago or gtp");
  if (engine_name == "gtp" && gtp.empty())
    return usage_error(
        "--engine gtp needs --gtp \"engine gtp ...\" (with kata-analyze or lz-analyze)");
  if (engine_name == "katago" && katago.empty())
    return usage_error("--engine katago needs --katago \"katago analysis -config ... -model ...\"");
  const auto log_level = spdlog::level::from_str(level_name);
  if (log_level == spdlog::level::off && level_name != "off")
    return usage_error("unknown log level '" + level_name + "'");
  spdlog::set_level(log_level);

  auto make_engine = [&]() -> std::unique_ptr<tengen::analysis::AnalysisEngine> {
    if (engine_name == "katago") return tengen::analysis::katago_engine(words(katago), visits);
    if (engine_name == "gtp") return tengen::analysis::gtp_analyze_engine(words(gtp), visits);
    return tengen::analysis::gnugo_engine(gnugo, level);
  };
  if (!sgf_file.empty()) {  // one local game, no server
    std::ifstream in(sgf_file);
    if (!in) return usage_error("cannot read " + sgf_file);
    std::stringstream text;
    text << in.rdbuf();
    signal(SIGPIPE, SIG_IGN);
    try {
      const auto record = tengen::read_sgf(text.str());
      auto engine = make_engine();
      const auto name = engine->name();  // the engine started and asked, outside the timing
      const auto started = std::chrono::steady_clock::now();
      const auto result = engine->analyse(record, 0, [](int) {});
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::cout << wire::encode_analysis_result(result) << "\n";
      const auto positions = result.positions.size();
      std::cerr << name << ": " << positions << " positions in " << seconds << " s, "
                << seconds / static_cast<double>(std::max<std::size_t>(1, positions - 1))
                << " s a move\n";
      return 0;
    } catch (const std::exception& e) {
      std::cerr << "tengen-analysis: " << sgf_file << ": " << e.what() << "\n";
      return 1;
    }
  }

  std::string key;
  if (!key_file.empty()) {
    std::ifstream in(key_file);
    if (!in) return usage_error("cannot read " + key_file);
    std::getline(in, key);
  } else if (const char* k = std::getenv("TENGEN_WORKER_KEY")) {
    key = k;
  }
  while (!key.empty() && (key.back() == ' ' || key.back() == '\r')) key.pop_back();
  if (key.empty()) return usage_error("no worker key: --key-file FILE or TENGEN_WORKER_KEY");

  signal(SIGPIPE, SIG_IGN);
  struct sigaction stop {};
  stop.sa_handler = [](int) { stopping = true; };
  sigaction(SIGTERM, &stop, nullptr);
  sigaction(SIGINT, &stop, nullptr);
  curl_global_init(CURL_GLOBAL_DEFAULT);

  auto engine = make_engine();
  Server server(server_url, key);
  spdlog::info("tengen-analysis: asking {} for games to analyse with {}", server_url, engine_name);
  auto backoff = 1s;
  while (!stopping) {
    // A review board's positions too (one position each: they come before the games).
    const auto asked = server.post("/api/v1/analysis/acquire", "{\"positions\":true}");
    if (asked.status == 401) {
      spdlog::error("the server refused the worker key: {}", asked.body);
      return 2;
    }
    if (asked.status == 204) {
      pause_for(std::chrono::milliseconds(poll_ms));
      continue;
    }
    if (asked.status != 200) {
      spdlog::warn("asking for work: {}; again in {} s", describe(asked), backoff.count());
      pause_for(backoff);
      backoff = std::min(backoff * 2, std::chrono::seconds(60));
      continue;
    }
    backoff = 1s;
    auto decoded = wire::decode_analysis_job(asked.body);
    if (auto* why = std::get_if<std::string>(&decoded)) {
      spdlog::error("the server sent a job this worker cannot read: {}", *why);
      pause_for(std::chrono::milliseconds(poll_ms));
      continue;
    }
    const auto& job = std::get<wire::AnalysisJob>(decoded);
    const std::string what = job.position ? "position " + std::to_string(job.position)
                                          : "game " + std::to_string(job.game);
    const std::string at = job.position
                               ? "/api/v1/analysis/positions/" + std::to_string(job.position)
                               : "/api/v1/analysis/" + std::to_string(job.game);
    spdlog::info("analysing {} ({} positions)", what, job.positions);
    const auto started = std::chrono::steady_clock::now();
    auto last_told = started;
    try {
      const auto record = tengen::read_sgf(job.sgf);
      const auto result = engine->analyse(record, job.from, [&](int done) {
        if (stopping) throw tengen::analysis::EngineDown("the worker is stopping");
        const auto now = std::chrono::steady_clock::now();
        if (now - last_told < 2s && done != job.positions) return;
        last_told = now;
        const auto told = server.post(at + "/progress", "{\"done\":" + std::to_string(done) + "}");
        if (told.status == 409) throw tengen::analysis::EngineDown("the job is no longer ours");
      });
      const auto sent = server.post(at + "/result", wire::encode_analysis_result(result));
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - started)
                          .count();
      if (sent.status == 204)
        spdlog::info("{} analysed in {} ms ({} ms a position)", what, ms,
                     ms / std::max(1, job.positions));
      else
        spdlog::error("{}: the server refused the result: {}", what, describe(sent));
    } catch (const std::exception& e) {
      spdlog::warn("{}: {}; handing it back", what, e.what());
      server.post(at + "/give-back", "{}");
      engine = make_engine();  // a fresh engine for the next job
      if (!stopping) pause_for(1s);
    }
    if (once) return 0;
  }
  return 0;
}
