#pragma once

#include <optional>
#include <string_view>

#include "engine/tournament/tournament.h"

namespace tengen {

// A tournament game's outcome as the events and the views spell it.
inline const char* outcome_name(tournament::Outcome o) {
  switch (o) {
    case tournament::Outcome::BlackWins:
      return "black";
    case tournament::Outcome::WhiteWins:
      return "white";
    case tournament::Outcome::Jigo:
      return "jigo";
    case tournament::Outcome::BothLose:
      return "both_lose";
  }
  return "?";
}

inline std::optional<tournament::Outcome> parse_outcome(std::string_view text) {
  for (const auto o : {tournament::Outcome::BlackWins, tournament::Outcome::WhiteWins,
                       tournament::Outcome::Jigo, tournament::Outcome::BothLose}) {
    if (text == outcome_name(o)) return o;
  }
  return std::nullopt;
}

}  // namespace tengen
