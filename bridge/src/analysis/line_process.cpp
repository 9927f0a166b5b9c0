#include "analysis/line_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "gtp_reply.h"

namespace tengen::analysis {

LineProcess::LineProcess(const std::vector<std::string>& argv) : name_(argv.at(0)) {
  int in[2], out[2], status[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(status, O_CLOEXEC) != 0)
    throw EngineDown(std::string("pipe: ") + std::strerror(errno));
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_ = fork();
  if (pid_ < 0) throw EngineDown(std::string("fork: ") + std::strerror(errno));
  if (pid_ == 0) {                     // only async-signal-safe calls from here on
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // the worker killed outright takes its engine with it
    dup2(in[0], 0);
    dup2(out[1], 1);
    execvp(args[0], args.data());
    const int error = errno;
    [[maybe_unused]] const auto n = write(status[1], &error, sizeof error);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(status[1]);
  to_ = in[1];
  from_ = out[0];
  int error = 0;
  ssize_t n;
  do {
    n = read(status[0], &error, sizeof error);
  } while (n < 0 && errno == EINTR);
  close(status[0]);
  if (n == sizeof error) {
    end();
    throw EngineDown("cannot run '" + name_ + "': " + std::strerror(error));
  }
}

LineProcess::~LineProcess() {
  end();
}

void LineProcess::end() {
  if (to_ >= 0) close(to_);
  if (from_ >= 0) close(from_);
  to_ = from_ = -1;
  if (pid_ <= 0) return;
  // Its input closed, an engine ends by itself; one that does not is ended.
  for (int i = 0; i < 50; ++i) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      return;
    }
    if (i == 20) kill(pid_, SIGTERM);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void LineProcess::fail(const std::string& why) {
  end();
  throw EngineDown(name_ + ": " + why);
}

void LineProcess::write_line(const std::string& line) {
  const std::string text = line + "\n";
  std::size_t sent = 0;
  while (sent < text.size()) {
    const auto n = write(to_, text.data() + sent, text.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("it stopped reading (" + std::string(std::strerror(errno)) + ")");
    sent += static_cast<std::size_t>(n);
  }
}

void LineProcess::read_more(std::chrono::steady_clock::time_point until,
                            std::chrono::milliseconds patience) {
  for (;;) {
    if (buffer_.size() > 16 * 1024 * 1024) fail("more than 16 MiB without an end");
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    if (left.count() <= 0) fail("no answer within " + std::to_string(patience.count()) + " ms");
    pollfd p{from_, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left.count()));
    if (ready <= 0) continue;  // interrupted, or the time is up (said above)
    char chunk[65536];
    const auto n = read(from_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("it exited");
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return;
  }
}

std::string LineProcess::read_line(std::chrono::milliseconds patience) {
  const auto until = std::chrono::steady_clock::now() + patience;
  for (;;) {
    if (const auto end = buffer_.find('\n'); end != std::string::npos) {
      std::string line = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    read_more(until, patience);
  }
}

std::string LineProcess::gtp(const std::string& command, std::chrono::milliseconds patience) {
  write_line(command);
  // The bridge's reader of GTP responses (bridge/src/gtp_reply.h), fed what has come.
  const auto until = std::chrono::steady_clock::now() + patience;
  bridge::GtpReplyReader reader;
  for (;;) {
    reader.feed(buffer_);
    buffer_.clear();
    std::optional<bridge::GtpReply> reply;
    try {
      reply = reader.next();
    } catch (const bridge::GtpGarbage& garbage) {
      fail("'" + command + "' was answered with " + garbage.what());
    }
    if (reply) {
      if (!reply->ok) throw EngineDown(name_ + " refused '" + command + "': " + reply->text);
      return reply->text;
    }
    read_more(until, patience);
  }
}

}  // namespace tengen::analysis
