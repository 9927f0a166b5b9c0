// the commit-reveal nigiri (docs/nigiri.md).
#include "rooms/nigiri.h"

#include <gtest/gtest.h>

#include <random>

namespace tengen {
namespace {

std::string hex(std::mt19937_64& random, std::size_t bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < bytes * 2; ++i) out.push_back(kDigits[random() % 16]);
  return out;
}

TEST(Nigiri, Sha256MatchesTheStandardTestVector) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Nigiri, TheCommitmentIsTheHashOfSecretAndNonce) {
  const Nigiri n(std::string(64, 'a'), std::string(32, 'b'));
  EXPECT_EQ(n.commitment(), sha256_hex(std::string(64, 'a') + std::string(32, 'b')));
}

TEST(Nigiri, AnHonestDrawVerifiesAndATamperedOneDoesNot) {
  std::mt19937_64 random(7);
  const Nigiri n(hex(random, 32), hex(random, 16));
  const NigiriProof proof = n.reveal("holder-seed-1", "guesser-seed-2", "odd");
  EXPECT_TRUE(verify(proof));
  EXPECT_GE(proof.stones, 1);
  EXPECT_LE(proof.stones, 20);
  EXPECT_EQ(proof.guesser_black, proof.stones % 2 == 1);

  auto tampered = proof;
  tampered.secret[0] =
      tampered.secret[0] == '0' ? '1' : '0';  // another secret: the commitment fails
  EXPECT_FALSE(verify(tampered));
  tampered = proof;
  tampered.guesser_seed = "guesser-seed-3";  // another seed: the count changes or not, the proof
  tampered.stones = proof.stones;            // claims the old one
  const bool same =
      Nigiri(proof.secret, proof.nonce).reveal("holder-seed-1", "guesser-seed-3", "odd").stones ==
      proof.stones;
  EXPECT_EQ(verify(tampered), same);
  tampered = proof;
  tampered.guesser_black = !tampered.guesser_black;  // the colours swapped after the fact
  EXPECT_FALSE(verify(tampered));
  tampered = proof;
  tampered.stones = proof.stones % 20 + 1;
  EXPECT_FALSE(verify(tampered));
}

TEST(Nigiri, ColoursAreBalancedOverManySeededDraws) {
  std::mt19937_64 random(20261122);
  constexpr int kDraws = 20'000;
  int guesser_black = 0;
  int odd_stones = 0;
  for (int i = 0; i < kDraws; ++i) {
    const Nigiri n(hex(random, 32), hex(random, 16));
    const auto proof = n.reveal(hex(random, 8), hex(random, 8), random() % 2 ? "odd" : "even");
    ASSERT_TRUE(verify(proof));
    guesser_black += proof.guesser_black;
    odd_stones += proof.stones % 2;
  }
  // Binomial(20000, 1/2): the standard deviation is about 71; 4 of them is 283.
  EXPECT_NEAR(guesser_black, kDraws / 2, 283);
  EXPECT_NEAR(odd_stones, kDraws / 2, 283);
}

TEST(Nigiri, TheExampleInDocsNigiriChecksOut) {
  const Nigiri n("5ad933e27879b5330c70e22c3bd5f341568368abd3bda9e623f9341912b2b6a0",
                 "78377b525757b494427f89014f97d799");
  EXPECT_EQ(n.commitment(), "c6cc86636e5dfa36f89392d28c73dba3db0ca25ad759181137cac97c157690fa");
  const auto proof = n.reveal("holder-seed-7f3a", "guesser-seed-91bc", "odd");
  EXPECT_EQ(proof.stones, 15);
  EXPECT_TRUE(proof.guesser_black);
}

TEST(Nigiri, SeedsAreCheckedWithReasons) {
  EXPECT_FALSE(Nigiri::check_seed("abcdefgh"));
  EXPECT_EQ(Nigiri::check_seed("short"), "a nigiri seed has 8 to 64 characters");
  EXPECT_EQ(Nigiri::check_seed("spaces are bad"),
            "a nigiri seed holds only letters, digits, '-' and '_'");
}

}  // namespace
}  // namespace tengen
