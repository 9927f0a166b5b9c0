#include "lobby/quick_match.h"

#include <algorithm>
#include <cmath>

namespace tengen {
namespace {

bool same_pool(const protocol::Seek& a, const protocol::Seek& b) {
  return a.size == b.size && a.speed == b.speed;
}

}  // namespace

double QuickMatch::range(Millis waited) {
  if (waited >= kAnyoneAfter) return INFINITY;
  return kFirstRange + kWidening * static_cast<double>(waited / kWidenEvery);
}

protocol::GameSettings QuickMatch::settings(const protocol::Seek& seek) {
  using protocol::TimeControl;
  protocol::GameSettings s;
  s.width = s.height = seek.size;
  s.ruleset = Ruleset::Japanese;
  s.color = protocol::GameSettings::ColorChoice::Automatic;
  s.rated = true;
  s.time.system = TimeControl::System::ByoYomi;
  s.time.periods = 5;
  constexpr std::int64_t kMinute = 60'000;
  const bool blitz = seek.speed == protocol::Speed::Blitz;
  switch (seek.size) {
    case 9:
      s.time.main_ms = (blitz ? 1 : 5) * kMinute;
      s.time.period_ms = blitz ? 10'000 : 20'000;
      break;
    case 13:
      s.time.main_ms = (blitz ? 2 : 10) * kMinute;
      s.time.period_ms = blitz ? 10'000 : 30'000;
      break;
    default:
      s.time.main_ms = (blitz ? 5 : 20) * kMinute;
      s.time.period_ms = blitz ? 10'000 : 30'000;
      break;
  }
  return s;
}

bool QuickMatch::add(Waiting waiting) {
  const bool had = cancel(waiting.user.id);
  if (!had && waiting_.size() >= kMaxWaiting) return false;
  waiting_.push_back(std::move(waiting));
  return true;
}

bool QuickMatch::cancel(std::int64_t user) {
  return std::erase_if(waiting_, [&](const Waiting& w) { return w.user.id == user; }) > 0;
}

std::optional<QuickMatch::Waiting> QuickMatch::of(std::int64_t user) const {
  for (const auto& w : waiting_)
    if (w.user.id == user) return w;
  return std::nullopt;
}

std::int64_t QuickMatch::waiting_for(const protocol::Seek& seek) const {
  return std::count_if(waiting_.begin(), waiting_.end(),
                       [&](const Waiting& w) { return same_pool(w.seek, seek); });
}

std::vector<QuickMatch::Pair> QuickMatch::match(
    Steady now, const std::function<bool(std::int64_t, std::int64_t)>& apart) {
  std::vector<Pair> pairs;
  std::vector<bool> taken(waiting_.size(), false);
  for (std::size_t i = 0; i < waiting_.size(); ++i) {
    if (taken[i]) continue;
    const Waiting& a = waiting_[i];
    const double a_range = range(std::chrono::duration_cast<Millis>(now - a.since));
    std::optional<std::size_t> best;
    double best_gap = INFINITY;
    for (std::size_t j = i + 1; j < waiting_.size(); ++j) {
      const Waiting& b = waiting_[j];
      if (taken[j] || !same_pool(a.seek, b.seek)) continue;
      if (apart && apart(a.user.id, b.user.id)) continue;
      const double gap = std::abs(a.rating - b.rating);
      const double b_range = range(std::chrono::duration_cast<Millis>(now - b.since));
      if (gap > a_range || gap > b_range || gap >= best_gap) continue;
      best = j;
      best_gap = gap;
    }
    if (!best) continue;
    taken[i] = taken[*best] = true;
    pairs.push_back({a, waiting_[*best]});
  }
  std::size_t k = 0;
  std::erase_if(waiting_, [&](const Waiting&) { return taken[k++]; });
  return pairs;
}

}  // namespace tengen
