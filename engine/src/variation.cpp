#include "engine/variation.h"

#include "engine/hash.h"

namespace tengen {

Variation::Variation(Board start, Rules rules, Color first_to_move)
    : board_(std::move(start)), rules_(rules), to_move_(first_to_move) {
  board_.clear_ko();
  seen_.add(board_.hash());
  situations_.add(zobrist::with_side(board_.hash(), to_move_));
}

MoveError Variation::play(Move m, std::vector<Point>* removed) {
  if (!is_stone(m.color)) return MoveError::WrongTurn;
  if (!m.is_pass()) {
    if (!board_.on_board(m.point)) return MoveError::OffBoard;
    const MoveError e = judge_stone(board_, m.point, m.color, rules_, seen_, situations_);
    if (e != MoveError::Ok) return e;
  }
  if (removed) stones_removed_by(board_, m, *removed);
  board_.play(m.point, m.color);
  to_move_ = opponent(m.color);
  ++moves_;
  if (!m.is_pass()) seen_.add(board_.hash());
  situations_.add(zobrist::with_side(board_.hash(), to_move_));
  return MoveError::Ok;
}

void Variation::set_up(std::span<const Point> black, std::span<const Point> white,
                       std::span<const Point> empty) {
  for (Point p : empty)
    if (board_.on_board(p)) board_.set_stone(p, Color::Empty);
  for (Point p : black)
    if (board_.on_board(p)) board_.set_stone(p, Color::Black);
  for (Point p : white)
    if (board_.on_board(p)) board_.set_stone(p, Color::White);
  board_.clear_ko();
  seen_.add(board_.hash());
  situations_.add(zobrist::with_side(board_.hash(), to_move_));
}

}  // namespace tengen
