#pragma once

// The real tengen-gtp-bridge binary with a configuration file, its log (stdout and stderr) in a
// file the test can read.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/paths.h"

namespace tengen::testing {

class BridgeProcess {
 public:
  BridgeProcess(const std::filesystem::path& dir, const std::string& name,
                const nlohmann::json& config)
      : config_(dir / (name + ".json")), log_(dir / (name + ".log")) {
    std::ofstream(config_) << config.dump(2);
    const std::string binary = paths::bridge_binary();  // before the fork: no allocation after
    pid_ = fork();
    if (pid_ == 0) {
      const int fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, 1);
      dup2(fd, 2);
      execl(binary.c_str(), binary.c_str(), "--config", config_.c_str(), "--register",
            "--log-level", "debug", static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  // A failed test shows the bridge's log, also when it failed by an exception.
  ~BridgeProcess() {
    if (pid_ > 0) terminate();
    if (std::uncaught_exceptions() > 0 || ::testing::Test::HasFailure()) {
      std::cout << "---- the log of " << config_.filename().string() << "'s bridge\n" << log();
    }
  }
  BridgeProcess(const BridgeProcess&) = delete;
  BridgeProcess& operator=(const BridgeProcess&) = delete;

  // SIGTERM, then the exit status.
  int terminate() {
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  // Waits for the bridge to exit by itself; its exit status.
  int wait() {
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  std::string log() const {
    std::ifstream in(log_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  std::filesystem::path config_;
  std::filesystem::path log_;
  pid_t pid_ = -1;
};

}  // namespace tengen::testing
