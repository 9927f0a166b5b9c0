#include "stop.h"

#include <spdlog/spdlog.h>

#include <cstdlib>

namespace tengen {

void stop_process(ExitCode code, const std::string& why) {
  spdlog::critical("stopping (exit code {}): {}", static_cast<int>(code), why);
  spdlog::default_logger()->flush();
  // At once, without destructors: other threads are running, and what they hold (sockets,
  // unacknowledged moves) is meant to end here. The store holds everything acknowledged.
  std::_Exit(static_cast<int>(code));
}

}  // namespace tengen
