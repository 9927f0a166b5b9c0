#pragma once

#include <map>
#include <string>

#include "ratings/glicko2.h"

namespace tengen::ratings {

// tengen-server --recompute-ratings (docs/ratings.md): every rating and its history rebuilt from
// the finished games in the order they ended, as the server does after an annulment
// (RatingBook::replay; the store only reads the games and writes the rows). Takes the database as a
// server does (refused while one serves it: its ratings are in its memory). What was done, for the
// operator. `starts`: where some bot accounts' ratings start, by name (the house bots':
// docs/bots.md), as the server seeds them.
std::string recompute_ratings(const std::string& database,
                              const std::map<std::string, ratings::Rating>& starts = {});

}  // namespace tengen::ratings
