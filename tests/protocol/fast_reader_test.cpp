// decode_client reads plain moves and passes without a JSON document; whatever it reads that way
// must be exactly what the full decoder makes of the same text, and everything else goes to it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/codec.h"

namespace tengen::protocol {
namespace {

std::string describe(const std::variant<ClientEnvelope, Error>& d) {
  if (const auto* e = std::get_if<ClientEnvelope>(&d)) return "ok " + encode(*e);
  const auto& error = std::get<Error>(d);
  return "error " + std::string(to_string(error.code)) + " cid=" + error.cid.value_or("-") + " " +
         error.message;
}

void expect_same(const std::string& text) {
  EXPECT_EQ(describe(decode_client(text)), describe(decode_client_with_json(text))) << text;
}

TEST(ClientReadFast, PlainMovesAndPassesReadTheSame) {
  for (
      const std::string& text : std::vector<std::string>{
          R"({"v":1,"type":"play","cid":"l1","game":5,"vertex":"D4"})",
          R"({"type":"play","game":123456789012345678,"vertex":"T19","cid":"a-b_c.d","think_ms":0})",
          R"({"cid":"x","type":"pass","game":1})",
          R"({"cid":"x","type":"pass","game":1,"think_ms":1099511627776})",
      }) {
    expect_same(text);
    EXPECT_TRUE(std::holds_alternative<ClientEnvelope>(decode_client(text))) << text;
  }
}

TEST(ClientReadFast, EverythingElseIsTheFullDecodersToAnswer) {
  for (const std::string& text : std::vector<std::string>{
           R"({"v":2,"type":"play","cid":"l1","game":5,"vertex":"D4"})",  // version
           R"({"type":"play","cid":"l1","game":0,"vertex":"D4"})",        // not positive
           R"({"type":"play","cid":"l1","game":-3,"vertex":"D4"})",
           R"({"type":"play","cid":"l1","game":05,"vertex":"D4"})",  // not JSON
           R"({"type":"play","cid":"l1","game":5,"vertex":"D4",})",  // trailing comma
           R"({"type":"play","cid":"l1","game":5,"vertex":"D4"}x})",
           R"({"type":"play","cid":"l1","game":5,"game":6,"vertex":"D4"})",  // repeated key
           R"({"type":"play","cid":"l1","game":5,"vertex":""})",             // empty vertex
           R"({"type":"play","cid":"l1","game":5,"vertex":"D100"})",
           R"({"type":"play","cid":"l1","game":5,"vertex":"D1000"})",  // too long
           R"({"type":"play","cid":"l1","game":5})",                   // no vertex
           R"({"type":"pass","cid":"l1","game":5,"vertex":"D4"})",     // unknown field for a pass
           R"({"type":"play","cid":"","game":5,"vertex":"D4"})",       // empty cid
           R"({"type":"play","cid":7,"game":5,"vertex":"D4"})",        // integer cid
           R"({"type":"play","cid":"l1","game":5,"vertex":"D4","think_ms":1099511627777})",
           R"({"type":"play","cid":"l1","game":5,"vertex":"D4","think_ms":null})",
           R"({"type":"play","cid":"l1","game":5.0,"vertex":"D4"})",
           R"({"type":"play","cid":"l1","game":5,"vertex":"D4","extra":1})",
           R"({"type":"play","cid":"l\"1","game":5,"vertex":"D4"})",  // escapes
           R"({"type":"play","cid":"caf)"
           "\xC3\xA9"
           R"(","game":5,"vertex":"D4"})",
           R"( {"type":"play","cid":"l1","game":5,"vertex":"D4"})",  // whitespace
           R"({"type": "play","cid":"l1","game":5,"vertex":"D4"})",
           R"({"type":"resign","cid":"l1","game":5})",
           R"({"type":"play","cid":")" + std::string(65, 'c') + R"(","game":5,"vertex":"D4"})",
           "{}",
           "{",
           "}",
           "",
           R"({"type":"play"})",
       }) {
    expect_same(text);
  }
}

}  // namespace
}  // namespace tengen::protocol
