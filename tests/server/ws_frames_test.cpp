#include <gtest/gtest.h>

// Beast's own validator, as a second opinion on ours in a test only (the server uses none of
// Beast's detail headers).
#include <boost/beast/websocket/detail/utf8_checker.hpp>
#include <cstring>
#include <random>

#include "ws/frames.h"

namespace tengen::ws {
namespace {

using Kind = FrameReader::Event::Kind;

// A frame as a client sends it: masked with `key`.
std::string client_frame(std::uint8_t first_byte, std::string_view payload,
                         const char key[4] = "\x12\x34\x56\x78") {
  std::string out;
  append_raw_frame(out, first_byte, payload, key);
  return out;
}

std::string text(std::string_view payload) {
  return client_frame(0x81, payload);
}

void feed(FrameReader& reader, std::string_view bytes) {
  const auto room = reader.space(bytes.size());
  std::memcpy(room.data(), bytes.data(), bytes.size());
  reader.commit(bytes.size());
}

struct Seen {
  Kind kind;
  std::string payload;
  std::uint16_t code;
};

// Everything the reader makes of the bytes, fed at once.
std::vector<Seen> read_all(std::string_view bytes, std::size_t max = 8192) {
  FrameReader reader(max);
  feed(reader, bytes);
  std::vector<Seen> seen;
  while (auto e = reader.next()) seen.push_back({e->kind, std::string(e->payload), e->code});
  return seen;
}

TEST(WsFrames, ServerFramesUseTheShortestLengthThatFits) {
  for (const std::size_t size : {0u, 125u, 126u, 65535u, 65536u}) {
    std::string out;
    append_frame(out, Opcode::Text, std::string(size, 'x'));
    const std::size_t header = size < 126 ? 2 : size <= 65535 ? 4 : 10;
    ASSERT_EQ(out.size(), header + size) << size;
    EXPECT_EQ(static_cast<unsigned char>(out[0]), 0x81) << "final text frame";
    EXPECT_EQ(static_cast<unsigned char>(out[1]) & 0x80, 0) << "a server never masks";
  }
  std::string pong;
  append_frame(pong, Opcode::Pong, "abc");
  EXPECT_EQ(pong, std::string("\x8A\x03"
                              "abc",
                              5));
}

// RFC 6455 §5.7's example: "Hello" masked with 37 fa 21 3d. Pins the masking to the RFC, not
// only to itself (the reader and the writer share it).
TEST(WsFrames, TheRfcsMaskedExampleIsWrittenAndReadAsTheRfcSays) {
  const std::string rfc("\x81\x85\x37\xfa\x21\x3d\x7f\x9f\x4d\x51\x58", 11);
  std::string written;
  append_raw_frame(written, 0x81, "Hello", "\x37\xfa\x21\x3d");
  EXPECT_EQ(written, rfc);
  const auto seen = read_all(rfc);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].kind, Kind::Text);
  EXPECT_EQ(seen[0].payload, "Hello");
}

TEST(WsFrames, AMaskedTextFrameIsReadInOneStepOrByteByByte) {
  const std::string frames = text(R"({"type":"ping","cid":"a"})") + text("second");
  const auto at_once = read_all(frames);
  ASSERT_EQ(at_once.size(), 2u);
  EXPECT_EQ(at_once[0].kind, Kind::Text);
  EXPECT_EQ(at_once[0].payload, R"({"type":"ping","cid":"a"})");
  EXPECT_EQ(at_once[1].payload, "second");

  FrameReader reader(8192);
  std::vector<std::string> seen;
  for (const char c : frames) {
    feed(reader, std::string_view(&c, 1));
    while (auto e = reader.next()) seen.emplace_back(e->payload);
  }
  EXPECT_EQ(seen, (std::vector<std::string>{R"({"type":"ping","cid":"a"})", "second"}));
}

TEST(WsFrames, LongPayloadsUseTheLongerLengthForms) {
  const std::string medium(300, 'm');
  const std::string large(70'000, 'l');
  const auto seen = read_all(text(medium) + text(large), 100'000);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].payload, medium);
  EXPECT_EQ(seen[1].payload, large);
}

TEST(WsFrames, FragmentsAreJoinedAndControlFramesMayComeBetweenThem) {
  // "é" is split between the fragments: only the whole message must be UTF-8.
  const std::string frames = client_frame(0x01, "caf\xC3") + client_frame(0x89, "between") +
                             client_frame(0x00, "\xA9 au ") + client_frame(0x80, "lait");
  const auto seen = read_all(frames);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].kind, Kind::Ping);
  EXPECT_EQ(seen[0].payload, "between");
  EXPECT_EQ(seen[1].kind, Kind::Text);
  EXPECT_EQ(seen[1].payload, "caf\xC3\xA9 au lait");
}

TEST(WsFrames, BinaryMessagesAreNotCheckedForUtf8) {
  const auto seen = read_all(client_frame(0x82, "\xFF\xFE"));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].kind, Kind::Binary);
}

TEST(WsFrames, CloseFramesGiveTheirCodeAndReason) {
  auto seen = read_all(client_frame(0x88, ""));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].kind, Kind::Close);
  EXPECT_EQ(seen[0].code, 1005) << "no code given";
  seen = read_all(client_frame(0x88, std::string("\x03\xE8"
                                                 "bye",
                                                 5)));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].code, 1000);
  EXPECT_EQ(seen[0].payload, "bye");
}

// Each breaks RFC 6455: the reader fails with the code to close with and reads nothing more.
TEST(WsFrames, BrokenFramesFailWithTheCodeToCloseWith) {
  struct Case {
    const char* what;
    std::string bytes;
    std::uint16_t code;
  };
  std::string unmasked = text("hi");
  unmasked[1] = static_cast<char>(unmasked[1] & 0x7F);
  std::string huge_length("\x81\xFF", 2);
  huge_length += std::string("\x80\0\0\0\0\0\0\0", 8) + "abcd";
  const std::vector<Case> cases = {
      {"unmasked", unmasked, 1002},
      {"reserved bit", client_frame(0xC1, "hi"), 1002},
      {"unknown opcode", client_frame(0x83, "hi"), 1002},
      {"continuation first", client_frame(0x80, "hi"), 1002},
      {"new message mid-way", client_frame(0x01, "a") + client_frame(0x81, "b"), 1002},
      {"fragmented ping", client_frame(0x09, "hi"), 1002},
      {"long ping", client_frame(0x89, std::string(126, 'p')), 1002},
      {"length's top bit", huge_length, 1002},
      {"one-byte close", client_frame(0x88, "\x03"), 1002},
      {"close code 1005", client_frame(0x88, "\x03\xED"), 1002},
      {"close code 999", client_frame(0x88, "\x03\xE7"), 1002},
      {"close reason not UTF-8", client_frame(0x88, "\x03\xE8\xFF"), 1007},
      {"text not UTF-8", text("\xC3\x28"), 1007},
      {"fragmented text not UTF-8", client_frame(0x01, "ok") + client_frame(0x80, "\xFF"), 1007},
  };
  for (const auto& c : cases) {
    const auto seen = read_all(c.bytes + text("after"));
    ASSERT_FALSE(seen.empty()) << c.what;
    EXPECT_EQ(seen.back().kind, Kind::Failed) << c.what;
    EXPECT_EQ(seen.back().code, c.code) << c.what;
  }
}

TEST(WsFrames, AnOversizedMessageFailsOnItsHeaderAlone) {
  const std::string frame = text(std::string(9000, 'x'));
  FrameReader reader(8192);
  feed(reader, std::string_view(frame).substr(0, 8));  // the header, no payload yet
  const auto e = reader.next();
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, Kind::Failed);
  EXPECT_EQ(e->code, 1009);
  EXPECT_FALSE(reader.next()) << "nothing is read after a failure";
  // Fragments count together.
  const auto seen = read_all(client_frame(0x01, std::string(5000, 'a')) +
                             client_frame(0x80, std::string(5000, 'b')));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].code, 1009);
  EXPECT_EQ(read_all(text(std::string(8192, 'x'))).at(0).kind, Kind::Text)
      << "exactly the limit is fine";
}

TEST(WsFrames, CloseReasonsAreCutToFitAndStayUtf8) {
  const std::string payload = close_payload(CloseCode::TooBig, std::string(122, 'x') + "\xC3\xA9");
  EXPECT_EQ(payload.size(), 124u) << "the two-byte character did not fit whole: it went";
  EXPECT_EQ(payload.substr(0, 2), "\x03\xF1");
}

TEST(WsFrames, TheHandshakeAnswerIsRfc6455s) {
  EXPECT_EQ(accept_key("dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");  // RFC 6455 §1.3
  EXPECT_EQ(accept_key("x3JJHMbDL1EzLkh9GBhXDw=="),
            "HSmrc0sMlYUkAGmm5OPpG2HaGWk=");  // the example of Wikipedia's article
}

TEST(WsFrames, Utf8IsCheckedByUnicodesTable) {
  EXPECT_TRUE(valid_utf8(""));
  EXPECT_TRUE(valid_utf8("plain ASCII, longer than eight bytes"));
  EXPECT_TRUE(
      valid_utf8("\xC3\xA9t\xC3\xA9 \xE5\x9B\xB2\xE7\xA2\x81 \xF0\x9F\x80\x84"));  // été 囲碁 🀄
  EXPECT_TRUE(valid_utf8("\xEF\xBF\xBF"));                                         // U+FFFF
  EXPECT_TRUE(valid_utf8("\xF4\x8F\xBF\xBF"));          // U+10FFFF, the last
  EXPECT_TRUE(valid_utf8("\xED\x9F\xBF\xEE\x80\x80"));  // either side of the surrogates
  for (const char* bad : {
           "\x80",              // a continuation first
           "\xC0\xAF",          // overlong '/'
           "\xC1\xBF",          // overlong
           "\xE0\x9F\xBF",      // overlong below U+0800
           "\xED\xA0\x80",      // a surrogate
           "\xF0\x8F\xBF\xBF",  // overlong below U+10000
           "\xF4\x90\x80\x80",  // above U+10FFFF
           "\xF5\x80\x80\x80",  // no such lead byte
           "\xFF",
           "\xC3",  // cut short
           "\xE5\x9B",
           "abcdefgh\xC3(",  // after an ASCII run
       })
    EXPECT_FALSE(valid_utf8(bad)) << bad;
  // Against Beast's validator, on random text of mostly valid pieces and stray bytes.
  std::mt19937 random(2026);
  const std::vector<std::string> pieces = {
      "a",    "Go ",  "\xC3\xA9", "\xE5\x9B\xB2", "\xF0\x9F\x80\x84",
      "\x80", "\xC0", "\xED\xA0", "\xF4\x90",     "\xFF"};
  for (int round = 0; round < 20000; ++round) {
    std::string s;
    const int n = static_cast<int>(random() % 12);
    for (int i = 0; i < n; ++i) s += pieces[random() % (round % 2 ? 5 : pieces.size())];
    ASSERT_EQ(valid_utf8(s), boost::beast::websocket::detail::check_utf8(s.data(), s.size()))
        << ::testing::PrintToString(s);
  }
}

}  // namespace
}  // namespace tengen::ws
