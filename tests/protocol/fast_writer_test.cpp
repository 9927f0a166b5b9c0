// encode() writes acks and move events without a JSON document; the text must be the generic
// writer's to the byte, whatever the fields hold.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "protocol/codec.h"

namespace tengen::protocol {
namespace {

void expect_same(const ServerMessage& m) {
  EXPECT_EQ(encode(m), encode_with_json(m));
}

TEST(ServerWriteFast, AcksWithEveryCombinationOfFields) {
  for (int mask = 0; mask < 16; ++mask) {
    Ack a{"l42", {}, {}, {}, {}};
    if (mask & 1) a.game = 7;
    if (mask & 2) a.seq = 123456789012ull;
    if (mask & 4) a.challenge = 3;
    if (mask & 8) a.tournament = -1;
    expect_same(a);
  }
}

TEST(ServerWriteFast, CidsAreEscapedAsTheJsonWriterDoes) {
  for (const std::string& cid : std::vector<std::string>{
           "", "plain", "quote\"back\\slash", "tab\tnew\nline\r\b\f", std::string("nul\0x", 5),
           "\x01\x1f\x7f", "caf\xC3\xA9 \xE2\x98\x97 \xF0\x9F\x98\x80"}) {
    expect_same(Ack{cid, 1, 2, {}, {}});
  }
}

TEST(ServerWriteFast, MoveEventsWithAndWithoutClocks) {
  MovePlayed plain{Color::Black, "D4", {}, std::nullopt, 0};
  expect_same(RoomEvent{12, 1, plain});
  MovePlayed captures{Color::White, "pass", {"A1", "B2", "T19"}, std::nullopt, 250};
  expect_same(RoomEvent{9'000'000'000, 400, captures});
  ClockState clock{{300'000, 5, 30'000, 0}, {-1, 0, 0, 25}, Color::White};
  expect_same(RoomEvent{3, 77, MovePlayed{Color::Black, "Q16", {"R16"}, clock, 1000}});
  clock.running.reset();
  expect_same(RoomEvent{3, 78, MovePlayed{Color::White, "pass", {}, clock, 0}});
}

TEST(ServerWriteFast, RandomFieldsAgree) {
  std::mt19937 random(7);
  std::uniform_int_distribution<std::int64_t> number(-5'000'000'000, 5'000'000'000);
  std::uniform_int_distribution<int> byte(1, 255);
  auto text = [&](int n) {
    std::string s;
    for (int i = 0; i < n; ++i)
      s += static_cast<char>(byte(random) & 0x7F);  // ASCII, controls and NUL included
    return s;
  };
  for (int i = 0; i < 500; ++i) {
    const ClockState clock{
        {number(random), static_cast<int>(number(random) % 100), number(random), 3},
        {number(random), 0, number(random), static_cast<int>(number(random) % 25)},
        i % 3 == 0 ? std::nullopt : std::optional<Color>(i % 2 ? Color::Black : Color::White)};
    MovePlayed m{i % 5 ? Color::White : Color::Black,
                 text(3),
                 {text(2), text(3)},
                 i % 2 ? std::optional<ClockState>(clock) : std::nullopt,
                 number(random)};
    expect_same(RoomEvent{number(random), static_cast<Seq>(i), m});
    expect_same(Ack{text(i % 20), number(random), static_cast<Seq>(i), {}, {}});
  }
}

}  // namespace
}  // namespace tengen::protocol
