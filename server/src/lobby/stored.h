#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>

#include "protocol/codec.h"
#include "protocol/messages.h"

// What start-up reads back from the store's rows, or a fault that says which row: the owners'
// recovery (the lobby's challenges, the games' rooms) reads them the same way.
namespace tengen::stored {

// The account a row names; throws if there is none.
inline protocol::UserRef user(
    const std::function<std::optional<protocol::UserRef>(std::int64_t)>& find_user_by_id,
    std::int64_t id) {
  auto found = find_user_by_id(id);
  if (!found)
    throw std::runtime_error("the store names user " + std::to_string(id) + ", who does not exist");
  return *found;
}

// A row's game settings (`what`: whose, for the fault); throws if they cannot be read.
inline protocol::GameSettings settings(const std::string& text, const std::string& what) {
  auto decoded = protocol::decode_stored_settings(text);
  if (auto* problem = std::get_if<std::string>(&decoded))
    throw std::runtime_error("the stored settings of " + what + " are unreadable: " + *problem);
  return std::get<protocol::GameSettings>(decoded);
}

}  // namespace tengen::stored
