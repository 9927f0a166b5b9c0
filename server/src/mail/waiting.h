#pragma once

#include <cstdint>
#include <vector>

#include "mail/mailer.h"

namespace tengen {
namespace protocol {
struct MyGames;  // protocol/messages.h
}

// The correspondence games of a player's list (Centre::games_of) that wait for their move, for
// the daily digest, with the time left on their clock.
std::vector<WaitingGame> waiting_games(const protocol::MyGames& games, std::int64_t user);

}  // namespace tengen
