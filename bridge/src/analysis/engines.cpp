#include "analysis/engines.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "analysis/line_process.h"

namespace tengen::analysis {
namespace {

using namespace std::chrono_literals;
namespace wire = protocol::http;
using json = nlohmann::json;

std::vector<Move> moves_of(const GameRecord& record) {
  std::vector<Move> moves;
  for (const auto& m : record.moves)
    if (m.is_move()) moves.push_back({m.color, m.point});
  return moves;
}

void square_only(const GameRecord& record) {
  if (record.width != record.height)
    throw EngineDown("the engine plays square boards only; this game is " +
                     std::to_string(record.width) + "x" + std::to_string(record.height));
}

// A GTP engine's board: the record's size, komi and setup stones.
void set_up(LineProcess& gtp, const GameRecord& record) {
  const auto geometry = record.geometry();
  gtp.gtp("boardsize " + std::to_string(record.width), 60s);
  gtp.gtp("clear_board", 60s);
  gtp.gtp("komi " + std::to_string(record.komi), 60s);
  for (const auto p : record.setup_black) gtp.gtp("play B " + geometry.to_gtp(p), 60s);
  for (const auto p : record.setup_white) gtp.gtp("play W " + geometry.to_gtp(p), 60s);
}

void play(LineProcess& gtp, const GameRecord& record, const Move& m) {
  gtp.gtp(std::string("play ") + (m.color == Color::White ? "W " : "B ") +
              record.geometry().to_gtp(m.point),
          60s);
}

// "W+12.5 (upper bound: ...)", "B+3.0", "0": Black's lead.
double black_lead(const std::string& estimate) {
  std::istringstream in(estimate);
  std::string first;
  in >> first;
  if (first == "0" || first.empty()) return 0;
  if (first.size() < 3 || (first[0] != 'B' && first[0] != 'W') || first[1] != '+')
    throw EngineDown("GNU Go's estimate_score said '" + estimate + "'");
  const double points = std::stod(first.substr(2));
  return first[0] == 'B' ? points : -points;
}

class GnuGo final : public AnalysisEngine {
 public:
  GnuGo(std::string binary, int level) : binary_(std::move(binary)), level_(level) {}

  std::string name() override {
    auto& engine = process();
    return "GNU Go " + engine.gtp("version", 10s) + ", level " + std::to_string(level_);
  }

  wire::AnalysisResult analyse(const GameRecord& record, int from,
                               const std::function<void(int)>& progress) override {
    square_only(record);
    auto& gtp = process();
    const auto geometry = record.geometry();
    set_up(gtp, record);
    const auto moves = moves_of(record);
    const auto to_move = players_to_move(record);
    wire::AnalysisResult result;
    result.engine = name();
    for (std::size_t i = 0; i <= moves.size(); ++i) {
      if (static_cast<int>(i) < from) {  // before the positions asked for: only played
        play(gtp, record, moves[i]);
        continue;
      }
      wire::AnalysedPosition p;
      p.move = static_cast<int>(i);
      const std::string who = to_move[i] == Color::White ? "white" : "black";
      // GNU Go's estimate leans toward the player who moved last (by some ten points on 9x9):
      // the estimate here and the one after GNU Go's own best move here, averaged, cancel that
      // lean, so that consecutive positions compare (docs/analysis.md).
      const double here = black_lead(gtp.gtp("estimate_score", 120s));
      double after_best = here;
      std::istringstream top(gtp.gtp("top_moves_" + who, 300s));
      std::string best;
      if (top >> best && geometry.parse_gtp(best)) {
        p.line.push_back(best);
        gtp.gtp("play " + who + " " + best, 10s);
        after_best = black_lead(gtp.gtp("estimate_score", 120s));
        gtp.gtp("undo", 10s);
      }
      p.score = (here + after_best) / 2;
      result.positions.push_back(std::move(p));
      if (i < moves.size()) play(gtp, record, moves[i]);
      progress(static_cast<int>(result.positions.size()));
    }
    return result;
  }

 private:
  LineProcess& process() {
    if (!engine_)
      engine_ = std::make_unique<LineProcess>(
          std::vector<std::string>{binary_, "--mode", "gtp", "--level", std::to_string(level_)});
    return *engine_;
  }
  std::string binary_;
  int level_;
  std::unique_ptr<LineProcess> engine_;
};

std::string katago_rules(const std::string& ru) {
  std::string r;
  for (char c : ru) r += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (r == "chinese" || r == "cn") return "chinese";
  if (r == "aga") return "aga";
  if (r == "nz" || r == "new zealand" || r == "new-zealand") return "new-zealand";
  if (r == "korean") return "korean";
  if (r == "tromp-taylor" || r == "tromp taylor") return "tromp-taylor";
  return "japanese";
}

std::string colour(Color c) {
  return c == Color::White ? "W" : "B";
}

class KataGo final : public AnalysisEngine {
 public:
  KataGo(std::vector<std::string> command, int visits)
      : command_(std::move(command)), visits_(visits) {}

  std::string name() override {
    if (version_.empty()) {
      auto& engine = process();
      engine.write_line(json{{"id", "version"}, {"action", "query_version"}}.dump());
      for (;;) {
        const json j = json::parse(engine.read_line(60s), nullptr, false);
        if (j.is_object() && j.value("id", "") == "version") {
          version_ = j.value("version", "?");
          break;
        }
      }
    }
    return "KataGo " + version_ + ", " + std::to_string(visits_) + " visits";
  }

  wire::AnalysisResult analyse(const GameRecord& record, int from,
                               const std::function<void(int)>& progress) override {
    square_only(record);
    const auto geometry = record.geometry();
    const auto moves = moves_of(record);
    const auto to_move = players_to_move(record);
    json query{{"id", "game"},
               {"rules", katago_rules(record.rules)},
               {"komi", record.komi},
               {"boardXSize", record.width},
               {"boardYSize", record.height},
               {"maxVisits", visits_},
               {"initialPlayer", colour(to_move.front())}};
    json initial = json::array(), played = json::array(), turns = json::array();
    for (const auto p : record.setup_black) initial.push_back({"B", geometry.to_gtp(p)});
    for (const auto p : record.setup_white) initial.push_back({"W", geometry.to_gtp(p)});
    for (const auto& m : moves) played.push_back({colour(m.color), geometry.to_gtp(m.point)});
    for (auto i = static_cast<std::size_t>(from); i <= moves.size(); ++i) turns.push_back(i);
    query["initialStones"] = std::move(initial);
    query["moves"] = std::move(played);
    query["analyzeTurns"] = std::move(turns);
    const auto engine_name = name();
    auto& engine = process();
    engine.write_line(query.dump());
    std::vector<std::optional<wire::AnalysedPosition>> positions(moves.size() + 1 -
                                                                 static_cast<std::size_t>(from));
    std::size_t answered = 0;
    while (answered < positions.size()) {
      const auto line = engine.read_line(600s);
      const json j = json::parse(line, nullptr, false);
      if (!j.is_object() || j.value("id", "") != "game") continue;  // not ours, or a warning
      if (j.contains("error")) throw EngineDown("KataGo refused the query: " + j["error"].dump());
      if (!j.contains("turnNumber") || !j["turnNumber"].is_number_integer() ||
          !j.contains("rootInfo"))
        continue;  // a warning ({"warning": ...}), or a field this worker does not read
      const auto turn = j["turnNumber"].get<std::size_t>();
      if (turn < static_cast<std::size_t>(from) || turn > moves.size() ||
          positions[turn - static_cast<std::size_t>(from)])
        continue;
      const auto& root = j["rootInfo"];
      // Reported for the side to move: turned to Black's.
      const bool white = to_move[turn] == Color::White;
      wire::AnalysedPosition p;
      p.move = static_cast<int>(turn);
      const double lead = root.value("scoreLead", 0.0);
      p.score = white ? -lead : lead;
      if (root.contains("winrate")) {
        const double rate = root["winrate"].get<double>();
        p.winrate = white ? 1 - rate : rate;
      }
      // The best move: moveInfos' order 0; its principal variation is the line.
      if (j.contains("moveInfos") && j["moveInfos"].is_array()) {
        const json* best = nullptr;
        for (const auto& info : j["moveInfos"])
          if (!best || info.value("order", 1 << 30) < best->value("order", 1 << 30)) best = &info;
        if (best && best->contains("pv") && (*best)["pv"].is_array()) {
          for (const auto& m : (*best)["pv"]) {
            if (p.line.size() == wire::kMaxAnalysisLine) break;
            p.line.push_back(m.get<std::string>());
          }
        } else if (best && best->contains("move")) {
          p.line.push_back((*best)["move"].get<std::string>());
        }
      }
      positions[turn - static_cast<std::size_t>(from)] = std::move(p);
      progress(static_cast<int>(++answered));
    }
    wire::AnalysisResult result{engine_name, {}};
    for (auto& p : positions) result.positions.push_back(std::move(*p));
    return result;
  }

 private:
  LineProcess& process() {
    if (!engine_) engine_ = std::make_unique<LineProcess>(command_);
    return *engine_;
  }
  std::vector<std::string> command_;
  int visits_;
  std::string version_;
  std::unique_ptr<LineProcess> engine_;
};

// One "info move ..." of kata-analyze's output: a candidate move with its numbers and line.
struct Candidate {
  std::string move;
  long visits = 0;
  int order = 1 << 30;
  double winrate = 0.5;
  double score_lead = 0;
  std::vector<std::string> pv;
};

// A kata-analyze line: "info move D4 visits 12 ... winrate 0.53 scoreLead 1.2 order 0 pv D4 Q16
// info move ...": each "info" a candidate; the pv runs to the next "info" (or "ownership").
std::vector<Candidate> candidates_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<Candidate> out;
  std::string word;
  bool in_pv = false;
  while (in >> word) {
    if (word == "info") {
      out.emplace_back();
      in_pv = false;
      continue;
    }
    if (out.empty()) continue;
    auto& c = out.back();
    if (word == "ownership" || word == "ownershipStdev" || word == "movesOwnership") {
      in_pv = false;
      std::string skip;
      while (in >> skip && skip != "info") {
      }
      if (skip == "info") out.emplace_back();
      continue;
    }
    if (in_pv) {
      c.pv.push_back(word);
      continue;
    }
    if (word == "pv") {
      in_pv = true;
      continue;
    }
    std::string value;
    if (!(in >> value)) break;
    try {
      if (word == "move")
        c.move = value;
      else if (word == "visits")
        c.visits = std::stol(value);
      else if (word == "order")
        c.order = std::stoi(value);
      else if (word == "winrate")
        c.winrate = std::stod(value);
      else if (word == "scoreLead")
        c.score_lead = std::stod(value);
    } catch (const std::exception&) {
      throw EngineDown("kata-analyze said '" + word + " " + value + "', not a number");
    }
  }
  return out;
}

// Any GTP engine with kata-analyze (KataGo in GTP mode and its kin) or lz-analyze (Leela Zero,
// SAI): for each position, "kata-analyze COLOUR interval 10" (or "lz-analyze COLOUR 10") until
// the search has `visits` visits in all, then another command stops it. Its numbers are for the
// side to move; lz-analyze's win rate is in ten-thousandths and it gives no score.
class GtpAnalyze final : public AnalysisEngine {
 public:
  GtpAnalyze(std::vector<std::string> command, int visits)
      : command_(std::move(command)), visits_(visits) {}

  std::string name() override {
    auto& gtp = process();
    if (label_.empty()) {
      std::istringstream commands(gtp.gtp("list_commands", 60s));
      bool kata = false, lz = false;
      for (std::string c; commands >> c;) {  // one command a line
        kata = kata || c == "kata-analyze";
        lz = lz || c == "lz-analyze";
      }
      if (!kata && !lz)
        throw EngineDown(
            "this GTP engine has neither kata-analyze nor lz-analyze (its "
            "list_commands)");
      kata_ = kata;
      label_ = gtp.gtp("name", 60s) + " " + gtp.gtp("version", 60s);
    }
    return label_ + ", " + std::to_string(visits_) + " visits";
  }

  wire::AnalysisResult analyse(const GameRecord& record, int from,
                               const std::function<void(int)>& progress) override {
    square_only(record);
    auto& gtp = process();
    wire::AnalysisResult result;
    result.engine = name();
    set_up(gtp, record);
    const auto moves = moves_of(record);
    const auto to_move = players_to_move(record);
    for (std::size_t i = 0; i <= moves.size(); ++i) {
      if (static_cast<int>(i) >= from) {
        result.positions.push_back(search(gtp, static_cast<int>(i), to_move[i] == Color::White));
        progress(static_cast<int>(result.positions.size()));
      }
      if (i < moves.size()) play(gtp, record, moves[i]);
    }
    return result;
  }

 private:
  wire::AnalysedPosition search(LineProcess& gtp, int move, bool white) {
    const std::string colour = white ? "W" : "B";
    gtp.write_line(kata_ ? "kata-analyze " + colour + " interval 10"
                         : "lz-analyze " + colour + " 10");
    std::string reply = gtp.read_line(600s);
    while (reply.empty()) reply = gtp.read_line(600s);
    if (reply[0] == '?') throw EngineDown("the analysis was refused: " + reply);
    std::vector<Candidate> last;
    for (;;) {
      const auto line = gtp.read_line(600s);
      if (!line.starts_with("info")) continue;
      auto candidates = candidates_of(line);
      if (candidates.empty()) continue;
      last = std::move(candidates);
      long visits = 0;
      for (const auto& c : last) visits += c.visits;
      if (visits >= visits_) break;
    }
    // Any command ends the analysis: its output ends with an empty line, then the reply.
    gtp.write_line("protocol_version");
    for (;;) {
      const auto line = gtp.read_line(60s);
      if (line.starts_with("=") || line.starts_with("?")) break;
    }
    gtp.read_line(60s);  // the reply's empty line
    const Candidate* best = &last.front();
    for (const auto& c : last)
      if (c.order < best->order) best = &c;
    wire::AnalysedPosition p;
    p.move = move;
    const double rate = kata_ ? best->winrate : best->winrate / 10000;
    if (rate < 0 || rate > 1)
      throw EngineDown("the engine's win rate " + std::to_string(best->winrate) +
                       " is out of range");
    p.winrate = white ? 1 - rate : rate;
    if (kata_) p.score = white ? -best->score_lead : best->score_lead;
    for (const auto& m : best->pv) {
      if (p.line.size() == wire::kMaxAnalysisLine) break;
      p.line.push_back(m);
    }
    if (p.line.empty() && !best->move.empty()) p.line.push_back(best->move);
    return p;
  }

  LineProcess& process() {
    if (!engine_) engine_ = std::make_unique<LineProcess>(command_);
    return *engine_;
  }
  std::vector<std::string> command_;
  int visits_;
  bool kata_ = true;
  std::string label_;
  std::unique_ptr<LineProcess> engine_;
};

}  // namespace

std::unique_ptr<AnalysisEngine> gtp_analyze_engine(const std::vector<std::string>& command,
                                                   int visits) {
  return std::make_unique<GtpAnalyze>(command, visits);
}

std::vector<Color> players_to_move(const GameRecord& record) {
  std::vector<Color> out;
  Color first = record.player_to_move;
  const auto moves = moves_of(record);
  if (!moves.empty())
    first = moves.front().color;
  else if (first == Color::Empty)
    first = !record.setup_black.empty() && record.setup_white.empty() && record.handicap >= 2
                ? Color::White
                : Color::Black;
  out.push_back(first);
  for (std::size_t i = 1; i < moves.size(); ++i) out.push_back(moves[i].color);
  if (!moves.empty())
    out.push_back(moves.back().color == Color::Black ? Color::White : Color::Black);
  return out;
}

std::unique_ptr<AnalysisEngine> gnugo_engine(const std::string& binary, int level) {
  return std::make_unique<GnuGo>(binary, level);
}

std::unique_ptr<AnalysisEngine> katago_engine(const std::vector<std::string>& command, int visits) {
  return std::make_unique<KataGo>(command, visits);
}

}  // namespace tengen::analysis
