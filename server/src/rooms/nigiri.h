#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tengen {

// SHA-256 of the bytes, as 64 lower-case hex digits (libsodium).
std::string sha256_hex(std::string_view bytes);

// What anyone needs to check a nigiri after the fact (docs/nigiri.md does it with sha256sum).
struct NigiriProof {
  std::string commitment;    // sha256(secret ‖ nonce), published before anybody chose
  std::string secret;        // the server's 64 hex digits
  std::string nonce;         // 32 hex digits
  std::string holder_seed;   // the holder's (the challenger's) contribution
  std::string guesser_seed;  // the guesser's (the accepter's) contribution
  std::string guess;         // "odd" or "even"
  int stones = 0;  // 1..20: the handful, from sha256(secret ‖ holder_seed ‖ guesser_seed)
  bool guesser_black = false;
};

// The commit-reveal draw of docs/nigiri.md. The server commits to a secret before either player
// chooses; both players then send a seed (the guesser with its guess of odd or even), and the
// handful is a hash of all three. The server cannot steer it (its secret is fixed before the
// seeds exist), nor can either player (neither knows the secret, and each seed is only one input).
class Nigiri {
 public:
  // `secret` 64 and `nonce` 32 hex digits, from a cryptographic random source.
  Nigiri(std::string secret, std::string nonce);

  const std::string& commitment() const noexcept { return commitment_; }

  // Why a seed is refused (8 to 64 letters, digits, '-' or '_'), or nullopt.
  static std::optional<std::string> check_seed(std::string_view seed);

  // The outcome, once both seeds and the guess ("odd" or "even") are in.
  NigiriProof reveal(const std::string& holder_seed, const std::string& guesser_seed,
                     const std::string& guess) const;

 private:
  std::string secret_;
  std::string nonce_;
  std::string commitment_;
};

// Recomputes the commitment and the outcome from the proof's inputs.
bool verify(const NigiriProof& proof);

}  // namespace tengen
