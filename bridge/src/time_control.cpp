#include "time_control.h"

#include <algorithm>

namespace tengen::bridge {

namespace {

using System = protocol::TimeControl::System;

std::string seconds(std::int64_t ms) {
  return std::to_string(std::max<std::int64_t>(0, ms) / 1000);
}

}  // namespace

std::string time_settings_command(const protocol::TimeControl& t, bool kgs) {
  switch (t.system) {
    case System::None:
    case System::Correspondence:  // days a move: the engine thinks as it would untimed
      return "time_settings 0 1 0";
    case System::Absolute:
    case System::Fischer:
      return "time_settings " + seconds(t.main_ms) + " 0 0";
    case System::Simple:
      return "time_settings 0 " + seconds(t.per_move_ms) + " 1";
    case System::ByoYomi:
      if (kgs) {
        return "kgs-time_settings byoyomi " + seconds(t.main_ms) + " " + seconds(t.period_ms) +
               " " + std::to_string(t.periods);
      }
      return "time_settings " + seconds(t.main_ms) + " " + seconds(t.period_ms) + " 1";
    case System::Canadian:
      return "time_settings " + seconds(t.main_ms) + " " + seconds(t.period_ms) + " " +
             std::to_string(t.stones);
  }
  return "time_settings 0 1 0";
}

protocol::PlayerClock run_clock(const protocol::TimeControl& t, protocol::PlayerClock c,
                                std::int64_t elapsed_ms) {
  if (t.system == System::None || elapsed_ms <= 0) return c;
  const std::int64_t from_main = std::min(c.main_ms, elapsed_ms);
  c.main_ms -= from_main;
  const std::int64_t rest = elapsed_ms - from_main;
  if (rest > 0 && (t.system == System::ByoYomi || t.system == System::Canadian)) {
    c.period_ms = std::max<std::int64_t>(0, c.period_ms - rest);
  }
  return c;
}

std::optional<std::string> time_left_command(const protocol::TimeControl& t,
                                             const protocol::PlayerClock& c, std::string_view color,
                                             bool kgs) {
  const std::string head = "time_left " + std::string(color) + " ";
  switch (t.system) {
    case System::None:
    case System::Correspondence:
      return std::nullopt;
    case System::Absolute:
    case System::Fischer:
      return head + seconds(c.main_ms) + " 0";
    case System::Simple:
      return head + seconds(c.main_ms) + " 1";
    case System::ByoYomi:
      if (c.main_ms > 0) return head + seconds(c.main_ms) + " 0";
      return head + seconds(c.period_ms) + " " + (kgs ? std::to_string(c.periods) : "1");
    case System::Canadian:
      if (c.main_ms > 0) return head + seconds(c.main_ms) + " 0";
      return head + seconds(c.period_ms) + " " + std::to_string(c.stones);
  }
  return std::nullopt;
}

std::optional<std::int64_t> time_to_flag_ms(const protocol::TimeControl& t,
                                            const protocol::PlayerClock& c) {
  switch (t.system) {
    case System::None:
      return std::nullopt;
    case System::Absolute:
    case System::Fischer:
    case System::Simple:
    case System::Correspondence:
      return c.main_ms;
    case System::ByoYomi:
      return c.main_ms + c.period_ms + std::max(0, c.periods - 1) * t.period_ms;
    case System::Canadian:
      return c.main_ms + (c.main_ms > 0 ? t.period_ms : c.period_ms);
  }
  return std::nullopt;
}

}  // namespace tengen::bridge
