#include "protocol/settings.h"

#include "engine/handicap.h"
#include "engine/rules.h"

namespace tengen::protocol {
namespace {

constexpr std::int64_t kMaxMainMs = 7LL * 24 * 3600 * 1000;  // a week: correspondence games
constexpr std::int64_t kMaxPeriodMs = 24LL * 3600 * 1000;
constexpr std::int64_t kDayMs = 24LL * 3600 * 1000;

std::optional<std::string> in_range(std::int64_t v, std::int64_t lo, std::int64_t hi,
                                    const char* field) {
  if (v < lo || v > hi) {
    return std::string("time.") + field + " must be between " + std::to_string(lo) + " and " +
           std::to_string(hi) + ", not " + std::to_string(v);
  }
  return std::nullopt;
}

std::optional<std::string> validate_time(const TimeControl& t) {
  using S = TimeControl::System;
  if (t.weekends_off && t.system != S::Correspondence) {
    return "time.weekends_off is for correspondence games only";
  }
  switch (t.system) {
    case S::None:
      return std::nullopt;
    case S::Absolute:
      return in_range(t.main_ms, 1000, kMaxMainMs, "main_ms");
    case S::Simple:
      return in_range(t.per_move_ms, 1000, kMaxPeriodMs, "per_move_ms");
    case S::Fischer:
      if (auto e = in_range(t.main_ms, 1000, kMaxMainMs, "main_ms")) return e;
      if (auto e = in_range(t.increment_ms, 0, kMaxPeriodMs, "increment_ms")) return e;
      if (t.max_ms != 0 && t.max_ms < t.main_ms) {
        return "time.max_ms must be 0 (no cap) or at least time.main_ms";
      }
      return in_range(t.max_ms, 0, kMaxMainMs, "max_ms");
    case S::ByoYomi:
      if (auto e = in_range(t.main_ms, 0, kMaxMainMs, "main_ms")) return e;
      if (auto e = in_range(t.periods, 1, 30, "periods")) return e;
      return in_range(t.period_ms, 1000, kMaxPeriodMs, "period_ms");
    case S::Canadian:
      if (auto e = in_range(t.main_ms, 0, kMaxMainMs, "main_ms")) return e;
      if (auto e = in_range(t.stones, 1, 100, "stones")) return e;
      return in_range(t.period_ms, 1000, kMaxPeriodMs, "period_ms");
    case S::Correspondence:
      // From an hour a move (a lightning correspondence game) to a month; a bank of up to 90 days.
      if (auto e = in_range(t.per_move_ms, 3600 * 1000, 30 * kDayMs, "per_move_ms")) return e;
      if (t.max_ms != 0 && t.max_ms < t.per_move_ms) {
        return "time.max_ms must be 0 (no bank: a fresh allowance each move) or at least "
               "time.per_move_ms";
      }
      return in_range(t.max_ms, 0, 90 * kDayMs, "max_ms");
  }
  return "time.system is unknown";
}

}  // namespace

std::optional<std::string> validate(const GameSettings& s) {
  if (!Geometry::valid(s.width, s.height)) {
    return "board size must be between 2 and 25 on each side, not " + std::to_string(s.width) +
           "x" + std::to_string(s.height);
  }
  const Rules rules = Rules::preset(s.ruleset);
  if (s.komi && (!Rules::valid_komi(*s.komi) || *s.komi < -150 || *s.komi > 150)) {
    return "komi must be a multiple of 0.5 between -150 and 150";
  }
  if (s.automatic_handicap) {
    if (s.handicap != 0) return "an automatic handicap has no stone count";
    if (s.color != GameSettings::ColorChoice::Automatic) {
      return "an automatic handicap gives Black to the weaker player: choose automatic colours";
    }
  }
  if (s.handicap != 0 && (s.handicap < 2 || s.handicap > 9)) {
    return "handicap must be 0 or from 2 to 9 stones, not " + std::to_string(s.handicap);
  }
  if (s.handicap > 0) {
    const bool free = s.placement == GameSettings::Placement::Free ||
                      (s.placement == GameSettings::Placement::Ruleset && rules.free_handicap);
    const Geometry g{s.width, s.height};
    if (!free && s.handicap > max_fixed_handicap(g)) {
      return "a " + std::to_string(s.width) + "x" + std::to_string(s.height) +
             " board takes at most " + std::to_string(max_fixed_handicap(g)) +
             " fixed handicap stones; choose free placement or fewer stones";
    }
    if (free && s.handicap >= g.area()) return "too many handicap stones for the board";
    if (s.color == GameSettings::ColorChoice::Nigiri) {
      return "a handicap game has no nigiri: choose black, white or automatic";
    }
  }
  return validate_time(s.time);
}

Rules rules_of(const GameSettings& s) {
  Rules r = Rules::preset(s.ruleset);
  r.komi = s.komi.value_or(s.handicap > 0 ? 0.5 : r.komi);
  return r;
}

void fit_handicap(GameSettings& settings, int stones) {
  for (settings.handicap = stones >= 2 ? stones : 0; settings.handicap >= 2 && validate(settings);)
    --settings.handicap;
  if (settings.handicap == 1) settings.handicap = 0;
}

}  // namespace tengen::protocol
