#pragma once

// Commands two test players give over the WebSocket protocol, and a game between them.
#include <gtest/gtest.h>

#include <cstdint>

#include "support/ws_client.h"

namespace tengen::testing {

inline void expect_ack(const nlohmann::json& reply) {
  EXPECT_EQ(reply["type"], "ack") << reply.dump();
}

inline nlohmann::json cmd(const char* type, std::int64_t game,
                          nlohmann::json extra = nlohmann::json::object()) {
  extra["type"] = type;
  extra["game"] = game;
  return extra;
}

inline nlohmann::json play(std::int64_t game, const std::string& vertex) {
  return cmd("play", game, {{"vertex", vertex}});
}

// `black` challenges with these settings (as Black unless they say otherwise), `white` accepts,
// both join; the game's id.
inline std::int64_t start_game(WsClient& black, WsClient& white, nlohmann::json settings) {
  if (!settings.contains("color")) settings["color"] = "black";
  const auto created = black.command({{"type", "create_challenge"}, {"settings", settings}});
  expect_ack(created);
  const auto accepted =
      white.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
  expect_ack(accepted);
  const auto game = accepted["game"].get<std::int64_t>();
  expect_ack(black.command({{"type", "join"}, {"game", game}}));
  expect_ack(white.command({{"type", "join"}, {"game", game}}));
  return game;
}

}  // namespace tengen::testing
