#pragma once

#include <string>
#include <utility>

#include "moderation/game_actions.h"

namespace tengen::http {

// An administrator's action on a game as the HTTP API answers it (docs/api.md): 200 and what it
// did ({"author": {"id", "name"}} for a deleted chat line, {"ratings_rebuilt": n} for an
// annulment, {} for an adjudication), or the refusal: 404 for no such game or line, 409 for a
// tournament's game, a void one or one over already.
std::pair<int, std::string> answer_of(const moderation::GameActionOutcome& outcome);

}  // namespace tengen::http
