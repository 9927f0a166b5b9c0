#pragma once

// Starting a helper process for a test (tests/support/temp_nats.h, temp_smtp.h, temp_push.h): a
// folder is watched with inotify from before the child starts until what the child writes there is
// ready, so the test is woken by the file, not by polling; the timeouts only look at whether the
// child died meanwhile.
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tengen::testing {

class ChildStart {
 public:
  // Watch `dir` before forking the child.
  explicit ChildStart(const std::string& dir) : watch_(inotify_init1(IN_CLOEXEC)) {
    if (watch_ < 0 || inotify_add_watch(watch_, dir.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO) < 0)
      throw std::runtime_error("cannot watch " + dir);
  }
  ~ChildStart() { close(watch_); }
  ChildStart(const ChildStart&) = delete;
  ChildStart& operator=(const ChildStart&) = delete;

  // Until `ready()` is true (looked at after each change in the folder): true. False when the
  // child died or 30 s passed first; the child is then killed and reaped, and `pid` is -1.
  bool wait(pid_t& pid, const std::function<bool()>& ready) {
    for (int waited = 0;; waited += 100) {
      if (ready()) return true;
      const bool died = waitpid(pid, nullptr, WNOHANG) == pid;
      if (died || waited > 30'000) {
        if (!died) {
          kill(pid, SIGKILL);
          waitpid(pid, nullptr, 0);
        }
        pid = -1;
        return false;
      }
      pollfd p{watch_, POLLIN, 0};
      if (poll(&p, 1, 100) == 1) {
        char events[4096];
        [[maybe_unused]] const auto n = read(watch_, events, sizeof events);  // drained
      }
    }
  }

 private:
  int watch_;
};

// A Python helper of the tests (tests/support/*.py) started with `args`, its stderr in dir/log,
// until it has written the port it listens on to dir/port (renamed into place). Its pid and port;
// the pid is -1 when it did not start.
struct PythonHelper {
  pid_t pid = -1;
  int port = -1;
};
inline PythonHelper start_python(const std::string& dir, const std::string& script,
                                 std::vector<std::string> args) {
  const std::string port_file = dir + "/port";
  std::filesystem::remove(port_file);
  args.insert(args.begin(), script);
  args.push_back(port_file);
  ChildStart child(dir);
  PythonHelper started;
  started.pid = fork();
  if (started.pid == 0) {
    const std::string log = dir + "/log";
    if (!freopen(log.c_str(), "a", stderr)) _exit(126);
    std::vector<char*> argv{const_cast<char*>("python3")};
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv("/usr/bin/python3", argv.data());
    _exit(127);
  }
  child.wait(started.pid, [&] {
    std::ifstream in(port_file);
    return static_cast<bool>(in >> started.port) && started.port > 0;
  });
  return started;
}

}  // namespace tengen::testing
