#pragma once

// The real tengen-server binary, started on a loopback port, and plain HTTP to it over a socket.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/paths.h"

namespace tengen::testing {

namespace fs = std::filesystem;

// The server binary on 127.0.0.1 and a port it chooses, with its database in `dir` (a fresh
// directory, removed afterwards, unless one is given: then it is kept, for restarts).
class ServerProcess {
 public:
  // `port` 0: one the server chooses; a restart passes the port of the one before.
  // `extra`: more command-line options for the server.
  explicit ServerProcess(std::optional<fs::path> dir = std::nullopt, int port = 0,
                         std::vector<std::string> extra = {})
      : owns_dir_(!dir) {
    dir_ =
        dir ? *dir : fs::temp_directory_path() / ("tengen-server-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
    const fs::path fifo = dir_ / "port";
    fs::remove(fifo);
    if (mkfifo(fifo.c_str(), 0600) != 0) throw std::runtime_error("mkfifo failed");
    const std::string db = (dir_ / "test.sqlite3").string();
    const std::string port_arg = std::to_string(port);
    std::vector<std::string> args{paths::server_binary(), "--port", port_arg, "--address",
                                  "127.0.0.1", "--database", db, "--port-file", fifo.string(),
                                  "--log-level", "warn", "--insecure-fast-password-hashing", "yes",
                                  // Tests register many accounts from 127.0.0.1.
                                  "--registrations-per-address", "0",
                                  // The house bots and analysis worker only where a test
                                  // asks for them (`extra`).
                                  "--bots", "off", "--analysis-worker", "off"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_ = fork();
    if (pid_ == 0) {
      execv(argv[0], argv.data());
      _exit(127);
    }
    // Wait for the port on the FIFO (opened read-write, so the open does not block), watching
    // the child: a server that exits before listening fails the test instead of hanging it.
    const int fd = open(fifo.c_str(), O_RDWR);
    std::string text;
    for (int waited = 0; text.find('\n') == std::string::npos; waited += 100) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        close(fd);
        throw std::runtime_error("the server exited before listening (status " +
                                 std::to_string(status) + ")");
      }
      if (waited > 60'000) {
        close(fd);
        throw std::runtime_error("the server did not report a port within 60 s");
      }
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 100) == 1) {
        char buf[32];
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) text.append(buf, static_cast<std::size_t>(n));
      }
    }
    close(fd);
    port_ = std::stoi(text);
  }
  ~ServerProcess() {
    kill9();
    if (owns_dir_) fs::remove_all(dir_);
  }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // A crash: no chance to finish anything.
  void kill9() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  const fs::path& dir() const { return dir_; }

  // SIGTERM, then the exit status; a server ended by a signal gives minus the signal's number.
  int terminate() {
    kill(pid_, SIGTERM);
    return exit_status();
  }
  // The exit status of a server that stops on its own (as terminate() gives it); -2000 if it is
  // still running after `deadline`. Waits on a pidfd: woken by the exit, not by polling.
  int wait_for_exit(std::chrono::milliseconds deadline) {
    const int fd = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
    if (fd >= 0) {
      pollfd p{fd, POLLIN, 0};
      const int ready = poll(&p, 1, static_cast<int>(deadline.count()));
      close(fd);
      if (ready != 1) return -2000;
    }
    return exit_status();
  }

 private:
  int exit_status() {
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    if (WIFSIGNALED(status)) return -WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1000;
  }

  bool owns_dir_;
  fs::path dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

inline std::string http_request(int port, const std::string& method, const std::string& target,
                                const std::string& headers = "", const std::string& body = "") {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return "connect failed";
  }
  const std::string request =
      method + " " + target +
      " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: " +
      std::to_string(body.size()) + "\r\n" + headers + "\r\n" + body;
  if (write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    close(fd);
    return "write failed";
  }
  std::string response;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
    response.append(buf, static_cast<size_t>(n));
  close(fd);
  return response;
}

inline std::string http_get(int port, const std::string& target) {
  return http_request(port, "GET", target);
}

inline std::string body_of(const std::string& response) {
  return response.substr(response.find("\r\n\r\n") + 4);
}

// The value of the session token in a response's Set-Cookie header.
inline std::string cookie_token(const std::string& response) {
  const auto at = response.find("Set-Cookie: tengen_session=");
  if (at == std::string::npos) return "";
  const auto start = at + std::string("Set-Cookie: tengen_session=").size();
  return response.substr(start, response.find(';', start) - start);
}

// A new account, registered through the HTTP API of the server on `port`: its session token.
// `from`: the address a trusted proxy says the request came from (X-Forwarded-For), for tests
// that register more accounts than one address may (--trusted-proxies 127.0.0.1).
inline std::string register_user(int port, const std::string& name, const std::string& from = "") {
  const std::string reply =
      http_request(port, "POST", "/api/v1/register",
                   "Content-Type: application/json\r\n" +
                       (from.empty() ? std::string() : "X-Forwarded-For: " + from + "\r\n"),
                   R"({"username":")" + name + R"(","password":"a fine password"})");
  return nlohmann::json::parse(body_of(reply))["token"];
}

}  // namespace tengen::testing
