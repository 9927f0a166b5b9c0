#pragma once

#include <span>
#include <string>

// Ratings (docs/ratings.md): Glicko-2 as Glickman defines it ("Example of the Glicko-2 system",
// 2013), one game per rating period; the handicap model; kyu/dan ranks. Pure arithmetic: no
// I/O, no clock (times come in as arguments).
namespace tengen::ratings {

struct Rating {
  double rating = 1500;      // Glicko scale
  double deviation = 350;    // RD
  double volatility = 0.06;  // σ

  friend bool operator==(const Rating&, const Rating&) = default;
};

// τ, the system constant that limits how fast the volatility changes. Glickman suggests 0.3 to
// 1.2; 0.5 is his example's value and ours.
constexpr double kTau = 0.5;
// The deviation of a newcomer, and the ceiling inactivity can raise anyone's to.
constexpr double kMaxDeviation = 350;
// Inactivity: each day without a rated game counts as one rating period with no games, which
// raises the deviation to sqrt(φ² + σ²) (Glickman's step 6 alone). With σ = 0.06 a deviation of
// 50 grows to about 76 in a month and 205 in a year.
constexpr double kMsPerIdlePeriod = 24.0 * 3600 * 1000;

// One game from the player's side: the opponent's (effective) rating and deviation, and the
// score: 1 win, 0.5 draw, 0 loss.
struct Outcome {
  double opponent_rating = 1500;
  double opponent_deviation = 350;
  double score = 0;
};

// Glickman's steps 2 to 8 for one rating period with these games (none: only the deviation
// grows). ε = 1e-6 in the volatility iteration (Illinois algorithm).
Rating update(const Rating& player, std::span<const Outcome> games, double tau = kTau);

// The rating after `idle_ms` without games: the deviation grows by the idle periods, capped at
// kMaxDeviation.
Rating decayed(const Rating& player, double idle_ms);

// The expected score of `a` against `b` (Glickman's E with b's deviation).
double expected_score(const Rating& a, const Rating& b);

// ---- handicap model ----

// One rank is 100 rating points (the rank mapping below). Black's advantage in a handicap or
// reduced-komi game, in ranks: every handicap stone after the first is a rank, and komi below
// the ruleset's customary komi counts 12 points to the rank (so no komi, 0.5 instead of 6.5,
// is half a rank, and H stones with komi 0.5 are H − 0.5 ranks). Negative if White is given
// more than the customary komi.
constexpr double kRatingPerRank = 100;
constexpr double kKomiPointsPerRank = 12;
double black_advantage_ranks(int handicap, double komi, double customary_komi);

// What each player's update sees of the opponent: Black faces White's rating lowered by the
// advantage, White faces Black's raised by it. Scores from Black's side: 1, 0.5 or 0.
struct GameUpdate {
  Rating black, white;
};
GameUpdate rate_game(const Rating& black, const Rating& white, double black_score,
                     double black_advantage_ranks, double tau = kTau);

// ---- ranks ----

// 0 for 30 kyu ... 29 for 1 kyu, 30 for 1 dan ... 38 for 9 dan: 100 rating points a rank,
// 1500 the bottom of 10 kyu, 2500 of 1 dan, 3300 of 9 dan; clamped at both ends. Monotonic.
int rank_index(double rating);
// "10k", "1d"; with a "?" while the deviation is above kProvisionalDeviation.
std::string rank_name(double rating, double deviation);
constexpr double kProvisionalDeviation = 110;

// The automatic handicap between two ratings: the rank difference, as stones (0 for an even
// game; 1 means no handicap stones but komi 0.5), capped at 9.
int rank_difference(double a, double b);

}  // namespace tengen::ratings
