#pragma once

#include <sys/types.h>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gtp_reply.h"

// A GTP engine as a child process on pipes, spoken to asynchronously: one command at a time,
// each with a deadline. Any failure (cannot start, exits, answers garbage, says nothing in
// time) is an EngineFailure whose message says what happened; the process is then gone.
namespace tengen::bridge {

struct EngineFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class EngineProcess {
 public:
  // Starts `argv` (found on PATH); throws EngineFailure if it cannot be run.
  EngineProcess(const boost::asio::any_io_executor& executor, const std::vector<std::string>& argv,
                std::string log_name, bool log_gtp);
  ~EngineProcess();
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  // Sends one command and returns the engine's reply (a "?" reply is a reply, not a failure).
  boost::asio::awaitable<GtpReply> command(std::string line, std::chrono::milliseconds deadline);
  // `quit`, then the process is ended for sure and reaped.
  boost::asio::awaitable<void> quit();

  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0; }

 private:
  struct Watch;  // what a deadline's handler may touch after this object is gone
  [[noreturn]] void fail(const std::string& why);
  // Kills (if still running) and reaps the child; how it ended, in words.
  std::string end_process();

  boost::asio::posix::stream_descriptor to_engine_;
  boost::asio::posix::stream_descriptor from_engine_;
  pid_t pid_ = -1;
  std::shared_ptr<Watch> watch_;
  GtpReplyReader reader_;
  std::string log_name_;
  bool log_gtp_;
};

}  // namespace tengen::bridge
