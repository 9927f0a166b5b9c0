#include "bots/house_bots.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "accounts/accounts.h"

namespace tengen {
namespace {

// The bridge's configuration (bridge/README.md): direct challenges only (the lobby's "Play a
// bot" sends them), every size GTP has, any live clock (a correspondence game would hold a bot
// that plays one game at a time for days), rated or not, undo granted.
std::string bridge_config(const HouseBot& bot, const HouseBots::Options& options) {
  const nlohmann::json config = {
      {"server", options.server_url},
      {"username", bot.username},
      {"password_env", "TENGEN_BOT_PASSWORD"},
      {"engine", {options.gnugo, "--mode", "gtp", "--level", std::to_string(bot.level)}},
      {"accept",
       {{"direct", true},
        {"open", false},
        {"board_sizes", {9, 13, 19}},
        {"rated", true},
        {"unrated", true},
        {"max_handicap", 9},
        {"time_systems", {"none", "absolute", "simple", "fischer", "byoyomi", "canadian"}},
        {"max_games", bot.max_games}}},
      {"accept_undo", true},
      // No greeting: it would be English for everyone; the game page says in the reader's
      // language that the opponent is a program.
      {"max_think_seconds", 60}};
  return config.dump(2) + "\n";
}

}  // namespace

std::vector<HouseBot> default_house_bots() {
  return {{"gnugo-easy", 1, 3}, {"gnugo-medium", 5, 3}, {"gnugo-strong", 10, 2}};
}

ratings::Rating house_bot_start(int level) {
  // The middle of a rank: 14 kyu at level 1 up to 8 kyu at level 10, two thirds of a rank a level.
  const double kyu = 14.0 - (std::clamp(level, 1, 10) - 1) * 6.0 / 9.0;
  return {ratings::kRatingPerRank * (25.0 - kyu) + ratings::kRatingPerRank / 2, 150, 0.06};
}

std::map<std::string, ratings::Rating> house_bot_starts(const std::vector<HouseBot>& bots) {
  std::map<std::string, ratings::Rating> out;
  for (const auto& bot : bots) out[bot.username] = house_bot_start(bot.level);
  return out;
}

HouseBots::HouseBots(Accounts& accounts, std::vector<HouseBot> bots, Options options)
    : accounts_(accounts),
      bots_(std::move(bots)),
      options_(std::move(options)),
      supervisor_({options_.first_backoff, options_.max_backoff, options_.started}) {}

HouseBots::~HouseBots() {
  stop();
}

std::string HouseBots::unavailable(const Options& options) {
  if (access(options.bridge.c_str(), X_OK) != 0)
    return "no bridge to run them at " + options.bridge + " (set --bot-bridge)";
  if (access(options.gnugo.c_str(), X_OK) != 0)
    return "no GNU Go at " + options.gnugo + " (apt-get install gnugo, or set --gnugo)";
  return {};
}

void HouseBots::start() {
  std::string dir = (std::filesystem::temp_directory_path() / "tengen-bots-XXXXXX").string();
  if (!mkdtemp(dir.data())) {
    spdlog::error("house bots: cannot make a folder for their settings: {}", std::strerror(errno));
    return;
  }
  directory_ = dir;
  std::vector<std::string> names;
  std::vector<Supervisor::Child> children;
  for (const auto& bot : bots_) {
    const auto password = options_.random_hex(24);
    if (auto problem = accounts_.prepare_house_bot(bot.username, password)) {
      spdlog::error("house bot {} left out: {}", bot.username, *problem);
      continue;
    }
    const auto config_path = directory_ + "/" + bot.username + ".json";
    std::ofstream(config_path) << bridge_config(bot, options_);
    names.push_back(bot.username + " (level " + std::to_string(bot.level) + ")");
    // The password only in the bridge's environment.
    children.push_back(
        {bot.username,
         "house bot " + bot.username + ": its bridge",
         {options_.bridge, "--config", config_path, "--log-level", options_.log_level},
         {"TENGEN_BOT_PASSWORD=" + password}});
  }
  supervisor_.start(std::move(children));
  if (!names.empty()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    spdlog::info("house bots: {}; GNU Go {} through {}", list, options_.gnugo, options_.bridge);
  }
}

void HouseBots::stop() {
  supervisor_.stop();
  if (!directory_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(directory_, ec);
    directory_.clear();
  }
}

}  // namespace tengen
