#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tengen::ws {

// The WebSocket framing of RFC 6455 as a server speaks it, without sockets: frames the server
// sends (unmasked, never fragmented) and a reader of what clients send (masked, perhaps
// fragmented, control frames in between). WsSession does the I/O around it. The handshake stays
// HTTP's (http_server.cpp); no extension is ever negotiated, so the reserved bits must be clear.
//
// Why not Beast's websocket::stream: it writes one message per operation, and a move sends two
// or three small messages to a connection at once (an ack and the events it caused). Framed
// here, whatever is queued leaves in one write — one system call, one TCP segment.

enum class Opcode : std::uint8_t {
  Continuation = 0x0,
  Text = 0x1,
  Binary = 0x2,
  Close = 0x8,
  Ping = 0x9,
  Pong = 0xA
};

// Close codes (RFC 6455 §7.4.1) the server sends.
enum class CloseCode : std::uint16_t {
  Normal = 1000,
  GoingAway = 1001,        // the server is shutting down
  ProtocolError = 1002,    // a frame that breaks RFC 6455
  InvalidData = 1007,      // a text message that is not UTF-8
  PolicyViolation = 1008,  // an abusive client
  TooBig = 1009,           // a message over the size limit
  TryAgainLater = 1013,    // this node cannot serve now (its bus is away): reconnect, later
};

// Appends one final, unmasked frame carrying `payload` (control payloads: at most 125 bytes).
void append_frame(std::string& out, Opcode opcode, std::string_view payload);

// Appends a frame with this first byte (FIN, reserved bits, opcode) as it is given, masked with
// the 4 bytes of `mask` if not null, as clients send theirs. The server's frames are
// append_frame's; the tests, the fuzz target and the load generator build clients' with this.
void append_raw_frame(std::string& out, std::uint8_t first_byte, std::string_view payload,
                      const char* mask = nullptr);

// The payload of a close frame: the code, big-endian, then the reason (cut to fit 125 bytes).
std::string close_payload(CloseCode code, std::string_view reason);

// The Sec-WebSocket-Accept value answering a client's Sec-WebSocket-Key.
std::string accept_key(std::string_view client_key);

// Whether the bytes are well-formed UTF-8 (what text messages and close reasons must be).
bool valid_utf8(std::string_view text);

// What a client sent, one complete message or control frame at a time.
class FrameReader {
 public:
  struct Event {
    enum class Kind { Text, Binary, Ping, Pong, Close, Failed };
    Kind kind;
    // The message or control payload (a close frame's reason); valid until the next call.
    std::string_view payload;
    // Close: the client's code (1005 if it gave none). Failed: the code to close with.
    std::uint16_t code = 0;
    std::string_view why;  // Failed: what was wrong, for the log and the close frame
  };

  explicit FrameReader(std::size_t max_message_bytes) : max_message_(max_message_bytes) {}

  // Where the next bytes from the socket go: at least `min` bytes of room.
  std::span<char> space(std::size_t min = 512);
  void commit(std::size_t received) { end_ += received; }

  // The next complete event, or nullopt when more bytes are needed. After Failed nothing more is
  // read: the connection is to be closed with the code given.
  std::optional<Event> next();

  bool failed() const { return failed_; }

 private:
  std::optional<Event> fail(std::uint16_t code, std::string_view why);

  std::size_t max_message_;
  std::string buffer_;  // received bytes: [begin_, end_) not yet read
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::string message_;  // a fragmented message's payload so far
  Opcode message_opcode_ = Opcode::Text;
  bool in_message_ = false;  // between a non-final data frame and its final continuation
  bool failed_ = false;
};

}  // namespace tengen::ws
