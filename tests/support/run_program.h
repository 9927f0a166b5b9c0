#pragma once

// Running a program to its end from a test (the analysis worker, the server's one-off commands):
// its exit status, or its output.
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace tengen::testing {

// `args` run to its end with `env` (and a PATH with /usr/games, for GNU Go): its exit status, -1
// if it ran past `patience` (it is then killed) or did not exit by itself.
inline int run_program(std::vector<std::string> args, std::chrono::milliseconds patience,
                       const std::vector<std::string>& env = {}) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> environment = env;
  environment.push_back("PATH=/usr/bin:/bin:/usr/games");
  std::vector<char*> envp;
  for (auto& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  const int fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  pollfd p{fd, POLLIN, 0};
  const bool ended = poll(&p, 1, static_cast<int>(patience.count())) == 1;
  close(fd);
  if (!ended) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  return ended && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A shell command's standard output (the server's --make-worker-key, say).
inline std::string output_of(const std::string& command) {
  std::string out;
  FILE* f = popen(command.c_str(), "r");
  char buf[512];
  while (f && fgets(buf, sizeof buf, f)) out += buf;
  if (f) pclose(f);
  return out;
}

}  // namespace tengen::testing
