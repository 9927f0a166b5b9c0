#pragma once

// Pair Go and rengo over HTTP (docs/events.md, "Pair Go"): the forms the server reads and the JSON
// it answers.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/messages.h"

namespace tengen::protocol::http {

inline constexpr std::size_t kMaxPairName = 60;  // characters
inline constexpr int kMinTeamSize = 2;           // pair Go
inline constexpr int kMaxTeamSize = 4;           // rengo

// POST /api/v1/pairgo {"name", "settings": {game settings}, "team_size": 2..4}. Two teams of
// `team_size` play one game, each colour's members moving in turn (B1 W1 B2 W2...), the colour's
// clock shared by its team. The game is public and unrated; `color`, `private`, `rated`, `group`,
// an automatic handicap and correspondence time are not for a pair Go game.
struct PairForm {
  std::string name;
  GameSettings settings;
  int team_size = 2;
};
std::variant<PairForm, std::string> decode_pair_form(std::string_view body);
// POST /api/v1/pairgo/{id}/join {"team": "black" | "white"}: the colour.
std::variant<Color, std::string> decode_pair_join(std::string_view body);

struct PairSummary {
  std::int64_t id = 0;
  UserRef host;
  std::string name;
  GameSettings settings;
  int team_size = 0;
  int black = 0, white = 0;  // members joined to each team
  std::string state;         // open, playing, finished, cancelled
  std::optional<std::int64_t> game;
  std::string result;  // the game's, once it ended (SGF RE[] form)
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> started_at_ms;
};
struct PairMember {
  UserRef player;
  std::string rank;  // "5k", "1d?"
};
struct PairPage {
  PairSummary pair;
  // Each team in its order of play (the order its members joined).
  std::vector<PairMember> black, white;
};
// {"pairs": [summary...]}
std::string encode_pairs(const std::vector<PairSummary>& pairs);
// {"pair": summary, "black": [{"player", "rank"}], "white": [...]}
std::string encode_pair_page(const PairPage& page);

}  // namespace tengen::protocol::http
