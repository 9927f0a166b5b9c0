#include <algorithm>
#include <tuple>

#include "engine/tournament/tournament.h"
#include "tally.h"

namespace tengen::tournament {

std::vector<Standing> standings(const std::vector<Entrant>& seeded,
                                const std::vector<PlayerId>& withdrawn,
                                const std::vector<Round>& rounds,
                                const std::vector<TieBreak>& order, bool elimination,
                                int eliminating_losses) {
  const Tally tally(seeded, rounds);
  std::map<PlayerId, Standing> rows;
  std::map<PlayerId, std::size_t> seed;
  for (std::size_t i = 0; i < seeded.size(); ++i) {
    const auto& p = seeded[i];
    const auto& line = tally.lines.at(p.id);
    Standing& s = rows[p.id];
    s.id = p.id;
    s.points = line.points;
    s.score = p.start_score + line.points;
    s.losses = line.losses;
    s.withdrawn = std::find(withdrawn.begin(), withdrawn.end(), p.id) != withdrawn.end();
    s.eliminated = elimination && line.losses >= eliminating_losses;
    seed[p.id] = i;
  }
  auto score_of = [&](PlayerId id) { return rows.contains(id) ? rows[id].score : 0.0; };
  for (auto& [id, s] : rows) {
    const auto& line = tally.lines.at(id);
    for (const auto& opponent : line.opponents) s.sos += opponent ? score_of(*opponent) : s.score;
    for (const auto& [opponent, share] : line.beaten) s.sodos += share * score_of(opponent);
  }
  for (auto& [id, s] : rows) {
    for (const auto& opponent : tally.lines.at(id).opponents)
      s.sosos += opponent && rows.contains(*opponent) ? rows[*opponent].sos : s.sos;
  }
  auto keys = [&](const Standing& s) {
    std::vector<double> k;
    if (elimination) {
      k.push_back(s.eliminated ? 0 : 1);
      k.push_back(-s.losses);
    }
    for (const auto t : order) {
      switch (t) {
        case TieBreak::Score:
          k.push_back(s.score);
          break;
        case TieBreak::Wins:
          k.push_back(s.points);
          break;
        case TieBreak::Sos:
          k.push_back(s.sos);
          break;
        case TieBreak::Sosos:
          k.push_back(s.sosos);
          break;
        case TieBreak::Sodos:
          k.push_back(s.sodos);
          break;
      }
    }
    return k;
  };
  std::vector<Standing> out;
  for (const auto& p : seeded) out.push_back(rows[p.id]);
  std::stable_sort(out.begin(), out.end(), [&](const Standing& a, const Standing& b) {
    const auto ka = keys(a), kb = keys(b);
    if (ka != kb) return ka > kb;
    return seed[a.id] < seed[b.id];
  });
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].place =
        i > 0 && keys(out[i]) == keys(out[i - 1]) ? out[i - 1].place : static_cast<int>(i) + 1;
  }
  return out;
}

}  // namespace tengen::tournament
