#pragma once

#include <cstddef>
#include <string>

#include "store/account_store.h"

namespace tengen {

// Secrets given to a client once and stored only as their SHA-256 (session tokens, the links of
// mails): `bytes` random bytes from libsodium in base64url without padding (32 bytes: 43
// characters), and the hash the stores keep.
std::string random_token(std::size_t bytes);
store::TokenHash hash_token(const std::string& token);

}  // namespace tengen
