#include "protocol/relay_api.h"

#include <nlohmann/json.hpp>
#include <regex>

#include "forms.h"
#include "protocol/codec.h"

namespace tengen::protocol::http {
namespace {

using json = nlohmann::json;
using forms::fail;
using forms::user_json;

// Text of 1 (0 when `optional`) to `most` characters without control characters, trimmed.
std::optional<std::string> read_text(const json& j, const char* key, std::size_t most,
                                     bool optional, std::string& out) {
  if (!j.contains(key)) {
    if (optional) return std::nullopt;
    return "missing field '" + std::string(key) + "'";
  }
  if (!j[key].is_string()) return "field '" + std::string(key) + "' must be text";
  out = forms::trimmed(j[key].get<std::string>());
  const auto n = forms::characters(out);
  if ((!optional && n < 1) || n > most || forms::control_in(out, false))
    return "field '" + std::string(key) + "' has " + (optional ? "0" : "1") + " to " +
           std::to_string(most) + " characters, without control characters";
  return std::nullopt;
}

std::optional<std::string> read_int(const json& j, const char* key, int least, int most, int& out) {
  if (!j.contains(key)) return std::nullopt;
  const auto& v = j[key];
  if (!v.is_number_integer() || v.get<std::int64_t>() < least || v.get<std::int64_t>() > most)
    return "field '" + std::string(key) + "' must be a whole number from " + std::to_string(least) +
           " to " + std::to_string(most);
  out = static_cast<int>(v.get<std::int64_t>());
  return std::nullopt;
}

json summary(const RelaySummary& s) {
  json j{{"id", s.id},
         {"director", user_json(s.director)},
         {"event", s.event},
         {"black", s.black},
         {"black_rank", s.black_rank},
         {"white", s.white},
         {"white_rank", s.white_rank},
         {"size", s.size},
         {"komi", s.komi},
         {"ruleset", s.ruleset},
         {"handicap", s.handicap},
         {"delay", s.delay},
         {"board", s.board},
         {"commentary", s.commentary},
         {"moves", s.moves},
         {"state", s.state},
         {"created_at_ms", s.created_at_ms}};
  if (s.round > 0) j["round"] = s.round;
  if (s.table > 0) j["table"] = s.table;
  if (!s.last_move.empty()) j["last_move"] = s.last_move;
  if (!s.result.empty()) j["result"] = s.result;
  if (s.finished_at_ms) j["finished_at_ms"] = *s.finished_at_ms;
  return j;
}

constexpr std::string_view kOpKinds[] = {"create", "move", "take_back", "close"};

}  // namespace

std::variant<RelayForm, std::string> decode_relay_form(std::string_view body) {
  const auto j = forms::object_of(body);
  if (!j) return fail<RelayForm>("the body must be a JSON object");
  static constexpr std::string_view kKnown[] = {"event",      "round",   "table",      "black",
                                                "black_rank", "white",   "white_rank", "size",
                                                "komi",       "ruleset", "handicap",   "delay"};
  for (const auto& [key, value] : j->items())
    if (std::find(std::begin(kKnown), std::end(kKnown), key) == std::end(kKnown))
      return fail<RelayForm>("unknown field '" + key + "'");
  RelayForm f;
  for (auto why : {read_text(*j, "event", kMaxRelayEvent, false, f.event),
                   read_text(*j, "black", kMaxRelayPlayer, false, f.black),
                   read_text(*j, "white", kMaxRelayPlayer, false, f.white),
                   read_text(*j, "black_rank", kMaxRelayRank, true, f.black_rank),
                   read_text(*j, "white_rank", kMaxRelayRank, true, f.white_rank),
                   read_int(*j, "round", 1, kMaxRelayRound, f.round),
                   read_int(*j, "table", 1, kMaxRelayTable, f.table),
                   read_int(*j, "delay", 0, kMaxRelayDelay, f.delay)})
    if (why) return fail<RelayForm>(*why);
  if (j->contains("size")) {
    const auto& v = (*j)["size"];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 5 || v.get<std::int64_t>() > 25)
      return fail<RelayForm>("field 'size' must be a whole number from 5 to 25");
    f.size = static_cast<int>(v.get<std::int64_t>());
  }
  if (j->contains("komi")) {
    const auto& v = (*j)["komi"];
    if (!v.is_number() || !Rules::valid_komi(v.get<double>()))
      return fail<RelayForm>("field 'komi' must be a multiple of 0.5");
    f.komi = v.get<double>();
  }
  if (j->contains("ruleset")) {
    const auto& v = (*j)["ruleset"];
    const auto ruleset = v.is_string() ? parse_ruleset(v.get<std::string>()) : std::nullopt;
    if (!ruleset)
      return fail<RelayForm>("field 'ruleset' must name a ruleset, such as \"japanese\"");
    f.ruleset = *ruleset;
  }
  if (j->contains("handicap")) {
    const auto& v = (*j)["handicap"];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > 9 ||
        v.get<std::int64_t>() == 1)
      return fail<RelayForm>("field 'handicap' must be 0, or 2 to 9 stones");
    f.handicap = static_cast<int>(v.get<std::int64_t>());
  }
  return f;
}

std::variant<RelayMoveForm, std::string> decode_relay_move(std::string_view body) {
  const auto j = forms::object_of(body);
  if (!j) return fail<RelayMoveForm>("the body must be a JSON object");
  for (const auto& [key, value] : j->items())
    if (key != "move" && key != "number") return fail<RelayMoveForm>("unknown field '" + key + "'");
  RelayMoveForm f;
  if (!j->contains("move") || !(*j)["move"].is_string())
    return fail<RelayMoveForm>("missing field 'move': a point such as \"D4\", or \"pass\"");
  f.move = (*j)["move"].get<std::string>();
  if (f.move.empty() || f.move.size() > 4)
    return fail<RelayMoveForm>("field 'move' must be a point such as \"D4\", or \"pass\"");
  if (j->contains("number")) {
    int n = 0;
    if (auto why = read_int(*j, "number", 1, kMaxRelayMoves, n)) return fail<RelayMoveForm>(*why);
    f.number = n;
  }
  return f;
}

std::variant<std::string, std::string> decode_relay_result(std::string_view body) {
  using Answer = std::variant<std::string, std::string>;
  const auto bad = [](std::string why) { return Answer(std::in_place_index<1>, std::move(why)); };
  const auto j = forms::object_of(body);
  if (!j) return bad("the body must be a JSON object");
  for (const auto& [key, value] : j->items())
    if (key != "result") return bad("unknown field '" + key + "'");
  if (!j->contains("result") || !(*j)["result"].is_string())
    return bad("missing field 'result', such as \"B+R\" or \"W+2.5\"");
  const auto result = (*j)["result"].get<std::string>();
  static const std::regex kResult(R"((B|W)\+(R|T|F|[0-9]{1,3}(\.5)?)|0|Draw|Void|\?)");
  if (result.size() > kMaxRelayResult || !std::regex_match(result, kResult))
    return bad(
        "field 'result' must be as in SGF: \"B+R\" (resignation), \"W+2.5\" (points), \"B+T\" "
        "(time), \"W+F\" (forfeit), \"0\" (a draw), \"Void\" or \"?\"");
  return Answer(std::in_place_index<0>, result);
}

std::string encode_relays(const std::vector<RelaySummary>& relays) {
  json list = json::array();
  for (const auto& r : relays) list.push_back(summary(r));
  return json{{"relays", std::move(list)}}.dump();
}

std::string encode_relay(const RelaySummary& relay) {
  return summary(relay).dump();
}

std::string encode(const RelayOp& op) {
  return json{{"kind", kOpKinds[static_cast<std::size_t>(op.kind)]},
              {"director", user_json(op.director)},
              {"title", op.title},
              {"sgf", op.sgf},
              {"board", op.board},
              {"commentary", op.commentary},
              {"number", op.number},
              {"vertex", op.vertex},
              {"commentary_too", op.commentary_too}}
      .dump();
}

std::optional<RelayOp> decode_relay_op(std::string_view text) {
  const auto j = json::parse(text, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  try {
    RelayOp op;
    const auto kind = j.at("kind").get<std::string>();
    const auto at = std::find(std::begin(kOpKinds), std::end(kOpKinds), kind);
    if (at == std::end(kOpKinds)) return std::nullopt;
    op.kind = static_cast<RelayOp::Kind>(at - std::begin(kOpKinds));
    op.director = {j.at("director").at("id").get<std::int64_t>(),
                   j.at("director").at("name").get<std::string>()};
    op.title = j.at("title").get<std::string>();
    op.sgf = j.at("sgf").get<std::string>();
    op.board = j.at("board").get<ReviewId>();
    op.commentary = j.at("commentary").get<ReviewId>();
    op.number = j.at("number").get<int>();
    op.vertex = j.at("vertex").get<std::string>();
    op.commentary_too = j.at("commentary_too").get<bool>();
    return op;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

}  // namespace tengen::protocol::http
