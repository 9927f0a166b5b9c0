#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "store/account_store.h"

namespace tengen {

// Vacation days for correspondence play (docs/correspondence.md). While a player is on vacation,
// every correspondence clock of theirs stands still. Days accrue with time, as on the
// correspondence servers players know (OGS, Dragon Go Server): a day for every 12 (about 30 a
// year), never more than 30 kept, 7 for a new account; none accrue during a vacation. A vacation
// uses days by the calendar and ends by itself when they run out; ended early, what was not used
// is kept.
struct VacationPolicy {
  static constexpr std::int64_t kDayMs = 86'400'000;
  static constexpr std::int64_t kFirstMs = 7 * kDayMs;
  static constexpr std::int64_t kMostMs = 30 * kDayMs;
  static constexpr std::int64_t kOneDayPerMs = 12 * kDayMs;   // of time, for a day of vacation
  static constexpr std::int64_t kLeastToStartMs = 3'600'000;  // an hour
  static constexpr int kStartsPerDay = 5;                     // each re-arms the player's games
  // Vacations older than this are forgotten (no turn of a correspondence game lasts as long).
  static constexpr std::int64_t kKeptMs = 400 * kDayMs;

  // What is left at `now_ms` from the stored balance (nullopt: a new account's, as of
  // `created_at_ms`).
  static std::int64_t left(const std::optional<store::VacationBalance>& stored,
                           std::int64_t created_at_ms, std::int64_t now_ms) {
    const auto b = stored.value_or(store::VacationBalance{kFirstMs, created_at_ms});
    if (now_ms <= b.as_of_ms) return b.left_ms;
    const std::int64_t earned = (now_ms - b.as_of_ms) / (kOneDayPerMs / kDayMs);
    return std::max(b.left_ms, std::min(kMostMs, b.left_ms + earned));
  }
};

}  // namespace tengen
