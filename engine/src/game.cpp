#include "engine/game.h"

#include <algorithm>
#include <stdexcept>

#include "engine/handicap.h"

namespace tengen {

Game::Game(Board setup, Rules rules, Color first_to_move, int handicap_stones)
    : initial_(setup),
      board_(setup),
      rules_(rules),
      first_to_move_(first_to_move),
      handicap_(handicap_stones),
      to_move_(first_to_move) {
  if (!is_stone(first_to_move)) throw std::invalid_argument("first player must be black or white");
  board_.clear_ko();
  initial_.clear_ko();
  seen_.add(board_.hash());
  situations_.add(situation(board_.hash(), to_move_));
}

Game Game::with_fixed_handicap(Geometry geometry, Rules rules, int handicap) {
  Board board(geometry);
  if (handicap < 2) return Game(board, rules, Color::Black, 0);
  const auto points = fixed_handicap(geometry, handicap);
  if (!points) {
    throw std::invalid_argument("a " + std::to_string(geometry.width) + "x" +
                                std::to_string(geometry.height) + " board takes at most " +
                                std::to_string(max_fixed_handicap(geometry)) +
                                " fixed handicap stones, not " + std::to_string(handicap));
  }
  for (Point p : *points) board.set_stone(p, Color::Black);
  return Game(board, rules, Color::White, handicap);
}

Game Game::with_free_handicap(Geometry geometry, Rules rules, std::span<const Point> stones) {
  Board board(geometry);
  if (stones.size() < 2 || static_cast<int>(stones.size()) >= geometry.area()) {
    throw std::invalid_argument(
        "free handicap needs at least 2 stones and must leave room to play");
  }
  for (Point p : stones) {
    if (!board.on_board(p)) throw std::invalid_argument("handicap stone off the board");
    if (board.at(p) != Color::Empty) {
      throw std::invalid_argument("handicap stone placed twice at " + geometry.to_gtp(p));
    }
    board.set_stone(p, Color::Black);
  }
  return Game(board, rules, Color::White, static_cast<int>(stones.size()));
}

int Game::pass_stones_given(Color c) const noexcept {
  return pass_stones_[static_cast<std::size_t>(index_of(c))];
}

int Game::prisoners(Color c) const noexcept {
  return board_.captures(c) + pass_stones_given(opponent(c));
}

MoveError judge_stone(const Board& board, Point p, Color c, const Rules& rules,
                      const PositionSet& seen, const PositionSet& situations) {
  const MoveError e = board.check(p, c, rules.suicide_allowed);
  if (rules.ko == KoRule::Simple) return e;
  const bool ko_point = e == MoveError::Ko;  // a retake captures: it is never suicide
  if (e != MoveError::Ok && !ko_point) return e;
  const Hash128 next = board.hash_after(p, c);
  const bool repeats = rules.ko == KoRule::PositionalSuperko
                           ? seen.contains(next)
                           : situations.contains(zobrist::with_side(next, opponent(c)));
  if (!repeats) return MoveError::Ok;
  if (ko_point) return MoveError::Ko;
  return rules.ko == KoRule::PositionalSuperko ? MoveError::PositionalSuperko
                                               : MoveError::SituationalSuperko;
}

MoveError Game::check(Move m) const {
  if (phase_ != Phase::Playing) return MoveError::GameOver;
  if (m.color != to_move_) return MoveError::WrongTurn;
  if (m.is_pass()) return MoveError::Ok;
  return judge_stone(board_, m.point, m.color, rules_, seen_, situations_);
}

MoveError Game::play(Move m) {
  const MoveError e = check(m);
  if (e == MoveError::Ok) apply(m);
  return e;
}

void stones_removed_by(const Board& board, Move m, std::vector<Point>& removed) {
  removed.clear();
  if (m.is_pass()) return;
  // Read off the board before the move: the opponent's chains whose last liberty it fills,
  // else, if it fills the last liberty of each chain it joins and has none of its own, those
  // chains and itself.
  std::vector<Point> heads;
  auto take = [&](Point q) {
    if (std::find(heads.begin(), heads.end(), board.chain_id(q)) != heads.end()) return;
    heads.push_back(board.chain_id(q));
    for (Point s : board.chain_stones(q)) removed.push_back(s);
  };
  for (Point q : board.neighbours(m.point)) {
    if (board.at(q) == opponent(m.color) && board.single_liberty(q) == m.point) take(q);
  }
  if (removed.empty() && board.empty_neighbours(m.point) == 0) {
    bool suicide = true;
    for (Point q : board.neighbours(m.point)) {
      if (board.at(q) == m.color && board.single_liberty(q) != m.point) suicide = false;
    }
    if (suicide) {
      for (Point q : board.neighbours(m.point)) {
        if (board.at(q) == m.color) take(q);
      }
      removed.push_back(m.point);
    }
  }
  std::sort(removed.begin(), removed.end());
}

std::vector<Point> Game::play_judged(Move m) {
  std::vector<Point> removed;
  stones_removed_by(board_, m, removed);  // read off the board before the move
  apply(m);
  return removed;
}

MoveError Game::play(Move m, std::vector<Point>& removed) {
  removed.clear();
  const MoveError e = check(m);
  if (e != MoveError::Ok) return e;
  removed = play_judged(m);
  return MoveError::Ok;
}

// Plays a move already known to be legal and updates turn, passes, history and phase.
void Game::apply(const Move& m) {
  moves_.push_back(m);
  board_.play(m.point, m.color);
  to_move_ = opponent(m.color);
  if (m.is_pass()) {
    ++consecutive_passes_;
    last_passer_ = m.color;
    if (rules_.pass_stones) ++pass_stones_[static_cast<std::size_t>(index_of(m.color))];
  } else {
    consecutive_passes_ = 0;
    const int count = seen_.add(board_.hash());
    // Under simple ko a cycle (triple ko, eternal life, sending two returning one) could run
    // forever: the third occurrence of a position voids the game, as Japanese practice has it.
    if (rules_.ko == KoRule::Simple && count >= 3) {
      phase_ = Phase::Over;
      result_ = Result::void_game();
      return;
    }
  }
  situations_.add(situation(board_.hash(), to_move_));
  if (ends_play()) phase_ = Phase::Scoring;
}

bool Game::ends_play() const noexcept {
  if (consecutive_passes_ < 2) return false;
  // AGA: White passes last, so a Black pass that follows White's needs one more White pass.
  return !rules_.pass_stones || last_passer_ == Color::White;
}

std::vector<Point> Game::legal_moves() const {
  std::vector<Point> legal;
  if (phase_ != Phase::Playing) return legal;
  for (int i = 0; i < board_.empty_count(); ++i) {
    const Point p = board_.empty_at(i);
    if (check({to_move_, p}) == MoveError::Ok) legal.push_back(p);
  }
  return legal;
}

void Game::resign(Color c) {
  if (phase_ == Phase::Over || !is_stone(c)) return;
  phase_ = Phase::Over;
  result_ = Result::resignation(opponent(c));
}

bool Game::resume(Color first) {
  if (phase_ != Phase::Scoring || !is_stone(first)) return false;
  resumptions_.emplace_back(moves_.size(), first);
  phase_ = Phase::Playing;
  consecutive_passes_ = 0;
  to_move_ = first;
  situations_.add(situation(board_.hash(), to_move_));
  return true;
}

bool Game::undo_to(std::size_t move_count) {
  if (move_count > moves_.size()) return false;
  if (move_count == moves_.size()) return true;  // nothing to take back (a resignation stays)
  // Replaying from the start keeps every derived structure exact; games are short enough.
  std::vector<Move> keep(moves_.begin(), moves_.begin() + static_cast<std::ptrdiff_t>(move_count));
  std::vector<std::pair<std::size_t, Color>> resumes;
  for (const auto& r : resumptions_) {
    if (r.first <= move_count) resumes.push_back(r);
  }
  Game replay(initial_, rules_, first_to_move_, handicap_);
  std::size_t next_resume = 0;
  for (std::size_t i = 0;; ++i) {
    while (next_resume < resumes.size() && resumes[next_resume].first == i) {
      replay.resume(resumes[next_resume++].second);
    }
    if (i == keep.size()) break;
    replay.apply(keep[i]);
  }
  *this = std::move(replay);
  return true;
}

}  // namespace tengen
