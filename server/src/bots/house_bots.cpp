#include "bots/house_bots.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "accounts/accounts.h"

extern char** environ;

namespace tengen {
namespace {

// A bridge that ran this long before dying starts again after the first backoff, not the last.
constexpr auto kSteadyRun = std::chrono::minutes(5);
constexpr auto kStopGrace = std::chrono::seconds(10);

// The bridge's configuration (bridge/README.md): direct challenges only (the lobby's "Play a
// bot" sends them), every size GTP has, any live clock (a correspondence game would hold a bot
// that plays one game at a time for days), rated or not, undo granted.
std::string bridge_config(const HouseBot& bot, const HouseBots::Options& options) {
  const nlohmann::json config = {
      {"server", options.server_url},
      {"username", bot.username},
      {"password_env", "TENGEN_BOT_PASSWORD"},
      {"engine", {options.gnugo, "--mode", "gtp", "--level", std::to_string(bot.level)}},
      {"accept",
       {{"direct", true},
        {"open", false},
        {"board_sizes", {9, 13, 19}},
        {"rated", true},
        {"unrated", true},
        {"max_handicap", 9},
        {"time_systems", {"none", "absolute", "simple", "fischer", "byoyomi", "canadian"}},
        {"max_games", bot.max_games}}},
      {"accept_undo", true},
      // No greeting: it would be English for everyone; the game page says in the reader's
      // language that the opponent is a program.
      {"max_think_seconds", 60}};
  return config.dump(2) + "\n";
}

std::string describe_exit(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("was killed by ") + strsignal(WTERMSIG(status));
  return "stopped";
}

}  // namespace

std::vector<HouseBot> default_house_bots() {
  return {{"gnugo-easy", 1, 3}, {"gnugo-medium", 5, 3}, {"gnugo-strong", 10, 2}};
}

ratings::Rating house_bot_start(int level) {
  // The middle of a rank: 14 kyu at level 1 up to 8 kyu at level 10, two thirds of a rank a level.
  const double kyu = 14.0 - (std::clamp(level, 1, 10) - 1) * 6.0 / 9.0;
  return {ratings::kRatingPerRank * (25.0 - kyu) + ratings::kRatingPerRank / 2, 150, 0.06};
}

std::map<std::string, ratings::Rating> house_bot_starts(const std::vector<HouseBot>& bots) {
  std::map<std::string, ratings::Rating> out;
  for (const auto& bot : bots) out[bot.username] = house_bot_start(bot.level);
  return out;
}

struct HouseBots::Running {
  HouseBot bot;
  std::string config_path;
  std::string password;
  pid_t pid = 0;  // under mutex_; 0 while no bridge runs
  std::thread thread;
};

HouseBots::HouseBots(Accounts& accounts, std::vector<HouseBot> bots, Options options)
    : accounts_(accounts), bots_(std::move(bots)), options_(std::move(options)) {}

HouseBots::~HouseBots() {
  stop();
}

std::string HouseBots::unavailable(const Options& options) {
  if (access(options.bridge.c_str(), X_OK) != 0)
    return "no bridge to run them at " + options.bridge + " (set --bot-bridge)";
  if (access(options.gnugo.c_str(), X_OK) != 0)
    return "no GNU Go at " + options.gnugo + " (apt-get install gnugo, or set --gnugo)";
  return {};
}

void HouseBots::start() {
  std::string dir = (std::filesystem::temp_directory_path() / "tengen-bots-XXXXXX").string();
  if (!mkdtemp(dir.data())) {
    spdlog::error("house bots: cannot make a folder for their settings: {}", std::strerror(errno));
    return;
  }
  directory_ = dir;
  std::vector<std::string> names;
  for (const auto& bot : bots_) {
    auto running = std::make_unique<Running>();
    running->bot = bot;
    running->password = options_.random_hex(24);
    if (auto problem = accounts_.prepare_house_bot(bot.username, running->password)) {
      spdlog::error("house bot {} left out: {}", bot.username, *problem);
      continue;
    }
    running->config_path = directory_ + "/" + bot.username + ".json";
    std::ofstream(running->config_path) << bridge_config(bot, options_);
    names.push_back(bot.username + " (level " + std::to_string(bot.level) + ")");
    running_.push_back(std::move(running));
  }
  for (auto& running : running_)
    running->thread = std::thread([this, r = running.get()] { supervise(*r); });
  if (!names.empty()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    spdlog::info("house bots: {}; GNU Go {} through {}", list, options_.gnugo, options_.bridge);
  }
}

void HouseBots::supervise(Running& running) {
  // Everything the child needs, made before fork(): after it, only async-signal-safe calls.
  std::vector<std::string> args{options_.bridge, "--config", running.config_path, "--log-level",
                                options_.log_level};
  std::vector<std::string> env{"TENGEN_BOT_PASSWORD=" + running.password};
  for (char** e = environ; e && *e; ++e) {
    // The server's own settings stay with it (a PostgreSQL URI may hold a password).
    if (!std::string_view(*e).starts_with("TENGEN_")) env.emplace_back(*e);
  }
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t server = getpid();
  const std::string& name = running.bot.username;

  auto backoff = options_.first_backoff;
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const auto began = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
      // Ends with this thread, whichever way the server ends.
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (getppid() != server) _exit(1);
      // The server's threads block signals their own way; the mask would outlive execve and
      // leave the bridge deaf to SIGTERM.
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, nullptr);
      signal(SIGPIPE, SIG_DFL);
      // Nothing of the server's: its listening socket held open by a bridge would keep
      // accepting connections nobody answers after the server closed it, and its database
      // files are not the bridge's business.
      if (close_range(3, ~0U, 0) != 0) {
        for (int fd = 3; fd < 65536; ++fd) close(fd);
      }
      execve(argv[0], argv.data(), envp.data());
      _exit(127);
    }
    if (pid < 0) {
      spdlog::error("house bot {}: cannot start its bridge: {}", name, std::strerror(errno));
    } else {
      running.pid = pid;
      if (stopping_) kill(pid, SIGTERM);
      lock.unlock();
      if (options_.started) options_.started(name, pid);
      int status = 0;
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      lock.lock();
      running.pid = 0;
      wake_.notify_all();
      if (stopping_) break;
      if (std::chrono::steady_clock::now() - began >= kSteadyRun) backoff = options_.first_backoff;
      spdlog::warn("house bot {}: its bridge {}; starting it again in {} ms", name,
                   describe_exit(status), backoff.count());
    }
    wake_.wait_for(lock, backoff, [this] { return stopping_; });
    backoff = std::min(backoff * 2, options_.max_backoff);
  }
}

void HouseBots::stop() {
  std::unique_lock lock(mutex_);
  if (stopping_) return;
  stopping_ = true;
  for (auto& r : running_)
    if (r->pid > 0) kill(r->pid, SIGTERM);
  wake_.notify_all();
  const auto all_ended = [this] {
    for (auto& r : running_)
      if (r->pid > 0) return false;
    return true;
  };
  if (!wake_.wait_for(lock, kStopGrace, all_ended)) {
    for (auto& r : running_) {
      if (r->pid > 0) {
        spdlog::warn("house bot {}: its bridge did not stop in time; killed", r->bot.username);
        kill(r->pid, SIGKILL);
      }
    }
  }
  lock.unlock();
  for (auto& r : running_)
    if (r->thread.joinable()) r->thread.join();
  if (!directory_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(directory_, ec);
  }
}

}  // namespace tengen
