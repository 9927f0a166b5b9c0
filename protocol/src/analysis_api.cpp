#include "protocol/analysis_api.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace tengen::protocol::http {
namespace {

using json = nlohmann::json;

// To `per` parts of one (10: a tenth), written as the shortest decimal that reads back.
double rounded(double v, double per) {
  return std::round(v * per) / per;
}

json position_json(const AnalysedPosition& p) {
  json j{{"move", p.move}, {"line", p.line}};
  if (p.score) j["score"] = rounded(*p.score, 10);
  if (p.winrate) j["winrate"] = rounded(*p.winrate, 1000);
  return j;
}

json result_json(const AnalysisResult& r) {
  json positions = json::array();
  for (const auto& p : r.positions) positions.push_back(position_json(p));
  return json{{"engine", r.engine}, {"positions", std::move(positions)}};
}

bool printable(const std::string& s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f) return false;
  return true;
}

// A move as an engine writes it: "pass", or a letter (A-Z without I) and a number.
bool vertex_shaped(const std::string& s) {
  if (s == "pass" || s == "PASS" || s == "Pass") return true;
  if (s.size() < 2 || s.size() > 3) return false;
  const char letter = static_cast<char>(s[0] & ~0x20);
  if (letter < 'A' || letter > 'Z' || letter == 'I') return false;
  for (std::size_t i = 1; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return s[1] != '0';
}

// Position `index` of a result whose first position is `first` (its move must be first + index).
std::variant<AnalysedPosition, std::string> decode_position(const json& j, std::size_t index,
                                                            int first) {
  const std::string at = "position " + std::to_string(index) + ": ";
  if (!j.is_object()) return at + "must be a JSON object";
  AnalysedPosition p;
  bool has_move = false;
  for (const auto& [key, value] : j.items()) {
    if (key == "move") {
      if (!value.is_number_integer()) return at + "'move' must be a whole number";
      p.move = value.get<int>();
      has_move = true;
    } else if (key == "score") {
      if (!value.is_number() || !std::isfinite(value.get<double>()) ||
          std::fabs(value.get<double>()) > kMaxAnalysisScore)
        return at + "'score' must be a number of points between -1000 and 1000";
      p.score = value.get<double>();
    } else if (key == "winrate") {
      if (value.is_null()) continue;
      if (!value.is_number() || !(value.get<double>() >= 0 && value.get<double>() <= 1))
        return at + "'winrate' must be a number from 0 to 1";
      p.winrate = value.get<double>();
    } else if (key == "line") {
      if (!value.is_array() || value.size() > kMaxAnalysisLine)
        return at + "'line' must be a list of at most 20 moves";
      for (const auto& m : value) {
        if (!m.is_string() || !vertex_shaped(m.get_ref<const std::string&>()))
          return at + "'line' must hold moves such as \"D4\" or \"pass\"";
        std::string move = m.get<std::string>();
        if (move == "PASS" || move == "Pass") move = "pass";
        for (auto& c : move)
          if (c >= 'a' && c <= 'z' && move != "pass") c = static_cast<char>(c - 'a' + 'A');
        p.line.push_back(std::move(move));
      }
    } else {
      return at + "unknown field '" + key + "'";
    }
  }
  if (!has_move) return at + "missing field 'move'";
  if (!p.score && !p.winrate) return at + "needs a 'score' or a 'winrate'";
  if (index == 0 && (p.move < 0 || p.move >= static_cast<int>(kMaxAnalysisPositions)))
    return at + "'move' must be from 0 to 1000";
  if (index > 0 && p.move != first + static_cast<int>(index))
    return at + "'move' must be " + std::to_string(first + static_cast<int>(index)) +
           " (positions in order)";
  return p;
}

}  // namespace

std::string encode_analysis_job(const AnalysisJob& job) {
  json j{{"sgf", job.sgf}, {"positions", job.positions}};
  if (job.position) {
    j["position"] = job.position;
    j["from"] = job.from;
  } else {
    j["game"] = job.game;
  }
  return j.dump();
}

std::variant<AnalysisJob, std::string> decode_analysis_job(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::string("the job must be a JSON object");
  AnalysisJob job;
  const auto whole = [&](const char* key) {
    return j.contains(key) && j[key].is_number_integer() && j[key].get<std::int64_t>() >= 0;
  };
  if (!(whole("game") || whole("position")) || !j.contains("sgf") || !j["sgf"].is_string() ||
      !whole("positions"))
    return std::string("a job has 'game' (or 'position'), 'sgf' and 'positions'");
  if (whole("position")) {
    job.position = j["position"].get<std::int64_t>();
    if (!whole("from")) return std::string("a position's job has 'from'");
    job.from = j["from"].get<int>();
  } else {
    job.game = j["game"].get<std::int64_t>();
  }
  job.sgf = j["sgf"].get<std::string>();
  job.positions = j["positions"].get<int>();
  return job;
}

bool acquires_positions(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  return j.is_object() && j.contains("positions") && j["positions"] == true;
}

std::string encode_analysis_result(const AnalysisResult& result) {
  return result_json(result).dump();
}

std::variant<AnalysisResult, std::string> decode_analysis_result(std::string_view body) {
  if (body.size() > kMaxAnalysisBody) return std::string("the result is larger than 256 KiB");
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::string("the body must be a JSON object");
  AnalysisResult r;
  bool has_positions = false;
  for (const auto& [key, value] : j.items()) {
    if (key == "engine") {
      if (!value.is_string() || value.get_ref<const std::string&>().empty() ||
          value.get_ref<const std::string&>().size() > kMaxEngineName ||
          !printable(value.get_ref<const std::string&>()))
        return std::string("'engine' must name the engine in at most 80 printable characters");
      r.engine = value.get<std::string>();
    } else if (key == "positions") {
      if (!value.is_array() || value.empty() || value.size() > kMaxAnalysisPositions)
        return std::string("'positions' must be a list of 1 to 1001 positions");
      for (std::size_t i = 0; i < value.size(); ++i) {
        auto p = decode_position(value[i], i, r.positions.empty() ? 0 : r.positions[0].move);
        if (auto* why = std::get_if<std::string>(&p)) return std::move(*why);
        auto& decoded = std::get<AnalysedPosition>(p);
        // One measure over the whole result: points everywhere, or win rates only (an engine
        // such as Leela Zero gives no score).
        if (!r.positions.empty() && decoded.score.has_value() != r.positions[0].score.has_value())
          return "position " + std::to_string(i) +
                 ": every position has a 'score', or none (win rates only)";
        r.positions.push_back(std::move(decoded));
      }
      has_positions = true;
    } else {
      return "unknown field '" + key + "'";
    }
  }
  if (r.engine.empty()) return std::string("missing field 'engine'");
  if (!has_positions) return std::string("missing field 'positions'");
  return r;
}

std::variant<int, std::string> decode_analysis_progress(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.size() != 1 || !j.contains("done") ||
      !j["done"].is_number_integer() || j["done"].get<std::int64_t>() < 0 ||
      j["done"].get<std::int64_t>() > static_cast<std::int64_t>(kMaxAnalysisPositions))
    return std::string("the body must be {\"done\": N}, N from 0 to 1001");
  return j["done"].get<int>();
}

std::string encode_analysis_view(const AnalysisView& v) {
  json j{{"game", v.game},   {"state", v.state},   {"done", v.done},  {"total", v.total},
         {"ahead", v.ahead}, {"engine", v.engine}, {"error", v.error}};
  if (v.result) j["positions"] = result_json(*v.result)["positions"];
  return j.dump();
}

std::variant<PositionRequest, std::string> decode_position_request(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::string("the body must be a JSON object");
  PositionRequest r;
  bool has_node = false, has_line = false;
  for (const auto& [key, value] : j.items()) {
    if (key == "node") {
      if (!value.is_number_integer() || value.get<std::int64_t>() < 0)
        return std::string("'node' must be the board's node number");
      r.node = value.get<std::int64_t>();
      has_node = true;
    } else if (key == "line") {
      if (!value.is_array() || value.size() >= kMaxAnalysisPositions)
        return std::string("'line' must be a list of at most 1000 moves");
      for (const auto& m : value) {
        if (!m.is_object() || m.size() != 2 || !m.contains("color") || !m.contains("vertex") ||
            !m["color"].is_string() || !m["vertex"].is_string() ||
            (m["color"] != "black" && m["color"] != "white") ||
            !vertex_shaped(m["vertex"].get_ref<const std::string&>()))
          return std::string(
              "each move of 'line' is {\"color\": \"black\"|\"white\", \"vertex\": "
              "\"D4\"|\"pass\"}");
        r.line.emplace_back(m["color"] == "white", m["vertex"].get<std::string>());
      }
      has_line = true;
    } else {
      return "unknown field '" + key + "'";
    }
  }
  if (!has_node) return std::string("missing field 'node'");
  if (!has_line) return std::string("missing field 'line'");
  return r;
}

std::string encode_position_view(const PositionAnalysisView& v) {
  json j{{"id", v.id},       {"review", v.review}, {"node", v.node},  {"state", v.state},
         {"ahead", v.ahead}, {"engine", v.engine}, {"error", v.error}};
  if (v.position) j["position"] = position_json(*v.position);
  return j.dump();
}

std::string encode_workers(const std::vector<WorkerView>& workers) {
  json list = json::array();
  for (const auto& w : workers) {
    json j{{"name", w.name},
           {"created_at_ms", w.created_at_ms},
           {"last_seen_at_ms", nullptr},
           {"revoked_at_ms", nullptr}};
    if (w.last_seen_at_ms) j["last_seen_at_ms"] = *w.last_seen_at_ms;
    if (w.revoked_at_ms) j["revoked_at_ms"] = *w.revoked_at_ms;
    list.push_back(std::move(j));
  }
  return json{{"workers", std::move(list)}}.dump();
}

std::variant<std::string, std::string> decode_worker_name(std::string_view body) {
  const auto fail = [](std::string why) {
    return std::variant<std::string, std::string>(std::in_place_index<1>, std::move(why));
  };
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return fail("the body must be a JSON object");
  for (const auto& [key, value] : j.items())
    if (key != "name") return fail("unknown field '" + key + "'");
  if (!j.contains("name") || !j["name"].is_string()) return fail("missing field 'name'");
  return std::variant<std::string, std::string>(std::in_place_index<0>,
                                                j["name"].get<std::string>());
}

std::string encode_worker_key(std::string_view name, std::string_view key) {
  return json{{"name", name}, {"key", key}}.dump();
}

std::string encode_jobs(const std::vector<JobView>& jobs) {
  const auto or_null = [](const auto& v) { return v ? json(*v) : json(nullptr); };
  json list = json::array();
  for (const auto& j : jobs) {
    list.push_back({{"game", j.game},
                    {"state", j.state},
                    {"requested_by", or_null(j.requested_by)},
                    {"requested_at_ms", j.requested_at_ms},
                    {"worker", or_null(j.worker)},
                    {"attempts", j.attempts},
                    {"moves_done", j.moves_done},
                    {"moves_total", j.moves_total},
                    {"engine", j.engine},
                    {"error", j.error},
                    {"finished_at_ms", or_null(j.finished_at_ms)}});
  }
  return json{{"jobs", std::move(list)}}.dump();
}

}  // namespace tengen::protocol::http
