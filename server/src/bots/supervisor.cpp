#include "bots/supervisor.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>

extern char** environ;

namespace tengen {
namespace {

// A child that ran this long before dying starts again after the first backoff, not the last.
constexpr auto kSteadyRun = std::chrono::minutes(5);
constexpr auto kStopGrace = std::chrono::seconds(10);

std::string describe_exit(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("was killed by ") + strsignal(WTERMSIG(status));
  return "stopped";
}

}  // namespace

struct Supervisor::Running {
  Child child;
  pid_t pid = 0;  // under mutex_; 0 while it does not run
  std::thread thread;
};

Supervisor::Supervisor(Options options) : options_(std::move(options)) {}

Supervisor::~Supervisor() {
  stop();
}

void Supervisor::start(std::vector<Child> children) {
  std::lock_guard lock(mutex_);
  for (auto& child : children) {
    auto running = std::make_unique<Running>();
    running->child = std::move(child);
    running_.push_back(std::move(running));
    running_.back()->thread = std::thread([this, r = running_.back().get()] { supervise(*r); });
  }
}

void Supervisor::supervise(Running& running) {
  // Everything the child needs, made before fork(): after it, only async-signal-safe calls.
  std::vector<std::string> args = running.child.argv;
  std::vector<std::string> env = running.child.env;
  for (char** e = environ; e && *e; ++e) {
    // The server's own settings stay with it (a PostgreSQL URI may hold a password).
    if (!std::string_view(*e).starts_with("TENGEN_")) env.emplace_back(*e);
  }
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t server = getpid();
  const std::string& name = running.child.name;
  const std::string& described = running.child.described;

  auto backoff = options_.first_backoff;
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const auto began = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
      // Ends with this thread, whichever way the server ends.
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (getppid() != server) _exit(1);
      // The server's threads block signals their own way; the mask would outlive execve and
      // leave the child deaf to SIGTERM.
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, nullptr);
      signal(SIGPIPE, SIG_DFL);
      // Nothing of the server's: its listening socket held open by a child would keep
      // accepting connections nobody answers after the server closed it, and its database
      // files are not the child's business.
      if (close_range(3, ~0U, 0) != 0) {
        for (int fd = 3; fd < 65536; ++fd) close(fd);
      }
      execve(argv[0], argv.data(), envp.data());
      _exit(127);
    }
    if (pid < 0) {
      spdlog::error("{}: cannot start: {}", described, std::strerror(errno));
    } else {
      running.pid = pid;
      if (stopping_) kill(pid, SIGTERM);
      lock.unlock();
      if (options_.started) options_.started(name, pid);
      int status = 0;
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      lock.lock();
      running.pid = 0;
      wake_.notify_all();
      if (stopping_) break;
      if (std::chrono::steady_clock::now() - began >= kSteadyRun) backoff = options_.first_backoff;
      spdlog::warn("{} {}; starting it again in {} ms", described, describe_exit(status),
                   backoff.count());
    }
    wake_.wait_for(lock, backoff, [this] { return stopping_; });
    backoff = std::min(backoff * 2, options_.max_backoff);
  }
}

void Supervisor::stop() {
  std::unique_lock lock(mutex_);
  if (stopping_) return;
  stopping_ = true;
  for (auto& r : running_)
    if (r->pid > 0) kill(r->pid, SIGTERM);
  wake_.notify_all();
  const auto all_ended = [this] {
    for (auto& r : running_)
      if (r->pid > 0) return false;
    return true;
  };
  if (!wake_.wait_for(lock, kStopGrace, all_ended)) {
    for (auto& r : running_) {
      if (r->pid > 0) {
        spdlog::warn("{} did not stop in time; killed", r->child.described);
        kill(r->pid, SIGKILL);
      }
    }
  }
  lock.unlock();
  for (auto& r : running_)
    if (r->thread.joinable()) r->thread.join();
}

}  // namespace tengen
