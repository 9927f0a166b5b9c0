#pragma once

#include <sys/types.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

// An engine as a child process on pipes, spoken to line by line and waited for with deadlines
// (docs/analysis.md). The analysis worker does one thing at a time, so this is synchronous, unlike
// the bridge's asynchronous EngineProcess. Any failure (cannot start, exits, says nothing in time)
// is an EngineDown whose message says what happened; the process is then ended.
namespace tengen::analysis {

struct EngineDown : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class LineProcess {
 public:
  explicit LineProcess(const std::vector<std::string>& argv);
  ~LineProcess();  // ends the process (SIGTERM, then SIGKILL) and reaps it
  LineProcess(const LineProcess&) = delete;
  LineProcess& operator=(const LineProcess&) = delete;

  void write_line(const std::string& line);
  // The next line (without its end), waiting at most `patience`.
  std::string read_line(std::chrono::milliseconds patience);
  // A GTP reply's text (read by the bridge's GtpReplyReader); a "?" reply throws EngineDown naming
  // the command.
  std::string gtp(const std::string& command, std::chrono::milliseconds patience);

  pid_t pid() const { return pid_; }

 private:
  [[noreturn]] void fail(const std::string& why);
  // Reads what the process has written into buffer_, waiting until `until` at most.
  void read_more(std::chrono::steady_clock::time_point until, std::chrono::milliseconds patience);
  void end();
  pid_t pid_ = -1;
  int to_ = -1;
  int from_ = -1;
  std::string buffer_;
  std::string name_;
};

}  // namespace tengen::analysis
