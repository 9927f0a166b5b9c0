#pragma once

#include <optional>
#include <string_view>

#include "protocol/messages.h"

// Server messages read back into the protocol's structs, for a client (the GTP bridge, the load
// generator, tests). Unlike the server's decoder of client messages it is lenient: fields it does
// not know are skipped and missing ones keep their defaults, so that a newer server does not
// break an older bot. It is the codec's (codec.cpp), written over the same descriptions as the
// encoder (messages.h); every message's round trip is tested in tests/protocol/wire_test.cpp.
namespace tengen::protocol {

// nullopt for text that is not a server message of this version (an unknown type, a field of
// the wrong type, settings it cannot read).
std::optional<protocol::ServerMessage> read_server_message(std::string_view text);

}  // namespace tengen::protocol
