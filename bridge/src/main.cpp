// tengen-gtp-bridge: plays on a Tengen server with any GTP engine (bridge/README.md).
#include <signal.h>
#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "bridge.h"
#include "config.h"

namespace {

constexpr const char* kUsage =
    R"(usage: tengen-gtp-bridge --config FILE [--register] [--log-level LEVEL]

Logs in to a Tengen server as a bot account and plays its games with a GTP engine, one engine
process per game. FILE is JSON; see bridge/README.md. The password may come from the
environment (TENGEN_BOT_PASSWORD, or the variable the file names in "password_env").

  --config FILE       the configuration
  --register          create the bot account if it does not exist yet
  --log-level LEVEL   trace, debug, info (default), warn, error
)";

int usage_error(const std::string& message) {
  std::cerr << "tengen-gtp-bridge: " << message << "\n\n" << kUsage;
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  std::string config_path;
  std::string level = "info";
  tengen::bridge::BridgeOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--register") {
      options.register_account = true;
    } else if ((arg == "--config" || arg == "--log-level") && i + 1 < argc) {
      (arg == "--config" ? config_path : level) = argv[++i];
    } else {
      return usage_error("unknown or incomplete option '" + arg + "'");
    }
  }
  if (config_path.empty()) return usage_error("--config is required");
  const auto log_level = spdlog::level::from_str(level);
  if (log_level == spdlog::level::off && level != "off")
    return usage_error("unknown log level '" + level + "'");
  spdlog::set_level(log_level);

  std::ifstream file(config_path);
  if (!file) return usage_error("cannot read " + config_path);
  std::stringstream text;
  text << file.rdbuf();
  auto parsed =
      tengen::bridge::parse_config(text.str(), [](const char* name) { return std::getenv(name); });
  if (auto* problem = std::get_if<std::string>(&parsed)) {
    std::cerr << "tengen-gtp-bridge: " << config_path << ": " << *problem << "\n";
    return 78;
  }

  signal(SIGPIPE, SIG_IGN);  // an engine that dies mid-write is an error to handle, not a signal
  boost::asio::io_context io;
  tengen::bridge::Bridge bridge(io, std::get<tengen::bridge::Config>(std::move(parsed)), options);
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) bridge.stop();
  });
  bridge.start();
  // The bridge runs until stopped; when it stops for good by itself, the signals need not wait.
  while (io.run_one()) {
    if (bridge.exit_code() != 0) signals.cancel();
  }
  return bridge.exit_code();
}
