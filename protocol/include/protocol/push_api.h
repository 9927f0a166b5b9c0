#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

// Web Push over HTTP (docs/web-client.md, "Push"; protocol/README.md, "HTTP API").
namespace tengen::protocol::http {

// GET /api/v1/push: {"enabled": bool, "key": "<the server's VAPID public key, base64url>"}.
std::string encode_push_key(bool enabled, std::string_view key);

// POST /api/v1/me/push/subscribe: the browser's PushSubscription as its toJSON() gives it
// ({"endpoint", "expirationTime", "keys": {"p256dh", "auth"}}) with the player's choices for the
// device ("your_move", "game_start", "round_start", "opponent_back": each optional, true unless
// false).
struct PushSubscribe {
  std::string endpoint, p256dh, auth;
  std::optional<bool> your_move{}, game_start{}, round_start{}, opponent_back{};
};
std::variant<PushSubscribe, std::string> decode_push_subscribe(std::string_view body);

// POST /api/v1/me/push/device, /unsubscribe, /test: {"endpoint": "..."}, the device meant.
std::variant<std::string, std::string> decode_push_endpoint(std::string_view body);

// A device's state: {"subscribed": bool, "your_move", "game_start", "round_start",
// "opponent_back"}.
struct PushDeviceView {
  bool subscribed = false;
  bool your_move = true, game_start = true, round_start = true, opponent_back = true;
};
std::string encode_push_device(const PushDeviceView& view);

}  // namespace tengen::protocol::http
