#pragma once

#include <optional>
#include <string_view>

#include "protocol/messages.h"

// Server messages read back into the protocol's structs, for a client. Unlike the server's own
// decoder it is lenient: fields it does not know are skipped and missing ones keep their
// defaults, so that a newer server does not break an older bot.
namespace tengen::bridge {

// nullopt for text that is not a server message this client understands (pong, presence, ...).
std::optional<protocol::ServerMessage> read_server_message(std::string_view text);

}  // namespace tengen::bridge
