#include "engine/rules.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>
#include <vector>

#include "numbers.h"

namespace tengen {
namespace {

using HC = HandicapCompensation;

struct Preset {
  Ruleset ruleset;
  std::string_view name;
  Rules rules;
};

// Customary komi: 7.5 under area scoring, 6.5 under Japanese and Korean territory scoring,
// 7 in New Zealand; Ing's 8 points with Black winning ties is 7.5.
const std::array<Preset, 7> kPresets{{
    {Ruleset::TrompTaylor,
     "tromp-taylor",
     {KoRule::PositionalSuperko, true, ScoringRule::Area, HC::None, false, true,
      ResumeRule::OpponentOfRequester, 7.5}},
    {Ruleset::Chinese,
     "chinese",
     {KoRule::PositionalSuperko, false, ScoringRule::Area, HC::N, false, true,
      ResumeRule::OpponentOfRequester, 7.5}},
    {Ruleset::Japanese,
     "japanese",
     {KoRule::Simple, false, ScoringRule::Territory, HC::None, false, false,
      ResumeRule::OpponentOfRequester, 6.5}},
    {Ruleset::Korean,
     "korean",
     {KoRule::Simple, false, ScoringRule::Territory, HC::None, false, false,
      ResumeRule::OpponentOfRequester, 6.5}},
    {Ruleset::Aga,
     "aga",
     {KoRule::SituationalSuperko, false, ScoringRule::Area, HC::NMinusOne, true, false,
      ResumeRule::OpponentOfLastPasser, 7.5}},
    {Ruleset::NewZealand,
     "new-zealand",
     {KoRule::SituationalSuperko, true, ScoringRule::Area, HC::None, false, true,
      ResumeRule::OpponentOfRequester, 7.0}},
    {Ruleset::Ing,
     "ing",
     {KoRule::SituationalSuperko, true, ScoringRule::Area, HC::N, false, true,
      ResumeRule::OpponentOfRequester, 7.5}},
}};

std::string normalise(std::string_view s) {
  std::string out;
  for (char ch : s) {
    const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    out += lower == '_' ? '-' : lower;
  }
  if (out == "nz") return "new-zealand";
  if (out == "tt") return "tromp-taylor";
  return out;
}

std::string format_komi(double komi) {
  std::ostringstream out;
  out << komi;
  return out.str();
}

template <typename E, std::size_t N>
std::optional<E> lookup(const std::array<std::pair<std::string_view, E>, N>& table,
                        std::string_view word) {
  for (const auto& [name, value] : table) {
    if (name == word) return value;
  }
  return std::nullopt;
}

constexpr std::array<std::pair<std::string_view, KoRule>, 5> kKo{{
    {"simple", KoRule::Simple},
    {"positional", KoRule::PositionalSuperko},
    {"positional-superko", KoRule::PositionalSuperko},
    {"situational", KoRule::SituationalSuperko},
    {"situational-superko", KoRule::SituationalSuperko},
}};
constexpr std::array<std::pair<std::string_view, bool>, 6> kSuicide{{{"forbidden", false},
                                                                     {"allowed", true},
                                                                     {"no", false},
                                                                     {"yes", true},
                                                                     {"0", false},
                                                                     {"1", true}}};
constexpr std::array<std::pair<std::string_view, ScoringRule>, 2> kScoring{
    {{"area", ScoringRule::Area}, {"territory", ScoringRule::Territory}}};
constexpr std::array<std::pair<std::string_view, HC>, 3> kCompensation{
    {{"0", HC::None}, {"n", HC::N}, {"n-1", HC::NMinusOne}}};
constexpr std::array<std::pair<std::string_view, bool>, 4> kYesNo{
    {{"no", false}, {"yes", true}, {"0", false}, {"1", true}}};
constexpr std::array<std::pair<std::string_view, ResumeRule>, 2> kResume{
    {{"requester", ResumeRule::OpponentOfRequester},
     {"last-passer", ResumeRule::OpponentOfLastPasser}}};

}  // namespace

std::string_view to_string(KoRule ko) noexcept {
  switch (ko) {
    case KoRule::Simple:
      return "simple";
    case KoRule::PositionalSuperko:
      return "positional-superko";
    case KoRule::SituationalSuperko:
      return "situational-superko";
  }
  return "?";
}

std::string_view to_string(ScoringRule s) noexcept {
  return s == ScoringRule::Area ? "area" : "territory";
}

bool Rules::valid_komi(double komi) noexcept {
  return std::isfinite(komi) && std::abs(komi) <= 1000 && std::floor(komi * 2) == komi * 2;
}

std::optional<Ruleset> parse_ruleset(std::string_view name) {
  const std::string key = normalise(name);
  for (const auto& p : kPresets) {
    if (p.name == key) return p.ruleset;
  }
  return std::nullopt;
}

std::string_view to_string(Ruleset ruleset) noexcept {
  return kPresets[static_cast<std::size_t>(ruleset)].name;
}

Rules Rules::preset(Ruleset ruleset) {
  return kPresets[static_cast<std::size_t>(ruleset)].rules;
}

std::optional<Rules> Rules::preset(std::string_view name) {
  if (const auto ruleset = parse_ruleset(name)) return preset(*ruleset);
  return std::nullopt;
}

const std::array<std::string_view, 7>& Rules::preset_names() {
  static const std::array<std::string_view, 7> names = [] {
    std::array<std::string_view, 7> n{};
    for (std::size_t i = 0; i < kPresets.size(); ++i) n[i] = kPresets[i].name;
    return n;
  }();
  return names;
}

std::optional<std::string_view> Rules::preset_name() const {
  for (const auto& p : kPresets) {
    if (p.rules == *this) return p.name;
  }
  return std::nullopt;
}

std::string Rules::to_string() const {
  std::string out = "ko=";
  out += tengen::to_string(ko);
  out += suicide_allowed ? " suicide=allowed" : " suicide=forbidden";
  out += " scoring=";
  out += tengen::to_string(scoring);
  out += " handicap-compensation=";
  out += handicap_compensation == HC::None ? "0" : handicap_compensation == HC::N ? "n" : "n-1";
  out += pass_stones ? " pass-stones=yes" : " pass-stones=no";
  out += free_handicap ? " free-handicap=yes" : " free-handicap=no";
  out += resume == ResumeRule::OpponentOfRequester ? " resume=requester" : " resume=last-passer";
  out += " komi=" + format_komi(komi);
  return out;
}

std::optional<Rules> Rules::parse(std::string_view text, std::string* error) {
  auto fail = [&](std::string message) -> std::optional<Rules> {
    if (error) *error = std::move(message);
    return std::nullopt;
  };
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  for (std::string w; in >> w;) words.push_back(w);
  if (words.empty()) return fail("empty rules");
  Rules rules;
  std::size_t first = 0;
  if (words[0].find('=') == std::string::npos) {
    const auto base = preset(words[0]);
    if (!base) return fail("unknown ruleset '" + words[0] + "'");
    rules = *base;
    first = 1;
  }
  for (std::size_t i = first; i < words.size(); ++i) {
    const auto eq = words[i].find('=');
    if (eq == std::string::npos) return fail("expected key=value, not '" + words[i] + "'");
    const std::string key = normalise(std::string_view(words[i]).substr(0, eq));
    const std::string value = normalise(std::string_view(words[i]).substr(eq + 1));
    bool ok = true;
    if (key == "ko") {
      const auto v = lookup(kKo, value);
      ok = v.has_value();
      if (ok) rules.ko = *v;
    } else if (key == "suicide") {
      const auto v = lookup(kSuicide, value);
      ok = v.has_value();
      if (ok) rules.suicide_allowed = *v;
    } else if (key == "scoring") {
      const auto v = lookup(kScoring, value);
      ok = v.has_value();
      if (ok) rules.scoring = *v;
    } else if (key == "handicap-compensation") {
      const auto v = lookup(kCompensation, value);
      ok = v.has_value();
      if (ok) rules.handicap_compensation = *v;
    } else if (key == "pass-stones" || key == "free-handicap") {
      const auto v = lookup(kYesNo, value);
      ok = v.has_value();
      if (ok) (key == "pass-stones" ? rules.pass_stones : rules.free_handicap) = *v;
    } else if (key == "resume") {
      const auto v = lookup(kResume, value);
      ok = v.has_value();
      if (ok) rules.resume = *v;
    } else if (key == "komi") {
      double komi = 0;
      ok = read_real(value, komi) && valid_komi(komi);
      if (ok) rules.komi = komi;
    } else {
      return fail("unknown rules option '" + key + "'");
    }
    if (!ok) return fail("bad value '" + value + "' for " + key);
  }
  return rules;
}

}  // namespace tengen
