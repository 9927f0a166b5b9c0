#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/messages.h"
#include "protocol/settings.h"

// The server's clocks told to a GTP engine. GTP 2 (§6.3.x) knows one system, Canadian
// byo-yomi: `time_settings main period stones`, with stones 0 meaning absolute time and
// period > 0, stones 0 no limit; `time_left colour seconds stones` before each move (stones 0
// while in main time). Everything else is mapped onto it:
//   absolute, fischer   main time only, the real bank sent before every move
//   simple              no main time, a period of one stone per move
//   byo-yomi            a period of one stone, or KGS's `kgs-time_settings byoyomi main period
//                       periods` and `time_left colour period-seconds periods-left` when the
//                       engine has it
//   canadian            as it is
//   none                `time_settings 0 1 0`: no limit
// Pure functions; seconds are whole (GTP's integers), rounded down.
namespace tengen::bridge {

std::string time_settings_command(const protocol::TimeControl& time, bool kgs_time_settings);

// The player's clock `elapsed_ms` after the server reported it (the time it ran since).
protocol::PlayerClock run_clock(const protocol::TimeControl& time, protocol::PlayerClock clock,
                                std::int64_t elapsed_ms);

// nullopt for untimed games.
std::optional<std::string> time_left_command(const protocol::TimeControl& time,
                                             const protocol::PlayerClock& clock,
                                             std::string_view color, bool kgs_time_settings);

// How long until this clock runs out, if nothing is added; nullopt for untimed games.
std::optional<std::int64_t> time_to_flag_ms(const protocol::TimeControl& time,
                                            const protocol::PlayerClock& clock);

}  // namespace tengen::bridge
