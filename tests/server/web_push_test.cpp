// Web Push's cryptography (push/web_push.h): RFC 8291's own example (Appendix A) reproduced
// byte for byte, a message decrypting with the subscription's keys and with no other, VAPID
// tokens (RFC 8292) whose ES256 signature the server's public key verifies, and bad keys refused.
#include "push/web_push.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tengen::push {
namespace {

std::string b64(std::string_view text) {
  auto out = from_base64url(text);
  EXPECT_TRUE(out) << text;
  return out.value_or("");
}

// RFC 8291, Appendix A: the example's keys, salt and message, and the body it gives.
TEST(WebPush, TheRfcsExampleIsReproducedByteForByte) {
  const auto sender = EcKey::from_private(b64("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"));
  ASSERT_TRUE(sender);
  EXPECT_EQ(
      base64url(sender->public_point()),
      "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8");
  const std::string ua_public = b64(
      "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4");
  const std::string auth = b64("BTBZMqHH6r4Tts7J_aSIgg");
  const auto body = encrypt("When I grow up, I want to be a watermelon", ua_public, auth, *sender,
                            b64("DGv6ra1nlYgDCS1FRnbzlw"));
  ASSERT_TRUE(body);
  EXPECT_EQ(
      base64url(*body),
      "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmY"
      "WAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexS"
      "gSxsj_Qulcy4a-fN");
  // The user agent's side of the same example.
  const auto receiver = EcKey::from_private(b64("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"));
  ASSERT_TRUE(receiver);
  EXPECT_EQ(receiver->public_point(), ua_public);
  EXPECT_EQ(decrypt(*body, *receiver, auth), "When I grow up, I want to be a watermelon");
}

TEST(WebPush, AMessageOpensWithItsSubscriptionsKeysAndNoOther) {
  const EcKey device = EcKey::generate();
  const std::string auth = "0123456789abcdef";
  const std::string text = R"({"title":"Your move","game":42})";
  const auto one = encrypt(text, device.public_point(), auth);
  const auto two = encrypt(text, device.public_point(), auth);
  ASSERT_TRUE(one && two);
  EXPECT_NE(*one, *two);  // a fresh key and salt each time
  EXPECT_EQ(one->size(), 86 + text.size() + 1 + 16);
  EXPECT_EQ(decrypt(*one, device, auth), text);
  EXPECT_EQ(decrypt(*one, device, "fedcba9876543210"), std::nullopt);
  EXPECT_EQ(decrypt(*one, EcKey::generate(), auth), std::nullopt);
  std::string tampered = *one;
  tampered.back() ^= 1;
  EXPECT_EQ(decrypt(tampered, device, auth), std::nullopt);
  EXPECT_TRUE(encrypt(std::string(kMaxPlaintext, 'x'), device.public_point(), auth));
  EXPECT_FALSE(encrypt(std::string(kMaxPlaintext + 1, 'x'), device.public_point(), auth));
}

TEST(WebPush, MalformedKeysAreRefused) {
  const EcKey device = EcKey::generate();
  std::string off_curve = device.public_point();
  off_curve[64] ^= 1;
  EXPECT_FALSE(encrypt("x", off_curve, "0123456789abcdef"));
  EXPECT_FALSE(encrypt("x", device.public_point().substr(1), "0123456789abcdef"));
  EXPECT_FALSE(encrypt("x", device.public_point(), "short"));
  EXPECT_FALSE(EcKey::from_private(std::string(32, '\0')));
  EXPECT_FALSE(EcKey::from_private(std::string(32, '\xff')));  // beyond the group's order
  EXPECT_FALSE(EcKey::from_private("short"));
  EXPECT_FALSE(from_base64url("not base64!"));
  EXPECT_EQ(from_base64url("AAE="), std::string("\0\1", 2));
}

TEST(WebPush, AKeyKeptAsItsScalarIsTheSameKey) {
  const EcKey key = EcKey::generate();
  const auto again = EcKey::from_private(key.private_scalar());
  ASSERT_TRUE(again);
  EXPECT_EQ(again->public_point(), key.public_point());
  const auto shared = key.agree(again->public_point());
  EXPECT_TRUE(shared && shared->size() == 32);
}

TEST(WebPush, AVapidTokenNamesThePushServiceAndItsSignatureVerifies) {
  const EcKey server = EcKey::generate();
  const auto header = vapid_authorization(server, "https://push.example.net:8443/send/abc?x=1",
                                          "mailto:admin@example.org", 1'800'000'000);
  ASSERT_TRUE(header);
  ASSERT_TRUE(header->starts_with("vapid t=")) << *header;
  const auto comma = header->find(", k=");
  ASSERT_NE(comma, std::string::npos);
  EXPECT_EQ(from_base64url(header->substr(comma + 4)), server.public_point());
  const std::string jwt = header->substr(8, comma - 8);
  const auto dot1 = jwt.find('.');
  const auto dot2 = jwt.rfind('.');
  const auto claims = nlohmann::json::parse(*from_base64url(jwt.substr(dot1 + 1, dot2 - dot1 - 1)));
  EXPECT_EQ(claims["aud"], "https://push.example.net:8443");
  EXPECT_EQ(claims["exp"], 1'800'000'000);
  EXPECT_EQ(claims["sub"], "mailto:admin@example.org");
  EXPECT_EQ(nlohmann::json::parse(*from_base64url(jwt.substr(0, dot1)))["alg"], "ES256");
  const auto signature = from_base64url(jwt.substr(dot2 + 1));
  ASSERT_TRUE(signature);
  EXPECT_TRUE(EcKey::verify(server.public_point(), jwt.substr(0, dot2), *signature));
  EXPECT_FALSE(EcKey::verify(EcKey::generate().public_point(), jwt.substr(0, dot2), *signature));
  EXPECT_FALSE(EcKey::verify(server.public_point(), jwt.substr(0, dot2) + "x", *signature));
  EXPECT_FALSE(vapid_authorization(server, "ftp://example.net/x", "mailto:a@b", 1));
  EXPECT_FALSE(vapid_authorization(server, "https://user@example.net/x", "mailto:a@b", 1));
  EXPECT_EQ(origin_of("http://127.0.0.1:9000/push/1"), "http://127.0.0.1:9000");
}

}  // namespace
}  // namespace tengen::push
