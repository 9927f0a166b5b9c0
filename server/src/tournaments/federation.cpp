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
  const auto decoded = protocol::decode_tournament_settings(t.at("settings").dump());
  if (const auto* problem = std::get_if<std::string>(&decoded))
    throw std::runtime_error("the tournament's settings are unreadable: " + *problem);
  const auto& s = std::get<protocol::TournamentSettings>(decoded);

  std::map<std::int64_t, const json*> entrants;
  for (const auto& e : t.at("entrants")) entrants[e.at("id").get<std::int64_t>()] = &e;
  std::map<std::int64_t, int> numbers;  // a player's line number: their order in the standings
  for (const auto& row : standings)
    numbers[row.at("player").at("id").get<std::int64_t>()] = static_cast<int>(numbers.size()) + 1;

  std::vector<std::int64_t> round_days;
  for (const auto& line : t.at("audit")) {
    if (line.at("kind") == "round_started") round_days.push_back(line.at("at_ms"));
  }
  if (round_days.empty()) round_days.push_back(t.at("created_at_ms").get<std::int64_t>());

  std::string out;
  const auto header = [&](const char* key, const std::string& value) {
    out += "; " + std::string(key) + "[" + value + "]\n";
  };
  header("CL", std::string(1, egd_class(s)));
  header("EV", s.name);
  header("PC", s.country + "," + s.city);
  header("DT", date_of(round_days.front()) + "," + date_of(round_days.back()));
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
    const bool account = e.value("account", true);
    const std::string name = account ? word(e.at("name").get<std::string>()) + " -"
                                     : word(e.value("family_name", std::string())) + " " +
                                           word(e.value("given_name", std::string()));
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
  const auto decoded = protocol::decode_tournament_settings(t.at("settings").dump());
  if (const auto* problem = std::get_if<std::string>(&decoded))
    throw std::runtime_error("the tournament's settings are unreadable: " + *problem);
  const auto& s = std::get<protocol::TournamentSettings>(decoded);

  std::vector<std::int64_t> round_days;
  for (const auto& line : t.at("audit")) {
    if (line.at("kind") == "round_started") round_days.push_back(line.at("at_ms"));
  }
  if (round_days.empty()) round_days.push_back(t.at("created_at_ms").get<std::int64_t>());
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
  out += "\n\tstart=" + us_date(round_days.front()) + "\n\tfinish=" + us_date(round_days.back()) +
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
    const std::string name =
        e.value("account", true)
            ? e.at("name").get<std::string>()
            : e.value("family_name", std::string()) +
                  (e.contains("given_name") ? ", " + e.at("given_name").get<std::string>() : "");
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
