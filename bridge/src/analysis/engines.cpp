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

  wire::AnalysisResult analyse(const GameRecord& record,
                               const std::function<void(int)>& progress) override {
    square_only(record);
    auto& gtp = process();
    const auto geometry = record.geometry();
    gtp.gtp("boardsize " + std::to_string(record.width), 10s);
    gtp.gtp("clear_board", 10s);
    gtp.gtp("komi " + std::to_string(record.komi), 10s);
    for (const auto p : record.setup_black) gtp.gtp("play black " + geometry.to_gtp(p), 10s);
    for (const auto p : record.setup_white) gtp.gtp("play white " + geometry.to_gtp(p), 10s);
    const auto moves = moves_of(record);
    const auto to_move = players_to_move(record);
    wire::AnalysisResult result;
    result.engine = name();
    for (std::size_t i = 0; i <= moves.size(); ++i) {
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
      if (i < moves.size())
        gtp.gtp(std::string("play ") + (moves[i].color == Color::White ? "white " : "black ") +
                    geometry.to_gtp(moves[i].point),
                10s);
      progress(static_cast<int>(i + 1));
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

  wire::AnalysisResult analyse(const GameRecord& record,
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
    for (std::size_t i = 0; i <= moves.size(); ++i) turns.push_back(i);
    query["initialStones"] = std::move(initial);
    query["moves"] = std::move(played);
    query["analyzeTurns"] = std::move(turns);
    result_.engine = name();
    auto& engine = process();
    engine.write_line(query.dump());
    std::vector<std::optional<wire::AnalysedPosition>> positions(moves.size() + 1);
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
      if (turn >= positions.size() || positions[turn]) continue;
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
      positions[turn] = std::move(p);
      progress(static_cast<int>(++answered));
    }
    wire::AnalysisResult result{result_.engine, {}};
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
  wire::AnalysisResult result_;
  std::unique_ptr<LineProcess> engine_;
};

}  // namespace

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
