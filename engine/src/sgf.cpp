#include "engine/sgf.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <sstream>

#include "numbers.h"

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

void property_list(std::string& out, std::string_view id, const std::vector<std::string>& values) {
  out += id;
  for (const auto& v : values) {
    out += '[';  // piece by piece, as in point_list
    out += escape(v);
    out += ']';
  }
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

struct ParsedNode {
  std::size_t offset;
  Node properties;
  int parent;
};

class Parser {
 public:
  Parser(std::string_view text, std::vector<std::string>& warnings)
      : text_(text), warnings_(warnings) {}

  // The nodes of the first game tree, each with the index of its parent (-1 for the root). With
  // `all` false only the main line is kept (the first variation at every branch); the rest is
  // still checked for syntax. Iterative, so that no nesting of variations can exhaust the stack.
  std::vector<ParsedNode> game_tree(bool all, std::size_t max_nodes) {
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
    struct Open {
      int tail;        // the last node kept in this tree's sequence (children hang from it)
      bool keep;       // whether this tree's nodes are kept
      bool had_child;  // a subtree has been read: no more nodes in this sequence
    };
    std::vector<ParsedNode> nodes;
    std::vector<Open> open;
    for (;;) {
      if (peek() == '(') {
        const int parent = open.empty() ? -1 : open.back().tail;
        const bool keep = open.empty() || (open.back().keep && (all || !open.back().had_child));
        if (!open.empty()) open.back().had_child = true;
        open.push_back({parent, keep, false});
        ++pos_;
        skip_space();
        if (at_end() || peek() != ';') fail("expected ';' to start a node");
      } else if (peek() == ';' && !open.back().had_child) {
        const std::size_t node_start = pos_;
        ++pos_;
        Node node = properties();
        if (open.back().keep) {
          if (nodes.size() >= max_nodes) {
            pos_ = node_start;
            fail("more than " + std::to_string(max_nodes) + " nodes");
          }
          nodes.push_back({node_start, std::move(node), open.back().tail});
          open.back().tail = static_cast<int>(nodes.size() - 1);
        }
      } else if (peek() == ')') {
        ++pos_;
        open.pop_back();
        if (open.empty()) return nodes;
      } else {
        fail(std::string("unexpected character '") + peek() + "'");
      }
      skip_space();
      if (at_end()) fail("unterminated game tree: expected ')'");
    }
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { throw SgfError(pos_, message); }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(peek()))) ++pos_;
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
  if (!read_real(s, v)) {
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

// AB/AW (and TR SQ CR MA) values: points or "aa:cc" rectangles.
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

namespace {

// One node's properties after the ';': setup, move, clocks, marks, comment.
void write_node(std::string& out, const Geometry& g, const TreeNode& node) {
  const RecordedMove& m = node.move;
  point_list(out, "AB", g, m.add_black);
  point_list(out, "AW", g, m.add_white);
  point_list(out, "AE", g, m.add_empty);
  if (m.is_move()) {
    const bool black = m.color == Color::Black;
    property(out, black ? "B" : "W", g.to_sgf(m.point));
    if (m.time_left) property(out, black ? "BL" : "WL", number(*m.time_left));
    if (m.overtime_left) property(out, black ? "OB" : "OW", std::to_string(*m.overtime_left));
    if (m.opponent_time_left) property(out, black ? "WL" : "BL", number(*m.opponent_time_left));
    if (m.opponent_overtime_left)
      property(out, black ? "OW" : "OB", std::to_string(*m.opponent_overtime_left));
  }
  static constexpr std::pair<MarkShape, const char*> kShapes[] = {{MarkShape::Triangle, "TR"},
                                                                  {MarkShape::Square, "SQ"},
                                                                  {MarkShape::Circle, "CR"},
                                                                  {MarkShape::Cross, "MA"}};
  for (const auto& [shape, id] : kShapes) {
    std::vector<Point> points;
    for (const Mark& mark : node.marks)
      if (mark.shape == shape) points.push_back(mark.point);
    point_list(out, id, g, points);
  }
  bool labels = false;
  for (const Mark& mark : node.marks) {
    if (mark.shape != MarkShape::Label) continue;
    if (!labels) out += "LB";
    labels = true;
    out += '[';
    out += g.to_sgf(mark.point);
    out += ':';
    out += escape(mark.label);
    out += ']';
  }
  for (const auto& [id, values] : node.extra) property_list(out, id, values);
  property_if(out, "C", m.comment);
}

}  // namespace

std::string write_sgf(const GameRecord& r) {
  return write_sgf(GameTree::of(r));
}

std::string write_sgf(const GameTree& tree) {
  const GameRecord& r = tree.record;
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
  for (const auto& [id, values] : r.extra) property_list(out, id, values);
  point_list(out, "AB", g, r.setup_black);
  point_list(out, "AW", g, r.setup_white);
  if (r.player_to_move != Color::Empty)
    property(out, "PL", r.player_to_move == Color::Black ? "B" : "W");
  TreeNode root = tree.nodes.front();  // its marks (its setup and comment are the record's)
  root.move = {};
  write_node(out, g, root);
  property_if(out, "C", r.comment);
  // Depth first without recursion: each open sequence is a node whose children are still to be
  // written, the next child's index, and whether the sequence opened with '(' of its own.
  struct Open {
    int node;
    std::size_t next;
    bool parenthesised;
  };
  std::vector<Open> open{{0, 0, false}};
  std::size_t n = 0;
  auto write = [&](int index) {
    out += ++n % 8 == 1 ? "\n;" : ";";
    write_node(out, g, tree.nodes[static_cast<std::size_t>(index)]);
  };
  while (!open.empty()) {
    Open& top = open.back();
    const auto& kids = tree.nodes[static_cast<std::size_t>(top.node)].children;
    if (kids.size() == 1) {  // the sequence goes on
      top.node = kids.front();
      write(top.node);
    } else if (top.next < kids.size()) {  // a branch: each child in parentheses
      const int child = kids[top.next++];
      out += "\n(";
      n = 1;
      write(child);
      open.push_back({child, 0, true});
    } else {
      if (top.parenthesised) out += ')';
      open.pop_back();
    }
  }
  out += ")\n";
  return out;
}

namespace {

// Reads the nodes into a tree: root properties into tree.record, each node's move, clocks,
// setup, comment and marks into its TreeNode.
GameTree interpret(const std::vector<ParsedNode>& nodes, std::vector<std::string>& warnings) {
  GameTree tree;
  GameRecord& r = tree.record;
  r.application.clear();
  auto number_of = [&](const Property& p) {
    return lenient_number(p.values[0], p.offsets[0], p.id, warnings);
  };
  const Node& root = nodes.front().properties;
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
  tree.nodes.clear();
  tree.nodes.reserve(nodes.size());
  for (const auto& [node_offset, node, parent] : nodes) {
    const bool is_root = parent < 0;
    TreeNode out;
    out.parent = parent;
    RecordedMove& move = out.move;
    bool has_move = false;
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
        if (!is_root) {
          add_points(g, p,
                     p.id == "AB"   ? move.add_black
                     : p.id == "AW" ? move.add_white
                                    : move.add_empty);
        } else if (p.id != "AE") {  // nothing to clear on an empty board
          add_points(g, p, p.id == "AB" ? r.setup_black : r.setup_white);
        }
      } else if (p.id == "TR" || p.id == "SQ" || p.id == "CR" || p.id == "MA") {
        const MarkShape shape = p.id == "TR"   ? MarkShape::Triangle
                                : p.id == "SQ" ? MarkShape::Square
                                : p.id == "CR" ? MarkShape::Circle
                                               : MarkShape::Cross;
        std::vector<Point> points;
        add_points(g, p, points);
        for (Point q : points) out.marks.push_back({q, shape, {}});
      } else if (p.id == "LB") {
        for (std::size_t i = 0; i < p.values.size(); ++i) {
          const std::string& label = p.values[i];
          const auto colon = label.find(':');
          if (colon == std::string::npos) throw SgfError(p.offsets[i], "LB needs point:text");
          out.marks.push_back({parse_point(g, label.substr(0, colon), p.offsets[i], false),
                               MarkShape::Label, label.substr(colon + 1)});
        }
      } else if (p.id == "PL") {
        if (v != "B" && v != "W" && v != "b" && v != "w") throw SgfError(at, "PL must be B or W");
        r.player_to_move = v == "B" || v == "b" ? Color::Black : Color::White;
      } else if (p.id == "FF" || p.id == "CA" || p.id == "SZ") {
        continue;  // handled above (FF and CA are written anew)
      } else if (!is_root) {
        out.extra.emplace_back(p.id, p.values);  // annotations, names... kept as they are
      } else if (p.id == "GM") {
        if (v != "1") throw SgfError(at, "not a Go record (GM[" + v + "])");
      } else if (p.id == "KM" || p.id == "HA" || p.id == "TM") {
        const std::string n = number_of(p);
        if (n.empty()) {  // unknown: as if absent
          warnings.push_back("offset " + std::to_string(at) + ": empty " + p.id + "[] ignored");
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
    }
    if (parent >= 0)
      tree.nodes[static_cast<std::size_t>(parent)].children.push_back(
          static_cast<int>(tree.nodes.size()));
    tree.nodes.push_back(std::move(out));
  }
  return tree;
}

}  // namespace

GameRecord GameTree::main_line() const {
  GameRecord r = record;
  r.moves.clear();
  bool seen_move = false;
  for (int at = nodes.front().children.empty() ? -1 : nodes.front().children.front(); at >= 0;
       at = nodes[static_cast<std::size_t>(at)].children.empty()
                ? -1
                : nodes[static_cast<std::size_t>(at)].children.front()) {
    const RecordedMove& m = nodes[static_cast<std::size_t>(at)].move;
    const bool has_setup = !(m.add_black.empty() && m.add_white.empty() && m.add_empty.empty());
    if (!seen_move && !m.is_move()) {  // setup before the game: the record's setup
      r.setup_black.insert(r.setup_black.end(), m.add_black.begin(), m.add_black.end());
      r.setup_white.insert(r.setup_white.end(), m.add_white.begin(), m.add_white.end());
      continue;
    }
    seen_move = true;
    if (m.is_move() || has_setup) r.moves.push_back(m);
  }
  return r;
}

GameTree GameTree::of(const GameRecord& record) {
  GameTree tree;
  tree.record = record;
  tree.record.moves.clear();
  int at = 0;
  for (const RecordedMove& m : record.moves) at = tree.add(at, m);
  return tree;
}

int GameTree::add(int parent, RecordedMove move) {
  const int index = static_cast<int>(nodes.size());
  TreeNode node;
  node.parent = parent;
  node.move = std::move(move);
  nodes.push_back(std::move(node));
  nodes[static_cast<std::size_t>(parent)].children.push_back(index);
  return index;
}

void GameTree::remove(int node) {
  if (node <= 0 || static_cast<std::size_t>(node) >= nodes.size()) return;
  auto& siblings =
      nodes[static_cast<std::size_t>(nodes[static_cast<std::size_t>(node)].parent)].children;
  std::erase(siblings, node);
}

std::vector<int> GameTree::path_to(int node) const {
  std::vector<int> path;
  for (int at = node; at >= 0; at = nodes[static_cast<std::size_t>(at)].parent) path.push_back(at);
  std::reverse(path.begin(), path.end());
  return path;
}

std::vector<int> GameTree::preorder() const {
  std::vector<int> order;
  std::vector<int> todo{0};
  while (!todo.empty()) {
    const int at = todo.back();
    todo.pop_back();
    order.push_back(at);
    const auto& kids = nodes[static_cast<std::size_t>(at)].children;
    todo.insert(todo.end(), kids.rbegin(), kids.rend());
  }
  return order;
}

GameRecord read_sgf(std::string_view text) {
  std::vector<std::string> warnings;
  Parser parser(text, warnings);
  const auto nodes = parser.game_tree(false, std::numeric_limits<std::size_t>::max());
  GameRecord r = interpret(nodes, warnings).main_line();
  r.warnings = std::move(warnings);
  return r;
}

GameTree read_sgf_tree(std::string_view text, std::size_t max_nodes) {
  std::vector<std::string> warnings;
  Parser parser(text, warnings);
  const auto nodes = parser.game_tree(true, max_nodes);
  GameTree tree = interpret(nodes, warnings);
  tree.record.warnings = std::move(warnings);
  return tree;
}

}  // namespace tengen
