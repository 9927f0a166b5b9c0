#include "engine/sgf.h"

#include <cctype>
#include <charconv>
#include <sstream>

namespace tengen {
namespace {

// ---- writing ----

std::string escape(std::string_view text) {
  std::string out;
  for (char ch : text) {
    if (ch == ']' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

void property(std::string& out, std::string_view id, std::string_view value) {
  out += id;
  out += '[';
  out += escape(value);
  out += ']';
}

void property_if(std::string& out, std::string_view id, std::string_view value) {
  if (!value.empty()) property(out, id, value);
}

void point_list(std::string& out, std::string_view id, const Geometry& g,
                const std::vector<Point>& points) {
  if (points.empty()) return;
  out += id;
  // Appended piece by piece: "[" + std::string&& makes GCC 12 at -O3 warn of an overlapping
  // memcpy that cannot happen (-Wrestrict, GCC bug 105651), and it saves a temporary.
  for (Point p : points) {
    out += '[';
    out += g.to_sgf(p);
    out += ']';
  }
}

// ---- reading ----

struct Property {
  std::string id;
  std::vector<std::string> values;
  std::vector<std::size_t> offsets;  // of each value, for error messages
};

using Node = std::vector<Property>;

class Parser {
 public:
  Parser(std::string_view text, std::vector<std::string>& warnings)
      : text_(text), warnings_(warnings) {}

  // The main line: the nodes of the first game tree, first variation at every branch.
  std::vector<std::pair<std::size_t, Node>> main_line() {
    if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // a UTF-8 byte order mark
    skip_space();
    // Text before the game tree (a mail header, a title) is skipped, up to the first "(;".
    const std::size_t start = pos_;
    for (std::size_t at = pos_; at < text_.size(); ++at) {
      if (text_[at] != '(') continue;
      std::size_t next = at + 1;
      while (next < text_.size() && std::isspace(static_cast<unsigned char>(text_[next]))) ++next;
      if (next < text_.size() && text_[next] == ';') {
        pos_ = at;
        break;
      }
    }
    if (pos_ > start) {
      warnings_.push_back("offset " + std::to_string(start) + ": " + std::to_string(pos_ - start) +
                          " bytes before the game tree ignored");
    }
    if (at_end() || peek() != '(') fail("expected '(' to start a game tree");
    std::vector<std::pair<std::size_t, Node>> nodes;
    game_tree(nodes, true);
    return nodes;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { throw SgfError(pos_, message); }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(peek()))) ++pos_;
  }

  void game_tree(std::vector<std::pair<std::size_t, Node>>& nodes, bool keep) {
    ++pos_;  // '('
    skip_space();
    if (at_end() || peek() != ';') fail("expected ';' to start a node");
    while (!at_end() && peek() == ';') {
      const std::size_t start = pos_;
      ++pos_;
      Node node = properties();
      if (keep) nodes.emplace_back(start, std::move(node));
      skip_space();
    }
    bool first_child = true;
    while (!at_end() && peek() == '(') {
      game_tree(nodes, keep && first_child);
      first_child = false;
      skip_space();
    }
    if (at_end()) fail("unterminated game tree: expected ')'");
    if (peek() != ')') fail(std::string("unexpected character '") + peek() + "'");
    ++pos_;
  }

  Node properties() {
    Node node;
    for (;;) {
      skip_space();
      if (at_end() || !std::isalpha(static_cast<unsigned char>(peek()))) return node;
      Property p;
      const std::size_t id_start = pos_;
      while (!at_end() && std::isalpha(static_cast<unsigned char>(peek()))) {
        // FF[3] allowed lower-case letters inside identifiers; they carry no meaning.
        if (std::isupper(static_cast<unsigned char>(peek()))) p.id += peek();
        ++pos_;
      }
      if (p.id.empty()) {
        pos_ = id_start;
        fail("property identifier without upper-case letters");
      }
      skip_space();
      if (at_end() || peek() != '[') fail("property " + p.id + " has no value");
      while (!at_end() && peek() == '[') {
        p.offsets.push_back(pos_);
        p.values.push_back(value());
        skip_space();
      }
      bool merged = false;
      for (auto& existing : node) {
        if (existing.id != p.id) continue;
        if (p.id == "B" || p.id == "W") {  // two moves in one node: no sensible reading
          pos_ = id_start;
          fail("property " + p.id + " appears twice in one node");
        }
        warnings_.push_back("offset " + std::to_string(id_start) + ": property " + p.id +
                            " repeated in one node; its values are joined");
        existing.values.insert(existing.values.end(), p.values.begin(), p.values.end());
        existing.offsets.insert(existing.offsets.end(), p.offsets.begin(), p.offsets.end());
        merged = true;
      }
      if (!merged) node.push_back(std::move(p));
    }
  }

  std::string value() {
    const std::size_t start = pos_;
    ++pos_;  // '['
    std::string out;
    while (!at_end() && peek() != ']') {
      char ch = peek();
      if (ch == '\\') {
        ++pos_;
        if (at_end()) break;
        ch = peek();
        if (ch == '\n' || ch == '\r') {  // soft line break
          ++pos_;
          if (!at_end() && (peek() == '\n' || peek() == '\r') && peek() != ch) ++pos_;
          continue;
        }
      }
      out += ch;
      ++pos_;
    }
    if (at_end()) {
      pos_ = start;
      fail("unterminated property value");
    }
    ++pos_;  // ']'
    return out;
  }

  std::string_view text_;
  std::vector<std::string>& warnings_;
  std::size_t pos_ = 0;
};

// A number as written by hand: spaces around it are dropped, and a decimal comma (KM[7,5]) is
// read as a point, with a warning.
std::string lenient_number(const std::string& s, std::size_t offset, std::string_view what,
                           std::vector<std::string>& warnings) {
  std::string v = s;
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.erase(0, 1);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
  if (const auto comma = v.find(',');
      comma != std::string::npos && v.find('.') == std::string::npos)
    v[comma] = '.';
  if (v != s) {
    warnings.push_back("offset " + std::to_string(offset) + ": " + std::string(what) + "[" + s +
                       "] read as " + v);
  }
  return v;
}

int parse_int(const std::string& s, std::size_t offset, std::string_view what) {
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size()) {
    throw SgfError(offset, std::string(what) + " must be a whole number, not '" + s + "'");
  }
  return v;
}

double parse_real(const std::string& s, std::size_t offset, std::string_view what) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size()) {
    throw SgfError(offset, std::string(what) + " must be a number, not '" + s + "'");
  }
  return v;
}

Point parse_point(const Geometry& g, const std::string& s, std::size_t offset, bool pass_ok) {
  auto p = g.parse_sgf(s);
  if (!p && s.size() == 2 && std::isupper(static_cast<unsigned char>(s[0])) &&
      std::isupper(static_cast<unsigned char>(s[1]))) {
    // Upper-case letters are columns past 26, which no board here has: read as lower case.
    p = g.parse_sgf(std::string{static_cast<char>(std::tolower(static_cast<unsigned char>(s[0]))),
                                static_cast<char>(std::tolower(static_cast<unsigned char>(s[1])))});
  }
  if (!p || (!pass_ok && *p == kPass)) throw SgfError(offset, "bad point '" + s + "'");
  return *p;
}

// AB/AW values: points or "aa:cc" rectangles.
void add_points(const Geometry& g, const Property& prop, std::vector<Point>& out) {
  for (std::size_t i = 0; i < prop.values.size(); ++i) {
    const std::string& v = prop.values[i];
    const auto colon = v.find(':');
    if (colon == std::string::npos) {
      out.push_back(parse_point(g, v, prop.offsets[i], false));
      continue;
    }
    const Point a = parse_point(g, v.substr(0, colon), prop.offsets[i], false);
    const Point b = parse_point(g, v.substr(colon + 1), prop.offsets[i], false);
    for (int y = std::min(g.y(a), g.y(b)); y <= std::max(g.y(a), g.y(b)); ++y) {
      for (int x = std::min(g.x(a), g.x(b)); x <= std::max(g.x(a), g.x(b)); ++x) {
        out.push_back(g.point(x, y));
      }
    }
  }
}

}  // namespace

RecordedMove RecordedMove::of(const Move& m) {
  RecordedMove move;
  move.color = m.color;
  move.point = m.point;
  return move;
}

void GameRecord::set_up(const Board& start) {
  width = start.width();
  height = start.height();
  setup_black.clear();
  setup_white.clear();
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const Point p = start.point(x, y);
      if (start.at(p) == Color::Black) setup_black.push_back(p);
      if (start.at(p) == Color::White) setup_white.push_back(p);
    }
  }
}

GameRecord GameRecord::from_game(const Game& game) {
  GameRecord r;
  r.set_up(game.initial_board());
  r.komi = game.rules().komi;
  r.handicap = game.handicap_stones();
  r.rules = std::string(game.rules().preset_name().value_or(""));
  if (game.to_move() != Color::Black && game.moves().empty()) r.player_to_move = game.to_move();
  for (const Move& m : game.moves()) r.moves.push_back(RecordedMove::of(m));
  if (game.result()) r.result = game.result()->to_sgf();
  return r;
}

std::string write_sgf(const GameRecord& r) {
  const Geometry g = r.geometry();
  std::string out = "(;GM[1]FF[4]CA[UTF-8]";
  property_if(out, "AP", r.application);
  property(out, "SZ",
           r.width == r.height ? std::to_string(r.width)
                               : std::to_string(r.width) + ":" + std::to_string(r.height));
  property_if(out, "RU", r.rules);
  property(out, "KM", number(r.komi));
  if (r.handicap > 0) property(out, "HA", std::to_string(r.handicap));
  property_if(out, "PB", r.black_name);
  property_if(out, "BR", r.black_rank);
  property_if(out, "PW", r.white_name);
  property_if(out, "WR", r.white_rank);
  property_if(out, "DT", r.date);
  property_if(out, "EV", r.event);
  property_if(out, "RO", r.round);
  property_if(out, "PC", r.place);
  if (r.time_limit) property(out, "TM", number(*r.time_limit));
  property_if(out, "OT", r.overtime);
  property_if(out, "RE", r.result);
  property_if(out, "GC", r.game_comment);
  for (const auto& [id, values] : r.extra) {
    out += id;
    for (const auto& v : values) {
      out += '[';  // piece by piece, as in point_list
      out += escape(v);
      out += ']';
    }
  }
  point_list(out, "AB", g, r.setup_black);
  point_list(out, "AW", g, r.setup_white);
  if (r.player_to_move != Color::Empty)
    property(out, "PL", r.player_to_move == Color::Black ? "B" : "W");
  property_if(out, "C", r.comment);
  std::size_t n = 0;
  for (const RecordedMove& m : r.moves) {
    out += ++n % 8 == 1 ? "\n;" : ";";
    point_list(out, "AB", g, m.add_black);
    point_list(out, "AW", g, m.add_white);
    point_list(out, "AE", g, m.add_empty);
    if (!m.is_move()) {
      property_if(out, "C", m.comment);
      continue;
    }
    const bool black = m.color == Color::Black;
    property(out, black ? "B" : "W", g.to_sgf(m.point));
    if (m.time_left) property(out, black ? "BL" : "WL", number(*m.time_left));
    if (m.overtime_left) property(out, black ? "OB" : "OW", std::to_string(*m.overtime_left));
    if (m.opponent_time_left) property(out, black ? "WL" : "BL", number(*m.opponent_time_left));
    if (m.opponent_overtime_left)
      property(out, black ? "OW" : "OB", std::to_string(*m.opponent_overtime_left));
    property_if(out, "C", m.comment);
  }
  out += ")\n";
  return out;
}

GameRecord read_sgf(std::string_view text) {
  GameRecord r;
  Parser parser(text, r.warnings);
  const auto nodes = parser.main_line();
  r.application.clear();
  auto number_of = [&](const Property& p) {
    return lenient_number(p.values[0], p.offsets[0], p.id, r.warnings);
  };

  const Node& root = nodes.front().second;
  for (const Property& p : root) {
    if (p.id == "SZ") {
      const std::string v = number_of(p);
      const auto colon = v.find(':');
      r.width = parse_int(v.substr(0, colon), p.offsets[0], "SZ");
      r.height =
          colon == std::string::npos ? r.width : parse_int(v.substr(colon + 1), p.offsets[0], "SZ");
      if (!Geometry::valid(r.width, r.height)) {
        throw SgfError(p.offsets[0], "board size " + v + " is outside 2..25");
      }
    }
  }
  const Geometry g = r.geometry();
  bool seen_move = false;
  for (const auto& [node_offset, node] : nodes) {
    const bool is_root = &node == &root;
    RecordedMove move;
    bool has_move = false;
    bool has_setup = false;  // AB AW AE after the first move
    // Each colour's clock, whatever the order of the properties: which is the mover's is known
    // once the node is read.
    std::optional<double> time_left[2];
    std::optional<int> overtime_left[2];
    for (const Property& p : node) {
      const std::string& v = p.values[0];
      const std::size_t at = p.offsets[0];
      if (p.id == "B" || p.id == "W") {
        if (has_move) throw SgfError(node_offset, "a node with both B and W");
        move.color = p.id == "B" ? Color::Black : Color::White;
        move.point = parse_point(g, v, at, true);
        has_move = true;
      } else if (p.id == "BL" || p.id == "WL") {
        time_left[p.id == "BL" ? 0 : 1] = parse_real(v, at, p.id);
      } else if (p.id == "OB" || p.id == "OW") {
        overtime_left[p.id == "OB" ? 0 : 1] = parse_int(v, at, p.id);
      } else if (p.id == "C") {
        (is_root ? r.comment : move.comment) = v;
      } else if (p.id == "AB" || p.id == "AW" || p.id == "AE") {
        if (seen_move) {  // setup during the game: done in this node, before its move
          add_points(g, p,
                     p.id == "AB"   ? move.add_black
                     : p.id == "AW" ? move.add_white
                                    : move.add_empty);
          has_setup = true;
          continue;
        }
        if (p.id == "AE") continue;  // nothing to clear on an empty board
        add_points(g, p, p.id == "AB" ? r.setup_black : r.setup_white);
      } else if (p.id == "PL") {
        if (v != "B" && v != "W" && v != "b" && v != "w") throw SgfError(at, "PL must be B or W");
        r.player_to_move = v == "B" || v == "b" ? Color::Black : Color::White;
      } else if (!is_root || p.id == "FF" || p.id == "CA" || p.id == "SZ") {
        continue;  // handled above, or markup and annotations on move nodes (not kept)
      } else if (p.id == "GM") {
        if (v != "1") throw SgfError(at, "not a Go record (GM[" + v + "])");
      } else if (p.id == "KM" || p.id == "HA" || p.id == "TM") {
        const std::string n = number_of(p);
        if (n.empty()) {  // unknown: as if absent
          r.warnings.push_back("offset " + std::to_string(at) + ": empty " + p.id + "[] ignored");
        } else if (p.id == "KM") {
          r.komi = parse_real(n, at, "KM");
        } else if (p.id == "HA") {
          r.handicap = parse_int(n, at, "HA");
        } else {
          r.time_limit = parse_real(n, at, "TM");
        }
      } else {
        static const std::pair<const char*, std::string GameRecord::*> kText[] = {
            {"RU", &GameRecord::rules},      {"PB", &GameRecord::black_name},
            {"PW", &GameRecord::white_name}, {"BR", &GameRecord::black_rank},
            {"WR", &GameRecord::white_rank}, {"DT", &GameRecord::date},
            {"EV", &GameRecord::event},      {"RO", &GameRecord::round},
            {"PC", &GameRecord::place},      {"RE", &GameRecord::result},
            {"OT", &GameRecord::overtime},   {"GC", &GameRecord::game_comment},
            {"AP", &GameRecord::application}};
        bool known = false;
        for (const auto& [id, field] : kText) {
          if (p.id == id) {
            r.*field = v;
            known = true;
          }
        }
        if (!known) r.extra.emplace_back(p.id, p.values);
      }
    }
    if (has_move) {
      const int mover = move.color == Color::Black ? 0 : 1;
      move.time_left = time_left[mover];
      move.overtime_left = overtime_left[mover];
      move.opponent_time_left = time_left[1 - mover];
      move.opponent_overtime_left = overtime_left[1 - mover];
      r.moves.push_back(std::move(move));
      seen_move = true;
    } else if (has_setup &&
               !(move.add_black.empty() && move.add_white.empty() && move.add_empty.empty())) {
      r.moves.push_back(std::move(move));  // setup only: no move
    }
  }
  return r;
}

}  // namespace tengen
