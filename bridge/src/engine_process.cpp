#include "engine_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <boost/asio/buffer.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <cstring>

namespace tengen::bridge {

namespace asio = boost::asio;

struct EngineProcess::Watch {
  pid_t pid = -1;
  bool timed_out = false;
};

namespace {

struct Pipe {
  int read = -1;
  int write = -1;
};

Pipe make_pipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw EngineFailure(std::string("pipe: ") + std::strerror(errno));
  return {fds[0], fds[1]};
}

// fork and exec; the child's stdin and stdout are the pipes, everything else of ours is closed.
// A third pipe, closed by a successful exec, carries errno back if exec fails.
pid_t spawn(const std::vector<std::string>& argv, Pipe& in, Pipe& out) {
  Pipe status = make_pipe();
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw EngineFailure(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {  // only async-signal-safe calls from here on
    dup2(in.read, 0);
    dup2(out.write, 1);
    for (int fd = 3; fd < 1024; ++fd) {
      if (fd != status.write) close(fd);
    }
    execvp(args[0], args.data());
    const int error = errno;
    [[maybe_unused]] const auto n = write(status.write, &error, sizeof error);
    _exit(127);
  }
  close(in.read);
  close(out.write);
  close(status.write);
  int error = 0;
  ssize_t n;
  do {
    n = read(status.read, &error, sizeof error);
  } while (n < 0 && errno == EINTR);
  close(status.read);
  if (n == sizeof error) {
    waitpid(pid, nullptr, 0);
    close(in.write);
    close(out.read);
    throw EngineFailure("cannot run '" + argv[0] + "': " + std::strerror(error));
  }
  return pid;
}

// A reply as one log line: list_commands alone is a hundred lines.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text.size() > 160 ? text.substr(0, 160) + "..." : text;
}

}  // namespace

EngineProcess::EngineProcess(const asio::any_io_executor& executor,
                             const std::vector<std::string>& argv, std::string log_name,
                             bool log_gtp)
    : to_engine_(executor),
      from_engine_(executor),
      log_name_(std::move(log_name)),
      log_gtp_(log_gtp) {
  if (argv.empty()) throw EngineFailure("no engine command");
  Pipe in = make_pipe();
  Pipe out = make_pipe();
  pid_ = spawn(argv, in, out);
  to_engine_.assign(in.write);
  from_engine_.assign(out.read);
  watch_ = std::make_shared<Watch>(Watch{pid_, false});
  spdlog::info("{}: engine started (pid {}): {}", log_name_, pid_, argv[0]);
}

EngineProcess::~EngineProcess() {
  end_process();
}

std::string EngineProcess::end_process() {
  if (pid_ <= 0) return "it had ended";
  kill(pid_, SIGKILL);  // nothing if it exited already and waits to be reaped
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  watch_->pid = -1;
  boost::system::error_code ignored;
  to_engine_.close(ignored);
  from_engine_.close(ignored);
  if (WIFEXITED(status)) return "it exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
    return std::string("it was killed by ") + strsignal(WTERMSIG(status));
  return "it was stopped";
}

void EngineProcess::fail(const std::string& why) {
  const std::string how = end_process();
  throw EngineFailure(why + " (" + how + ")");
}

asio::awaitable<GtpReply> EngineProcess::command(std::string line,
                                                 std::chrono::milliseconds deadline) {
  if (pid_ <= 0) throw EngineFailure("the engine is not running");
  if (log_gtp_) spdlog::debug("{} > {}", log_name_, line);
  auto executor = co_await asio::this_coro::executor;
  // A deadline that passes kills the engine, which ends the read below.
  asio::steady_timer timer(executor, deadline);
  timer.async_wait([watch = watch_](boost::system::error_code ec) {
    if (ec || watch->pid <= 0) return;
    watch->timed_out = true;
    kill(watch->pid, SIGKILL);
  });
  const auto verb = line.substr(0, line.find(' '));
  boost::system::error_code ec;
  line += '\n';
  co_await asio::async_write(to_engine_, asio::buffer(line),
                             asio::redirect_error(asio::use_awaitable, ec));
  if (ec) fail("the engine stopped reading its input at '" + verb + "'");
  std::array<char, 4096> chunk{};
  for (;;) {
    std::optional<GtpReply> reply;
    try {
      reply = reader_.next();
    } catch (const GtpGarbage& garbage) {
      fail("the engine answered '" + verb + "' with " + garbage.what());
    }
    if (reply) {
      timer.cancel();
      if (log_gtp_)
        spdlog::debug("{} < {}{}", log_name_, reply->ok ? "= " : "? ", one_line(reply->text));
      co_return *reply;
    }
    const std::size_t n = co_await from_engine_.async_read_some(
        asio::buffer(chunk), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      if (watch_->timed_out) {
        fail("the engine did not answer '" + verb + "' within " +
             std::to_string(deadline.count() / 1000) + " s");
      }
      fail("the engine closed its output at '" + verb + "'");
    }
    reader_.feed(std::string_view(chunk.data(), n));
  }
}

asio::awaitable<void> EngineProcess::quit() {
  if (pid_ <= 0) co_return;
  try {
    co_await command("quit", std::chrono::seconds(2));
  } catch (const EngineFailure&) {
  }
  const std::string how = end_process();
  spdlog::info("{}: engine stopped: {}", log_name_, how);
}

}  // namespace tengen::bridge
