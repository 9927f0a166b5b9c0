#pragma once

#include <map>
#include <optional>
#include <vector>

#include "engine/tournament/tournament.h"

namespace tengen::tournament {

// What the decided games of the rounds so far say about each player.
struct Tally {
  struct Line {
    double points = 0;
    int losses = 0;
    int byes = 0;
    int colour_balance = 0;  // even games as White minus even games as Black
    // Per round: the opponent, or none for a bye or a round not played; skipped while the
    // player's game of that round is undecided.
    std::vector<std::optional<PlayerId>> opponents;
    std::vector<std::pair<PlayerId, double>> beaten;  // opponent, 1 for a win, 0.5 for a jigo
  };
  std::map<PlayerId, Line> lines;
  std::map<std::pair<PlayerId, PlayerId>, int> meetings;  // (smaller id, larger id)

  Tally(const std::vector<Entrant>& players, const std::vector<Round>& rounds);
  int met(PlayerId a, PlayerId b) const;
};

// The winner of a decided game; none for a jigo or when both lost.
std::optional<PlayerId> winner(const Game& g);

}  // namespace tengen::tournament
