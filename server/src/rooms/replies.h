#pragma once

#include <memory>
#include <string>

#include "protocol/codec.h"
#include "protocol/messages.h"

namespace tengen::replies {

// An error reply to the command `cid`.
inline protocol::Error error(const std::string& cid, protocol::ErrorCode code,
                             std::string message) {
  return protocol::Error{cid, code, std::move(message), {}};
}

// Why a command was not applied while the database cannot be reached (store::Unreachable).
inline constexpr const char* kDatabaseAway =
    "the server cannot reach its database right now: nothing was done; try again in a moment";

// A message encoded once, to go to many.
inline std::shared_ptr<const std::string> encoded(const protocol::ServerMessage& m) {
  return std::make_shared<const std::string>(protocol::encode(m));
}

}  // namespace tengen::replies
