// How often does the engine's dead-stone suggestion agree exactly with GNU Go's
// `final_status_list dead` on games GNU Go finished against itself?
//
//   build/bench/bench/dead_stone_agreement [games-9x9] [games-13x13] [games-19x19] [level] [out]
//                                          [first-seed]
//
// Each game starts with a few random moves (seeded) for variety, then GNU Go plays both sides
// until two passes. Positions where the two disagree are printed as diagrams. With `out`, every
// final position is also written there with GNU Go's dead stones (the format read by
// tests/engine/dead_stone_fixture_test.cpp), so that the suggestion can be checked without GNU Go.
// `first-seed` (default 1) picks other games than the fixtures' for a check on unseen positions.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "engine/dead_stones.h"
#include "engine/playout.h"
#include "gtp_process.h"

namespace {

using namespace tengen;

struct Tally {
  int games = 0;
  int agreed = 0;
  long stones = 0;
  long stones_agreed = 0;
};

std::set<Point> parse_vertices(const Geometry& g, const std::string& text) {
  std::set<Point> out;
  std::istringstream in(text);
  for (std::string v; in >> v;) {
    if (auto p = g.parse_gtp(v)) out.insert(*p);
  }
  return out;
}

bool play_game(tools::GtpProcess& gnugo, int size, std::uint64_t seed, Tally& tally,
               std::ofstream& fixture) {
  const Geometry g{size, size};
  Board board(g);
  Rng rng(seed);
  gnugo.send("boardsize " + std::to_string(size));
  gnugo.send("clear_board");
  gnugo.send("komi 6.5");
  gnugo.send("set_random_seed " + std::to_string(seed));
  Color c = Color::Black;
  const int opening = 2 + static_cast<int>(rng.below(5));
  for (int i = 0; i < opening; ++i, c = opponent(c)) {
    const Point p = random_move(board, c, rng);
    board.play(p, c);
    gnugo.send(std::string("play ") + (c == Color::Black ? "b " : "w ") + g.to_gtp(p));
  }
  int passes = 0;
  for (int moves = 0; passes < 2 && moves < 3 * g.area(); ++moves, c = opponent(c)) {
    const auto reply = gnugo.send(std::string("genmove ") + (c == Color::Black ? "b" : "w"));
    if (!reply.ok || reply.text == "resign") return false;
    const auto p = g.parse_gtp(reply.text);
    if (!p) return false;
    passes = *p == kPass ? passes + 1 : 0;
    board.play(*p, c);
  }
  if (passes < 2) return false;
  const std::string gnugo_dead = gnugo.send("final_status_list dead").text;
  const std::set<Point> theirs = parse_vertices(g, gnugo_dead);
  if (fixture) {
    std::string vertices;
    for (Point p : theirs) vertices += " " + g.to_gtp(p);
    fixture << "position " << size << " seed " << seed << "\n"
            << board.to_diagram() << "dead:" << vertices << "\n\n";
  }
  const auto dead = suggest_dead_stones(board);  // the defaults the server uses
  const std::set<Point> ours(dead.begin(), dead.end());
  ++tally.games;
  tally.agreed += ours == theirs;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const Point p = g.point(x, y);
      if (!is_stone(board.at(p))) continue;
      ++tally.stones;
      tally.stones_agreed += ours.count(p) == theirs.count(p);
    }
  }
  if (ours != theirs) {
    std::cout << "disagreement on " << size << "x" << size << " (seed " << seed << "):\n";
    for (int y = 0; y < size; ++y) {
      std::cout << "  ";
      for (int x = 0; x < size; ++x) {
        const Point p = g.point(x, y);
        const Color s = board.at(p);
        char ch = s == Color::Black ? 'X' : s == Color::White ? 'O' : '.';
        if (ours.count(p) && !theirs.count(p))
          ch = s == Color::Black ? 'b' : 'w';  // only we say dead
        if (!ours.count(p) && theirs.count(p)) ch = s == Color::Black ? '1' : '2';  // only GNU Go
        std::cout << ch << ' ';
      }
      std::cout << '\n';
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const int games[3] = {argc > 1 ? std::atoi(argv[1]) : 40, argc > 2 ? std::atoi(argv[2]) : 20,
                        argc > 3 ? std::atoi(argv[3]) : 8};
  const std::string level = argc > 4 ? argv[4] : "1";
  std::ofstream fixture;
  if (argc > 5 && argv[5][0] != '\0') fixture.open(argv[5]);
  const std::uint64_t first_seed = argc > 6 ? std::strtoull(argv[6], nullptr, 10) : 1;
  const int sizes[3] = {9, 13, 19};
  Tally total;
  std::ostringstream summary;
  for (int i = 0; i < 3; ++i) {
    tools::GtpProcess gnugo({"/usr/games/gnugo", "--mode", "gtp", "--level", level});
    Tally t;
    for (std::uint64_t seed = first_seed; t.games < games[i] && seed < first_seed + 999; ++seed) {
      play_game(gnugo, sizes[i], seed * 7919 + static_cast<std::uint64_t>(sizes[i]), t, fixture);
    }
    summary << sizes[i] << "x" << sizes[i] << ": " << t.agreed << "/" << t.games
            << " positions agree exactly (" << (t.games ? 100.0 * t.agreed / t.games : 0)
            << "%), stones " << (t.stones ? 100.0 * t.stones_agreed / t.stones : 0) << "%\n";
    total.games += t.games;
    total.agreed += t.agreed;
    total.stones += t.stones;
    total.stones_agreed += t.stones_agreed;
  }
  std::cout << summary.str() << "all: " << total.agreed << "/" << total.games << " ("
            << (total.games ? 100.0 * total.agreed / total.games : 0) << "%), stones "
            << (total.stones ? 100.0 * total.stones_agreed / total.stones : 0) << "%\n";
  return 0;
}
