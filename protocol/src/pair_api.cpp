#include "protocol/pair_api.h"

#include <nlohmann/json.hpp>

#include "forms.h"
#include "protocol/codec.h"

namespace tengen::protocol::http {
namespace {

using json = nlohmann::json;
using forms::fail;
using forms::user_json;

json summary(const PairSummary& s) {
  json j{{"id", s.id},
         {"host", user_json(s.host)},
         {"name", s.name},
         {"settings", json::parse(encode_settings(s.settings))},
         {"team_size", s.team_size},
         {"black", s.black},
         {"white", s.white},
         {"state", s.state},
         {"created_at_ms", s.created_at_ms}};
  if (s.game) j["game"] = *s.game;
  if (!s.result.empty()) j["result"] = s.result;
  if (s.started_at_ms) j["started_at_ms"] = *s.started_at_ms;
  return j;
}

}  // namespace

std::variant<PairForm, std::string> decode_pair_form(std::string_view body) {
  const auto j = forms::object_of(body);
  if (!j) return fail<PairForm>("the body must be a JSON object");
  for (const auto& [key, value] : j->items())
    if (key != "name" && key != "settings" && key != "team_size")
      return fail<PairForm>("unknown field '" + key + "'");
  PairForm form;
  if (auto why = forms::read_name(*j, kMaxPairName, "a pair Go game", form.name))
    return fail<PairForm>(*why);
  if (auto why = forms::read_event_settings(
          *j, {"color", "private", "rated", "group"}, "a pair Go game",
          "the teams choose their colour when they join, and the game is public and unrated",
          form.settings))
    return fail<PairForm>(*why);
  if (form.settings.automatic_handicap)
    return fail<PairForm>(
        "a pair Go game's handicap is given in stones (0, or 2 to 9): teams have no one rank");
  if (form.settings.time.system == TimeControl::System::Correspondence)
    return fail<PairForm>(
        "a pair Go game is played live: choose a clock other than "
        "correspondence");
  form.settings.color = GameSettings::ColorChoice::Black;  // the Black team is Black
  if (const auto why = validate(form.settings)) return fail<PairForm>(*why);
  if (j->contains("team_size")) {
    const auto& v = (*j)["team_size"];
    if (!v.is_number_integer() || v.get<std::int64_t>() < kMinTeamSize ||
        v.get<std::int64_t>() > kMaxTeamSize)
      return fail<PairForm>("field 'team_size' must be 2 (pair Go), 3 or 4 (rengo)");
    form.team_size = v.get<int>();
  }
  return form;
}

std::variant<Color, std::string> decode_pair_join(std::string_view body) {
  const auto j = forms::object_of(body);
  if (!j) return fail<Color>("the body must be a JSON object");
  for (const auto& [key, value] : j->items())
    if (key != "team") return fail<Color>("unknown field '" + key + "'");
  const auto team = j->value("team", json());
  if (team == "black") return Color::Black;
  if (team == "white") return Color::White;
  return fail<Color>("field 'team' must be \"black\" or \"white\"");
}

std::string encode_pairs(const std::vector<PairSummary>& pairs) {
  json list = json::array();
  for (const auto& s : pairs) list.push_back(summary(s));
  return json{{"pairs", std::move(list)}}.dump();
}

std::string encode_pair_page(const PairPage& page) {
  const auto team = [](const std::vector<PairMember>& members) {
    json list = json::array();
    for (const auto& m : members)
      list.push_back({{"player", user_json(m.player)}, {"rank", m.rank}});
    return list;
  };
  return json{
      {"pair", summary(page.pair)}, {"black", team(page.black)}, {"white", team(page.white)}}
      .dump();
}

}  // namespace tengen::protocol::http
