#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tengen {

// A span of Unix milliseconds, [from, to).
struct Span {
  std::int64_t from = 0;
  std::int64_t to = 0;
  friend bool operator==(const Span&, const Span&) = default;
};

// What decides a player's time off in correspondence games (docs/correspondence.md, the
// arithmetic in rooms/time_off.h): their time zone, an IANA name, in which their weekends fall;
// and their vacations, in order and apart.
struct Calendar {
  std::string zone = "UTC";
  std::vector<Span> vacations{};
};

}  // namespace tengen
