#include "tournaments/federation.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <variant>
#include <vector>

// The European Go Database's format is described by the EGF's rating maintainer ("Comments on
// submitting tournament results": one line per player, results as <opponent's number><+|-|=>
// [/<b|w>[<handicap>]], 0+ / 0- / 0= for a round without an opponent, ';' starting a comment)
// and its header lines (CL, EV, PC, DT, HA, KM, TM, CM) are those the EGD's parser reads. Written
// here from those descriptions; the tests check each field.

namespace tengen::federation {
namespace {

using json = nlohmann::json;
using System = protocol::TimeControl::System;

std::string number(double value) {
  char text[32];
  if (value == std::floor(value))
    std::snprintf(text, sizeof text, "%.0f", value);
  else
    std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string padded(std::string text, std::size_t width, bool right) {
  if (text.size() >= width) return text;
  const std::string pad(width - text.size(), ' ');
  return right ? pad + text : text + pad;
}

// A name as one word of the line: its spaces as underscores ("de Vries" → "de_Vries"); "-"
// for none.
std::string word(std::string text) {
  if (text.empty()) return "-";
  for (auto& c : text) {
    if (c == ' ') c = '_';
  }
  return text;
}

std::string date_of(std::int64_t unix_ms) {
  const std::chrono::sys_days day = std::chrono::floor<std::chrono::days>(
      std::chrono::sys_time<std::chrono::milliseconds>(std::chrono::milliseconds(unix_ms)));
  const std::chrono::year_month_day ymd{day};
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return text;
}

// The column of a tie-break, and the standings' field it shows.
std::pair<std::string, std::string> criterion(const std::string& tie_break) {
  if (tie_break == "score") return {"MMS", "score"};
  if (tie_break == "wins") return {"NBW", "points"};
  if (tie_break == "sos") return {"SOS", "sos"};
  if (tie_break == "sosos") return {"SOSOS", "sosos"};
  return {"SODOS", "sodos"};
}

// One result of a player's line: the opponent's line number, the result from this player's
// side, the colour and the handicap. A game won or lost by forfeit was not played: for the
// ratings it is a round without an opponent.
std::string result_cell(const json& cell, const std::map<std::int64_t, int>& numbers) {
  if (cell.is_null()) return "0-";
  if (cell.value("bye", false)) return "0+";
  const std::string result = cell.at("result").get<std::string>();
  if (cell.value("forfeit", false) && result != "?") return result == "+" ? "0+" : "0-";
  const auto found = numbers.find(cell.at("opponent").get<std::int64_t>());
  std::string text = (found == numbers.end() ? "0" : std::to_string(found->second)) + result + "/" +
                     cell.at("color").get<std::string>();
  const int handicap = cell.value("handicap", 0);
  if (handicap > 0) text += std::to_string(handicap);
  return text;
}

protocol::TournamentSettings settings_of(const json& t) {
  auto decoded = protocol::decode_tournament_settings(t.at("settings").dump());
  if (const auto* problem = std::get_if<std::string>(&decoded))
    throw std::runtime_error("the tournament's settings are unreadable: " + *problem);
  return std::get<protocol::TournamentSettings>(std::move(decoded));
}

// The days its rounds began (published, over the board), or the day it was made.
std::vector<std::int64_t> round_days(const json& t) {
  std::vector<std::int64_t> days;
  for (const auto& line : t.at("audit")) {
    if (line.at("kind") == "round_started") days.push_back(line.at("at_ms"));
  }
  if (days.empty()) days.push_back(t.at("created_at_ms").get<std::int64_t>());
  return days;
}

// A player's family and given names: as the director registered them, or an account's name and
// none.
std::pair<std::string, std::string> names_of(const json& e) {
  // An account: its name, unless the director registered the player's real names.
  if (e.value("account", true) && !e.contains("family_name"))
    return {e.at("name").get<std::string>(), ""};
  return {e.value("family_name", std::string()), e.value("given_name", std::string())};
}

std::string xml_escaped(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// An XML element with its attributes in the order given, on a line of its own.
std::string element(int indent, const std::string& name,
                    const std::vector<std::pair<std::string, std::string>>& attributes) {
  std::string out(static_cast<std::size_t>(indent) * 4, ' ');
  out += "<" + name;
  for (const auto& [key, value] : attributes) out += " " + key + "=\"" + xml_escaped(value) + "\"";
  return out + "/>\n";
}

}  // namespace

std::int64_t adjusted_seconds(const protocol::TimeControl& t) {
  const std::int64_t main = t.main_ms / 1000;
  switch (t.system) {
    case System::Absolute:
      return main;
    case System::ByoYomi:
      return main + 45 * (t.period_ms / 1000);
    case System::Canadian:
      return t.stones > 0 ? main + 60 * (t.period_ms / 1000) / t.stones : main;
    case System::Fischer:
      return main + 120 * (t.increment_ms / 1000);
    case System::Simple:
      return 120 * (t.per_move_ms / 1000);
    case System::None:
    case System::Correspondence:
      break;
  }
  return 0;
}

char egd_class(const protocol::TournamentSettings& s) {
  const auto& t = s.game.time;
  if (t.system == System::None || t.system == System::Correspondence) return 'X';
  const std::int64_t main = t.system == System::Simple ? 0 : t.main_ms / 1000;
  const std::int64_t adjusted = adjusted_seconds(t);
  const bool fischer = t.system == System::Fischer;
  const auto at_least = [&](std::int64_t m, std::int64_t a) { return main >= m && adjusted >= a; };
  if (!s.over_the_board) return at_least(fischer ? 1800 : 2400, 3000) ? 'D' : 'X';
  if (at_least(fischer ? 2700 : 3600, 4500)) return 'A';
  if (at_least(fischer ? 1800 : 2400, 3000)) return 'B';
  if (at_least(fischer ? 1200 : 1500, 1800)) return 'C';
  return 'X';
}

std::optional<std::string> egd_h9(const json& t) {
  const auto& standings = t.at("standings");
  if (t.at("status").get<std::string>() == "registering" || standings.empty()) return std::nullopt;
  const auto s = settings_of(t);

  std::map<std::int64_t, const json*> entrants;
  for (const auto& e : t.at("entrants")) entrants[e.at("id").get<std::int64_t>()] = &e;
  std::map<std::int64_t, int> numbers;  // a player's line number: their order in the standings
  for (const auto& row : standings)
    numbers[row.at("player").at("id").get<std::int64_t>()] = static_cast<int>(numbers.size()) + 1;

  const auto days = round_days(t);

  std::string out;
  const auto header = [&](const char* key, const std::string& value) {
    out += "; " + std::string(key) + "[" + value + "]\n";
  };
  header("CL", std::string(1, egd_class(s)));
  header("EV", s.name);
  header("PC", s.country + "," + s.city);
  header("DT", date_of(days.front()) + "," + date_of(days.back()));
  header("HA", s.system == tournament::System::McMahon && s.handicap.by_score_gap
                   ? "h" + std::to_string(s.handicap.correction)
                   : "h9");
  header("KM", number(protocol::rules_of(s.game).komi));
  header("TM", std::to_string(adjusted_seconds(s.game.time) / 60));
  header("CM", "Tengen, tournament " + std::to_string(t.at("id").get<std::int64_t>()) + ", " +
                   (s.over_the_board ? "over the board" : "online"));
  out += ";\n";

  std::vector<std::pair<std::string, std::string>> columns;
  for (const auto& tie_break : t.at("tie_breaks")) columns.push_back(criterion(tie_break));
  std::string titles = "; Num " + padded("Name", 30, false) + "  Rk Co Club";
  for (const auto& [title, field] : columns) titles += " " + padded(title, 6, true);
  out += titles + "\n";

  for (const auto& row : standings) {
    const auto id = row.at("player").at("id").get<std::int64_t>();
    const json& e = *entrants.at(id);
    std::string country = e.value("country", std::string("--"));
    std::string club = word(e.value("club", std::string()));
    if (club.size() > 4) club.resize(4);  // the EGD's club codes are at most four letters
    // Family name, then given name, one word each (an account: its name, and no given name).
    const auto [family, given] = names_of(e);
    const std::string name = word(family) + " " + word(given);
    std::string line = padded(std::to_string(numbers.at(id)), 5, true) + " " +
                       padded(name, 30, false) + " " +
                       padded(e.at("rank").get<std::string>(), 3, true) + " " + country + " " +
                       padded(club, 4, false);
    for (const auto& [title, field] : columns)
      line += " " + padded(number(row.at(field).get<double>()), 6, true);
    line += " ";
    for (const auto& cell : row.at("rounds"))
      line += " " + padded(result_cell(cell, numbers), 7, true);
    if (const auto pin = e.find("egd_pin"); pin != e.end())
      line += "  ; EGD PIN " + pin->get<std::string>();
    out += line + "\n";
  }
  return out;
}

std::optional<std::string> aga_results(const json& t) {
  if (t.at("status").get<std::string>() == "registering" || t.at("round_list").empty())
    return std::nullopt;
  const auto s = settings_of(t);
  const auto days = round_days(t);
  // The AGA writes dates as month/day/year.
  const auto us_date = [](std::int64_t ms) {
    const std::string iso = date_of(ms);  // YYYY-MM-DD
    return std::to_string(std::stoi(iso.substr(5, 2))) + "/" +
           std::to_string(std::stoi(iso.substr(8, 2))) + "/" + iso.substr(0, 4);
  };
  static const std::map<std::string, std::string> kRules{{"aga", "AGA"},
                                                         {"japanese", "Japanese"},
                                                         {"chinese", "Chinese"},
                                                         {"korean", "Korean"},
                                                         {"ing", "Ing"},
                                                         {"new-zealand", "New Zealand"},
                                                         {"tromp-taylor", "Tromp-Taylor"}};
  const std::string ruleset(to_string(s.game.ruleset));
  const auto rules = kRules.find(ruleset);

  std::string out = "TOURNEY " + s.name;
  if (!s.city.empty()) out += ", " + s.city;
  if (!s.country.empty()) out += ", " + s.country;
  out += "\n\tstart=" + us_date(days.front()) + "\n\tfinish=" + us_date(days.back()) +
         "\n\trules=" + (rules == kRules.end() ? ruleset : rules->second) + "\n";

  // Every entrant's number: their AGA ID, or a temporary one.
  std::map<std::int64_t, std::string> ids;
  out += "PLAYERS\n";
  int temporary = 9000000;
  for (const auto& e : t.at("entrants")) {
    const auto id = e.at("id").get<std::int64_t>();
    std::string number = e.value("aga_id", std::string());
    const bool known = !number.empty();
    if (!known) number = std::to_string(++temporary);
    ids[id] = number;
    const auto [family, given] = names_of(e);
    const std::string name = family + (given.empty() ? "" : ", " + given);
    out += padded(number, 8, true) + " " + padded(name, 30, false) + " " +
           e.at("rank").get<std::string>();
    if (!known) out += "  # no AGA ID: a temporary number";
    out += "\n";
  }
  out += "GAMES\n";
  const double komi = protocol::rules_of(s.game).komi;
  for (const auto& round : t.at("round_list")) {
    const std::string where = "round " + std::to_string(round.at("round").get<int>());
    for (const auto& g : round.at("games")) {
      const std::string at = where + ", table " + std::to_string(g.at("board").get<int>());
      const std::string white = ids.at(g.at("white").at("id").get<std::int64_t>());
      const std::string black = ids.at(g.at("black").at("id").get<std::int64_t>());
      const std::string result = g.at("result").is_null() ? "" : g.at("result").get<std::string>();
      if (result != "black" && result != "white") {
        out += "# " + at + ": " + (result.empty() ? "no result" : result) + ", not rated\n";
        continue;
      }
      if (g.value("forfeit", false)) {
        out += "# " + at + ": won by forfeit, not rated\n";
        continue;
      }
      const int handicap = g.value("handicap", 0);  // 1: no stones, no komi
      out += white + " " + black + " " + (result == "white" ? "w" : "b") + " " +
             std::to_string(handicap >= 2 ? handicap : 0) + " " +
             number(handicap >= 1 ? 0.5 : komi) + "\n";
    }
    for (const auto& bye : round.at("byes"))
      out += "# " + where + ": a bye for " + ids.at(bye.at("id").get<std::int64_t>()) + "\n";
  }
  return out;
}

}  // namespace tengen::federation

namespace tengen::federation {
namespace {

// OpenGotha's ranks: "3D", "12K".
std::string og_rank(const std::string& rank) {
  std::string out = rank;
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// An EGF-style rating (GoR) in the middle of a rank, as OpenGotha derives ranks from ratings:
// 1d is 2050–2149, each rank 100 points.
int og_rating(const std::string& rank) {
  const auto index = protocol::parse_rank(rank).value_or(10);
  return 2100 + (index - *protocol::parse_rank("1d")) * 100;
}

// OpenGotha's result names (its own spelling, "BOTHLOOSE"); "_BYDEF" for a game not played.
std::string og_result(const json& g) {
  if (g.at("result").is_null()) return "RESULT_UNKNOWN";
  const std::string r = g.at("result").get<std::string>();
  std::string name = r == "black"   ? "RESULT_BLACKWINS"
                     : r == "white" ? "RESULT_WHITEWINS"
                     : r == "jigo"  ? "RESULT_EQUAL"
                                    : "RESULT_BOTHLOOSE";
  if (g.value("forfeit", false)) name += "_BYDEF";
  return name;
}

// The placement criteria: the tie-breaks in force, by OpenGotha's names (M for McMahon scores,
// W for wins), six in all with NULL for the rest.
std::vector<std::string> og_criteria(const json& t, bool mcmahon) {
  std::vector<std::string> out;
  const std::string suffix = mcmahon ? "M" : "W";
  for (const auto& tie_break : t.at("tie_breaks")) {
    const std::string k = tie_break.get<std::string>();
    if (k == "score") out.push_back(mcmahon ? "MMS" : "NBW");
    if (k == "wins") out.push_back("NBW");
    if (k == "sos") out.push_back("SOS" + suffix);
    if (k == "sosos") out.push_back("SOSOS" + suffix);
    if (k == "sodos") out.push_back("SODOS" + suffix);
  }
  out.resize(std::max<std::size_t>(out.size(), 6), "NULL");
  out.resize(6);
  return out;
}

std::string og_time_system(protocol::TimeControl::System system) {
  switch (system) {
    case System::ByoYomi:
      return "STDBYOYOMI";
    case System::Canadian:
      return "CANBYOYOMI";
    case System::Fischer:
      return "FISCHER";
    default:
      return "SUDDENDEATH";
  }
}

}  // namespace

std::string opengotha_key(const std::string& family_name, const std::string& given_name) {
  const std::string both = family_name + given_name;
  std::string key;
  for (std::size_t i = 0; i < both.size(); ++i) {
    const auto c = static_cast<unsigned char>(both[i]);
    if (c == ' ') continue;
    // UTF-8 of U+00E0–U+00FE (à–þ, but ÷): C3 A0–BE, upper case 0x20 below.
    if (c == 0xC3 && i + 1 < both.size()) {
      const auto next = static_cast<unsigned char>(both[i + 1]);
      key += static_cast<char>(c);
      key += static_cast<char>(next >= 0xA0 && next <= 0xBE && next != 0xB7 ? next - 0x20 : next);
      ++i;
      continue;
    }
    key += static_cast<char>(std::toupper(c));
  }
  return key;
}

std::string opengotha_xml(const json& t) {
  const auto s = settings_of(t);
  const bool mcmahon = s.system == tournament::System::McMahon;
  const auto& rounds = t.at("round_list");
  const auto days = round_days(t);
  const auto key_of = [&](const json& e) {
    const auto [family, given] = names_of(e);
    return opengotha_key(family, given);
  };
  std::map<std::int64_t, std::string> keys;
  for (const auto& e : t.at("entrants")) keys[e.at("id").get<std::int64_t>()] = key_of(e);

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
  out += "<Tournament dataVersion=\"201\" fullVersionNumber=\"3.52\" runningMode=\"SAL\">\n";
  out += "    <Players>\n";
  // OpenGotha keeps 20 rounds of participation per player: 1 plays, 0 does not.
  constexpr std::size_t kRounds = 20;
  for (const auto& e : t.at("entrants")) {
    const auto id = e.at("id").get<std::int64_t>();
    std::string participating(kRounds, '1');
    for (std::size_t r = 0; r < rounds.size() && r < kRounds; ++r) {
      bool paired = false;
      for (const auto& g : rounds[r].at("games"))
        paired = paired || g.at("black").at("id") == id || g.at("white").at("id") == id;
      for (const auto& b : rounds[r].at("byes")) paired = paired || b.at("id") == id;
      if (!paired) participating[r] = '0';
    }
    if (e.value("withdrawn", false)) {  // no round after the last they were paired in
      for (std::size_t r = rounds.size(); r < kRounds; ++r) participating[r] = '0';
    }
    for (const auto& r : e.value("absent", json::array())) {  // rounds to come they will miss
      const auto round = r.get<std::size_t>();
      if (round > rounds.size() && round <= kRounds) participating[round - 1] = '0';
    }
    const auto [family, given] = names_of(e);
    const std::string rank = og_rank(e.at("rank").get<std::string>());
    out += element(2, "Player",
                   {{"agaExpirationDate", ""},
                    {"agaId", e.value("aga_id", std::string())},
                    {"club", e.value("club", std::string())},
                    {"country", e.value("country", std::string())},
                    {"egfPin", e.value("egd_pin", std::string())},
                    {"ffgLicence", ""},
                    {"ffgLicenceStatus", ""},
                    {"firstName", given},
                    {"grade", rank},
                    {"name", family},
                    {"participating", participating},
                    {"rank", rank},
                    {"rating", std::to_string(og_rating(e.at("rank").get<std::string>()))},
                    {"ratingOrigin", ""},
                    {"registeringStatus", "FIN"},
                    {"smmsCorrection", "0"}});
  }
  out += "    </Players>\n    <Games>\n";
  for (const auto& round : rounds) {
    for (const auto& g : round.at("games")) {
      out += element(2, "Game",
                     {{"blackPlayer", keys.at(g.at("black").at("id").get<std::int64_t>())},
                      {"handicap", std::to_string(std::max(0, g.value("handicap", 0)))},
                      {"knownColor", "true"},
                      {"result", og_result(g)},
                      {"roundNumber", std::to_string(round.at("round").get<int>())},
                      {"tableNumber", std::to_string(g.at("board").get<int>())},
                      {"whitePlayer", keys.at(g.at("white").at("id").get<std::int64_t>())}});
    }
  }
  out += "    </Games>\n    <ByePlayer>\n";
  for (const auto& round : rounds) {
    for (const auto& b : round.at("byes")) {
      out += element(2, "ByePlayer",
                     {{"player", keys.at(b.at("id").get<std::int64_t>())},
                      {"roundNumber", std::to_string(round.at("round").get<int>())}});
    }
  }
  out += "    </ByePlayer>\n    <TournamentParameterSet>\n";
  const auto& time = s.game.time;
  const auto rounds_planned = s.rounds > 0 ? s.rounds : static_cast<int>(rounds.size());
  const std::string bar = og_rank(protocol::rank_text(mcmahon ? s.bar : 38));
  const std::string floor = og_rank(protocol::rank_text(mcmahon ? s.floor : 0));
  out += element(2, "GeneralParameterSet",
                 {{"bInternet", s.over_the_board ? "false" : "true"},
                  {"basicTime", std::to_string(time.main_ms / 60'000)},
                  {"beginDate", date_of(days.front())},
                  {"canByoYomiTime", std::to_string(time.period_ms / 1000)},
                  {"complementaryTimeSystem", og_time_system(time.system)},
                  {"director", t.at("director").at("name").get<std::string>()},
                  {"endDate", date_of(days.back())},
                  {"fischerTime", std::to_string(time.increment_ms / 1000)},
                  {"genMMBar", bar},
                  {"genMMFloor", floor},
                  {"komi", number(protocol::rules_of(s.game).komi)},
                  {"location", s.city},
                  {"name", s.name},
                  {"nbMovesCanTime", std::to_string(time.stones)},
                  {"numberOfRounds", std::to_string(rounds_planned)},
                  {"shortName", "tengen-" + std::to_string(t.at("id").get<std::int64_t>())},
                  {"size", std::to_string(s.game.width)},
                  {"stdByoYomiTime", std::to_string(time.period_ms / 1000)}});
  out += element(2, "HandicapParameterSet",
                 {{"hdBasedOnMMS", mcmahon && s.handicap.by_score_gap ? "true" : "false"},
                  {"hdCeiling", std::to_string(mcmahon ? s.handicap.ceiling : 0)},
                  {"hdCorrection", std::to_string(mcmahon ? s.handicap.correction : 0)},
                  {"hdNoHdRankThreshold", "30K"}});
  out += "        <PlacementParameterSet>\n            <PlacementCriteria>\n";
  const auto criteria = og_criteria(t, mcmahon);
  for (std::size_t i = 0; i < criteria.size(); ++i) {
    out += element(4, "PlacementCriterion",
                   {{"name", criteria[i]}, {"number", std::to_string(i + 1)}});
  }
  out += "            </PlacementCriteria>\n        </PlacementParameterSet>\n";
  out += "    </TournamentParameterSet>\n</Tournament>\n";
  return out;
}

}  // namespace tengen::federation
