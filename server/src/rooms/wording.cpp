#include "rooms/wording.h"

#include "protocol/messages.h"

namespace tengen {

std::string color_name(Color c) {
  return c == Color::Black ? "black" : "white";
}

std::string seconds(std::int64_t ms) {
  return std::to_string((ms + 999) / 1000) + " s";
}

std::string why_illegal(MoveError e, const std::string& vertex) {
  switch (e) {
    case MoveError::Occupied:
      return "occupied: there is already a stone on " + vertex;
    case MoveError::Suicide:
      return "suicide: a stone on " + vertex + " would have no liberty";
    case MoveError::Ko:
      return "ko: retaking at once is not allowed; play elsewhere first";
    case MoveError::PositionalSuperko:
      return "superko: " + vertex + " would repeat an earlier position";
    case MoveError::SituationalSuperko:
      return "superko: " + vertex +
             " would repeat an earlier position with the same player to move";
    case MoveError::OffBoard:
      return vertex + " is not on the board";
    default:
      return std::string(to_string(e));
  }
}

std::optional<protocol::Refusal> refusal_of(MoveError e) {
  switch (e) {
    case MoveError::Occupied:
      return protocol::Refusal::Occupied;
    case MoveError::Suicide:
      return protocol::Refusal::Suicide;
    case MoveError::Ko:
      return protocol::Refusal::Ko;
    case MoveError::PositionalSuperko:
      return protocol::Refusal::PositionalSuperko;
    case MoveError::SituationalSuperko:
      return protocol::Refusal::SituationalSuperko;
    default:
      return std::nullopt;
  }
}

}  // namespace tengen
