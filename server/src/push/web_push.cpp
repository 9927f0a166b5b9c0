#include "push/web_push.h"

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <sodium.h>

#include <array>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace tengen::push {
namespace {

constexpr std::size_t kPoint = 65;   // an uncompressed P-256 point
constexpr std::size_t kScalar = 32;  // a P-256 private key
constexpr std::size_t kSalt = 16;
constexpr std::size_t kAuth = 16;
constexpr std::size_t kTag = 16;
constexpr std::uint32_t kRecordSize = 4096;
constexpr std::size_t kHeader = kSalt + 4 + 1 + kPoint;  // 86

const unsigned char* bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

template <typename T, void (*F)(T*)>
struct Deleter {
  void operator()(T* p) const { F(p); }
};
using PkeyCtx = std::unique_ptr<EVP_PKEY_CTX, Deleter<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, Deleter<EVP_MD_CTX, EVP_MD_CTX_free>>;
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, Deleter<EVP_CIPHER_CTX, EVP_CIPHER_CTX_free>>;
using Bignum = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;
using Group = std::unique_ptr<EC_GROUP, Deleter<EC_GROUP, EC_GROUP_free>>;
using Point = std::unique_ptr<EC_POINT, Deleter<EC_POINT, EC_POINT_free>>;
using Params = std::unique_ptr<OSSL_PARAM, Deleter<OSSL_PARAM, OSSL_PARAM_free>>;
using ParamBuild = std::unique_ptr<OSSL_PARAM_BLD, Deleter<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using Sig = std::unique_ptr<ECDSA_SIG, Deleter<ECDSA_SIG, ECDSA_SIG_free>>;
using Pkey = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;

// A P-256 key from its parts (`scalar` empty for a public key alone); null if they are not one.
Pkey make_key(std::string_view scalar, std::string_view point) {
  ParamBuild build(OSSL_PARAM_BLD_new());
  Bignum priv;
  if (!build ||
      !OSSL_PARAM_BLD_push_utf8_string(build.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) ||
      !OSSL_PARAM_BLD_push_octet_string(build.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(),
                                        point.size()))
    return nullptr;
  if (!scalar.empty()) {
    priv.reset(BN_bin2bn(bytes(scalar), static_cast<int>(scalar.size()), nullptr));
    if (!priv || !OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_PRIV_KEY, priv.get()))
      return nullptr;
  }
  Params params(OSSL_PARAM_BLD_to_param(build.get()));
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  EVP_PKEY* key = nullptr;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) <= 0 ||
      EVP_PKEY_fromdata(ctx.get(), &key, scalar.empty() ? EVP_PKEY_PUBLIC_KEY : EVP_PKEY_KEYPAIR,
                        params.get()) <= 0)
    return nullptr;
  Pkey made(key);
  // fromdata takes the point on trust: it must be on the curve (and match the scalar).
  PkeyCtx check(EVP_PKEY_CTX_new_from_pkey(nullptr, made.get(), nullptr));
  if (!check || (scalar.empty() ? EVP_PKEY_public_check(check.get())
                                : EVP_PKEY_pairwise_check(check.get())) <= 0)
    return nullptr;
  return made;
}

std::string point_of(const EVP_PKEY* key) {
  std::string out(kPoint, '\0');
  std::size_t size = 0;
  if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
                                      reinterpret_cast<unsigned char*>(out.data()), out.size(),
                                      &size) <= 0 ||
      size != kPoint)
    throw std::runtime_error("push: a P-256 key without its public point");
  return out;
}

std::string hmac_sha256(std::string_view key, std::string_view data) {
  std::string out(32, '\0');
  std::size_t size = 0;
  if (!EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, key.data(), key.size(), bytes(data),
                 data.size(), reinterpret_cast<unsigned char*>(out.data()), out.size(), &size) ||
      size != out.size())
    throw std::runtime_error("push: HMAC-SHA256 failed");
  return out;
}

// HKDF-SHA256 (RFC 5869) for outputs of at most 32 bytes: one block of Expand.
std::string hkdf(std::string_view salt, std::string_view ikm, std::string_view info,
                 std::size_t length) {
  const std::string prk = hmac_sha256(salt, ikm);
  std::string block(info);
  block += '\x01';
  return hmac_sha256(prk, block).substr(0, length);
}

// The content encryption key and nonce of RFC 8291 §3.4 and RFC 8188 §2.2.
struct Keys {
  std::string cek, nonce;
};
Keys derive(std::string_view shared, std::string_view auth, std::string_view ua_public,
            std::string_view as_public, std::string_view salt) {
  std::string info = "WebPush: info";
  info += '\0';
  info.append(ua_public);
  info.append(as_public);
  const std::string ikm = hkdf(auth, shared, info, 32);
  return {hkdf(salt, ikm, std::string("Content-Encoding: aes128gcm") + '\0', 16),
          hkdf(salt, ikm, std::string("Content-Encoding: nonce") + '\0', 12)};
}

std::optional<std::string> gcm(bool seal, std::string_view key, std::string_view nonce,
                               std::string_view in) {
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  if (!ctx || !EVP_CipherInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, bytes(key), bytes(nonce),
                                 seal ? 1 : 0))
    return std::nullopt;
  std::string_view text = in;
  if (!seal) {
    if (in.size() < kTag) return std::nullopt;
    text = in.substr(0, in.size() - kTag);
    if (!EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTag,
                             const_cast<char*>(in.data() + text.size())))
      return std::nullopt;
  }
  std::string out(text.size() + kTag, '\0');
  int n = 0, tail = 0;
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  if (!EVP_CipherUpdate(ctx.get(), o, &n, bytes(text), static_cast<int>(text.size())) ||
      EVP_CipherFinal_ex(ctx.get(), o + n, &tail) <= 0)
    return std::nullopt;  // opening: the tag did not match
  out.resize(static_cast<std::size_t>(n + tail));
  if (seal) {
    out.resize(out.size() + kTag);
    if (!EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTag, out.data() + n + tail))
      return std::nullopt;
  }
  return out;
}

}  // namespace

std::string base64url(std::string_view in) {
  std::string out(sodium_base64_ENCODED_LEN(in.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING),
                  '\0');
  sodium_bin2base64(out.data(), out.size(), bytes(in), in.size(),
                    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  out.resize(out.find('\0'));
  return out;
}

std::optional<std::string> from_base64url(std::string_view text) {
  while (text.ends_with('=')) text.remove_suffix(1);
  std::string out(text.size() * 3 / 4 + 3, '\0');
  std::size_t size = 0;
  const char* end = nullptr;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(),
                        text.size(), nullptr, &size, &end,
                        sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
      end != text.data() + text.size())
    return std::nullopt;
  out.resize(size);
  return out;
}

void EcKey::Free::operator()(evp_pkey_st* key) const {
  EVP_PKEY_free(key);
}

EcKey::EcKey(evp_pkey_st* key) : key_(key), public_(point_of(key)) {}
EcKey::~EcKey() = default;
EcKey::EcKey(EcKey&&) noexcept = default;
EcKey& EcKey::operator=(EcKey&&) noexcept = default;

EcKey EcKey::generate() {
  EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
  if (!key) throw std::runtime_error("push: no P-256 key could be made");
  return EcKey(key);
}

std::optional<EcKey> EcKey::from_private(std::string_view scalar) {
  if (scalar.size() != kScalar) return std::nullopt;
  // The public point is the scalar times the generator.
  Group group(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1));
  Bignum d(BN_bin2bn(bytes(scalar), static_cast<int>(scalar.size()), nullptr));
  if (!group || !d || BN_is_zero(d.get()) || BN_cmp(d.get(), EC_GROUP_get0_order(group.get())) >= 0)
    return std::nullopt;
  Point q(EC_POINT_new(group.get()));
  std::string point(kPoint, '\0');
  if (!q || !EC_POINT_mul(group.get(), q.get(), d.get(), nullptr, nullptr, nullptr) ||
      EC_POINT_point2oct(group.get(), q.get(), POINT_CONVERSION_UNCOMPRESSED,
                         reinterpret_cast<unsigned char*>(point.data()), point.size(),
                         nullptr) != kPoint)
    return std::nullopt;
  Pkey key = make_key(scalar, point);
  if (!key) return std::nullopt;
  return EcKey(key.release());
}

std::string EcKey::private_scalar() const {
  BIGNUM* raw = nullptr;
  if (!EVP_PKEY_get_bn_param(key_.get(), OSSL_PKEY_PARAM_PRIV_KEY, &raw))
    throw std::runtime_error("push: a key without its private part");
  Bignum d(raw);
  std::string out(kScalar, '\0');
  BN_bn2binpad(d.get(), reinterpret_cast<unsigned char*>(out.data()), kScalar);
  return out;
}

std::optional<std::string> EcKey::agree(std::string_view peer_point) const {
  if (peer_point.size() != kPoint) return std::nullopt;
  Pkey peer = make_key({}, peer_point);
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, key_.get(), nullptr));
  std::string secret(32, '\0');
  std::size_t size = secret.size();
  if (!peer || !ctx || EVP_PKEY_derive_init(ctx.get()) <= 0 ||
      EVP_PKEY_derive_set_peer(ctx.get(), peer.get()) <= 0 ||
      EVP_PKEY_derive(ctx.get(), reinterpret_cast<unsigned char*>(secret.data()), &size) <= 0 ||
      size != secret.size())
    return std::nullopt;
  return secret;
}

std::string EcKey::sign(std::string_view data) const {
  MdCtx ctx(EVP_MD_CTX_new());
  std::array<unsigned char, 80> der{};
  std::size_t size = der.size();
  if (!ctx ||
      EVP_DigestSignInit_ex(ctx.get(), nullptr, "SHA256", nullptr, nullptr, key_.get(), nullptr) <=
          0 ||
      EVP_DigestSign(ctx.get(), der.data(), &size, bytes(data), data.size()) <= 0)
    throw std::runtime_error("push: ES256 signing failed");
  const unsigned char* p = der.data();
  Sig sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(size)));
  if (!sig) throw std::runtime_error("push: an ES256 signature that does not parse");
  std::string out(64, '\0');
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), o, 32);
  BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), o + 32, 32);
  return out;
}

bool EcKey::verify(std::string_view point, std::string_view data, std::string_view signature) {
  if (signature.size() != 64) return false;
  Pkey key = make_key({}, point);
  Sig sig(ECDSA_SIG_new());
  if (!key || !sig) return false;
  BIGNUM* r = BN_bin2bn(bytes(signature), 32, nullptr);
  BIGNUM* s = BN_bin2bn(bytes(signature) + 32, 32, nullptr);
  if (!r || !s || !ECDSA_SIG_set0(sig.get(), r, s)) {
    BN_free(r);
    BN_free(s);
    return false;
  }
  unsigned char* der = nullptr;
  const int size = i2d_ECDSA_SIG(sig.get(), &der);
  if (size <= 0) return false;
  MdCtx ctx(EVP_MD_CTX_new());
  const bool ok = ctx &&
                  EVP_DigestVerifyInit_ex(ctx.get(), nullptr, "SHA256", nullptr, nullptr, key.get(),
                                          nullptr) > 0 &&
                  EVP_DigestVerify(ctx.get(), der, static_cast<std::size_t>(size), bytes(data),
                                   data.size()) == 1;
  OPENSSL_free(der);
  return ok;
}

std::optional<std::string> encrypt(std::string_view plaintext, std::string_view p256dh,
                                   std::string_view auth, const EcKey& sender,
                                   std::string_view salt) {
  if (plaintext.size() > kMaxPlaintext || p256dh.size() != kPoint || auth.size() != kAuth ||
      salt.size() != kSalt)
    return std::nullopt;
  const auto shared = sender.agree(p256dh);
  if (!shared) return std::nullopt;
  const Keys keys = derive(*shared, auth, p256dh, sender.public_point(), salt);
  std::string record(plaintext);
  record += '\x02';  // the last record's delimiter, no padding after it
  const auto sealed = gcm(true, keys.cek, keys.nonce, record);
  if (!sealed) return std::nullopt;
  std::string body(salt);
  for (int shift = 24; shift >= 0; shift -= 8)
    body += static_cast<char>((kRecordSize >> shift) & 0xff);
  body += static_cast<char>(kPoint);
  body += sender.public_point();
  body += *sealed;
  return body;
}

std::optional<std::string> encrypt(std::string_view plaintext, std::string_view p256dh,
                                   std::string_view auth) {
  std::string salt(kSalt, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(salt.data()), static_cast<int>(kSalt)) != 1)
    return std::nullopt;
  return encrypt(plaintext, p256dh, auth, EcKey::generate(), salt);
}

std::optional<std::string> decrypt(std::string_view body, const EcKey& receiver,
                                   std::string_view auth) {
  if (body.size() < kHeader + kTag + 1 || static_cast<unsigned char>(body[20]) != kPoint ||
      auth.size() != kAuth)
    return std::nullopt;
  const auto salt = body.substr(0, kSalt);
  const auto sender = body.substr(kSalt + 5, kPoint);
  const auto shared = receiver.agree(sender);
  if (!shared) return std::nullopt;
  const Keys keys = derive(*shared, auth, receiver.public_point(), sender, salt);
  auto record = gcm(false, keys.cek, keys.nonce, body.substr(kHeader));
  if (!record) return std::nullopt;
  // Padding: zeros after the delimiter (2, the last record), which ends the plaintext.
  while (!record->empty() && record->back() == '\0') record->pop_back();
  if (record->empty() || record->back() != '\x02') return std::nullopt;
  record->pop_back();
  return record;
}

std::optional<std::string> origin_of(std::string_view url) {
  const auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return std::nullopt;
  const auto name = url.substr(0, scheme);
  if (name != "https" && name != "http") return std::nullopt;
  const auto end = url.find_first_of("/?#", scheme + 3);
  const auto origin = url.substr(0, end);
  if (origin.size() == scheme + 3 || origin.find('@') != std::string_view::npos)
    return std::nullopt;  // no host, or credentials in the URL
  return std::string(origin);
}

std::optional<std::string> vapid_authorization(const EcKey& key, std::string_view endpoint,
                                               std::string_view subject, std::int64_t expires_s) {
  const auto audience = origin_of(endpoint);
  if (!audience) return std::nullopt;
  const std::string header = base64url(R"({"typ":"JWT","alg":"ES256"})");
  const std::string claims =
      base64url(nlohmann::json{{"aud", *audience}, {"exp", expires_s}, {"sub", subject}}.dump());
  const std::string signing_input = header + "." + claims;
  return "vapid t=" + signing_input + "." + base64url(key.sign(signing_input)) +
         ", k=" + base64url(key.public_point());
}

}  // namespace tengen::push
