#pragma once

#include <cstdint>
#include <string_view>

namespace tengen {

// Why a move is not legal. Ok means it is.
enum class MoveError : std::uint8_t {
  Ok,
  OffBoard,
  Occupied,
  Suicide,
  Ko,
  PositionalSuperko,
  SituationalSuperko,
  WrongTurn,
  GameOver,
};

constexpr std::string_view to_string(MoveError e) noexcept {
  switch (e) {
    case MoveError::Ok:
      return "ok";
    case MoveError::OffBoard:
      return "off board";
    case MoveError::Occupied:
      return "occupied";
    case MoveError::Suicide:
      return "suicide";
    case MoveError::Ko:
      return "ko";
    case MoveError::PositionalSuperko:
      return "positional superko";
    case MoveError::SituationalSuperko:
      return "situational superko";
    case MoveError::WrongTurn:
      return "not your turn";
    case MoveError::GameOver:
      return "game over";
  }
  return "?";
}

}  // namespace tengen
