#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/color.h"
#include "engine/move_error.h"

// The words a room puts in front of players that more than one of its files uses: colours as
// the protocol names them, durations, and why the engine refused a move.
namespace tengen {
namespace protocol {
enum class Refusal : std::uint8_t;  // protocol/messages.h
}

// "black" or "white".
std::string color_name(Color c);
// Whole seconds, rounded up: "5 s".
std::string seconds(std::int64_t ms);
// Why a move at `vertex` was refused, in a player's words.
std::string why_illegal(MoveError e, const std::string& vertex);
// The same, as the code a client translates (`reason` of an illegal_move error); none for
// refusals that are not the rules' (wrong turn, game over).
std::optional<protocol::Refusal> refusal_of(MoveError e);

}  // namespace tengen
