#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bots/supervisor.h"
#include "ratings/glicko2.h"

namespace tengen {

class Accounts;

// The server's own GNU Go players (docs/bots.md): each one a tengen-gtp-bridge child process
// logged in as a bot account, started when the server starts and started again whenever it
// dies (after 1 s, doubling to a minute while it keeps dying at once). The accounts are made
// here, as bots, with a fresh password at each start that only the child is given (in its
// environment). Stopping ends every bridge with SIGTERM; the bridges end their engines, and
// a server killed outright takes its bridges with it (PR_SET_PDEATHSIG).
struct HouseBot {
  std::string username;
  int level = 1;      // GNU Go's --level, 1 (weakest, fastest) to 10
  int max_games = 1;  // games at once
};

// The bots a server brings by default: three strengths of GNU Go.
std::vector<HouseBot> default_house_bots();

// Where a GNU Go bot's rating starts (docs/bots.md): from its level, not a newcomer's 10k?, so that
// the bots read weakest to strongest before they have played. Level 1 about 14 kyu, level 10
// about 8 kyu (GNU Go 3.8 on the servers that rank it), provisional (deviation 150).
ratings::Rating house_bot_start(int level);
// Each bot of `bots` by its account name: its start.
std::map<std::string, ratings::Rating> house_bot_starts(const std::vector<HouseBot>& bots);

class HouseBots {
 public:
  struct Options {
    std::string bridge;      // the tengen-gtp-bridge binary
    std::string gnugo;       // the GNU Go binary
    std::string server_url;  // where the bridges connect: http://127.0.0.1:PORT
    std::string log_level = "warn";
    std::chrono::milliseconds first_backoff{1000};
    std::chrono::milliseconds max_backoff{60000};
    // A random hex string of this many bytes (the passwords).
    std::function<std::string(std::size_t bytes)> random_hex;
    // Told each time a bridge starts (tests wait on it): the bot's name and its process id.
    std::function<void(const std::string& username, int pid)> started;
  };

  HouseBots(Accounts& accounts, std::vector<HouseBot> bots, Options options);
  ~HouseBots();  // stop()
  HouseBots(const HouseBots&) = delete;
  HouseBots& operator=(const HouseBots&) = delete;

  // Prepares the accounts and starts a supervising thread per bot. A bot whose account cannot be
  // made (the name is a person's) is left out, with the reason in the log.
  void start();
  // SIGTERM to every bridge, then waits for each (SIGKILL after 10 s).
  void stop();

  // Why house bots cannot run here, or empty: the binaries are missing or not executable.
  static std::string unavailable(const Options& options);

 private:
  Accounts& accounts_;
  std::vector<HouseBot> bots_;
  Options options_;
  std::string directory_;  // the bridges' configuration files
  Supervisor supervisor_;
};

}  // namespace tengen
