#pragma once

// A push service for the tests (tests/support/push_service.py, on Debian's python3-cryptography)
// on 127.0.0.1 and a port it picks: it decrypts and checks every message with its own code and
// writes what it found to a file each, which the test waits for through inotify (no polling).
// Devices are made here: a P-256 key and an auth secret each, written where the service reads
// them, as a browser keeps its subscription's private half.
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "push/web_push.h"
#include "support/child_start.h"
#include "support/paths.h"

namespace tengen::testing {

class TempPush {
 public:
  struct Device {
    std::string endpoint, p256dh, auth;  // as a browser's PushSubscription gives them
    nlohmann::json subscription() const {
      return {{"endpoint", endpoint},
              {"expirationTime", nullptr},
              {"keys", {{"p256dh", p256dh}, {"auth", auth}}}};
    }
  };

  TempPush() {
    char pattern[] = "/tmp/tengen-push-XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("cannot make a temporary directory");
    dir_ = pattern;
    std::filesystem::create_directories(dir_ + "/messages");
    write_keys();
    start();
  }
  ~TempPush() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    std::filesystem::remove_all(dir_);
  }
  TempPush(const TempPush&) = delete;
  TempPush& operator=(const TempPush&) = delete;

  std::string origin() const { return "http://127.0.0.1:" + std::to_string(port_); }

  // A device whose push service path is `path` ("/push/alice"; "/gone/..." answers 410,
  // "/busy/..." 503 once).
  Device device(const std::string& path) {
    const auto key = push::EcKey::generate();
    std::string auth(16, '\0');
    for (std::size_t i = 0; i < auth.size(); ++i) auth[i] = static_cast<char>(path.size() * 7 + i);
    keys_[path] = {{"private", push::base64url(key.private_scalar())},
                   {"auth", push::base64url(auth)}};
    write_keys();
    return {origin() + path, push::base64url(key.public_point()), push::base64url(auth)};
  }

  // Waits until `n` messages more than taken so far have arrived (30 s at most), and takes them,
  // oldest first.
  std::vector<nlohmann::json> take(std::size_t n) {
    const std::string messages = dir_ + "/messages";
    const int watch = inotify_init1(IN_CLOEXEC);
    inotify_add_watch(watch, messages.c_str(), IN_MOVED_TO);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    std::vector<std::filesystem::path> files;
    for (;;) {
      files.clear();
      for (const auto& e : std::filesystem::directory_iterator(messages))
        if (e.path().extension() == ".json") files.push_back(e.path());
      if (files.size() >= taken_ + n || std::chrono::steady_clock::now() > deadline) break;
      pollfd p{watch, POLLIN, 0};
      if (poll(&p, 1, 1000) == 1) {
        char events[4096];
        [[maybe_unused]] const auto r = read(watch, events, sizeof events);
      }
    }
    close(watch);
    std::sort(files.begin(), files.end());
    std::vector<nlohmann::json> out;
    for (std::size_t i = taken_; i < files.size(); ++i)
      out.push_back(nlohmann::json::parse(std::ifstream(files[i])));
    taken_ = files.size();
    return out;
  }

 private:
  void write_keys() {
    std::ofstream(dir_ + "/keys.json.tmp") << keys_.dump();
    std::filesystem::rename(dir_ + "/keys.json.tmp", dir_ + "/keys.json");
  }
  void start() {
    const auto started =
        start_python(dir_, paths::push_service(), {dir_ + "/keys.json", dir_ + "/messages"});
    pid_ = started.pid;
    port_ = started.port;
    if (pid_ < 0) {
      throw std::runtime_error(
          "the push service did not start (is Debian's python3-cryptography installed? "
          "scripts/install-deps)");
    }
  }

  std::string dir_;
  nlohmann::json keys_ = nlohmann::json::object();
  std::size_t taken_ = 0;
  int port_ = -1;
  pid_t pid_ = -1;
};

}  // namespace tengen::testing
