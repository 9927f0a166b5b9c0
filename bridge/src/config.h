#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/settings.h"

// The bridge's configuration file (JSON, bridge/README.md) and the challenge policy it states.
namespace tengen::bridge {

// Which games the bot agrees to play.
struct AcceptPolicy {
  bool direct = true;                    // challenges addressed to the bot
  bool open = false;                     // open challenges in the lobby
  std::set<int> board_sizes{9, 13, 19};  // square boards only: GTP has no rectangles
  std::set<Ruleset> rulesets;            // empty: any
  std::set<protocol::TimeControl::System> time_systems;  // empty: any
  bool rated = true;
  bool unrated = true;
  int max_handicap = 9;
  std::int64_t min_main_ms = 0;  // refuse blitz the engine cannot keep up with
  int max_games = 1;             // at once, whoever made the challenge
};

struct Config {
  std::string host = "127.0.0.1";
  std::string port = "8080";
  std::string username;
  std::string password;
  std::vector<std::string> engine;  // argv of the GTP engine, started once per game
  AcceptPolicy accept;
  std::optional<protocol::GameSettings> challenge;  // kept open in the lobby while there is room
  bool accept_undo = false;
  std::string greeting;  // said in the players' chat when a game starts, if not empty
  int max_think_seconds =
      600;               // per genmove in untimed games; a silent engine is given up after it
  bool log_gtp = false;  // every GTP exchange at debug level
};

// The configuration, or what is wrong with it (naming the field). The password comes from
// "password", or from the environment variable named by "password_env" (default
// TENGEN_BOT_PASSWORD), read with `getenv`.
using Getenv = std::function<const char*(const char*)>;
std::variant<Config, std::string> parse_config(std::string_view text, const Getenv& getenv);

// Why the bot will not play a game with these settings; nullopt when it will.
std::optional<std::string> refusal(const AcceptPolicy& policy,
                                   const protocol::GameSettings& settings);

}  // namespace tengen::bridge
