// The dead-stone suggestion measured on labelled end-of-game positions: how many it gets exactly
// right, and how long each takes; optionally GNU Go's `final_status_list dead` on the same ones.
//
//   build/dev/bench/dead_stone_dataset [--gnugo] [--level N] [--playouts N] [--seed N] PATH...
//
// Each PATH is a directory of JSON positions (or one such file) in the format of the
// online-go/goban auto-scoring tests: `board` (rows top to bottom of `b`/`B`, `w`/`W` and
// spaces) and `correct_ownership` (rows of `B`, `W`, space, `*` and `s`: the area each point
// belongs to once the dead stones are removed, a space for neither, `*` and `s` for points whose
// fate is left open). A stone whose point is not its own colour's is dead (a dead stone in an
// area touching both colours is a space). A PATH ending in `.txt` is read as the
// GNU Go self-play fixtures (tests/fixtures/gnugo_final_positions.txt: a diagram and GNU Go's dead
// stones). The data is read where it lies; none of it is copied into the repository.
//
// Misses are printed as diagrams: `b`/`w` a stone only the suggestion calls dead, `1`/`2` a
// stone only the labels call dead, `*` (`?` if called dead) a stone of open fate.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/dead_stones.h"
#include "gtp_process.h"

namespace {

using namespace tengen;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Position {
  std::string name;
  Board board;
  std::set<Point> dead;      // the labelled answer
  std::set<Point> any_fate;  // stones whose fate the labels leave open (`*`, `s`)

  bool matches(const std::set<Point>& said) const {
    return std::all_of(said.begin(), said.end(),
                       [&](Point p) { return dead.count(p) || any_fate.count(p); }) &&
           std::all_of(dead.begin(), dead.end(), [&](Point p) { return said.count(p) > 0; });
  }
  bool calls_living_dead(const std::set<Point>& said) const {
    return std::any_of(said.begin(), said.end(),
                       [&](Point p) { return !dead.count(p) && !any_fate.count(p); });
  }
};

Color stone_of(char ch) {
  if (ch == 'b' || ch == 'B' || ch == 'X' || ch == 'x') return Color::Black;
  if (ch == 'w' || ch == 'W' || ch == 'O' || ch == 'o') return Color::White;
  return Color::Empty;
}

Position read_json(const fs::path& path) {
  std::ifstream in(path);
  const auto doc = nlohmann::json::parse(in);
  const auto rows = doc.at("board").get<std::vector<std::string>>();
  const auto owner = doc.at("correct_ownership").get<std::vector<std::string>>();
  const int height = static_cast<int>(rows.size());
  const int width = height ? static_cast<int>(rows[0].size()) : 0;
  if (width == 0 || owner.size() != rows.size()) throw std::runtime_error("malformed position");
  Position pos{path.stem().string(), Board(width, height), {}, {}};
  for (int y = 0; y < height; ++y) {
    const auto& row = rows[static_cast<std::size_t>(y)];
    const auto& own = owner[static_cast<std::size_t>(y)];
    if (static_cast<int>(row.size()) != width || static_cast<int>(own.size()) != width)
      throw std::runtime_error("rows of different lengths");
    for (int x = 0; x < width; ++x) {
      const Color c = stone_of(row[static_cast<std::size_t>(x)]);
      if (c == Color::Empty) continue;
      const Point p = pos.board.point(x, y);
      pos.board.set_stone(p, c);
      const char o = own[static_cast<std::size_t>(x)];
      if (o == '*' || o == 's')
        pos.any_fate.insert(p);
      else if (stone_of(o) != c)
        pos.dead.insert(p);
    }
  }
  return pos;
}

std::vector<Position> read_fixtures(const fs::path& path) {
  std::ifstream in(path);
  std::vector<Position> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("position")) continue;
    const std::string name = line.substr(9);
    std::string diagram;
    bool complete = false;
    while (std::getline(in, line)) {
      if ((complete = line.starts_with("dead:"))) break;
      diagram += line + "\n";
    }
    if (!complete) break;
    Position p{name, Board::from_diagram(diagram), {}, {}};
    std::istringstream vertices(line.substr(5));
    for (std::string v; vertices >> v;) p.dead.insert(*p.board.geometry().parse_gtp(v));
    out.push_back(std::move(p));
  }
  return out;
}

// GNU Go's verdict: the position as an SGF with setup stones, loaded, then asked.
std::set<Point> gnugo_dead(tools::GtpProcess& gnugo, const Board& board) {
  const Geometry& g = board.geometry();
  std::string sgf = "(;FF[4]SZ[" + std::to_string(g.width) + "]KM[6.5]";
  for (Color c : {Color::Black, Color::White}) {
    std::string list;
    for (int y = 0; y < g.height; ++y) {
      for (int x = 0; x < g.width; ++x) {
        if (board.at(g.point(x, y)) != c) continue;
        list += '[';
        list += static_cast<char>('a' + x);
        list += static_cast<char>('a' + y);
        list += ']';
      }
    }
    if (!list.empty()) sgf += (c == Color::Black ? "AB" : "AW") + list;
  }
  sgf += ")";
  const fs::path file = fs::temp_directory_path() / "tengen-dead-stone-dataset.sgf";
  std::ofstream(file) << sgf;
  gnugo.send("loadsgf " + file.string());
  std::set<Point> out;
  std::istringstream vertices(gnugo.send("final_status_list dead").text);
  for (std::string v; vertices >> v;) {
    if (auto p = g.parse_gtp(v)) out.insert(*p);
  }
  return out;
}

void print_miss(const Position& pos, const std::set<Point>& ours) {
  const Geometry& g = pos.board.geometry();
  std::cout << "  miss on " << pos.name << ":\n";
  for (int y = 0; y < g.height; ++y) {
    std::cout << "    ";
    for (int x = 0; x < g.width; ++x) {
      const Point p = g.point(x, y);
      const Color s = pos.board.at(p);
      char ch = s == Color::Black ? 'X' : s == Color::White ? 'O' : '.';
      if (pos.any_fate.count(p))
        ch = ours.count(p) ? '?' : '*';
      else if (ours.count(p) && !pos.dead.count(p))
        ch = s == Color::Black ? 'b' : 'w';
      else if (!ours.count(p) && pos.dead.count(p))
        ch = s == Color::Black ? '1' : '2';
      std::cout << ch << ' ';
    }
    std::cout << '\n';
  }
}

struct Tally {
  int positions = 0;
  int exact = 0;
  int alive_called_dead = 0;  // positions where a labelled-alive stone was called dead
  double total_ms = 0;
  double max_ms = 0;
};

void report(const char* who, const Tally& t) {
  std::printf(
      "%-10s %d/%d exact (%.1f%%), %d with a living stone called dead; %.0f ms mean, %.0f "
      "ms max per position\n",
      who, t.exact, t.positions, t.positions ? 100.0 * t.exact / t.positions : 0.0,
      t.alive_called_dead, t.positions ? t.total_ms / t.positions : 0.0, t.max_ms);
}

void count(Tally& t, const Position& pos, const std::set<Point>& said, double ms) {
  ++t.positions;
  t.exact += pos.matches(said);
  t.alive_called_dead += pos.calls_living_dead(said);
  t.total_ms += ms;
  t.max_ms = std::max(t.max_ms, ms);
}

}  // namespace

int main(int argc, char** argv) {
  DeadStoneOptions options;
  bool with_gnugo = false;
  std::string level = "10";
  std::vector<Position> positions;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--gnugo") {
        with_gnugo = true;
      } else if (arg == "--level" && i + 1 < argc) {
        level = argv[++i];
      } else if (arg == "--playouts" && i + 1 < argc) {
        options.playouts = std::atoi(argv[++i]);
      } else if (arg == "--seed" && i + 1 < argc) {
        options.seed = std::strtoull(argv[++i], nullptr, 10);
      } else if (fs::is_directory(arg)) {
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(arg)) {
          if (e.path().extension() == ".json") files.push_back(e.path());
        }
        std::sort(files.begin(), files.end());
        for (const auto& f : files) positions.push_back(read_json(f));
      } else if (arg.ends_with(".txt")) {
        for (auto& p : read_fixtures(arg)) positions.push_back(std::move(p));
      } else if (fs::is_regular_file(arg)) {
        positions.push_back(read_json(arg));
      } else {
        std::cerr << "dead_stone_dataset: no such file or directory: " << arg << "\n";
        return 2;
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "dead_stone_dataset: " << e.what() << "\n";
    return 2;
  }
  if (positions.empty()) {
    std::cerr << "usage: dead_stone_dataset [--gnugo] [--level N] [--playouts N] [--seed N] "
                 "PATH...\n";
    return 2;
  }

  std::unique_ptr<tools::GtpProcess> gnugo;
  if (with_gnugo)
    gnugo = std::make_unique<tools::GtpProcess>(
        std::vector<std::string>{"/usr/games/gnugo", "--mode", "gtp", "--level", level});
  Tally ours_t, gnugo_t;
  for (const Position& pos : positions) {
    const auto t0 = Clock::now();
    const auto dead = suggest_dead_stones(pos.board, options);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    const std::set<Point> ours(dead.begin(), dead.end());
    count(ours_t, pos, ours, ms);
    std::printf("%-28s %2dx%-2d  tengen %s %6.0f ms", pos.name.c_str(), pos.board.width(),
                pos.board.height(), pos.matches(ours) ? "exact" : "MISS ", ms);
    if (gnugo) {
      const auto g0 = Clock::now();
      const auto theirs = gnugo_dead(*gnugo, pos.board);
      const double gms = std::chrono::duration<double, std::milli>(Clock::now() - g0).count();
      count(gnugo_t, pos, theirs, gms);
      std::printf("   gnugo %s %6.0f ms", pos.matches(theirs) ? "exact" : "MISS ", gms);
    }
    std::printf("\n");
    if (!pos.matches(ours)) print_miss(pos, ours);
  }
  report("tengen", ours_t);
  if (gnugo) report("gnugo", gnugo_t);
  return 0;
}
