#include "ws/frames.h"

// The handshake's answer is SHA-1 and base64 (RFC 6455 §4.2.2), from OpenSSL's libcrypto
// (Debian's libssl-dev). The UTF-8 check is written here: a few lines of Unicode's table 3-7,
// where the only library at hand was Beast's internal (detail) one.
#include <openssl/evp.h>

#include <cstring>
#include <stdexcept>

namespace tengen::ws {

namespace {

constexpr std::size_t kMaxControlPayload = 125;

bool is_control(Opcode op) {
  return (static_cast<std::uint8_t>(op) & 0x8) != 0;
}

bool known_opcode(std::uint8_t op) {
  return op <= 0x2 || (op >= 0x8 && op <= 0xA);
}

// Codes a peer may put in a close frame (RFC 6455 §7.4; 1012–1014 registered since).
bool valid_close_code(std::uint16_t code) {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) ||
         (code >= 3000 && code <= 4999);
}

}  // namespace

// Unicode 15, table 3-7 ("well-formed UTF-8 byte sequences"): no overlong forms, no surrogates
// (U+D800–U+DFFF), nothing above U+10FFFF.
bool valid_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* const end = p + text.size();
  auto continuation = [&](const unsigned char* at, unsigned char low = 0x80,
                          unsigned char high = 0xBF) {
    return at < end && *at >= low && *at <= high;
  };
  while (p < end) {
    // ASCII runs eight bytes at a time: most messages are ASCII JSON.
    while (end - p >= 8) {
      std::uint64_t word;
      std::memcpy(&word, p, 8);
      if (word & 0x8080808080808080ULL) break;
      p += 8;
    }
    if (p == end) break;
    const unsigned char c = *p;
    if (c < 0x80) {
      ++p;
    } else if (c >= 0xC2 && c <= 0xDF) {
      if (!continuation(p + 1)) return false;
      p += 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      const unsigned char low = c == 0xE0 ? 0xA0 : 0x80;   // overlong below U+0800
      const unsigned char high = c == 0xED ? 0x9F : 0xBF;  // surrogates
      if (!continuation(p + 1, low, high) || !continuation(p + 2)) return false;
      p += 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      const unsigned char low = c == 0xF0 ? 0x90 : 0x80;   // overlong below U+10000
      const unsigned char high = c == 0xF4 ? 0x8F : 0xBF;  // above U+10FFFF
      if (!continuation(p + 1, low, high) || !continuation(p + 2) || !continuation(p + 3))
        return false;
      p += 4;
    } else {  // a continuation byte first, C0/C1 (overlong), F5–FF
      return false;
    }
  }
  return true;
}

namespace {

void unmask(char* data, std::size_t size, const unsigned char key[4]) {
  const unsigned char repeated[8] = {key[0], key[1], key[2], key[3],
                                     key[0], key[1], key[2], key[3]};
  std::uint64_t wide_key;
  std::memcpy(&wide_key, repeated, 8);
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, data + i, 8);
    word ^= wide_key;
    std::memcpy(data + i, &word, 8);
  }
  for (; i < size; ++i) data[i] = static_cast<char>(data[i] ^ key[i % 4]);
}

}  // namespace

void append_frame(std::string& out, Opcode opcode, std::string_view payload) {
  append_raw_frame(out, static_cast<std::uint8_t>(0x80 | static_cast<std::uint8_t>(opcode)),
                   payload);
}

void append_raw_frame(std::string& out, std::uint8_t first_byte, std::string_view payload,
                      const char* mask) {
  char header[14];
  std::size_t n = 0;
  header[n++] = static_cast<char>(first_byte);
  const char mask_bit = mask ? '\x80' : '\0';
  const std::size_t size = payload.size();
  if (size < 126) {
    header[n++] = static_cast<char>(mask_bit | static_cast<char>(size));
  } else if (size <= 0xFFFF) {
    header[n++] = static_cast<char>(mask_bit | 126);
    header[n++] = static_cast<char>(size >> 8);
    header[n++] = static_cast<char>(size);
  } else {
    header[n++] = static_cast<char>(mask_bit | 127);
    for (int shift = 56; shift >= 0; shift -= 8)
      header[n++] = static_cast<char>(static_cast<std::uint64_t>(size) >> shift);
  }
  if (mask) {
    std::memcpy(header + n, mask, 4);
    n += 4;
  }
  out.append(header, n);
  const std::size_t at = out.size();
  out.append(payload);
  if (mask) {
    const auto* key = reinterpret_cast<const unsigned char*>(mask);
    unmask(out.data() + at, size, key);  // masking and unmasking are the same XOR
  }
}

std::string close_payload(CloseCode code, std::string_view reason) {
  const auto value = static_cast<std::uint16_t>(code);
  std::string out{static_cast<char>(value >> 8), static_cast<char>(value & 0xFF)};
  reason = reason.substr(0, kMaxControlPayload - 2);
  // Cut at a character boundary: the reason must stay UTF-8.
  while (!reason.empty() && !valid_utf8(reason)) reason.remove_suffix(1);
  out.append(reason);
  return out;
}

std::string accept_key(std::string_view client_key) {
  static constexpr std::string_view kGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  std::string keyed(client_key);
  keyed += kGuid;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(keyed.data(), keyed.size(), digest, &size, EVP_sha1(), nullptr) != 1 || size != 20)
    throw std::runtime_error("SHA-1 is not available from libcrypto");
  unsigned char encoded[29];  // base64 of 20 bytes: 28 characters and a NUL
  const int length = EVP_EncodeBlock(encoded, digest, 20);
  return std::string(reinterpret_cast<const char*>(encoded), static_cast<std::size_t>(length));
}

std::span<char> FrameReader::space(std::size_t min) {
  if (begin_ == end_) begin_ = end_ = 0;
  if (buffer_.size() - end_ < min) {
    if (begin_ > 0) {  // what was read goes; the unread part moves to the front
      std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (buffer_.size() - end_ < min) buffer_.resize(end_ + min);
  }
  return {buffer_.data() + end_, buffer_.size() - end_};
}

std::optional<FrameReader::Event> FrameReader::fail(std::uint16_t code, std::string_view why) {
  failed_ = true;
  return Event{Event::Kind::Failed, {}, code, why};
}

std::optional<FrameReader::Event> FrameReader::next() {
  using Kind = Event::Kind;
  while (!failed_) {
    const std::size_t available = end_ - begin_;
    if (available < 2) return std::nullopt;
    const auto* bytes = reinterpret_cast<const unsigned char*>(buffer_.data() + begin_);
    const bool fin = (bytes[0] & 0x80) != 0;
    const std::uint8_t raw_opcode = bytes[0] & 0x0F;
    const bool masked = (bytes[1] & 0x80) != 0;
    const std::uint8_t short_size = bytes[1] & 0x7F;
    if ((bytes[0] & 0x70) != 0) return fail(1002, "reserved bits set: no extension was negotiated");
    if (!known_opcode(raw_opcode)) return fail(1002, "unknown opcode");
    const auto opcode = static_cast<Opcode>(raw_opcode);
    if (!masked) return fail(1002, "a client's frames must be masked");
    std::size_t header = 2 + (short_size == 126 ? 2 : short_size == 127 ? 8 : 0) + 4;
    if (available < header) return std::nullopt;
    std::uint64_t size = short_size;
    if (short_size == 126) {
      size = (std::uint64_t{bytes[2]} << 8) | bytes[3];
    } else if (short_size == 127) {
      size = 0;
      for (int i = 0; i < 8; ++i) size = (size << 8) | bytes[2 + i];
      if (size >> 63) return fail(1002, "frame length out of range");
    }
    if (is_control(opcode)) {
      if (!fin) return fail(1002, "a control frame may not be fragmented");
      if (size > kMaxControlPayload)
        return fail(1002, "a control frame's payload is at most 125 bytes");
    } else {
      if (opcode == Opcode::Continuation && !in_message_)
        return fail(1002, "a continuation frame with no message begun");
      if (opcode != Opcode::Continuation && in_message_)
        return fail(1002, "a new message before the last one ended");
      // Refused before its bytes are buffered: a frame's announced size is enough to know.
      const std::uint64_t total = size + (in_message_ ? message_.size() : 0);
      if (total > max_message_) return fail(1009, "message over the size limit");
    }
    if (available - header < size) return std::nullopt;
    const unsigned char* key = bytes + header - 4;
    char* payload = buffer_.data() + begin_ + header;
    const auto length = static_cast<std::size_t>(size);
    unmask(payload, length, key);
    begin_ += header + length;
    const std::string_view data(payload, length);

    switch (opcode) {
      case Opcode::Ping:
        return Event{Kind::Ping, data, 0, {}};
      case Opcode::Pong:
        return Event{Kind::Pong, data, 0, {}};
      case Opcode::Close: {
        if (data.empty()) return Event{Kind::Close, {}, 1005, {}};
        if (data.size() == 1) return fail(1002, "a close frame's code takes two bytes");
        const auto code = static_cast<std::uint16_t>((static_cast<unsigned char>(data[0]) << 8) |
                                                     static_cast<unsigned char>(data[1]));
        if (!valid_close_code(code)) return fail(1002, "invalid close code");
        if (!valid_utf8(data.substr(2))) return fail(1007, "a close reason must be UTF-8");
        return Event{Kind::Close, data.substr(2), code, {}};
      }
      default:
        break;
    }
    if (!in_message_ && fin) {  // the common case: a whole message in one frame, read in place
      if (opcode == Opcode::Text && !valid_utf8(data))
        return fail(1007, "a text message must be UTF-8");
      return Event{opcode == Opcode::Text ? Kind::Text : Kind::Binary, data, 0, {}};
    }
    if (!in_message_) {
      message_.clear();
      message_opcode_ = opcode;
      in_message_ = true;
    }
    message_.append(data);
    if (!fin) continue;
    in_message_ = false;
    if (message_opcode_ == Opcode::Text && !valid_utf8(message_))
      return fail(1007, "a text message must be UTF-8");
    return Event{message_opcode_ == Opcode::Text ? Kind::Text : Kind::Binary, message_, 0, {}};
  }
  return std::nullopt;
}

}  // namespace tengen::ws
