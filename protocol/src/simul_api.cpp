#include "protocol/simul_api.h"

#include <nlohmann/json.hpp>

#include "forms.h"
#include "protocol/codec.h"

namespace tengen::protocol::http {
namespace {

using json = nlohmann::json;
using forms::fail;
using forms::user_json;

json summary(const SimulSummary& s) {
  json j{{"id", s.id},
         {"host", user_json(s.host)},
         {"name", s.name},
         {"settings", json::parse(encode_settings(s.settings))},
         {"boards", s.boards},
         {"players", s.players},
         {"state", s.state},
         {"games_over", s.games_over},
         {"created_at_ms", s.created_at_ms}};
  if (s.started_at_ms) j["started_at_ms"] = *s.started_at_ms;
  return j;
}

}  // namespace

std::variant<SimulForm, std::string> decode_simul_form(std::string_view body) {
  const auto j = forms::object_of(body);
  if (!j) return fail<SimulForm>("the body must be a JSON object");
  for (const auto& [key, value] : j->items())
    if (key != "name" && key != "settings" && key != "boards")
      return fail<SimulForm>("unknown field '" + key + "'");
  SimulForm form;
  if (auto why = forms::read_name(*j, kMaxSimulName, "a simul", form.name))
    return fail<SimulForm>(*why);
  if (auto why = forms::read_event_settings(
          *j, {"color", "private", "rated", "group"}, "a simul",
          "the host plays White on every board, and its games are public and unrated",
          form.settings))
    return fail<SimulForm>(*why);
  // The host is White on every board. An automatic handicap goes with automatic colours in a
  // game's settings (the weaker with Black); here the start resolves it board by board.
  form.settings.color = form.settings.automatic_handicap ? GameSettings::ColorChoice::Automatic
                                                         : GameSettings::ColorChoice::White;
  form.settings.rated = false;
  form.settings.is_private = false;
  if (const auto why = validate(form.settings)) return fail<SimulForm>(*why);
  if (j->contains("boards")) {
    const auto& v = (*j)["boards"];
    if (!v.is_number_integer() || v.get<std::int64_t>() < kMinSimulBoards ||
        v.get<std::int64_t>() > kMaxSimulBoards)
      return fail<SimulForm>("field 'boards' must be a whole number from " +
                             std::to_string(kMinSimulBoards) + " to " +
                             std::to_string(kMaxSimulBoards));
    form.boards = v.get<int>();
  }
  return form;
}

std::string encode_simuls(const std::vector<SimulSummary>& simuls) {
  json list = json::array();
  for (const auto& s : simuls) list.push_back(summary(s));
  return json{{"simuls", std::move(list)}}.dump();
}

std::string encode_simul_page(const SimulPage& page) {
  json boards = json::array();
  for (const auto& b : page.boards) {
    json j{{"player", user_json(b.player)},
           {"rank", b.rank},
           {"joined_at_ms", b.joined_at_ms},
           {"handicap", b.handicap}};
    if (b.game) j["game"] = *b.game;
    if (!b.result.empty()) j["result"] = b.result;
    boards.push_back(std::move(j));
  }
  return json{{"simul", summary(page.simul)}, {"boards", std::move(boards)}}.dump();
}

}  // namespace tengen::protocol::http
