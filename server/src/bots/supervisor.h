#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tengen {

// The server's own helper programs (docs/bots.md, docs/analysis.md): the house bots' bridges and
// the house analysis worker, each a child process started when the server starts and started
// again whenever it dies (after 1 s, doubling to a minute while it keeps dying at once). A child
// gets the server's environment without its TENGEN_ settings (a PostgreSQL URI may hold a
// password), plus its own, and none of the server's open files. Stopping ends every child with
// SIGTERM (SIGKILL after 10 s); a server killed outright takes its children with it
// (PR_SET_PDEATHSIG).
class Supervisor {
 public:
  struct Options {
    std::chrono::milliseconds first_backoff{1000};
    std::chrono::milliseconds max_backoff{60000};
    // Told each time a child starts (tests wait on it): its name and its process id.
    std::function<void(const std::string& name, int pid)> started;
  };
  struct Child {
    std::string name;               // its name for `started`: the bot's account, "analysis"
    std::string described;          // in the log: "house bot gnugo-easy: its bridge"
    std::vector<std::string> argv;  // argv[0] is the program's path
    std::vector<std::string> env;   // NAME=VALUE, added to the server's
  };

  explicit Supervisor(Options options);
  ~Supervisor();  // stop()
  Supervisor(const Supervisor&) = delete;
  Supervisor& operator=(const Supervisor&) = delete;

  // A thread per child, which starts it and starts it again whenever it ends.
  void start(std::vector<Child> children);
  void stop();

 private:
  struct Running;
  void supervise(Running& running);

  Options options_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::vector<std::unique_ptr<Running>> running_;
};

}  // namespace tengen
