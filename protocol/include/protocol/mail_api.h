#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

// The HTTP API's e-mail endpoints (protocol/README.md, "HTTP API (e-mail)", docs/mail.md): a
// player's settings, the links sent by mail (verification, password reset), unsubscribing.
namespace tengen::protocol::http {

// GET and PATCH /api/v1/me/mail answer {"mail": {"enabled", "address", "verified",
// "your_move", "game_over", "digest", "your_move_minutes"}}; "address" is null when none was
// given, "enabled" false when the server sends no mail; "your_move_minutes": "your move" is
// mailed at most once a game in this many minutes.
struct MailView {
  bool enabled = false;
  std::optional<std::string> address{};
  bool verified = false;
  bool your_move = true;
  bool game_over = true;
  bool digest = false;
  std::int64_t your_move_minutes = 60;
};
std::string encode_mail(const MailView& view);

// PATCH /api/v1/me/mail: {"address": "me@example.org" (or "" to remove it), "your_move": bool,
// "game_over": bool, "digest": bool}, each optional.
struct MailUpdate {
  std::optional<std::string> address{};
  std::optional<bool> your_move{}, game_over{}, digest{};
};
std::variant<MailUpdate, std::string> decode_mail_update(std::string_view body);

// POST /api/v1/mail/verify: {"token": "..."}.
std::variant<std::string, std::string> decode_mail_token(std::string_view body);
// POST /api/v1/password-reset: {"user": "a name or an address"}.
std::variant<std::string, std::string> decode_reset_request(std::string_view body);
// POST /api/v1/password-reset/confirm: {"token": "...", "password": "..."}; answered
// {"user": {"name": "..."}}.
struct ResetConfirm {
  std::string token;
  std::string password;
};
std::variant<ResetConfirm, std::string> decode_reset_confirm(std::string_view body);
std::string encode_reset_done(std::string_view username);

}  // namespace tengen::protocol::http
