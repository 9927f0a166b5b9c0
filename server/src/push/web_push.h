#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct evp_pkey_st;  // OpenSSL's EVP_PKEY: its headers stay in web_push.cpp

// Web Push's cryptography (docs/web-client.md, "Push"), with OpenSSL 3: the message encryption
// of RFC 8291 ("aes128gcm", RFC 8188: one record, ECDH on P-256 with the subscription's key, HKDF
// with its auth secret) and the application server's identification of RFC 8292 (VAPID: a JWT
// signed with ES256 by the server's own P-256 key). Bytes are std::string; keys and points in
// their raw forms: a private key as its 32-byte scalar, a public one as its 65-byte uncompressed
// point, as browsers give them (base64url) in a PushSubscription. No sockets, no store.
namespace tengen::push {

// base64url without padding (RFC 4648 §5), as Web Push writes keys, salts and JWTs.
std::string base64url(std::string_view bytes);
// Accepts it with or without padding; nullopt if it is not base64url.
std::optional<std::string> from_base64url(std::string_view text);

// A P-256 key pair: the server's VAPID key, or a message's one-time key.
class EcKey {
 public:
  static EcKey generate();
  // From a 32-byte private scalar; nullopt if it is not a valid P-256 private key.
  static std::optional<EcKey> from_private(std::string_view scalar);
  ~EcKey();
  EcKey(EcKey&&) noexcept;
  EcKey& operator=(EcKey&&) noexcept;

  std::string private_scalar() const;                          // 32 bytes
  const std::string& public_point() const { return public_; }  // 65 bytes, 0x04 || x || y
  // The ECDH shared secret with a peer's public point (32 bytes); nullopt if the point is not
  // on the curve.
  std::optional<std::string> agree(std::string_view peer_point) const;
  // ECDSA P-256 with SHA-256 over `data`, as JWS writes it: r || s, 64 bytes.
  std::string sign(std::string_view data) const;
  // Whether `signature` (r || s) is `point`'s over `data` (tests, and tools that check a JWT).
  static bool verify(std::string_view point, std::string_view data, std::string_view signature);

 private:
  explicit EcKey(evp_pkey_st* key);
  struct Free {
    void operator()(evp_pkey_st* key) const;
  };
  std::unique_ptr<evp_pkey_st, Free> key_;
  std::string public_;
};

// The most a message may carry: one 4096-byte record, less the header (86 bytes), the padding
// delimiter and the tag. Push services accept 4096 bytes of body.
inline constexpr std::size_t kMaxPlaintext = 4096 - 86 - 1 - 16;

// The body of a push message (Content-Encoding: aes128gcm) carrying `plaintext` to a
// subscription's public key (`p256dh`, 65 bytes) and auth secret (16 bytes), sent with the one-time
// key `sender` and `salt` (16 bytes): header (salt, record size 4096, the sender's public key),
// then the one record. nullopt if a key is malformed or the plaintext is longer than
// kMaxPlaintext.
std::optional<std::string> encrypt(std::string_view plaintext, std::string_view p256dh,
                                   std::string_view auth, const EcKey& sender,
                                   std::string_view salt);
// The same with a fresh one-time key and a random salt, as every real message is sent.
std::optional<std::string> encrypt(std::string_view plaintext, std::string_view p256dh,
                                   std::string_view auth);
// What a user agent does with such a body, given its subscription's private key and auth
// secret: the plaintext, or nullopt if the body does not decrypt (tests, and the test push
// service).
std::optional<std::string> decrypt(std::string_view body, const EcKey& receiver,
                                   std::string_view auth);

// "https://push.example.net" from "https://push.example.net/send/abc": the audience of a VAPID
// token; nullopt unless an http(s) URL with a host.
std::optional<std::string> origin_of(std::string_view url);

// RFC 8292's Authorization header for a push to `endpoint`: "vapid t=<JWT>, k=<public key>",
// the JWT's audience the endpoint's origin, expiring at `expires_s` (Unix seconds; at most 24 h
// ahead, as push services require), its subject a contact ("mailto:..." or an https URL).
// nullopt if the endpoint is not a URL.
std::optional<std::string> vapid_authorization(const EcKey& key, std::string_view endpoint,
                                               std::string_view subject, std::int64_t expires_s);

}  // namespace tengen::push
