#pragma once

// A real NATS server (Debian's nats-server) on 127.0.0.1 and a port it picks, for the tests of
// the bus between nodes (docs/cluster.md). It writes the port it chose into a file, which the
// test waits for (watching the child too, so that a server that fails fails the test).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "support/child_start.h"

namespace tengen::testing {

class TempNats {
 public:
  TempNats() {
    char pattern[] = "/tmp/tengen-nats-XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("cannot make a temporary directory");
    dir_ = pattern;
    start();
  }
  ~TempNats() {
    stop();
    std::filesystem::remove_all(dir_);
  }
  TempNats(const TempNats&) = delete;
  TempNats& operator=(const TempNats&) = delete;

  const std::string& url() const { return url_; }

  // A crash of the bus: the nodes must carry on once it is back (restart()).
  void stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  // Back on the same port.
  void restart() { start(port_); }

 private:
  void start(int port = -1) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    ChildStart child(dir_);
    const std::string port_arg = std::to_string(port);
    pid_ = fork();
    if (pid_ == 0) {
      const std::string log = dir_ + "/log";
      if (!freopen(log.c_str(), "a", stderr)) _exit(126);
      execl("/usr/sbin/nats-server", "nats-server", "-a", "127.0.0.1", "-p", port_arg.c_str(),
            "--ports_file_dir", dir_.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    // The ports file, once written whole.
    const std::string ports = dir_ + "/nats-server_" + std::to_string(pid_) + ".ports";
    const bool started = child.wait(pid_, [&] {
      std::ifstream in(ports);
      const std::string text((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
      const auto at = text.find("nats://");
      const auto end = text.find('"', at == std::string::npos ? 0 : at);
      if (at == std::string::npos || end == std::string::npos) return false;
      url_ = text.substr(at, end - at);
      port_ = std::stoi(url_.substr(url_.rfind(':') + 1));
      return true;
    });
    if (!started) {
      throw std::runtime_error(
          "nats-server did not start (is Debian's nats-server installed? scripts/install-deps)");
    }
  }

  std::string dir_;
  std::string url_;
  int port_ = -1;
  pid_t pid_ = -1;
};

}  // namespace tengen::testing
