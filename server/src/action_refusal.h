#pragma once

#include <optional>
#include <string>
#include <variant>

namespace tengen {

// What an action of the HTTP API's services answers (groups, ladders, classes, simuls, pair Go):
// done, or refused with an HTTP status, a code a client acts on and the words a player reads.
struct ActionRefusal {
  int status = 400;
  std::string code;
  std::string message;
};
template <class T>
using ActionAnswer = std::variant<T, ActionRefusal>;
using ActionMaybe = std::optional<ActionRefusal>;  // nullopt: done

}  // namespace tengen
