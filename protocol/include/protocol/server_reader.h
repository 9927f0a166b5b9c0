#pragma once

#include <optional>
#include <string_view>

#include "protocol/messages.h"

// Server messages read back into the protocol's structs, for a client (the GTP bridge, the load
// generator, tests). Unlike the server's decoder of client messages it is lenient: fields it does
// not know are skipped and missing ones keep their defaults, so that a newer server does not
// break an older bot. Its round trip with encode() is tested message by message
// (tests/protocol/server_reader_test.cpp).
namespace tengen::protocol {

// nullopt for text that is not a server message this client understands (pong, presence, ...).
std::optional<protocol::ServerMessage> read_server_message(std::string_view text);

}  // namespace tengen::protocol
