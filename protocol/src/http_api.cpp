#include "protocol/http_api.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "protocol/codec.h"

namespace tengen::protocol::http {
namespace {

using json = nlohmann::json;

json user_json(const UserRef& u) {
  return {{"id", u.id}, {"name", u.name}};
}

json game_json(const GameInfo& g) {
  json j{{"id", g.id},
         {"black", user_json(g.black)},
         {"white", user_json(g.white)},
         {"settings", json::parse(encode_settings(g.settings))},
         {"created_at_ms", g.created_at_ms},
         {"ended_at_ms", nullptr},
         {"result", nullptr},
         {"end_reason", nullptr},
         {"move_count", g.move_count}};
  if (g.ended_at_ms) j["ended_at_ms"] = *g.ended_at_ms;
  if (g.result) j["result"] = *g.result;
  if (g.end_reason) j["end_reason"] = *g.end_reason;
  return j;
}

// Two decimals are plenty for people and charts.
double rounded(double x) {
  return std::round(x * 100) / 100;
}

json player_json(const PlayerRating& p) {
  return {{"id", p.user.id},
          {"name", p.user.name},
          {"bot", p.bot},
          {"rating",
           {{"rating", rounded(p.rating)},
            {"deviation", rounded(p.deviation)},
            {"volatility", std::round(p.volatility * 1e6) / 1e6},
            {"rank", p.rank},
            {"provisional", p.provisional},
            {"games", p.games}}}};
}

}  // namespace

std::string encode_player(const PlayerRating& player) {
  return json{{"user", player_json(player)}}.dump();
}

std::string encode_ratings(const std::vector<PlayerRating>& players) {
  json list = json::array();
  for (const auto& p : players) list.push_back(player_json(p));
  return json{{"ratings", list}}.dump();
}

std::string encode_rating_history(const PlayerRating& player,
                                  const std::vector<RatingPoint>& points) {
  json list = json::array();
  for (const auto& p : points) {
    list.push_back({{"game", p.game},
                    {"at_ms", p.at_ms},
                    {"rating", rounded(p.rating)},
                    {"deviation", rounded(p.deviation)},
                    {"rank", p.rank}});
  }
  return json{{"user", player_json(player)}, {"history", list}}.dump();
}

std::string encode_game(const GameInfo& game) {
  return json{{"game", game_json(game)}}.dump();
}

std::string encode_games(const std::vector<GameInfo>& games,
                         std::optional<std::int64_t> next_before) {
  json list = json::array();
  for (const auto& g : games) list.push_back(game_json(g));
  json j{{"games", list}, {"next_before", nullptr}};
  if (next_before) j["next_before"] = *next_before;
  return j.dump();
}

std::variant<Credentials, std::string> decode_credentials(std::string_view body,
                                                          CredentialsFor purpose) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::string("the body must be a JSON object");
  for (const char* field : {"username", "password"}) {
    if (!j.contains(field)) return "missing field '" + std::string(field) + "'";
    if (!j[field].is_string()) return "field '" + std::string(field) + "' must be a string";
  }
  const bool registration = purpose == CredentialsFor::Registration;
  for (const auto& [key, value] : j.items()) {
    if (key == "bot" && registration) {
      if (!value.is_boolean()) return std::string("field 'bot' must be a boolean");
    } else if (key == "invite" && registration) {
      if (!value.is_string() || value.get_ref<const std::string&>().size() > 64)
        return std::string("field 'invite' must be a code of at most 64 characters");
    } else if (key != "username" && key != "password") {
      return "unknown field '" + key + "'";
    }
  }
  return Credentials{j["username"].get<std::string>(), j["password"].get<std::string>(),
                     j.value("bot", false), j.value("invite", std::string())};
}

std::variant<MeUpdate, std::string> decode_me_update(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::string("the body must be a JSON object");
  MeUpdate update;
  for (const auto& [key, value] : j.items()) {
    if (key == "vacation") {
      if (!value.is_boolean())
        return std::string("field 'vacation' must be true (start one) or false (end it)");
      update.vacation = value.get<bool>();
      continue;
    }
    if (key != "time_zone") return "unknown field '" + key + "'";
    if (!value.is_string() || value.get_ref<const std::string&>().size() > 64)
      return std::string("field 'time_zone' must be a time zone's name of at most 64 characters");
    update.time_zone = value.get<std::string>();
  }
  return update;
}

std::variant<PositionQuery, std::string> decode_position_query(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::string("the body must be a JSON object");
  PositionQuery q;
  auto vertices = [](const json& list, std::string_view field,
                     std::vector<std::string>& out) -> std::optional<std::string> {
    if (!list.is_array()) return "field '" + std::string(field) + "' must be an array";
    if (list.size() > 25 * 25) return "field '" + std::string(field) + "' has too many stones";
    for (const json& v : list) {
      if (!v.is_string() || v.get_ref<const std::string&>().empty() ||
          v.get_ref<const std::string&>().size() > 4)
        return "field '" + std::string(field) + "' must hold vertices such as \"D4\"";
      out.push_back(v.get<std::string>());
    }
    return std::nullopt;
  };
  for (const auto& [key, value] : j.items()) {
    if (key == "width" || key == "height") {
      if (!value.is_number_integer() || value.get<int>() < 2 || value.get<int>() > 25)
        return "field '" + key + "' must be a whole number from 2 to 25";
      (key == "width" ? q.width : q.height) = value.get<int>();
    } else if (key == "ruleset") {
      const auto ruleset =
          value.is_string() ? parse_ruleset(value.get<std::string>()) : std::nullopt;
      if (!ruleset) return std::string("field 'ruleset' must name a ruleset, such as \"japanese\"");
      q.ruleset = *ruleset;
    } else if (key == "black" || key == "white") {
      if (auto problem = vertices(value, key, key == "black" ? q.black : q.white)) return *problem;
    } else if (key == "komi") {
      if (!value.is_number() || !(value.get<double>() >= -150 && value.get<double>() <= 150) ||
          value.get<double>() * 2 != static_cast<double>(static_cast<int>(value.get<double>() * 2)))
        return std::string("field 'komi' must be a multiple of 0.5 from -150 to 150");
      q.komi = value.get<double>();
    } else if (key == "handicap") {
      if (!value.is_number_integer() || value.get<int>() < 0 || value.get<int>() > 9)
        return std::string("field 'handicap' must be a whole number from 0 to 9");
      q.handicap = value.get<int>();
    } else if (key == "dead") {
      if (auto problem = vertices(value, key, q.dead.emplace())) return *problem;
    } else if (key == "moves") {
      if (!value.is_array()) return std::string("field 'moves' must be an array");
      if (value.size() > kMaxPositionMoves)
        return "field 'moves' holds more than " + std::to_string(kMaxPositionMoves) + " moves";
      for (const json& m : value) {
        if (!m.is_object() || !m.contains("color") || !m.contains("vertex") || m.size() != 2 ||
            !m["color"].is_string() || !m["vertex"].is_string())
          return std::string(
              "each move must be {\"color\": \"black\" or \"white\", \"vertex\": ...}");
        const std::string color = m["color"].get<std::string>();
        if (color != "black" && color != "white")
          return std::string("a move's colour must be \"black\" or \"white\"");
        std::vector<std::string> one;
        if (auto problem = vertices(json::array({m["vertex"]}), "vertex", one)) return *problem;
        q.moves.push_back({color == "black" ? Color::Black : Color::White, one.front(), {}});
      }
    } else {
      return "unknown field '" + key + "'";
    }
  }
  if (!j.contains("moves")) return std::string("missing field 'moves'");
  return q;
}

namespace {
json position_json(const PositionView& a) {
  json j{{"board", a.board},
         {"to_move", a.to_move == Color::Black ? "black" : "white"},
         {"captures", {{"black", a.captures.black}, {"white", a.captures.white}}},
         {"captured", a.captured}};
  if (a.ko) j["ko"] = *a.ko;
  if (a.score) {
    const auto parts = [](const ScoreParts& p) {
      return json{{"stones", p.stones}, {"territory", p.territory}, {"prisoners", p.prisoners}};
    };
    json score{{"black", a.score->black},
               {"white", a.score->white},
               {"result", a.score->result.to_sgf()},
               {"ownership", a.score->ownership}};
    if (const auto& b = a.score->breakdown) {
      score["breakdown"] = {{"area", b->area},
                            {"black", parts(b->black)},
                            {"white", parts(b->white)},
                            {"komi", b->komi},
                            {"handicap_compensation", b->handicap_compensation}};
    }
    j["score"] = std::move(score);
  }
  return j;
}
}  // namespace

std::string encode_position(const PositionView& a) {
  return position_json(a).dump();
}

std::variant<LocalGameQuery, std::string> decode_local_game(std::string_view body) {
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::string("the body must be a JSON object");
  LocalGameQuery q;
  if (const auto it = j.find("suggest_dead"); it != j.end()) {
    if (!it->is_boolean()) return std::string("field 'suggest_dead' must be true or false");
    q.suggest_dead = it->get<bool>();
    j.erase(it);
  }
  if (const auto it = j.find("resigned"); it != j.end()) {
    if (!it->is_string() || (*it != "black" && *it != "white"))
      return std::string("field 'resigned' must be \"black\" or \"white\"");
    q.resigned = *it == "black" ? Color::Black : Color::White;
    j.erase(it);
  }
  if (j.contains("black") || j.contains("white"))
    return std::string("a local game starts from an empty board: no 'black' or 'white' stones");
  auto position = decode_position_query(j.dump());
  if (auto* problem = std::get_if<std::string>(&position)) return std::move(*problem);
  q.position = std::move(std::get<PositionQuery>(position));
  return q;
}

std::string encode_local_game(const LocalGameView& a) {
  json j{{"position", position_json(a.position)}, {"phase", a.phase}};
  if (a.result) j["result"] = *a.result;
  if (a.suggested_dead) j["suggested_dead"] = *a.suggested_dead;
  return j.dump();
}

std::string encode_shell(std::string_view version, const std::vector<std::string>& files) {
  return json{{"version", version}, {"files", files}}.dump();
}

std::string encode_languages(const std::vector<std::string>& codes) {
  return json{{"languages", codes}}.dump();
}

std::variant<ReviewSource, std::string> decode_review_source(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::string("the body must be a JSON object");
  ReviewSource s;
  for (const auto& [key, value] : j.items()) {
    if (key == "game") {
      if (!value.is_number_integer() || value.get<std::int64_t>() < 1)
        return std::string("field 'game' must be a game id");
      s.game = value.get<std::int64_t>();
    } else if (key == "sgf") {
      if (!value.is_string() || value.get_ref<const std::string&>().empty())
        return std::string("field 'sgf' must be the text of an SGF file");
      if (value.get_ref<const std::string&>().size() > kMaxReviewSgfBytes) {
        return "field 'sgf' is longer than " + std::to_string(kMaxReviewSgfBytes / 1024) + " KiB";
      }
      s.sgf = value.get<std::string>();
    } else if (key == "size") {
      if (!value.is_number_integer() || value.get<int>() < 2 || value.get<int>() > 25)
        return std::string("field 'size' must be a whole number from 2 to 25");
      s.size = value.get<int>();
    } else if (key == "komi") {
      if (!value.is_number() || !Rules::valid_komi(value.get<double>()))
        return std::string("field 'komi' must be a multiple of 0.5");
      s.komi = value.get<double>();
    } else if (key == "ruleset") {
      const auto ruleset =
          value.is_string() ? parse_ruleset(value.get<std::string>()) : std::nullopt;
      if (!ruleset) return std::string("field 'ruleset' must name a ruleset, such as \"japanese\"");
      s.ruleset = *ruleset;
    } else if (key == "title") {
      if (!value.is_string() || value.get_ref<const std::string&>().size() > kMaxReviewTitleBytes)
        return "field 'title' must be text of at most " + std::to_string(kMaxReviewTitleBytes) +
               " bytes";
      s.title = value.get<std::string>();
    } else {
      return "unknown field '" + key + "'";
    }
  }
  if (s.game && s.sgf) return std::string("give either 'game' or 'sgf', not both");
  return s;
}

std::string encode(const ReviewRequest& r) {
  json j{{"owner", user_json(r.owner)}, {"title", r.title}, {"sgf", r.sgf}};
  if (r.game) j["game"] = *r.game;
  if (!r.players.empty()) {
    j["players"] = json::array();
    for (const auto& p : r.players) j["players"].push_back(user_json(p));
  }
  return j.dump();
}

std::optional<ReviewRequest> decode_review_request(std::string_view text) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  try {
    ReviewRequest r;
    r.owner = {j.at("owner").at("id").get<std::int64_t>(),
               j.at("owner").at("name").get<std::string>()};
    r.title = j.at("title").get<std::string>();
    r.sgf = j.at("sgf").get<std::string>();
    if (j.contains("game")) r.game = j["game"].get<std::int64_t>();
    if (j.contains("players")) {
      for (const auto& p : j["players"])
        r.players.push_back({p.at("id").get<std::int64_t>(), p.at("name").get<std::string>()});
    }
    return r;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

std::string encode_reviews(const std::vector<ReviewSummary>& reviews) {
  json list = json::array();
  for (const auto& r : reviews) {
    list.push_back({{"id", r.id},
                    {"title", r.title},
                    {"owner", user_json(r.owner)},
                    {"controller", user_json(r.controller)},
                    {"game", r.game ? json(*r.game) : json(nullptr)},
                    {"width", r.width},
                    {"height", r.height},
                    {"nodes", r.nodes},
                    {"followers", r.followers},
                    {"created_at_ms", r.created_at_ms},
                    {"private", r.is_private},
                    {"active_at_ms", r.active_at_ms}});
  }
  return json{{"reviews", list}}.dump();
}

std::string encode_review_created(std::int64_t id) {
  return json{{"review", {{"id", id}}}}.dump();
}

std::string encode_logged_in(const UserRef& user, const std::string& token, bool admin,
                             std::string_view time_zone) {
  auto j = user_json(user);
  j["admin"] = admin;
  j["time_zone"] = time_zone;
  return json{{"user", j}, {"token", token}}.dump();
}

std::string encode_me(const UserRef& user, bool admin, std::string_view time_zone,
                      const VacationInfo& vacation) {
  auto j = user_json(user);
  j["admin"] = admin;
  j["time_zone"] = time_zone;
  j["vacation"] = {{"left_ms", vacation.left_ms},
                   {"until_ms", vacation.until_ms ? json(*vacation.until_ms) : json(nullptr)}};
  return json{{"user", j}}.dump();
}

std::string encode_sessions(const std::vector<SessionInfo>& sessions) {
  json list = json::array();
  for (const auto& s : sessions) {
    list.push_back({{"id", s.id},
                    {"user_agent", s.user_agent},
                    {"created_at_ms", s.created_at_ms},
                    {"last_seen_at_ms", s.last_seen_at_ms},
                    {"current", s.current}});
  }
  return json{{"sessions", list}}.dump();
}

std::string encode_error(std::string_view code, std::string_view message) {
  return json{{"error", {{"code", code}, {"message", message}}}}.dump();
}

std::string encode_error(std::string_view code, std::string_view message, Refusal reason) {
  return json{{"error", {{"code", code}, {"message", message}, {"reason", wire::name(reason)}}}}
      .dump();
}

}  // namespace tengen::protocol::http
