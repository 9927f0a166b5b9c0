#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Tournament arithmetic (docs/tournaments.md): who plays whom, with which colour and handicap, and
// the standings. Pure functions of the players and the rounds played so far; the server stores the
// rounds and feeds them back. Deterministic: the same inputs give the same pairings.
namespace tengen::tournament {

using PlayerId = std::int64_t;

enum class System : std::uint8_t {
  RoundRobin,
  DoubleRoundRobin,
  Swiss,
  McMahon,
  SingleElimination,
  DoubleElimination
};
std::string_view to_string(System s);
std::optional<System> parse_system(std::string_view text);

enum class TieBreak : std::uint8_t { Score, Wins, Sos, Sosos, Sodos };
std::string_view to_string(TieBreak t);
std::optional<TieBreak> parse_tie_break(std::string_view text);

// A registered player, in seeding order when given to the functions below (the strongest
// first). `start_score` is the McMahon start score (0 for other systems), in points.
struct Entrant {
  PlayerId id = 0;
  double start_score = 0;
};

enum class Outcome : std::uint8_t { BlackWins, WhiteWins, Jigo, BothLose };

struct Game {
  PlayerId black = 0, white = 0;
  int handicap = 0;                // 0 even; 1 no komi; n ≥ 2 stones
  std::optional<Outcome> outcome;  // none while it is played
  bool forfeit = false;            // decided without play (no-show, withdrawal, director)
};

struct Round {
  std::vector<Game> games;     // in board order
  std::vector<PlayerId> byes;  // a bye scores as a win
};

// McMahon handicap from the gap in score: `gap - correction` stones, at most `ceiling`
// (1 meaning no komi); none for other systems or with policy None.
struct HandicapPolicy {
  bool by_score_gap = false;
  int correction = 1;
  int ceiling = 9;
  friend bool operator==(const HandicapPolicy&, const HandicapPolicy&) = default;
};

// The first `rounds.size()` rounds are played (or under way); this pairs the next one among
// `active` (seed order; withdrawn players left out).
//
// Swiss and McMahon: a maximum weight perfect matching in which, in order of importance, a
// repeat pairing costs more than any score gap, a larger gap costs more than any number of
// smaller ones, then colour balance and, inside a score group, pairing its top half with its
// bottom half (split and slip) — OpenGotha's criteria. With an odd count, the bye goes to the
// player with the fewest byes, then the lowest score, then the lowest seed.
Round pair_swiss(const std::vector<Entrant>& active, const std::vector<Round>& rounds,
                 HandicapPolicy handicap);

// Berger tables (the FIDE handbook's): `n` players numbered 1..n in seed order, n odd adding
// a bye as player n+1. Each pair is (first, second): first plays White in the tables, here
// Black. Round `round` is 1-based, of n−1 (n even) or n (n odd).
std::vector<std::pair<int, int>> berger_round(int n, int round);
int berger_rounds(int n);

// Round robin: round `round` (0-based) of the Berger table over `seeded` (every registered
// player, withdrawn or not); a game with a player in `withdrawn` becomes a bye for the other.
// Double round robin repeats the cycle with colours swapped.
Round pair_round_robin(const std::vector<Entrant>& seeded, const std::vector<PlayerId>& withdrawn,
                       int round, bool double_cycle);
int round_robin_rounds(std::size_t players, bool double_cycle);

// Elimination. Single: a bracket of the next power of two in the standard seed order (1 meets
// 2 only in the final); byes go to the top seeds. Double: the undefeated play on in that
// bracket, players with one loss are paired among themselves (fewest repeats, nearest seeds),
// and two losses eliminate; when one undefeated and one once-beaten player remain they meet
// in the final, replayed once if the undefeated player loses it. A jigo advances the higher
// seed. Returns nothing once a winner is known.
std::optional<Round> pair_elimination(const std::vector<Entrant>& seeded,
                                      const std::vector<PlayerId>& withdrawn,
                                      const std::vector<Round>& rounds, bool double_elimination);
// Seed numbers (1-based) in bracket order for a bracket of `size` (a power of two).
std::vector<int> bracket_order(int size);

struct Standing {
  PlayerId id = 0;
  int place = 0;      // 1-based; equal rows share a place
  double score = 0;   // start score + points (McMahon), or points
  double points = 0;  // wins, a jigo a half, a bye a win
  double sos = 0, sosos = 0, sodos = 0;
  int losses = 0;
  bool withdrawn = false;
  bool eliminated = false;  // elimination systems
};

// Standings after `rounds` (only decided games count). A bye or a round not played counts in
// SOS as an opponent with the player's own score. Ordered by the tie-breaks in order, then
// seed. Elimination systems order by losses (eliminated last), then the tie-breaks.
std::vector<Standing> standings(const std::vector<Entrant>& seeded,
                                const std::vector<PlayerId>& withdrawn,
                                const std::vector<Round>& rounds,
                                const std::vector<TieBreak>& order, bool elimination = false,
                                int eliminating_losses = 1);

}  // namespace tengen::tournament
