#include "engine/gtp.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

#include "engine/dead_stones.h"
#include "engine/game.h"
#include "engine/handicap.h"
#include "engine/scoring.h"
#include "engine/sgf.h"
#include "numbers.h"

namespace tengen {
namespace {

GtpResponse success(std::string text = {}) {
  return {true, std::move(text)};
}
GtpResponse failure(std::string text) {
  return {false, std::move(text)};
}

std::string lower(std::string_view s) {
  std::string out;
  for (char ch : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

std::optional<Color> parse_color(std::string_view s) {
  const std::string c = lower(s);
  if (c == "b" || c == "black") return Color::Black;
  if (c == "w" || c == "white") return Color::White;
  return std::nullopt;
}

std::optional<int> parse_int(std::string_view s) {
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<GtpCommand> parse_gtp_line(std::string_view line) {
  std::string clean;
  for (char ch : line) {
    if (ch == '#') break;
    if (ch == '\t') ch = ' ';
    const auto u = static_cast<unsigned char>(ch);
    if (u < 32 && ch != ' ') continue;
    if (u == 127) continue;
    clean += ch;
  }
  std::istringstream words(clean);
  std::vector<std::string> tokens;
  for (std::string w; words >> w;) tokens.push_back(w);
  if (tokens.empty()) return std::nullopt;
  GtpCommand command;
  std::size_t first = 0;
  if (std::isdigit(static_cast<unsigned char>(tokens[0][0]))) {
    command.id = parse_int(tokens[0]);
    if (!command.id || *command.id < 0) {
      command.id.reset();
      command.bad_id = true;
    }
    first = 1;
  }
  if (first < tokens.size()) command.name = tokens[first];
  command.args.assign(
      tokens.begin() + static_cast<std::ptrdiff_t>(std::min(first + 1, tokens.size())),
      tokens.end());
  return command;
}

std::string format_gtp_response(const std::optional<int>& id, const GtpResponse& response) {
  std::string out(1, response.ok ? '=' : '?');
  if (id) out += std::to_string(*id);
  if (!response.text.empty()) out += " " + response.text;
  out += "\n\n";
  return out;
}

const std::vector<GtpEngine::Entry>& GtpEngine::commands() {
  static const std::vector<Entry> table = {
      {"protocol_version", &GtpEngine::protocol_version},
      {"name", &GtpEngine::name},
      {"version", &GtpEngine::version},
      {"known_command", &GtpEngine::known_command},
      {"list_commands", &GtpEngine::list_commands},
      {"quit", &GtpEngine::quit},
      {"boardsize", &GtpEngine::boardsize},
      {"rectangular_boardsize", &GtpEngine::boardsize},
      {"clear_board", &GtpEngine::clear_board},
      {"komi", &GtpEngine::komi},
      {"get_komi", &GtpEngine::get_komi},
      {"play", &GtpEngine::play},
      {"is_legal", &GtpEngine::is_legal},
      {"undo", &GtpEngine::undo},
      {"showboard", &GtpEngine::showboard},
      {"list_stones", &GtpEngine::list_stones},
      {"captures", &GtpEngine::captures},
      {"fixed_handicap", &GtpEngine::fixed_handicap},
      {"set_free_handicap", &GtpEngine::set_free_handicap},
      {"loadsgf", &GtpEngine::loadsgf},
      {"printsgf", &GtpEngine::printsgf},
      {"final_score", &GtpEngine::final_score},
      {"final_status_list", &GtpEngine::final_status_list},
      {"kgs-rules", &GtpEngine::kgs_rules},
      {"tengen-rules", &GtpEngine::tengen_rules},
  };
  return table;
}

GtpEngine::GtpEngine() : board_(Geometry{19, 19}) {
  rules_.komi = 0;
  reset(board_.geometry());
}

void GtpEngine::reset(Geometry geometry) {
  board_ = Board(geometry);
  history_.clear();
  last_mover_ = Color::Empty;
  position_changed();
}

// Stones were set on the current position (handicap, an SGF's setup): it replaces what was
// recorded for it. Earlier entries stay exactly as they were recorded.
void GtpEngine::position_changed() {
  const Color next = last_mover_ == Color::Empty ? Color::Black : opponent(last_mover_);
  const Reached now{board_.hash(), zobrist::with_side(board_.hash(), next)};
  // (An if, not an assignment to a conditional: GCC 12 with ASan crashes on that.)
  if (history_.empty()) {
    start_ = now;
  } else {
    history_.back().after = now;
  }
  rebuild_history_sets();
}

// The sets hold exactly what was recorded, move by move: an undo takes back the last entry, not
// a relabelled history (which once made the same sequence legal or not depending on an
// unrelated play and undo).
void GtpEngine::rebuild_history_sets() {
  seen_.clear();
  situations_.clear();
  seen_.add(start_.position);
  situations_.add(start_.situation);
  for (const auto& move : history_) {
    seen_.add(move.after.position);
    situations_.add(move.after.situation);
  }
}

GtpResponse GtpEngine::execute(const GtpCommand& command) {
  if (command.bad_id) return failure("syntax error: a command id is a number from 0 to 2147483647");
  for (const auto& entry : commands()) {
    if (entry.name == command.name) return (this->*entry.handler)(command.args);
  }
  return failure("unknown command");
}

void GtpEngine::run(std::istream& in, std::ostream& out) {
  for (std::string line; !quit_ && std::getline(in, line);) {
    const auto command = parse_gtp_line(line);
    if (!command) continue;
    out << format_gtp_response(command->id, execute(*command)) << std::flush;
  }
}

GtpResponse GtpEngine::protocol_version(const std::vector<std::string>&) {
  return success("2");
}
GtpResponse GtpEngine::name(const std::vector<std::string>&) {
  return success("tengen-referee");
}
GtpResponse GtpEngine::version(const std::vector<std::string>&) {
  return success(std::string(kEngineVersion));
}

GtpResponse GtpEngine::known_command(const std::vector<std::string>& args) {
  if (args.empty()) return success("false");  // as GNU Go answers
  for (const auto& entry : commands()) {
    if (entry.name == args[0]) return success("true");
  }
  return success("false");
}

GtpResponse GtpEngine::list_commands(const std::vector<std::string>&) {
  std::string out;
  for (const auto& entry : commands()) {
    if (!out.empty()) out += '\n';
    out += entry.name;
  }
  return success(out);
}

GtpResponse GtpEngine::quit(const std::vector<std::string>&) {
  quit_ = true;
  return success();
}

GtpResponse GtpEngine::boardsize(const std::vector<std::string>& args) {
  if (args.size() > 2) return failure("syntax error");
  const auto w = args.empty() ? std::nullopt : parse_int(args[0]);
  const auto h = args.size() == 2 ? parse_int(args[1]) : w;
  if (!w || !h) return failure("boardsize not an integer");
  if (!Geometry::valid(*w, *h)) return failure("unacceptable size");
  reset(Geometry{*w, *h});
  return success();
}

GtpResponse GtpEngine::clear_board(const std::vector<std::string>&) {
  reset(board_.geometry());
  return success();
}

GtpResponse GtpEngine::komi(const std::vector<std::string>& args) {
  double k = 0;
  if (args.size() > 1) return failure("syntax error");
  if (args.empty()) return failure("komi not a float");
  if (!read_real(args[0], k) || !std::isfinite(k))
    return failure("komi not a float");  // nan and inf too: final_score would print them
  rules_.komi = k;
  return success();
}

GtpResponse GtpEngine::get_komi(const std::vector<std::string>&) {
  std::ostringstream out;
  out << rules_.komi;
  return success(out.str());
}

MoveError GtpEngine::legality(Point p, Color c) const {
  if (p == kPass) return MoveError::Ok;
  return judge_stone(board_, p, c, rules_, seen_, situations_);
}

void GtpEngine::record(Point p, Color c) {
  Board before = board_;
  board_.play(p, c);
  last_mover_ = c;
  const Reached after{board_.hash(), zobrist::with_side(board_.hash(), opponent(c))};
  history_.push_back({std::move(before), c, p, after});
  seen_.add(after.position);
  situations_.add(after.situation);
}

GtpResponse GtpEngine::play(const std::vector<std::string>& args) {
  if (args.size() > 2) return failure("syntax error");
  if (args.size() < 2) return failure("invalid color or coordinate");
  const auto c = parse_color(args[0]);
  const auto p = board_.geometry().parse_gtp(args[1]);
  if (!c || !p) return failure("invalid color or coordinate");
  if (legality(*p, *c) != MoveError::Ok) return failure("illegal move");
  record(*p, *c);
  return success();
}

GtpResponse GtpEngine::is_legal(const std::vector<std::string>& args) {
  if (args.size() > 2) return failure("syntax error");
  if (args.size() < 2) return failure("invalid color or coordinate");
  const auto c = parse_color(args[0]);
  const auto p = board_.geometry().parse_gtp(args[1]);
  if (!c || !p) return failure("invalid color or coordinate");
  return success(legality(*p, *c) == MoveError::Ok ? "1" : "0");
}

GtpResponse GtpEngine::undo(const std::vector<std::string>&) {
  if (history_.empty()) return failure("cannot undo");
  board_ = history_.back().before;
  history_.pop_back();
  last_mover_ = history_.empty() ? Color::Empty : history_.back().mover;
  rebuild_history_sets();
  return success();
}

GtpResponse GtpEngine::showboard(const std::vector<std::string>&) {
  const Geometry& g = board_.geometry();
  std::string letters = "   ";
  for (int x = 0; x < g.width; ++x) letters += g.to_gtp(g.point(x, 0)).substr(0, 1) + " ";
  std::string out = "\n" + letters + "\n";
  for (int y = 0; y < g.height; ++y) {
    const std::string row = std::to_string(g.height - y);
    out += (row.size() < 2 ? " " : "") + row + " ";
    for (int x = 0; x < g.width; ++x) {
      const Color c = board_.at(g.point(x, y));
      out += c == Color::Black ? 'X' : c == Color::White ? 'O' : '.';
      out += ' ';
    }
    out += row + "\n";
  }
  out += letters + "\n";
  out += "Black (X) has captured " + std::to_string(board_.captures(Color::Black)) + " stones\n";
  out += "White (O) has captured " + std::to_string(board_.captures(Color::White)) + " stones";
  return success(out);
}

GtpResponse GtpEngine::list_stones(const std::vector<std::string>& args) {
  if (args.size() > 1) return failure("syntax error");
  if (args.empty()) return failure("invalid color");
  const auto c = parse_color(args[0]);
  if (!c) return failure("invalid color");
  std::string out;
  const Geometry& g = board_.geometry();
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      if (board_.at(g.point(x, y)) != *c) continue;
      if (!out.empty()) out += ' ';
      out += g.to_gtp(g.point(x, y));
    }
  }
  return success(out);
}

GtpResponse GtpEngine::captures(const std::vector<std::string>& args) {
  if (args.size() > 1) return failure("syntax error");
  if (args.empty()) return failure("invalid color");
  const auto c = parse_color(args[0]);
  if (!c) return failure("invalid color");
  return success(std::to_string(board_.captures(*c)));
}

GtpResponse GtpEngine::fixed_handicap(const std::vector<std::string>& args) {
  if (args.size() > 1) return failure("syntax error");
  // GNU Go's order: the board first, then the count.
  if (board_.empty_count() != board_.geometry().area()) return failure("board not empty");
  const auto n = args.empty() ? std::nullopt : parse_int(args[0]);
  if (!n) return failure("handicap not an integer");
  const auto points = tengen::fixed_handicap(board_.geometry(), *n);
  if (!points) return failure("invalid handicap");
  std::string out;
  for (Point p : *points) {
    board_.set_stone(p, Color::Black);
    if (!out.empty()) out += ' ';
    out += board_.geometry().to_gtp(p);
  }
  position_changed();
  return success(out);
}

GtpResponse GtpEngine::set_free_handicap(const std::vector<std::string>& args) {
  if (board_.empty_count() != board_.geometry().area()) return failure("board not empty");
  if (args.size() < 2 || static_cast<int>(args.size()) >= board_.geometry().area()) {
    return failure("invalid handicap");
  }
  Board placed = board_;
  for (const auto& v : args) {
    const auto p = placed.geometry().parse_gtp(v);
    if (!p || *p == kPass || placed.at(*p) != Color::Empty) return failure("bad vertex list");
    placed.set_stone(*p, Color::Black);
  }
  board_ = placed;
  position_changed();
  return success();
}

// The game so far as SGF (GNU Go's command): the start position's stones as setup, then every
// move; with a file name, written there instead.
GtpResponse GtpEngine::printsgf(const std::vector<std::string>& args) {
  if (args.size() > 1) return failure("syntax error");
  GameRecord r;
  r.set_up(history_.empty() ? board_ : history_.front().before);
  r.komi = rules_.komi;
  r.rules = std::string(rules_.preset_name().value_or(""));
  for (const auto& move : history_) r.moves.push_back(RecordedMove::of({move.mover, move.point}));
  std::string text = write_sgf(r);
  while (text.ends_with('\n')) text.pop_back();  // a blank line would end the GTP answer
  if (args.empty()) return success(text);
  std::ofstream file(args[0], std::ios::binary);
  if (!(file << text << '\n')) return failure("cannot write '" + args[0] + "'");
  return success();
}

GtpResponse GtpEngine::loadsgf(const std::vector<std::string>& args) {
  if (args.size() > 2) return failure("syntax error");
  if (args.empty()) return failure("missing filename");
  std::optional<int> stop;
  if (args.size() == 2) {
    stop = parse_int(args[1]);
    if (!stop) return failure("syntax error");
  }
  std::ifstream file(args[0], std::ios::binary);
  if (!file) return failure("cannot open or parse '" + args[0] + "'");
  std::stringstream text;
  text << file.rdbuf();
  GameRecord record;
  try {
    record = read_sgf(text.str());
  } catch (const SgfError& e) {
    return failure(std::string("cannot open or parse '") + args[0] + "': " + e.what());
  }
  GtpEngine loaded;
  loaded.rules_ = rules_;
  loaded.rules_.komi = record.komi;
  loaded.reset(record.geometry());
  try {
    for (Point p : record.setup_black) loaded.board_.set_stone(p, Color::Black);
    for (Point p : record.setup_white) loaded.board_.set_stone(p, Color::White);
  } catch (const std::invalid_argument& e) {
    return failure(std::string("bad setup in SGF: ") + e.what());
  }
  loaded.position_changed();
  Color next = record.player_to_move != Color::Empty                       ? record.player_to_move
               : record.setup_black.empty() || !record.setup_white.empty() ? Color::Black
                                                                           : Color::White;
  // GTP: move_number is the number of the move that is *not* yet played (1 = before the first);
  // 0 or less, as GNU Go reads it, is the whole game. Setup nodes during the game (AB AW AE) are
  // done where they stand and count as no move; an undo past one takes it back with the move
  // before it.
  const std::size_t limit = stop && *stop > 0 ? static_cast<std::size_t>(*stop - 1)
                                              : std::numeric_limits<std::size_t>::max();
  std::size_t played = 0;
  for (const RecordedMove& m : record.moves) {
    if (m.is_move() && played == limit) {
      next = m.color;  // stopped before the end: the colour of the record's next move (as GNU Go)
      break;
    }
    if (!m.add_black.empty() || !m.add_white.empty() || !m.add_empty.empty()) {
      try {
        for (Point p : m.add_empty) loaded.board_.set_stone(p, Color::Empty);
        for (Point p : m.add_black) loaded.board_.set_stone(p, Color::Black);
        for (Point p : m.add_white) loaded.board_.set_stone(p, Color::White);
      } catch (const std::invalid_argument& e) {
        return failure("bad setup after move " + std::to_string(played) +
                       " of the SGF: " + e.what());
      }
      loaded.position_changed();
    }
    if (!m.is_move()) continue;
    if (loaded.legality(m.point, m.color) != MoveError::Ok) {
      return failure("illegal move " + loaded.board_.geometry().to_gtp(m.point) + " at move " +
                     std::to_string(played + 1) + " of the SGF");
    }
    loaded.record(m.point, m.color);
    next = opponent(m.color);
    ++played;
  }
  *this = std::move(loaded);
  return success(next == Color::Black ? "black" : "white");
}

GtpResponse GtpEngine::final_score(const std::vector<std::string>&) {
  return success(tromp_taylor_score(board_, rules_.komi).result().to_sgf());
}

GtpResponse GtpEngine::final_status_list(const std::vector<std::string>& args) {
  if (args.size() > 1) return failure("syntax error");
  if (args.empty()) return failure("missing status");
  const std::string status = lower(args[0]);
  if (status != "dead" && status != "alive" && status != "seki") return failure("invalid status");
  const std::vector<Point> dead = suggest_dead_stones(board_);
  const Score score = score_position(board_, rules_, dead, {0, 0, 0}, 0);
  const Geometry& g = board_.geometry();
  std::vector<bool> listed(kMaxPoints, false);
  std::string out;
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Point p = g.point(x, y);
      if (!is_stone(board_.at(p)) || listed[static_cast<std::size_t>(p)]) continue;
      const bool is_dead = std::find(dead.begin(), dead.end(), p) != dead.end();
      const bool is_seki = score.seki[static_cast<std::size_t>(g.linear(p))];
      const bool wanted = status == "dead" ? is_dead : status == "seki" ? is_seki : !is_dead;
      if (!wanted) continue;
      std::string line;
      for (Point s : board_.chain_stones(p)) {
        listed[static_cast<std::size_t>(s)] = true;
        if (!line.empty()) line += ' ';
        line += g.to_gtp(s);
      }
      if (!out.empty()) out += '\n';
      out += line;
    }
  }
  return success(out);
}

GtpResponse GtpEngine::kgs_rules(const std::vector<std::string>& args) {
  if (args.size() != 1) return failure("syntax error");
  auto rules = Rules::preset(args[0]);
  if (!rules) return failure("unknown rules");
  rules->komi = rules_.komi;
  rules_ = *rules;
  return success();
}

GtpResponse GtpEngine::tengen_rules(const std::vector<std::string>& args) {
  if (args.empty()) return success(rules_.to_string());
  // Options alone change the current rules; a preset replaces them. The komi stays unless given,
  // as with kgs-rules.
  std::string text = args[0].find('=') == std::string::npos ? "" : rules_.to_string() + " ";
  for (const auto& a : args) text += a + " ";
  const bool komi_given =
      std::any_of(args.begin(), args.end(), [](const auto& a) { return a.starts_with("komi="); });
  std::string error;
  auto rules = Rules::parse(text, &error);
  if (!rules) return failure(error);
  if (!komi_given) rules->komi = rules_.komi;
  rules_ = *rules;
  return success();
}

}  // namespace tengen
