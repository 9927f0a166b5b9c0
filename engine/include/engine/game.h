#pragma once

#include <optional>
#include <span>
#include <vector>

#include "engine/board.h"
#include "engine/position_set.h"
#include "engine/result.h"
#include "engine/rules.h"

namespace tengen {

struct Move {
  Color color = Color::Empty;
  Point point = kPass;
  bool is_pass() const noexcept { return point == kPass; }
  friend bool operator==(const Move&, const Move&) = default;
};

// A game on top of the board: turns, passes, resignation, ko and superko over the whole history,
// the end of play, and undo. It knows nothing of clocks, players or scoring agreement.
// The rules' verdict on `c` playing a stone at `p` on `board`, given the positions and the
// situations (position + player to move) the game has seen: the one judgement the server's Game
// and the GTP referee share. Under a superko rule the simple-ko point decides nothing by itself:
// a retake is refused when it repeats a position (or situation), which in alternating play every
// immediate retake does (and is then called Ko), and allowed when it is new (GTP lets one colour
// move twice, and then it can be).
MoveError judge_stone(const Board& board, Point p, Color c, const Rules& rules,
                      const PositionSet& seen, const PositionSet& situations);
// The stones a legal move `m` takes off `board` (the opponent's chains it leaves without a
// liberty, or in an allowed suicide the mover's own), sorted; read before the move is played.
void stones_removed_by(const Board& board, Move m, std::vector<Point>& removed);

class Game {
 public:
  enum class Phase : std::uint8_t {
    Playing,
    Scoring,  // play stopped by consecutive passes; the position awaits scoring (or resumption)
    Over,     // resignation, or a void game from a repeated position under simple ko
  };

  // `setup` is the starting position (handicap or SGF setup stones already on it).
  Game(Board setup, Rules rules, Color first_to_move = Color::Black, int handicap_stones = 0);
  // An empty board, with fixed handicap stones if `handicap` >= 2 (throws std::invalid_argument
  // if the board cannot take that many); White moves first in a handicap game.
  static Game with_fixed_handicap(Geometry geometry, Rules rules, int handicap);
  // An empty board on which Black places `stones` freely (at least 2, all distinct and on the
  // board; throws std::invalid_argument otherwise); White moves first.
  static Game with_free_handicap(Geometry geometry, Rules rules, std::span<const Point> stones);

  const Board& board() const noexcept { return board_; }
  const Board& initial_board() const noexcept { return initial_; }
  const Rules& rules() const noexcept { return rules_; }
  Phase phase() const noexcept { return phase_; }
  Color to_move() const noexcept { return to_move_; }
  int handicap_stones() const noexcept { return handicap_; }
  const std::vector<Move>& moves() const noexcept { return moves_; }
  int consecutive_passes() const noexcept { return consecutive_passes_; }
  // Set for resignation and void games; for games ended by passes, scoring decides.
  const std::optional<Result>& result() const noexcept { return result_; }

  // Prisoners held by `c`: stones captured, plus AGA pass stones handed over by the opponent.
  int prisoners(Color c) const noexcept;
  int pass_stones_given(Color c) const noexcept;

  MoveError check(Move m) const;
  // Plays a move that check() found Ok, without judging it again (the shape of KataGo's
  // isLegal + playMoveRecorded): what a caller that judged first plays. Returns every stone the
  // move took off the board, in board order: the opponent's chains it captured, or in a suicide
  // (where the rules allow it) the mover's own chain, the stone just played included; none for a
  // pass. A move check() refuses breaks the game's invariants: never pass one.
  std::vector<Point> play_judged(Move m);
  MoveError play(Move m);  // returns the error and leaves the game unchanged if not Ok
  // check(), then play_judged(): `removed` receives what it took off (empty if refused).
  MoveError play(Move m, std::vector<Point>& removed);
  std::vector<Point> legal_moves()
      const;  // board moves for the player to move (pass is always legal)

  // The player resigns; the opponent wins. Ignored once the game is over.
  void resign(Color c);
  // Back from the scoring phase to play, with `first` to move (docs/scoring.md); false if not
  // scoring.
  bool resume(Color first);
  // Takes back moves until `move_count` remain; false (and nothing changes) if out of range.
  bool undo_to(std::size_t move_count);
  bool undo() { return !moves_.empty() && undo_to(moves_.size() - 1); }

  // How often the current board position has occurred (after the setup or after a board move).
  int occurrences() const noexcept { return seen_.count(board_.hash()); }

 private:
  void apply(
      const Move& m);  // a legal move: recorded, played, and the turn, passes and phase updated
  bool ends_play() const noexcept;
  Hash128 situation(const Hash128& board_hash, Color to_move) const noexcept {
    return zobrist::with_side(board_hash, to_move);
  }

  Board initial_;
  Board board_;
  Rules rules_;
  Color first_to_move_;
  int handicap_;
  Phase phase_ = Phase::Playing;
  Color to_move_;
  int consecutive_passes_ = 0;
  Color last_passer_ = Color::Empty;
  std::array<int, 3> pass_stones_{};
  std::optional<Result> result_;
  std::vector<Move> moves_;
  std::vector<std::pair<std::size_t, Color>> resumptions_;  // (moves played before, first to move)
  PositionSet seen_;        // board positions, counted (positional superko, repetition)
  PositionSet situations_;  // board position + player to move (situational superko)
};

}  // namespace tengen
