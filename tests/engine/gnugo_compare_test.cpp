// Drives tengen-gtp and GNU Go with the same random GTP command streams and compares every
// answer, and the stones after every move, under simple ko and no suicide (GNU Go's rules).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "engine/game.h"
#include "engine/geometry.h"
#include "engine/random.h"
#include "engine/sgf.h"
#include "gtp_process.h"
#include "support/paths.h"

namespace tengen {
namespace {

constexpr const char* kGnuGo = "/usr/games/gnugo";

std::string sorted_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  std::sort(words.begin(), words.end());
  std::string out;
  for (const auto& w : words) out += w + " ";
  return out;
}

class CommandStream {
 public:
  explicit CommandStream(std::uint64_t seed) : rng_(seed) {}

  // After a single-stone capture at `vertex`, the next commands often try to retake there:
  // without this, random streams almost never test the ko rule.
  void hint_recapture(std::string color, std::string vertex) {
    hint_color_ = std::move(color);
    hint_vertex_ = std::move(vertex);
  }

  std::string next() {
    const std::uint32_t r = rng_.below(1000);
    if (!hint_vertex_.empty() && r < 600) {
      const std::string v = std::exchange(hint_vertex_, "");
      if (r < 150) return "is_legal " + hint_color_ + " " + v;
      ++moves_;
      return "play " + hint_color_ + " " + v;
    }
    hint_vertex_.clear();
    if (moves_ == 0 && !fresh_) return new_board();
    if (r < 8 || moves_ > 350) return new_board();
    if (fresh_ && r < 80) {
      fresh_ = false;
      return handicap();
    }
    fresh_ = false;
    if (r < 700) {
      ++moves_;
      return "play " + color() + " " + vertex();
    }
    if (r < 820) return "is_legal " + color() + " " + vertex();
    if (r < 900) {
      moves_ = std::max(0, moves_ - 1);
      return "undo";
    }
    if (r < 950) return "captures " + color();
    return "list_stones " + color();
  }

 private:
  std::string new_board() {
    static constexpr int kSizes[] = {5, 7, 9, 9, 13, 19};
    size_ = kSizes[rng_.below(6)];
    moves_ = 0;
    fresh_ = true;
    return rng_.below(2) ? "boardsize " + std::to_string(size_) : "clear_board";
  }
  std::string handicap() {
    if (rng_.below(2)) return "fixed_handicap " + std::to_string(rng_.below(10));
    const Geometry g{size_, size_};
    std::vector<std::string> stones;
    const int n = 2 + static_cast<int>(rng_.below(4));
    while (static_cast<int>(stones.size()) < n) {
      const std::string v =
          g.to_gtp(g.point(static_cast<int>(rng_.below(static_cast<std::uint32_t>(size_))),
                           static_cast<int>(rng_.below(static_cast<std::uint32_t>(size_)))));
      if (std::find(stones.begin(), stones.end(), v) == stones.end()) stones.push_back(v);
    }
    std::string out = "set_free_handicap";
    for (const auto& s : stones) out += " " + s;
    return out;
  }
  std::string color() { return rng_.below(2) ? "black" : "white"; }
  std::string vertex() {
    if (rng_.below(40) == 0) return "pass";
    // Small boards fill up, so captures, ko and suicide come up often.
    const Geometry g{size_, size_};
    return g.to_gtp(g.point(static_cast<int>(rng_.below(static_cast<std::uint32_t>(size_))),
                            static_cast<int>(rng_.below(static_cast<std::uint32_t>(size_)))));
  }

  Rng rng_;
  std::string hint_color_;
  std::string hint_vertex_;
  int size_ = 19;
  int moves_ = 0;
  bool fresh_ = false;
};

TEST(GnuGoComparison, SameAnswersToTheSameRandomCommandStreams) {
  ASSERT_TRUE(std::filesystem::exists(kGnuGo)) << "GNU Go is missing: run scripts/install-deps";
  tools::GtpProcess gnugo({kGnuGo, "--mode", "gtp", "--level", "0"});
  tools::GtpProcess ours({tengen::testing::paths::gtp_binary()});
  int compared = 0;
  int illegal = 0;
  int single_captures = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    CommandStream stream(seed);
    std::string previous[2];
    for (int i = 0; i < 1500; ++i) {
      const std::string command = stream.next();
      const auto theirs = gnugo.send(command);
      const auto mine = ours.send(command);
      ASSERT_EQ(mine.ok, theirs.ok) << "seed " << seed << " command " << i << ": " << command
                                    << "\n gnugo: " << theirs.text << "\n ours: " << mine.text;
      if (mine.ok) {
        const bool set =
            command.starts_with("list_stones") || command.starts_with("fixed_handicap");
        ASSERT_EQ(set ? sorted_words(mine.text) : mine.text,
                  set ? sorted_words(theirs.text) : theirs.text)
            << "seed " << seed << " command " << i << ": " << command;
      }
      illegal += command.starts_with("play") && !mine.ok;
      ++compared;
      if (command.starts_with("play") || command.starts_with("undo")) {
        std::string stones[2];
        for (int k = 0; k < 2; ++k) {
          const std::string list = k == 0 ? "list_stones black" : "list_stones white";
          stones[k] = sorted_words(ours.send(list).text);
          ASSERT_EQ(stones[k], sorted_words(gnugo.send(list).text))
              << "seed " << seed << " after command " << i << ": " << command;
        }
        // A play that took exactly one stone: offer the retake to the stream.
        for (int k = 0; k < 2; ++k) {
          std::vector<std::string> gone;
          std::istringstream before(previous[k]);
          for (std::string v; before >> v;) {
            if (stones[k].find(v + " ") == std::string::npos) gone.push_back(v);
          }
          if (gone.size() == 1 && command.starts_with("play") && mine.ok) {
            ++single_captures;
            stream.hint_recapture(k == 0 ? "black" : "white", gone[0]);
          }
          previous[k] = stones[k];
        }
      } else if (command.starts_with("boardsize") || command.starts_with("clear_board") ||
                 command.starts_with("fixed_handicap") || command.starts_with("set_free")) {
        previous[0] = sorted_words(ours.send("list_stones black").text);
        previous[1] = sorted_words(ours.send("list_stones white").text);
      }
    }
  }
  EXPECT_GT(illegal, 100) << "the streams should exercise illegal moves";
  EXPECT_GT(single_captures, 50) << "the streams should offer many ko retakes";
  RecordProperty("commands_compared", compared);
  RecordProperty("single_stone_captures", single_captures);
}

// A written game tree's main line is what GNU Go reads from it: random legal games on 9x9 with
// variations branching off at random nodes (and marks, comments), written by write_sgf(GameTree),
// loaded by GNU Go and by tengen-gtp, the stones compared with the main line replayed here.
TEST(GnuGoComparison, ReadsTheMainLineOfOurGameTrees) {
  ASSERT_TRUE(std::filesystem::exists(kGnuGo)) << "GNU Go is missing: run scripts/install-deps";
  tools::GtpProcess gnugo({kGnuGo, "--mode", "gtp", "--level", "0"});
  tools::GtpProcess ours({tengen::testing::paths::gtp_binary()});
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("tengen-tree-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
       std::to_string(reinterpret_cast<std::uintptr_t>(&gnugo)));
  std::filesystem::create_directories(dir);
  Rng rng(2026);
  const Geometry g{9, 9};
  Rules rules;
  rules.komi = 6.5;
  auto random_game = [&](Game& game, GameTree& tree, int at, int length) {
    for (int i = 0; i < length; ++i) {
      const auto legal = game.legal_moves();
      if (legal.empty()) break;
      const Move m{game.to_move(), legal[rng.below(static_cast<std::uint32_t>(legal.size()))]};
      if (game.play(m) != MoveError::Ok) break;
      at = tree.add(at, RecordedMove::of(m));
      if (rng.below(5) == 0)
        tree.nodes[static_cast<std::size_t>(at)].marks.push_back(
            {m.point, MarkShape::Triangle, ""});
    }
  };
  for (int round = 0; round < 20; ++round) {
    GameTree tree;
    tree.record.width = tree.record.height = 9;
    tree.record.komi = 6.5;
    Game main(Board(g), rules);
    random_game(main, tree, 0, 40 + static_cast<int>(rng.below(60)));
    // Variations: from random nodes of the main line, other random continuations.
    const std::vector<int> line = tree.path_to(static_cast<int>(tree.nodes.size()) - 1);
    for (int v = 0; v < 6; ++v) {
      const int from = line[rng.below(static_cast<std::uint32_t>(line.size() - 1))];
      Game branch(Board(g), rules);
      for (int n : tree.path_to(from))
        if (n > 0)
          branch.play(Move{tree.nodes[static_cast<std::size_t>(n)].move.color,
                           tree.nodes[static_cast<std::size_t>(n)].move.point});
      random_game(branch, tree, from, 1 + static_cast<int>(rng.below(12)));
    }
    tree.nodes[static_cast<std::size_t>(line[1])].move.comment = "a comment (with [brackets])";
    const auto file = dir / ("tree" + std::to_string(round) + ".sgf");
    {
      std::ofstream out(file);
      out << write_sgf(tree);
    }
    for (tools::GtpProcess* engine : {&gnugo, &ours}) {
      ASSERT_TRUE(engine->send("loadsgf " + file.string()).ok) << file;
      for (int k = 0; k < 2; ++k) {
        const Color c = k == 0 ? Color::Black : Color::White;
        std::string expected;
        for (int y = 0; y < 9; ++y)
          for (int x = 0; x < 9; ++x)
            if (main.board().at(g.point(x, y)) == c) expected += g.to_gtp(g.point(x, y)) + " ";
        EXPECT_EQ(
            sorted_words(engine->send(k == 0 ? "list_stones black" : "list_stones white").text),
            sorted_words(expected))
            << (engine == &gnugo ? "GNU Go" : "tengen-gtp") << " on " << file;
      }
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tengen
