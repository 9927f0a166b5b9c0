#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "protocol/messages.h"

namespace tengen::protocol {

// The one place client messages are decoded: text in, a typed envelope or a typed error out.
// The error names the problem ("field 'game' must be an integer") and carries the cid when the
// envelope got that far, so that the client can match it to its command.
std::variant<ClientEnvelope, Error> decode_client(std::string_view text);
// The same through a JSON document for every message (decode_client reads plain moves and passes
// directly); for the tests and the fuzz target that hold the two to the same results.
std::variant<ClientEnvelope, Error> decode_client_with_json(std::string_view text);

// The one place server messages are encoded.
std::string encode(const ServerMessage& message);
// The same through a JSON document for every message (encode writes acks and moves directly);
// for the tests that hold the two to the same bytes.
std::string encode_with_json(const ServerMessage& message);

// Client messages encoded (for tests, bots and the golden transcripts).
std::string encode(const ClientEnvelope& envelope);

std::string_view to_string(ErrorCode code) noexcept;

// Game settings on their own, as the store keeps them: the same JSON as in create_challenge.
std::string encode_settings(const GameSettings& settings);
// The settings, or what is wrong with the text: as a client gives them (no `teams`)...
std::variant<GameSettings, std::string> decode_settings(std::string_view text);
// ...and as the server wrote them (a game's row, a message between nodes), teams included.
std::variant<GameSettings, std::string> decode_stored_settings(std::string_view text);

}  // namespace tengen::protocol
