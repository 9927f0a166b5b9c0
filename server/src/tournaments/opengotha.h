#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/messages.h"

// OpenGotha's tournament file read back (docs/tournaments.md, "OpenGotha"): the file
// federation::opengotha_xml writes, and the files OpenGotha 3.x and pairgoth save, made into an
// over-the-board tournament here by the director's own commands.
namespace tengen::federation {

struct OpenGothaPlayer {
  protocol::AddTournamentPlayer entry;  // its tournament left 0
  std::string key;                      // OpenGotha's key, as games name the player
  std::string participating;            // one digit per round: 1 plays, 0 does not
};

struct OpenGothaGame {
  int round = 0;             // 1-based
  int table = 0;             // as the file numbers them (renumbered 1, 2, ... in their order here)
  std::string black, white;  // keys
  int handicap = 0;
  std::optional<tournament::Outcome> result;  // none: not known yet
  bool forfeit = false;                       // OpenGotha's _BYDEF
};

struct OpenGothaFile {
  protocol::TournamentSettings settings;          // over the board, McMahon or Swiss
  std::vector<OpenGothaPlayer> players;           // in the file's order
  std::vector<OpenGothaGame> games;               // by round, then table
  std::vector<std::pair<int, std::string>> byes;  // round, key
};

// The largest file taken (docs/limits.md): an event of 300 players over 8 rounds fits; it is the
// largest request body the HTTP server reads for it.
inline constexpr std::size_t kMaxOpenGothaBytes = std::size_t{1} << 20;

// The file in UTF-8: an ISO-8859-1 one (as its declaration says) converted, its declaration
// saying UTF-8; any other as it is.
std::string opengotha_as_utf8(std::string_view xml);

// Reads a file (UTF-8, or ISO-8859-1 when its declaration says so); every player and game is
// checked as the director's commands check them, so that a file read is a file that imports.
// What is wrong names the player, round or table.
std::variant<OpenGothaFile, std::string> read_opengotha(std::string_view xml);

// What the import needs of the lobby: one of the director's commands run as the importing
// director (the tournament's id, or why it was refused), and a registered player's id by name.
struct ImportCommands {
  std::function<std::variant<protocol::TournamentId, std::string>(const protocol::ClientMessage&)>
      run;
  std::function<std::optional<std::int64_t>(protocol::TournamentId, const std::string& name)>
      player_id;
};

// Makes the file's tournament by the commands a director would give by hand: create it,
// register the players (in the file's order), start it, and round after round register the late
// players, withdraw those who left, pair the round as the file does (tournament_pair_round),
// publish it and enter its known results; then the tournament goes on here. The new
// tournament's id, or why not (a refusal part-way names the step).
std::variant<protocol::TournamentId, std::string> import_opengotha(const OpenGothaFile& file,
                                                                   const ImportCommands& commands);

}  // namespace tengen::federation
