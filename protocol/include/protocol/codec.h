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

// The one place server messages are encoded.
std::string encode(const ServerMessage& message);

// Client messages encoded (for tests, bots and the golden transcripts).
std::string encode(const ClientEnvelope& envelope);

std::string_view to_string(ErrorCode code) noexcept;

}  // namespace tengen::protocol
