#include "rooms/nigiri.h"

#include <sodium.h>

#include <array>
#include <stdexcept>

namespace tengen {
namespace {

int stones_of(const std::string& secret, const std::string& holder_seed,
              const std::string& guesser_seed) {
  const std::string digest = sha256_hex(secret + holder_seed + guesser_seed);
  const unsigned long first = std::stoul(digest.substr(0, 8), nullptr, 16);
  return static_cast<int>(first % 20) + 1;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  std::array<unsigned char, crypto_hash_sha256_BYTES> digest{};
  crypto_hash_sha256(digest.data(), reinterpret_cast<const unsigned char*>(bytes.data()),
                     bytes.size());
  std::string hex(digest.size() * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), digest.data(), digest.size());
  hex.pop_back();
  return hex;
}

Nigiri::Nigiri(std::string secret, std::string nonce)
    : secret_(std::move(secret)),
      nonce_(std::move(nonce)),
      commitment_(sha256_hex(secret_ + nonce_)) {}

std::optional<std::string> Nigiri::check_seed(std::string_view seed) {
  if (seed.size() < 8 || seed.size() > 64) return "a nigiri seed has 8 to 64 characters";
  for (const char c : seed) {
    const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    c == '-' || c == '_';
    if (!ok) return "a nigiri seed holds only letters, digits, '-' and '_'";
  }
  return std::nullopt;
}

NigiriProof Nigiri::reveal(const std::string& holder_seed, const std::string& guesser_seed,
                           const std::string& guess) const {
  if (guess != "odd" && guess != "even") throw std::invalid_argument("the guess is odd or even");
  NigiriProof p{commitment_, secret_, nonce_, holder_seed, guesser_seed, guess, 0, false};
  p.stones = stones_of(secret_, holder_seed, guesser_seed);
  p.guesser_black = (p.stones % 2 == 1) == (guess == "odd");
  return p;
}

bool verify(const NigiriProof& p) {
  if (sha256_hex(p.secret + p.nonce) != p.commitment) return false;
  if (p.guess != "odd" && p.guess != "even") return false;
  const int stones = stones_of(p.secret, p.holder_seed, p.guesser_seed);
  return stones == p.stones && p.guesser_black == ((stones % 2 == 1) == (p.guess == "odd"));
}

}  // namespace tengen
