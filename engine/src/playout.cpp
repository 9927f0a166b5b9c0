#include "engine/playout.h"

namespace tengen {

Point random_move(const Board& board, Color c, Rng& rng, const PositionSet* history) {
  const int n = board.empty_count();
  if (n == 0) return kPass;
  const int start = static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
  for (int i = 0, k = start; i < n; ++i, k = (k + 1 == n) ? 0 : k + 1) {
    const Point p = board.empty_at(k);
    if (board.is_eye(p, c) || board.check(p, c, false) != MoveError::Ok) continue;
    if (history && history->contains(board.hash_after(p, c))) continue;
    return p;
  }
  return kPass;
}

PlayoutResult play_random_game(Board& board, Color to_move, Rng& rng, PositionSet* history,
                               int max_moves) {
  if (max_moves <= 0) max_moves = 3 * board.geometry().area();
  PlayoutResult result;
  int passes = 0;
  Color c = to_move;
  while (passes < 2) {
    if (result.moves >= max_moves) {
      result.finished = false;
      break;
    }
    const Point p = random_move(board, c, rng, history);
    board.play(p, c);
    if (p == kPass) {
      ++passes;
    } else {
      passes = 0;
      ++result.moves;
      if (history) history->add(board.hash());
    }
    c = opponent(c);
  }
  return result;
}

}  // namespace tengen
