#include "ratings/glicko2.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace tengen::ratings {
namespace {

constexpr double kScale = 173.7178;  // Glicko-2's conversion factor, 400 / ln(10)
constexpr double kEpsilon = 1e-6;

double g(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double e(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

// Step 5: the new volatility, by the Illinois algorithm on f.
double new_volatility(double phi, double sigma, double v, double delta, double tau) {
  const double a = std::log(sigma * sigma);
  const auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / (tau * tau);
  };
  double big_a = a;
  double big_b = 0;
  if (delta * delta > phi * phi + v) {
    big_b = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0) ++k;
    big_b = a - k * tau;
  }
  double f_a = f(big_a);
  double f_b = f(big_b);
  while (std::abs(big_b - big_a) > kEpsilon) {
    const double c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
    const double f_c = f(c);
    if (f_c * f_b <= 0) {
      big_a = big_b;
      f_a = f_b;
    } else {
      f_a /= 2;
    }
    big_b = c;
    f_b = f_c;
  }
  return std::exp(big_a / 2);
}

}  // namespace

Rating update(const Rating& player, std::span<const Outcome> games, double tau) {
  const double mu = (player.rating - 1500) / kScale;
  const double phi = player.deviation / kScale;
  const double sigma = player.volatility;
  if (games.empty()) {
    return {player.rating, std::min(kMaxDeviation, std::sqrt(phi * phi + sigma * sigma) * kScale),
            sigma};
  }
  double v_inverse = 0;
  double sum = 0;  // Σ g(φj)(sj − E)
  for (const Outcome& o : games) {
    const double mu_j = (o.opponent_rating - 1500) / kScale;
    const double phi_j = o.opponent_deviation / kScale;
    const double expected = e(mu, mu_j, phi_j);
    v_inverse += g(phi_j) * g(phi_j) * expected * (1 - expected);
    sum += g(phi_j) * (o.score - expected);
  }
  const double v = 1 / v_inverse;
  const double delta = v * sum;
  const double sigma_new = new_volatility(phi, sigma, v, delta, tau);
  const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
  const double phi_new = 1 / std::sqrt(1 / (phi_star * phi_star) + 1 / v);
  const double mu_new = mu + phi_new * phi_new * sum;
  return {kScale * mu_new + 1500, std::min(kMaxDeviation, kScale * phi_new), sigma_new};
}

Rating decayed(const Rating& player, double idle_ms) {
  if (idle_ms <= 0) return player;
  const double periods = idle_ms / kMsPerIdlePeriod;
  const double phi = player.deviation / kScale;
  const double grown =
      std::sqrt(phi * phi + player.volatility * player.volatility * periods) * kScale;
  return {player.rating, std::min(kMaxDeviation, grown), player.volatility};
}

double expected_score(const Rating& a, const Rating& b) {
  return e((a.rating - 1500) / kScale, (b.rating - 1500) / kScale, b.deviation / kScale);
}

double black_advantage_ranks(int handicap, double komi, double customary_komi) {
  const double stones = handicap >= 2 ? handicap - 1 : 0;
  return stones + (customary_komi - komi) / kKomiPointsPerRank;
}

GameUpdate rate_game(const Rating& black, const Rating& white, double black_score,
                     double black_advantage, double tau) {
  const double shift = black_advantage * kRatingPerRank;
  const Outcome for_black{white.rating - shift, white.deviation, black_score};
  const Outcome for_white{black.rating + shift, black.deviation, 1 - black_score};
  return {update(black, std::span(&for_black, 1), tau),
          update(white, std::span(&for_white, 1), tau)};
}

int rank_index(double rating) {
  const double index = std::floor((rating - 1500) / kRatingPerRank) + 20;
  return static_cast<int>(std::clamp(index, 0.0, 38.0));
}

std::string rank_name(double rating, double deviation) {
  const int i = rank_index(rating);
  std::string name = i < 30 ? std::to_string(30 - i) + "k" : std::to_string(i - 29) + "d";
  if (deviation > kProvisionalDeviation) name += "?";
  return name;
}

int rank_difference(double a, double b) {
  return std::min(9, std::abs(rank_index(a) - rank_index(b)));
}

}  // namespace tengen::ratings
