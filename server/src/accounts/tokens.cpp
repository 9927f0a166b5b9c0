#include "accounts/tokens.h"

#include <sodium.h>

#include <vector>

namespace tengen {

std::string random_token(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  randombytes_buf(raw.data(), raw.size());
  std::string token(sodium_base64_encoded_len(bytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING),
                    '\0');
  sodium_bin2base64(token.data(), token.size(), raw.data(), raw.size(),
                    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  token.pop_back();  // the terminating NUL
  sodium_memzero(raw.data(), raw.size());
  return token;
}

store::TokenHash hash_token(const std::string& token) {
  store::TokenHash h{};
  crypto_hash_sha256(h.data(), reinterpret_cast<const unsigned char*>(token.data()), token.size());
  return h;
}

}  // namespace tengen
