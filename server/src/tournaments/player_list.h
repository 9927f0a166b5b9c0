#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/messages.h"

// A registration list as a spreadsheet saves it (docs/tournaments.md, "A list of players from a
// spreadsheet"): CSV with a header row naming the columns, read into the players the director
// registers one by one as with tournament_add_player.
namespace tengen::federation {

struct ListedPlayer {
  int line = 0;  // where it is in the file (1 is the header)
  protocol::AddTournamentPlayer entry;
};

// The largest list taken, in players (the most a tournament holds) and bytes.
inline constexpr std::size_t kMaxListedPlayers = 1000;
inline constexpr std::size_t kMaxPlayerListBytes = std::size_t{1} << 20;

// Reads the list (UTF-8, a byte-order mark allowed; commas, semicolons or tabs between fields,
// as the header row shows; quotes as RFC 4180 has them). Columns by their header, in any order
// and case: family name (also "name", "surname", "last name"), given name ("first name"), rank
// ("grade"; 5k, 2d, "5 kyu"), club, country, EGD PIN ("pin", "egf pin"), AGA ID; other columns
// are left out. Each player is checked as tournament_add_player checks it; what is wrong names
// its line. Every player's tournament is `tournament`.
std::variant<std::vector<ListedPlayer>, std::string> read_player_list(
    std::string_view csv, protocol::TournamentId tournament);

}  // namespace tengen::federation
