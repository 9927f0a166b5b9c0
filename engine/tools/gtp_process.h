#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace tengen::tools {

// A GTP program (GNU Go, or our own tengen-gtp) run as a child process and spoken to through
// pipes, synchronously: for the tests and benchmarks that compare with GNU Go. POSIX, so it is not
// part of the engine library; the bot bridge has its own, asynchronous
// (bridge/src/engine_process.h).
class GtpProcess {
 public:
  explicit GtpProcess(const std::vector<std::string>& argv) {
    int to_child[2];
    int from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      close(to_child[1]);
      close(from_child[0]);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = fdopen(to_child[1], "w");
    out_ = fdopen(from_child[0], "r");
  }
  ~GtpProcess() {
    if (in_) fclose(in_);
    if (out_) fclose(out_);
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  GtpProcess(const GtpProcess&) = delete;
  GtpProcess& operator=(const GtpProcess&) = delete;

  struct Reply {
    bool ok = false;
    std::string text;  // without the status character and surrounding blanks
  };

  // Sends one command and reads its reply (up to the empty line that ends it).
  Reply send(const std::string& command) {
    std::fputs((command + "\n").c_str(), in_);
    std::fflush(in_);
    std::string raw;
    char line[4096];
    while (std::fgets(line, sizeof line, out_)) {
      const std::string s(line);
      if (s == "\n" && !raw.empty()) break;
      if (s == "\n") continue;
      raw += s;
    }
    if (raw.empty()) throw std::runtime_error("no reply to '" + command + "'");
    Reply r;
    r.ok = raw[0] == '=';
    std::size_t start = 1;
    while (start < raw.size() && std::isdigit(static_cast<unsigned char>(raw[start]))) ++start;
    r.text = raw.substr(start);
    const auto first = r.text.find_first_not_of(" \n");
    const auto last = r.text.find_last_not_of(" \n");
    r.text = first == std::string::npos ? "" : r.text.substr(first, last - first + 1);
    return r;
  }

 private:
  pid_t pid_ = -1;
  FILE* in_ = nullptr;
  FILE* out_ = nullptr;
};

}  // namespace tengen::tools
