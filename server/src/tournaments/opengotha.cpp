#include "tournaments/opengotha.h"

// Boost.PropertyTree reads the XML (Debian's libboost-dev, header-only): OpenGotha's file is
// flat elements with attributes, which its rapidxml-based reader takes as they are.
#include <algorithm>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

#include "tournaments/federation.h"

namespace tengen::federation {
namespace {

using boost::property_tree::ptree;
using tournament::Outcome;

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// ISO-8859-1 to UTF-8: each byte is the code point of the same number.
std::string latin1_to_utf8(std::string_view in) {
  std::string out;
  for (const char ch : in) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x80) {
      out += ch;
    } else {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

// Whether the text is well-formed UTF-8 (what JSON carries over the bus, and the pages show).
bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = c < 0x80           ? 1
                          : (c >> 5) == 0x6  ? 2
                          : (c >> 4) == 0xE  ? 3
                          : (c >> 3) == 0x1E ? 4
                                             : 0;
    if (n == 0 || i + n > text.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

std::string attribute(const ptree& node, const char* name) {
  return trimmed(node.get<std::string>(std::string("<xmlattr>.") + name, ""));
}

std::optional<int> number(const std::string& text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  int value = 0;
  bool negative = false;
  std::size_t i = 0;
  if (text[0] == '-') negative = ++i == 1;
  if (i == text.size()) return std::nullopt;
  for (; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return negative ? -value : value;
}

// A rank as OpenGotha writes it ("5K", "1D", "3P") in Tengen's form ("5k", "1d"); a
// professional rank counts as 9d, the strongest amateur rank Tengen has.
std::optional<std::string> rank_of(const std::string& text) {
  std::string r = lower(text);
  if (!r.empty() && r.back() == 'p') r = "9d";
  if (!protocol::parse_rank(r)) return std::nullopt;
  return r;
}

// The time system's settings from the general parameters (basic time in minutes, the rest in
// seconds).
protocol::TimeControl time_of(const ptree& general) {
  using System = protocol::TimeControl::System;
  protocol::TimeControl time;
  const auto seconds = [&](const char* name) -> std::int64_t {
    return std::max(0, number(attribute(general, name)).value_or(0));
  };
  time.main_ms = seconds("basicTime") * 60'000;
  const std::string system = attribute(general, "complementaryTimeSystem");
  if (system == "STDBYOYOMI" && seconds("stdByoYomiTime") > 0) {
    time.system = System::ByoYomi;
    time.periods = 1;
    time.period_ms = seconds("stdByoYomiTime") * 1000;
  } else if (system == "CANBYOYOMI" && seconds("canByoYomiTime") > 0) {
    time.system = System::Canadian;
    time.period_ms = seconds("canByoYomiTime") * 1000;
    time.stones = std::max<int>(1, static_cast<int>(seconds("nbMovesCanTime")));
  } else if (system == "FISCHER") {
    time.system = System::Fischer;
    time.increment_ms = seconds("fischerTime") * 1000;
  } else {
    time.system = time.main_ms > 0 ? System::Absolute : System::None;
  }
  return time;
}

// The placement criteria, as tie-breaks: MMS and NBW are the score, SOS/SOSOS/SODOS the others
// (by McMahon score or by wins alike); criteria Tengen does not have are left out.
std::vector<tournament::TieBreak> tie_breaks_of(const ptree& set, bool mcmahon) {
  using tournament::TieBreak;
  std::vector<TieBreak> out;
  std::map<int, std::string> by_number;
  for (const auto& [name, criteria] : set) {
    if (name != "PlacementCriteria") continue;
    for (const auto& [tag, c] : criteria) {
      if (tag == "PlacementCriterion")
        by_number[number(attribute(c, "number")).value_or(0)] = attribute(c, "name");
    }
  }
  for (const auto& [n, name] : by_number) {
    std::optional<TieBreak> t;
    if (name == "MMS") t = TieBreak::Score;
    if (name == "NBW") t = mcmahon ? TieBreak::Wins : TieBreak::Score;
    if (name == "SOSM" || name == "SOSW") t = TieBreak::Sos;
    if (name == "SOSOSM" || name == "SOSOSW") t = TieBreak::Sosos;
    if (name == "SODOSM" || name == "SODOSW") t = TieBreak::Sodos;
    if (t && std::find(out.begin(), out.end(), *t) == out.end()) out.push_back(*t);
  }
  return out;
}

std::optional<std::string> field_problem(const std::string& who, const char* field,
                                         const std::string& problem) {
  if (problem.empty()) return std::nullopt;
  return who + ": " + field + " " + problem;
}

std::variant<OpenGothaPlayer, std::string> player_of(const ptree& p) {
  OpenGothaPlayer out;
  auto& e = out.entry;
  e.family_name = attribute(p, "name");
  e.given_name = attribute(p, "firstName");
  const std::string who = "player '" + trimmed(e.family_name + " " + e.given_name) + "'";
  if (auto bad = field_problem(who, "name", protocol::wire::person_name(e.family_name)))
    return *bad;
  if (auto bad = field_problem(who, "first name", protocol::wire::printable_text(e.given_name)))
    return *bad;
  const std::string rank_text = attribute(p, "rank");
  const auto rank = rank_of(rank_text);
  if (!rank) return who + ": rank '" + rank_text + "' is not a rank (like 5K or 2D)";
  e.rank = *rank;
  const auto optional = [&](const char* name, protocol::wire::Check<std::string> check,
                            std::optional<std::string>& slot) -> std::optional<std::string> {
    const std::string value = attribute(p, name);
    if (value.empty()) return std::nullopt;
    if (auto bad = field_problem(who, name, check(value))) return bad;
    slot = value;
    return std::nullopt;
  };
  if (auto bad = optional("club", protocol::wire::club_name, e.club)) return *bad;
  if (auto bad = optional("country", protocol::wire::country_code, e.country)) return *bad;
  if (auto bad = optional("egfPin", protocol::wire::egd_pin, e.egd_pin)) return *bad;
  if (auto bad = optional("agaId", protocol::wire::aga_id, e.aga_id)) return *bad;
  out.key = opengotha_key(e.family_name, e.given_name);
  out.participating = attribute(p, "participating");
  return out;
}

std::variant<OpenGothaGame, std::string> game_of(const ptree& g) {
  OpenGothaGame out;
  const auto round = number(attribute(g, "roundNumber"));
  const auto table = number(attribute(g, "tableNumber"));
  if (!round || *round < 1 || *round > 100)
    return "a game has round '" + attribute(g, "roundNumber") + "', not a round from 1";
  const std::string where =
      "round " + std::to_string(*round) + ", table " + attribute(g, "tableNumber");
  if (!table || *table < 0) return where + ": not a table number";
  out.round = *round;
  out.table = *table;
  out.black = attribute(g, "blackPlayer");
  out.white = attribute(g, "whitePlayer");
  const auto handicap = number(attribute(g, "handicap").empty() ? "0" : attribute(g, "handicap"));
  if (!handicap || *handicap < 0 || *handicap > 9) return where + ": the handicap is not 0 to 9";
  out.handicap = *handicap;
  std::string result = attribute(g, "result");
  if (result.ends_with("_BYDEF")) {
    out.forfeit = true;
    result.resize(result.size() - 6);
  }
  if (result == "RESULT_BLACKWINS")
    out.result = Outcome::BlackWins;
  else if (result == "RESULT_WHITEWINS")
    out.result = Outcome::WhiteWins;
  else if (result == "RESULT_EQUAL")
    out.result = Outcome::Jigo;
  else if (result == "RESULT_BOTHLOOSE")
    out.result = Outcome::BothLose;
  else if (result == "RESULT_UNKNOWN" || result.empty())
    out.forfeit = false;
  else if (result == "RESULT_BOTHWIN")
    return where + ": both players win, which a tournament here cannot record";
  else
    return where + ": result '" + attribute(g, "result") + "' is not one of OpenGotha's";
  if (out.forfeit && out.result == Outcome::Jigo)
    return where + ": a jigo by forfeit, which a tournament here cannot record";
  return out;
}

}  // namespace

std::string opengotha_as_utf8(std::string_view xml) {
  const auto end = xml.find("?>");
  if (!xml.starts_with("<?xml") || end == std::string_view::npos) return std::string(xml);
  const std::string declaration = lower(std::string(xml.substr(0, end)));
  for (const char* latin1 : {"\"iso-8859-1\"", "'iso-8859-1'", "\"latin1\"", "'latin1'"}) {
    const auto at = declaration.find(latin1);
    if (at == std::string::npos) continue;
    std::string out(xml.substr(0, at));
    out += "\"UTF-8\"";
    out += latin1_to_utf8(xml.substr(at + std::string_view(latin1).size()));
    return out;
  }
  return std::string(xml);
}

std::variant<OpenGothaFile, std::string> read_opengotha(std::string_view xml) {
  if (xml.size() > kMaxOpenGothaBytes) return std::string("the file is larger than 1 MiB");
  const std::string text = opengotha_as_utf8(xml);
  if (!valid_utf8(text)) {
    return std::string(
        "the file is neither UTF-8 nor ISO-8859-1 as its first line says: save it again from "
        "OpenGotha");
  }
  ptree doc;
  try {
    std::istringstream in(text);
    boost::property_tree::read_xml(in, doc);
  } catch (const boost::property_tree::xml_parser_error& e) {
    return "the file is not XML: line " + std::to_string(e.line()) + ": " + e.message();
  }
  const auto root = doc.get_child_optional("Tournament");
  if (!root) return std::string("the file is not OpenGotha's: it has no <Tournament>");

  OpenGothaFile file;
  auto& s = file.settings;
  s.over_the_board = true;
  const auto params = root->get_child_optional("TournamentParameterSet");
  if (!params) return std::string("the file has no <TournamentParameterSet>");
  const auto general = params->get_child_optional("GeneralParameterSet");
  if (!general) return std::string("the file has no <GeneralParameterSet>");
  s.name = attribute(*general, "name");
  if (s.name.empty()) s.name = attribute(*general, "shortName");
  s.city = attribute(*general, "location");
  if (s.city.size() > 60) s.city.resize(60);
  const auto rounds = number(attribute(*general, "numberOfRounds"));
  if (!rounds || *rounds < 1) return std::string("numberOfRounds is not a number of rounds");
  s.rounds = *rounds;
  const auto size = number(attribute(*general, "size"));
  s.game.width = s.game.height = size.value_or(19);
  if (const std::string komi = attribute(*general, "komi"); !komi.empty()) {
    try {
      s.game.komi = std::stod(komi);
    } catch (const std::exception&) {
      return "komi '" + komi + "' is not a number";
    }
  }
  s.game.time = time_of(*general);
  const auto placement = params->get_child_optional("PlacementParameterSet");
  std::string first_criterion = "MMS";
  if (placement) {
    if (const auto criteria = placement->get_child_optional("PlacementCriteria")) {
      for (const auto& [tag, c] : *criteria) {
        if (tag == "PlacementCriterion" && attribute(c, "number") == "1")
          first_criterion = attribute(c, "name");
      }
    }
  }
  const bool mcmahon = first_criterion != "NBW";
  s.system = mcmahon ? tournament::System::McMahon : tournament::System::Swiss;
  if (placement) s.tie_breaks = tie_breaks_of(*placement, mcmahon);
  if (mcmahon) {
    const auto bar = rank_of(attribute(*general, "genMMBar"));
    const auto floor = rank_of(attribute(*general, "genMMFloor"));
    if (bar) s.bar = *protocol::parse_rank(*bar);
    if (floor) s.floor = *protocol::parse_rank(*floor);
    if (const auto hd = params->get_child_optional("HandicapParameterSet")) {
      s.handicap.by_score_gap =
          attribute(*hd, "hdBasedOnMMS") == "true" || upper(attribute(*hd, "hdBase")) == "MMS";
      s.handicap.ceiling = std::clamp(number(attribute(*hd, "hdCeiling")).value_or(9), 0, 9);
      s.handicap.correction = std::clamp(number(attribute(*hd, "hdCorrection")).value_or(1), 0, 9);
    }
  }
  if (auto problem = protocol::validate(s)) return "the tournament's settings: " + *problem;

  std::set<std::string> keys;
  if (const auto players = root->get_child_optional("Players")) {
    for (const auto& [tag, p] : *players) {
      if (tag != "Player") continue;
      auto read = player_of(p);
      if (const auto* why = std::get_if<std::string>(&read)) return *why;
      auto& player = std::get<OpenGothaPlayer>(read);
      if (!keys.insert(player.key).second)
        return "player '" + player.key + "' is in the file twice";
      file.players.push_back(std::move(player));
    }
  }
  if (file.players.size() > 1000) return std::string("the file has more than 1,000 players");
  const auto known = [&](const std::string& key,
                         const std::string& where) -> std::optional<std::string> {
    if (keys.contains(key)) return std::nullopt;
    return where + " names '" + key + "', who is not among the players";
  };
  if (const auto games = root->get_child_optional("Games")) {
    for (const auto& [tag, g] : *games) {
      if (tag != "Game") continue;
      auto read = game_of(g);
      if (const auto* why = std::get_if<std::string>(&read)) return *why;
      auto& game = std::get<OpenGothaGame>(read);
      const std::string where =
          "round " + std::to_string(game.round) + ", table " + std::to_string(game.table);
      if (auto why = known(game.black, where)) return *why;
      if (auto why = known(game.white, where)) return *why;
      file.games.push_back(std::move(game));
    }
  }
  // Byes: <ByePlayer player= roundNumber=/> in a container of that name (or ByePlayers).
  for (const auto& [container, list] : *root) {
    if (container != "ByePlayer" && container != "ByePlayers") continue;
    for (const auto& [tag, b] : list) {
      if (tag != "ByePlayer") continue;
      const auto round = number(attribute(b, "roundNumber"));
      if (!round || *round < 1 || *round > 100) return std::string("a bye has no round");
      const std::string key = attribute(b, "player");
      if (auto why = known(key, "the bye of round " + std::to_string(*round))) return *why;
      file.byes.emplace_back(*round, key);
    }
  }
  std::stable_sort(file.games.begin(), file.games.end(), [](const auto& a, const auto& b) {
    return a.round != b.round ? a.round < b.round : a.table < b.table;
  });
  // Each player once in each round, and the rounds played one after another.
  int last = 0;
  for (const auto& g : file.games) last = std::max(last, g.round);
  for (const auto& [round, key] : file.byes) last = std::max(last, round);
  if (last > s.rounds)
    return "the file has games in round " + std::to_string(last) + " of " +
           std::to_string(s.rounds);
  std::vector<std::set<std::string>> seated(last + 1);
  const auto seat = [&](int round, const std::string& key) -> std::optional<std::string> {
    if (seated[round].insert(key).second) return std::nullopt;
    return "round " + std::to_string(round) + " pairs '" + key + "' twice";
  };
  for (const auto& g : file.games) {
    if (g.black == g.white)
      return "round " + std::to_string(g.round) + " pairs '" + g.black + "' with themselves";
    if (auto why = seat(g.round, g.black)) return *why;
    if (auto why = seat(g.round, g.white)) return *why;
  }
  for (const auto& [round, key] : file.byes) {
    if (auto why = seat(round, key)) return *why;
  }
  for (int r = 1; r <= last; ++r) {
    if (std::none_of(file.games.begin(), file.games.end(),
                     [&](const auto& g) { return g.round == r; }))
      return "round " + std::to_string(r) + " has no games, but round " + std::to_string(last) +
             " has";
  }
  // What a tournament here cannot record: a round without all its results before the last (the
  // next round is paired once it is decided).
  for (const auto& g : file.games) {
    if (!g.result && g.round < last)
      return "round " + std::to_string(g.round) + ", table " + std::to_string(g.table) +
             " has no result, but round " + std::to_string(last) +
             " is paired: enter it in OpenGotha first";
  }
  return file;
}

std::variant<protocol::TournamentId, std::string> import_opengotha(const OpenGothaFile& file,
                                                                   const ImportCommands& commands) {
  using Out = std::variant<protocol::TournamentId, std::string>;
  int last_round = 0;
  for (const auto& g : file.games) last_round = std::max(last_round, g.round);
  // Where each player comes in and leaves: the first and last rounds they are paired in (a bye
  // too), and whether they take no part in any round after that (withdrawn).
  std::map<std::string, int> first, last;
  const auto paired = [&](const std::string& key, int round) {
    if (!first.contains(key) || first[key] > round) first[key] = round;
    last[key] = std::max(last[key], round);
  };
  for (const auto& g : file.games) {
    paired(g.black, g.round);
    paired(g.white, g.round);
  }
  for (const auto& [round, key] : file.byes) paired(key, round);
  std::set<std::pair<int, std::string>> seated;  // (round, player)
  for (const auto& g : file.games) {
    seated.emplace(g.round, g.black);
    seated.emplace(g.round, g.white);
  }
  for (const auto& [round, key] : file.byes) seated.emplace(round, key);
  const int planned = file.settings.rounds;
  const auto withdrawn = [&](const OpenGothaPlayer& p) {
    if (last_round == 0) return false;
    const int after = last.contains(p.key) ? last.at(p.key) : 0;
    if (after >= planned) return false;
    for (int r = after + 1; r <= planned; ++r) {
      if (static_cast<std::size_t>(r - 1) >= p.participating.size() ||
          p.participating[r - 1] != '0')
        return false;
    }
    return true;
  };
  // The round before which a player registers: 1 at the start, later for a late registration
  // (after the file's last round for one who registered late and has not played yet).
  const auto joins = [&](const OpenGothaPlayer& p) {
    if (first.contains(p.key)) return first.at(p.key);
    if (last_round == 0 || withdrawn(p)) return 1;
    return last_round + 1;  // in no round yet: they play the next
  };
  const auto name_of = [](const OpenGothaPlayer& p) {
    return p.entry.given_name.empty() ? p.entry.family_name
                                      : p.entry.family_name + " " + p.entry.given_name;
  };

  const auto made = commands.run(protocol::CreateTournament{file.settings});
  if (const auto* why = std::get_if<std::string>(&made)) return *why;
  const auto id = std::get<protocol::TournamentId>(made);
  const auto step = [&](const std::string& what,
                        const protocol::ClientMessage& m) -> std::optional<std::string> {
    const auto done = commands.run(m);
    if (const auto* why = std::get_if<std::string>(&done))
      return "tournament " + std::to_string(id) + " was made as far as " + what + ": " + *why;
    return std::nullopt;
  };
  std::map<std::string, std::int64_t> ids;
  const auto add = [&](const OpenGothaPlayer& p) -> std::optional<std::string> {
    auto entry = p.entry;
    entry.tournament = id;
    if (auto why = step("registering " + name_of(p), entry)) return why;
    const auto registered = commands.player_id(id, name_of(p));
    if (!registered) return "tournament " + std::to_string(id) + ": " + name_of(p) + " was lost";
    ids[p.key] = *registered;
    return std::nullopt;
  };
  // A player who sits a round out between joining and withdrawing ("not playing round N"):
  // marked so before that round is paired; for the rounds after the file's last, as its
  // participation says.
  const auto absences = [&](int round) -> std::optional<std::string> {
    for (const auto& p : file.players) {
      if (!ids.contains(p.key) || seated.contains({round, p.key})) continue;
      const int after = last.contains(p.key) ? last.at(p.key) : 0;
      if (withdrawn(p) && round > after) continue;
      if (round > last_round && (static_cast<std::size_t>(round - 1) >= p.participating.size() ||
                                 p.participating[round - 1] != '0'))
        continue;
      if (auto why = step(name_of(p) + " not playing round " + std::to_string(round),
                          protocol::SetAbsent{id, name_of(p), round, true}))
        return why;
    }
    return std::nullopt;
  };
  const auto withdraw_after = [&](int round) -> std::optional<std::string> {
    for (const auto& p : file.players) {
      const int after = last.contains(p.key) ? last.at(p.key) : 0;
      if (after != round || !withdrawn(p)) continue;
      if (auto why = step("withdrawing " + name_of(p), protocol::WithdrawPlayer{id, name_of(p)}))
        return why;
    }
    return std::nullopt;
  };
  for (const auto& p : file.players) {
    if (joins(p) != 1) continue;
    if (auto why = add(p)) return *why;
  }
  if (last_round == 0) return Out(id);  // the players only: registration stays open
  if (auto why = step("the start", protocol::StartTournament{id})) return *why;
  if (auto why = withdraw_after(0)) return *why;
  for (int r = 1; r <= last_round; ++r) {
    const std::string round = "round " + std::to_string(r);
    for (const auto& p : file.players) {
      if (r > 1 && joins(p) == r) {
        if (auto why = add(p)) return *why;
      }
    }
    if (r > 1) {
      if (auto why = absences(r)) return *why;
    }
    protocol::PairRound pairing{id, r, {}, {}, false};
    std::vector<const OpenGothaGame*> games;
    for (const auto& g : file.games) {
      if (g.round != r) continue;
      games.push_back(&g);
      pairing.tables.push_back({ids.at(g.black), ids.at(g.white), g.handicap});
    }
    for (const auto& [bye_round, key] : file.byes) {
      if (bye_round == r) pairing.byes.push_back(ids.at(key));
    }
    if (auto why = step("pairing " + round, pairing)) return *why;
    // The file's last round without a result may not have been published yet: it stays
    // unpublished, for the director to look at (and change) before publishing it.
    const bool known = std::any_of(games.begin(), games.end(),
                                   [](const OpenGothaGame* g) { return g->result.has_value(); });
    if (r == last_round && !known) break;
    if (auto why = step("publishing " + round, protocol::PublishRound{id, r, {}})) return *why;
    for (std::size_t b = 0; b < games.size(); ++b) {
      if (!games[b]->result) continue;
      const protocol::SetTournamentResult result{id, r, static_cast<int>(b + 1), *games[b]->result,
                                                 games[b]->forfeit};
      if (auto why = step(round + "'s table " + std::to_string(b + 1), result)) return *why;
    }
    if (r < planned) {
      if (auto why = withdraw_after(r)) return *why;
    }
  }
  for (const auto& p : file.players) {  // registered after the file's last round
    if (joins(p) == last_round + 1 && last_round < planned) {
      if (auto why = add(p)) return *why;
    }
  }
  for (int r = last_round + 1; r <= planned; ++r) {
    if (auto why = absences(r)) return *why;
  }
  return Out(id);
}

}  // namespace tengen::federation
