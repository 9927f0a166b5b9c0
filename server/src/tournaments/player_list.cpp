#include "tournaments/player_list.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace tengen::federation {
namespace {

struct Record {
  int line = 0;
  std::vector<std::string> fields;
};

// RFC 4180: fields separated by `separator`, a field in double quotes may hold the separator, line
// breaks and "" for a quote; records end at CRLF or LF. Each record keeps the line it starts on.
std::variant<std::vector<Record>, std::string> records_of(std::string_view text, char separator) {
  std::vector<Record> out;
  Record record{1, {}};
  std::string field;
  int line = 1;
  bool quoted = false, was_quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"' && field.empty() && !was_quoted) {
      quoted = was_quoted = true;
    } else if (c == separator) {
      record.fields.push_back(std::move(field));
      field.clear();
      was_quoted = false;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      record.fields.push_back(std::move(field));
      field.clear();
      was_quoted = false;
      out.push_back(std::move(record));
      record = Record{++line, {}};
    } else if (was_quoted) {
      return "line " + std::to_string(line) + ": text after a quoted field";
    } else {
      field += c;
    }
  }
  if (quoted) return "line " + std::to_string(record.line) + ": a quote is not closed";
  if (!field.empty() || !record.fields.empty()) {
    record.fields.push_back(std::move(field));
    out.push_back(std::move(record));
  }
  return out;
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// A header's name, compared without case, spaces, underscores or hyphens.
std::string column_key(const std::string& header) {
  std::string key;
  for (const char c : header) {
    if (c == ' ' || c == '_' || c == '-' || c == '.') continue;
    key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return key;
}

enum class Column { Family, Given, Rank, Club, Country, EgdPin, AgaId };

std::optional<Column> column_of(const std::string& header) {
  static const std::map<std::string, Column> names{
      {"familyname", Column::Family}, {"family", Column::Family},   {"surname", Column::Family},
      {"lastname", Column::Family},   {"name", Column::Family},     {"givenname", Column::Given},
      {"given", Column::Given},       {"firstname", Column::Given}, {"forename", Column::Given},
      {"rank", Column::Rank},         {"grade", Column::Rank},      {"club", Column::Club},
      {"country", Column::Country},   {"egdpin", Column::EgdPin},   {"egfpin", Column::EgdPin},
      {"pin", Column::EgdPin},        {"agaid", Column::AgaId},     {"aga", Column::AgaId}};
  const auto found = names.find(column_key(header));
  return found == names.end() ? std::nullopt : std::optional(found->second);
}

// "5k", "5 K", "5 kyu", "2d", "2 dan" → "5k", "2d".
std::string rank_of(const std::string& text) {
  std::string r;
  for (const char c : text) {
    if (c != ' ') r += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  for (const auto& [word, letter] : {std::pair{"kyu", "k"}, {"dan", "d"}}) {
    if (r.ends_with(word)) r = r.substr(0, r.size() - 3) + letter;
  }
  return r;
}

}  // namespace

std::variant<std::vector<ListedPlayer>, std::string> read_player_list(
    std::string_view csv, protocol::TournamentId tournament) {
  if (csv.size() > kMaxPlayerListBytes) return std::string("the list is larger than 1 MiB");
  if (csv.starts_with("\xEF\xBB\xBF")) csv.remove_prefix(3);  // a spreadsheet's byte-order mark
  // The separator is the one the header row uses most: a comma, or a semicolon (spreadsheets
  // where the comma is the decimal sign), or a tab.
  const std::string_view header_line = csv.substr(0, csv.find('\n'));
  char separator = ',';
  std::size_t most = 0;
  for (const char c : {',', ';', '\t'}) {
    const auto n = static_cast<std::size_t>(std::count(header_line.begin(), header_line.end(), c));
    if (n > most) most = n, separator = c;
  }
  auto read = records_of(csv, separator);
  if (const auto* why = std::get_if<std::string>(&read)) return *why;
  auto& records = std::get<std::vector<Record>>(read);
  std::erase_if(records, [](const Record& r) {
    return std::all_of(r.fields.begin(), r.fields.end(),
                       [](const std::string& f) { return trimmed(f).empty(); });
  });
  if (records.empty()) return std::string("the list is empty: its first row names the columns");
  std::map<Column, std::size_t> at;
  for (std::size_t i = 0; i < records[0].fields.size(); ++i) {
    const auto column = column_of(trimmed(records[0].fields[i]));
    if (column && !at.contains(*column)) at[*column] = i;
  }
  if (!at.contains(Column::Family) || !at.contains(Column::Rank))
    return std::string(
        "the first row names the columns, and needs at least \"family name\" and \"rank\"");
  if (records.size() - 1 > kMaxListedPlayers)
    return "the list has more than " + std::to_string(kMaxListedPlayers) + " players";

  std::vector<ListedPlayer> out;
  std::set<std::string> names;
  for (std::size_t r = 1; r < records.size(); ++r) {
    const auto& fields = records[r].fields;
    const std::string where = "line " + std::to_string(records[r].line);
    const auto value = [&](Column c) -> std::string {
      const auto found = at.find(c);
      return found == at.end() || found->second >= fields.size() ? std::string()
                                                                 : trimmed(fields[found->second]);
    };
    ListedPlayer p{records[r].line, {}};
    auto& e = p.entry;
    e.tournament = tournament;
    e.family_name = value(Column::Family);
    e.given_name = value(Column::Given);
    e.rank = rank_of(value(Column::Rank));
    if (auto problem = protocol::wire::person_name(e.family_name); !problem.empty())
      return where + ": the family name " + problem;
    if (auto problem = protocol::wire::printable_text(e.given_name); !problem.empty())
      return where + ": the given name " + problem;
    if (!protocol::wire::rank(e.rank).empty())
      return where + ": rank '" + value(Column::Rank) + "' is not a rank (like 5k or 2d)";
    const auto optional = [&](Column c, const char* name, protocol::wire::Check<std::string> check,
                              std::optional<std::string>& slot) -> std::optional<std::string> {
      const std::string text = value(c);
      if (text.empty()) return std::nullopt;
      if (auto problem = check(text); !problem.empty()) return where + ": " + name + " " + problem;
      slot = text;
      return std::nullopt;
    };
    if (auto why = optional(Column::Club, "the club", protocol::wire::club_name, e.club))
      return *why;
    if (auto why =
            optional(Column::Country, "the country", protocol::wire::country_code, e.country))
      return *why;
    if (auto why = optional(Column::EgdPin, "the EGD PIN", protocol::wire::egd_pin, e.egd_pin))
      return *why;
    if (auto why = optional(Column::AgaId, "the AGA ID", protocol::wire::aga_id, e.aga_id))
      return *why;
    const std::string name =
        e.given_name.empty() ? e.family_name : e.family_name + " " + e.given_name;
    if (name.size() > 40)
      return where + ": the family and given names are longer than 40 bytes together";
    if (!names.insert(name).second) return where + ": '" + name + "' is in the list twice";
    out.push_back(std::move(p));
  }
  if (out.empty()) return std::string("the list has no players under its header row");
  return out;
}

}  // namespace tengen::federation
