#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "protocol/tournament.h"

// The files a tournament's results are sent to a federation in (docs/tournaments.md,
// "Federation files"), written from the tournament's page (TournamentState::view_json, the JSON
// of GET /api/v1/tournaments/{id}), so that any node that can serve the page can write them.
namespace tengen::federation {

// The time a game lasts for each player by the EGF's measure, in seconds: the main time plus 45
// byo-yomi periods, 60 moves of Canadian overtime, or 120 Fischer increments; none for
// correspondence or no clock.
std::int64_t adjusted_seconds(const protocol::TimeControl& time);

// The EGF's tournament class from the clock: A, B or C over the board by the main and adjusted
// times (Fischer clocks have lower thresholds), D online with enough time, X otherwise.
char egd_class(const protocol::TournamentSettings& settings);

// The European Go Database's tournament table (".h9"): header lines (class, event, place,
// dates, handicap rule, komi, time, comment), then one line per player in the order of the
// standings: number, family and given name, rank, country, club, the tie-break columns and one
// result per round ("12+/b", "7-/w2", "0+" for a bye or a game won by forfeit, "0-" for a round
// not played). nullopt while registering (no standings yet).
std::optional<std::string> egd_h9(const nlohmann::json& tournament);

// The American Go Association's results file, as its ratings page describes it: a TOURNEY line
// (name, place, dates) with start=, finish= and rules=, a PLAYERS section (AGA ID, "Family,
// Given", rank) and a GAMES section, one line per game played to a win: White's ID, Black's ID,
// the winner's colour (w or b), handicap stones and komi. A player without an AGA ID gets a
// temporary number (9000001, ...) with a comment; games the AGA does not rate (jigo, both lose,
// forfeits, byes) are comments. nullopt while registering.
std::optional<std::string> aga_results(const nlohmann::json& tournament);

// OpenGotha's tournament file (XML, as OpenGotha 3.x saves it; pairgoth reads it too): the
// players (name, first name, rank, an EGF-style rating, country, club, EGD PIN, AGA ID, one
// digit per round for whether they take part), every game of every round with its table,
// handicap and result, the byes, and the general, handicap and placement parameters. Players are
// named in games by OpenGotha's key: name and first name upper-cased without spaces. Written at
// any stage (while registering: the players only).
std::string opengotha_xml(const nlohmann::json& tournament);

// OpenGotha's key of a player: family and given name together, spaces left out, upper case
// (ASCII and the Latin-1 letters of UTF-8: "Honoré" → "HONORÉ").
std::string opengotha_key(const std::string& family_name, const std::string& given_name);

}  // namespace tengen::federation
