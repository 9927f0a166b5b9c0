#pragma once

// Starting a helper process for a test (tests/support/temp_nats.h, temp_smtp.h): a folder is
// watched with inotify from before the child starts until what the child writes there is ready,
// so the test is woken by the file, not by polling; the timeouts only look at whether the child
// died meanwhile.
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <stdexcept>
#include <string>

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

}  // namespace tengen::testing
