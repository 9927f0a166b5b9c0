#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tengen {

enum class KoRule : std::uint8_t { Simple, PositionalSuperko, SituationalSuperko };
enum class ScoringRule : std::uint8_t { Area, Territory };
// Points White receives for each handicap stone under area scoring: none, N, or N-1.
enum class HandicapCompensation : std::uint8_t { None, N, NMinusOne };
// Who moves first when play resumes after a disputed scoring phase (docs/scoring.md).
enum class ResumeRule : std::uint8_t { OpponentOfRequester, OpponentOfLastPasser };

// The named rulesets (the presets of Rules).
enum class Ruleset : std::uint8_t { TrompTaylor, Chinese, Japanese, Korean, Aga, NewZealand, Ing };
// "tromp-taylor", "chinese", "japanese", "korean", "aga", "new-zealand", "ing".
std::string_view to_string(Ruleset ruleset) noexcept;
// A ruleset by any of its spellings: its name, "nz", "tt", "tromp_taylor", in any case.
std::optional<Ruleset> parse_ruleset(std::string_view name);

// A ruleset: independent options; the named presets are values of it.
struct Rules {
  KoRule ko = KoRule::Simple;
  bool suicide_allowed = false;  // multi-stone suicide (and single-stone, a position repeat)
  ScoringRule scoring = ScoringRule::Area;
  HandicapCompensation handicap_compensation = HandicapCompensation::None;
  bool pass_stones = false;    // AGA: a pass hands the opponent a prisoner; White passes last
  bool free_handicap = false;  // the customary handicap placement is free, not the star points
  ResumeRule resume = ResumeRule::OpponentOfRequester;
  double komi = 7.5;  // a multiple of 0.5

  friend bool operator==(const Rules&, const Rules&) = default;

  // "tromp-taylor", "chinese", "japanese", "korean", "aga", "new-zealand", "ing" (also accepts
  // "nz" and "tromp_taylor" spellings, any case).
  static std::optional<Rules> preset(std::string_view name);
  static Rules preset(Ruleset ruleset);
  static const std::array<std::string_view, 7>& preset_names();
  // The preset this value equals (komi included), if any.
  std::optional<std::string_view> preset_name() const;

  // "ko=simple suicide=forbidden scoring=territory handicap-compensation=0 pass-stones=no
  //  free-handicap=no resume=requester komi=6.5"; parse() accepts that form (any subset of keys,
  // starting from a preset if the first word names one) and returns nullopt with `error` set.
  std::string to_string() const;
  static std::optional<Rules> parse(std::string_view text, std::string* error = nullptr);

  // Komi is a multiple of 0.5 and at most 1000 in magnitude.
  static bool valid_komi(double komi) noexcept;
};

std::string_view to_string(KoRule ko) noexcept;
std::string_view to_string(ScoringRule s) noexcept;

}  // namespace tengen
