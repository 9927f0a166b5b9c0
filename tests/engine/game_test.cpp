#include "engine/game.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "engine/handicap.h"

namespace tengen {
namespace {

Rules rules(std::string_view text) {
  return *Rules::parse(text);
}

// Plays "B C2 W B2 B pass ..." and checks the board after every move.
void play_all(Game& g, std::string_view moves) {
  std::istringstream in{std::string(moves)};
  for (std::string color, vertex; in >> color >> vertex;) {
    const Color c = color == "B" ? Color::Black : Color::White;
    const auto p = g.board().geometry().parse_gtp(vertex);
    ASSERT_TRUE(p) << vertex;
    ASSERT_EQ(g.play({c, *p}), MoveError::Ok) << color << " " << vertex << "\n"
                                              << g.board().to_diagram();
    g.board().check_consistency();
  }
}

std::string result_of(const Game& g) {
  return g.result() ? g.result()->to_sgf() : "no result";
}

MoveError try_move(const Game& g, std::string_view vertex) {
  return g.check({g.to_move(), *g.board().geometry().parse_gtp(vertex)});
}

TEST(Game, TurnsPassesAndTheEndOfPlay) {
  Game g(Board(9, 9), *Rules::preset("japanese"));
  EXPECT_EQ(g.to_move(), Color::Black);
  EXPECT_EQ(g.check({Color::White, g.board().point(4, 4)}), MoveError::WrongTurn);
  play_all(g, "B E5 W pass");
  EXPECT_EQ(g.consecutive_passes(), 1);
  play_all(g, "B D4 W pass B pass");
  EXPECT_EQ(g.phase(), Game::Phase::Scoring);
  EXPECT_FALSE(g.result());
  EXPECT_EQ(g.check({Color::White, g.board().point(0, 0)}), MoveError::GameOver);
}

TEST(Game, ResignationEndsTheGameWithAResult) {
  Game g(Board(9, 9), *Rules::preset("chinese"));
  play_all(g, "B E5");
  g.resign(Color::White);
  EXPECT_EQ(g.phase(), Game::Phase::Over);
  EXPECT_EQ(result_of(g), "B+R");
  EXPECT_EQ(g.check({Color::White, kPass}), MoveError::GameOver);
  EXPECT_TRUE(g.undo_to(g.moves().size()));  // takes back nothing, and not the resignation
  EXPECT_EQ(result_of(g), "B+R");
}

TEST(Game, OccupiedAndSuicideHaveTheirReasons) {
  Game g(Board::from_diagram(R"(
    . O . .
    O . . .
    . . . .
    . . . .
  )"),
         rules("japanese"));
  EXPECT_EQ(try_move(g, "A4"), MoveError::Suicide);
  EXPECT_EQ(try_move(g, "B4"), MoveError::Occupied);
  Game allowed(g.board(), rules("new-zealand"));
  // Single-stone suicide repeats the position: under situational superko it is a new situation
  // (the other player is to move), so it is legal; under positional superko it is not.
  EXPECT_EQ(try_move(allowed, "A4"), MoveError::Ok);
  Game tt(g.board(), rules("tromp-taylor"));
  EXPECT_EQ(try_move(tt, "A4"), MoveError::PositionalSuperko);
}

// What a move took off the board, as Game::play reports it.
std::string removed_by(Game& g, Color c, std::string_view vertex) {
  std::vector<Point> removed{g.board().point(0, 0)};  // cleared by play
  const auto p = g.board().geometry().parse_gtp(vertex);
  EXPECT_EQ(g.play({c, *p}, removed), MoveError::Ok) << vertex;
  std::string out;
  for (Point q : removed) out += (out.empty() ? "" : " ") + g.board().geometry().to_gtp(q);
  return out;
}

TEST(Game, PlayReportsTheStonesItRemoved) {
  // Two white chains in atari on C3's liberties: one move takes both, in board order.
  Game g(Board::from_diagram(R"(
    . . X . .
    . X O X .
    X O . O X
    . X O X .
    . . X . .
  )"),
         rules("new-zealand"));
  EXPECT_EQ(removed_by(g, Color::Black, "C3"), "C4 B3 D3 C2");
  EXPECT_EQ(removed_by(g, Color::White, "pass"), "");
  EXPECT_EQ(removed_by(g, Color::Black, "E1"), "");

  // A suicide, where the rules allow it: the mover's own chain, the stone just played included.
  Game suicide(Board::from_diagram(R"(
    X O . .
    . O . .
    O . . .
    . . . .
  )"),
               rules("new-zealand"));
  EXPECT_EQ(removed_by(suicide, Color::Black, "A3"), "A4 A3");
  EXPECT_EQ(suicide.board().at(suicide.board().point(0, 0)), Color::Empty);

  // An illegal move removes nothing and changes nothing.
  std::vector<Point> removed{suicide.board().point(3, 3)};
  EXPECT_EQ(suicide.play({Color::White, suicide.board().point(1, 0)}, removed),
            MoveError::Occupied);
  EXPECT_TRUE(removed.empty());
}

// Judged once, then played: check() + play_judged() is play() (the room's path), move for move,
// over seeded random games on two rules sets (captures, suicides where allowed, ko, the ends of
// play), the removed stones and the whole state the same.
TEST(Game, PlayJudgedAfterCheckIsPlay) {
  for (const char* ruleset : {"japanese", "new-zealand"}) {
    std::mt19937 random(20261127);
    std::size_t removed_stones = 0;
    for (int game = 0; game < 40; ++game) {
      Game judged(Board(Geometry{9, 9}), rules(ruleset));
      Game played = judged;
      for (int n = 0; n < 300 && judged.phase() == Game::Phase::Playing; ++n) {
        const auto legal = judged.legal_moves();
        const bool pass = legal.empty() || random() % 20 == 0;
        const Move m{judged.to_move(), pass ? kPass : legal[random() % legal.size()]};
        ASSERT_EQ(judged.check(m), MoveError::Ok);
        const std::vector<Point> removed = judged.play_judged(m);
        std::vector<Point> expected;
        ASSERT_EQ(played.play(m, expected), MoveError::Ok);
        ASSERT_EQ(removed, expected) << ruleset << " game " << game << " move " << n;
        removed_stones += removed.size();
        ASSERT_EQ(judged.board().hash(), played.board().hash());
        ASSERT_EQ(judged.phase(), played.phase());
        ASSERT_EQ(judged.to_move(), played.to_move());
        ASSERT_EQ(judged.prisoners(Color::Black), played.prisoners(Color::Black));
        ASSERT_EQ(judged.prisoners(Color::White), played.prisoners(Color::White));
        judged.board().check_consistency();
      }
      // After the same history, the same verdicts on every point.
      for (Color c : {Color::Black, Color::White}) {
        for (int y = 0; y < 9; ++y) {
          for (int x = 0; x < 9; ++x) {
            const Move m{c, judged.board().point(x, y)};
            EXPECT_EQ(judged.check(m), played.check(m));
          }
        }
      }
    }
    EXPECT_GT(removed_stones, 1000u) << ruleset << ": the games captured";
  }
}

TEST(Game, SimpleKoForbidsOnlyTheImmediateRecapture) {
  Game g(Board::from_diagram(R"(
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .
  )"),
         rules("japanese"));
  play_all(g, "B C4");  // takes the ko at B4
  EXPECT_EQ(try_move(g, "B4"), MoveError::Ko);
  play_all(g, "W E1 B E2");  // threat and answer
  EXPECT_EQ(try_move(g, "B4"), MoveError::Ok);
}

// A cycle of period eight on 3x3 (found by a seeded random search): from the position after
// kCycleStart, every eight moves the whole board repeats with the same player to move.
constexpr std::string_view kCycleStart = "B A1 W C2 B B2 W B3 B C1 W A2";
constexpr std::string_view kCycleAllButLast = "B C3 W B1 B A3 W C2 B A1 W B3 B C1";

TEST(Game, ARepeatingCycleUnderSimpleKoVoidsTheGame) {
  Game g(Board(3, 3), rules("japanese"));
  play_all(g, kCycleStart);
  EXPECT_EQ(g.occurrences(), 1);
  play_all(g, kCycleAllButLast);
  play_all(g, "W A2");
  EXPECT_EQ(g.occurrences(), 2);
  EXPECT_EQ(g.phase(), Game::Phase::Playing);
  play_all(g, kCycleAllButLast);
  EXPECT_EQ(g.phase(), Game::Phase::Playing);
  ASSERT_EQ(g.play({Color::White, *g.board().geometry().parse_gtp("A2")}), MoveError::Ok);
  EXPECT_EQ(g.occurrences(), 3);
  EXPECT_EQ(g.phase(), Game::Phase::Over);
  EXPECT_EQ(result_of(g), "Void");
}

TEST(Game, SuperkoForbidsTheMoveThatClosesTheCycle) {
  for (const auto& [ko, expected] : {std::pair{"ko=positional", MoveError::PositionalSuperko},
                                     {"ko=situational", MoveError::SituationalSuperko}}) {
    Game g(Board(3, 3), rules(ko));
    play_all(g, kCycleStart);
    play_all(g, kCycleAllButLast);
    EXPECT_EQ(try_move(g, "A2"), expected) << ko;
    const auto legal = g.legal_moves();
    EXPECT_EQ(std::count(legal.begin(), legal.end(), *g.board().geometry().parse_gtp("A2")), 0);
  }
}

// Three kos: White holds the first and third, Black the second. Each side in turn takes the ko it
// may take, and after six moves the board is back where it started, Black to move.
const Board kTripleKo = Board::from_diagram(R"(
  . X O . . X O . . X O .
  X O . O X . X O X O . O
  . X O . . X O . . X O .
  . . . . . . . . . . . .
)");
constexpr std::string_view kTripleKoCycle = "B C3 W F3 B L3 W B3 B G3 W K3";

TEST(Game, TripleKoUnderSimpleKoEndsWithNoResult) {
  Game g(kTripleKo, rules("japanese"));
  play_all(g, kTripleKoCycle);
  EXPECT_EQ(g.board().to_diagram(), kTripleKo.to_diagram());
  EXPECT_EQ(g.occurrences(), 2);
  play_all(g, "B C3 W F3 B L3 W B3 B G3");
  EXPECT_EQ(g.phase(), Game::Phase::Playing);
  ASSERT_EQ(g.play({Color::White, *g.board().geometry().parse_gtp("K3")}), MoveError::Ok);
  EXPECT_EQ(g.phase(), Game::Phase::Over);
  EXPECT_EQ(result_of(g), "Void");
}

TEST(Game, TripleKoUnderSuperkoForbidsTheSixthTake) {
  for (const auto& [ko, expected] : {std::pair{"ko=positional", MoveError::PositionalSuperko},
                                     {"ko=situational", MoveError::SituationalSuperko}}) {
    Game g(kTripleKo, rules(ko));
    play_all(g, "B C3 W F3 B L3 W B3 B G3");
    EXPECT_EQ(try_move(g, "K3"), expected) << ko;
  }
}

TEST(Game, PositionalAndSituationalSuperkoDifferWhenThePlayerToMoveDiffers) {
  // Found by a seeded search: White's B2 recreates a board last seen with Black to move.
  constexpr std::string_view kMoves =
      "B C2 W B2 B C3 W B1 B A3 W A1 B A2 W C1 B pass W B3 B C3 W A3 B pass W A2 B C2";
  Game positional(Board(3, 3), rules("ko=positional"));
  Game situational(Board(3, 3), rules("ko=situational"));
  play_all(positional, kMoves);
  play_all(situational, kMoves);
  EXPECT_EQ(positional.board().to_diagram(), "..X\n..X\n...\n");
  EXPECT_EQ(try_move(positional, "B2"), MoveError::PositionalSuperko);
  EXPECT_EQ(try_move(situational, "B2"), MoveError::Ok);
}

TEST(Game, SendingTwoReturningOneUnderEachKoRule) {
  // White sends two (E1 puts E1-E2 in atari), Black takes two (E3), White returns one (E2
  // takes E3): the board is the starting one again, now with Black to move.
  const Board start = Board::from_diagram(R"(
    X . X O O
    X O O O .
    X . X X O
    O . X X .
  )");
  for (const auto& [ko, expected] : {std::pair{"ko=simple", MoveError::Ok},
                                     {"ko=positional", MoveError::PositionalSuperko},
                                     {"ko=situational", MoveError::Ok}}) {
    Game g(start, rules(ko), Color::White);
    play_all(g, "W E1 B E3");
    EXPECT_EQ(g.board().captures(Color::Black), 2);
    EXPECT_EQ(try_move(g, "E2"), expected) << ko;
  }
}

TEST(Game, AgaPassStonesAndWhitePassesLast) {
  Game g(Board(9, 9), *Rules::preset("aga"));
  play_all(g, "B E5 W pass B pass");
  EXPECT_EQ(g.phase(), Game::Phase::Playing) << "Black passed last: White must pass once more";
  EXPECT_EQ(g.prisoners(Color::Black), 1);  // White's pass stone
  EXPECT_EQ(g.prisoners(Color::White), 1);
  play_all(g, "W pass");
  EXPECT_EQ(g.phase(), Game::Phase::Scoring);
  EXPECT_EQ(g.prisoners(Color::Black), 2);
  Game japanese(Board(9, 9), *Rules::preset("japanese"));
  play_all(japanese, "B E5 W pass B pass");
  EXPECT_EQ(japanese.phase(), Game::Phase::Scoring);
  EXPECT_EQ(japanese.prisoners(Color::Black), 0);
}

TEST(Game, UndoToAnyEarlierMoveRestoresThatPosition) {
  Game g(Board(9, 9), *Rules::preset("chinese"));
  std::vector<Hash128> hashes{g.board().hash()};
  std::vector<Color> to_move{g.to_move()};
  play_all(g, "B E5 W D5 B D4 W C4 B E4 W D3 B C5 W pass B E3 W C3");
  Game replay(Board(9, 9), *Rules::preset("chinese"));
  for (const Move& m : g.moves()) {
    replay.play(m);
    hashes.push_back(replay.board().hash());
    to_move.push_back(replay.to_move());
  }
  for (std::size_t n = g.moves().size() + 1; n-- > 0;) {
    Game copy = g;
    ASSERT_TRUE(copy.undo_to(n));
    EXPECT_EQ(copy.board().hash(), hashes[n]) << n;
    EXPECT_EQ(copy.to_move(), to_move[n]) << n;
    EXPECT_EQ(copy.moves().size(), n);
    copy.board().check_consistency();
  }
  EXPECT_FALSE(g.undo_to(99));
  Game empty(Board(9, 9), *Rules::preset("chinese"));
  EXPECT_FALSE(empty.undo());
}

TEST(Game, UndoForgetsTheUndonePositions) {
  Game g(Board(3, 3), rules("ko=positional"));
  play_all(g, kCycleStart);
  play_all(g, kCycleAllButLast);
  ASSERT_EQ(try_move(g, "A2"), MoveError::PositionalSuperko);
  ASSERT_TRUE(g.undo_to(5));  // before the cycle's first W A2
  EXPECT_EQ(try_move(g, "A2"), MoveError::Ok);
  play_all(g, "W A2");
  EXPECT_EQ(g.occurrences(), 1);
  play_all(g, kCycleAllButLast);
  EXPECT_EQ(try_move(g, "A2"), MoveError::PositionalSuperko);
}

TEST(Game, ResumeAfterPassesGoesBackToPlay) {
  Game g(Board(9, 9), *Rules::preset("japanese"));
  play_all(g, "B E5 W pass B pass");
  ASSERT_EQ(g.phase(), Game::Phase::Scoring);
  EXPECT_FALSE(g.resume(Color::Empty));
  ASSERT_TRUE(g.resume(Color::White));
  EXPECT_EQ(g.phase(), Game::Phase::Playing);
  EXPECT_EQ(g.to_move(), Color::White);
  EXPECT_EQ(g.consecutive_passes(), 0);
  play_all(g, "W D5 B pass");
  EXPECT_EQ(g.phase(), Game::Phase::Playing);
  // Undo across the resumption replays it.
  ASSERT_TRUE(g.undo());
  EXPECT_EQ(g.to_move(), Color::Black);
  ASSERT_TRUE(g.undo());
  EXPECT_EQ(g.to_move(), Color::White);
  EXPECT_EQ(g.phase(), Game::Phase::Playing);
}

TEST(Game, FixedHandicapOnTheStarPoints) {
  auto vertices = [](const Game& g) {
    std::vector<std::string> out;
    for (int y = 0; y < g.board().height(); ++y) {
      for (int x = 0; x < g.board().width(); ++x) {
        if (g.board().at(g.board().point(x, y)) == Color::Black) {
          out.push_back(g.board().geometry().to_gtp(g.board().point(x, y)));
        }
      }
    }
    return out;
  };
  const Rules japanese = *Rules::preset("japanese");
  Game g19 = Game::with_fixed_handicap({19, 19}, japanese, 9);
  EXPECT_EQ(vertices(g19),
            (std::vector<std::string>{"D16", "K16", "Q16", "D10", "K10", "Q10", "D4", "K4", "Q4"}));
  EXPECT_EQ(g19.to_move(), Color::White);
  EXPECT_EQ(g19.handicap_stones(), 9);
  EXPECT_EQ(vertices(Game::with_fixed_handicap({19, 19}, japanese, 3)),
            (std::vector<std::string>{"D16", "Q16", "D4"}));
  EXPECT_EQ(vertices(Game::with_fixed_handicap({13, 13}, japanese, 5)),
            (std::vector<std::string>{"D10", "K10", "G7", "D4", "K4"}));
  EXPECT_EQ(vertices(Game::with_fixed_handicap({9, 9}, japanese, 6)),
            (std::vector<std::string>{"C7", "G7", "C5", "G5", "C3", "G3"}));
  EXPECT_EQ(vertices(Game::with_fixed_handicap({19, 13}, japanese, 4)),
            (std::vector<std::string>{"D10", "Q10", "D4", "Q4"}));
  EXPECT_THROW(Game::with_fixed_handicap({8, 8}, japanese, 5), std::invalid_argument);
  EXPECT_THROW(Game::with_fixed_handicap({5, 5}, japanese, 2), std::invalid_argument);
  EXPECT_EQ(Game::with_fixed_handicap({9, 9}, japanese, 0).to_move(), Color::Black);
}

TEST(Game, FreeHandicapPlacement) {
  const Geometry g{9, 9};
  const Point stones[] = {g.point(0, 0), g.point(4, 4), g.point(8, 8)};
  Game game = Game::with_free_handicap(g, *Rules::preset("chinese"), stones);
  EXPECT_EQ(game.handicap_stones(), 3);
  EXPECT_EQ(game.to_move(), Color::White);
  EXPECT_EQ(game.board().stone_count(Color::Black), 3);
  const Point twice[] = {g.point(0, 0), g.point(0, 0)};
  EXPECT_THROW(Game::with_free_handicap(g, *Rules::preset("chinese"), twice),
               std::invalid_argument);
  const Point one[] = {g.point(0, 0)};
  EXPECT_THROW(Game::with_free_handicap(g, *Rules::preset("chinese"), one), std::invalid_argument);
}

}  // namespace
}  // namespace tengen
