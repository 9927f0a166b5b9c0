// libFuzzer target: the server's reader of WebSocket frames (server/src/ws/frames.h), fed in
// chunks whose sizes the input chooses. Whatever it reads must respect the size limit, a failure
// must be final, and every message read, framed again as a client would, must read back the same.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "ws/frames.h"

namespace {

constexpr std::size_t kMax = 1024;

void feed(tengen::ws::FrameReader& reader, std::string_view bytes) {
  const auto room = reader.space(bytes.size());
  std::memcpy(room.data(), bytes.data(), bytes.size());
  reader.commit(bytes.size());
}

std::string client_frame(std::uint8_t opcode, std::string_view payload) {
  std::string out;
  tengen::ws::append_raw_frame(out, static_cast<std::uint8_t>(0x80 | opcode), payload,
                               "\x5A\x00\xC3\x17");
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using Kind = tengen::ws::FrameReader::Event::Kind;
  if (size == 0) return 0;
  const std::size_t chunk = 1 + data[0] % 64;  // how the bytes arrive
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  tengen::ws::FrameReader reader(kMax);
  std::vector<std::pair<Kind, std::string>> messages;
  bool failed = false;
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    feed(reader, bytes.substr(at, chunk));
    while (auto event = reader.next()) {
      if (failed) __builtin_trap();  // nothing after a failure
      if (event->kind == Kind::Failed) {
        if (event->code != 1002 && event->code != 1007 && event->code != 1009) __builtin_trap();
        failed = true;
      } else if (event->kind == Kind::Text || event->kind == Kind::Binary) {
        if (event->payload.size() > kMax) __builtin_trap();
        messages.emplace_back(event->kind, std::string(event->payload));
      }
    }
  }
  // Framed again in one frame each, the messages read back the same.
  tengen::ws::FrameReader again(kMax);
  for (const auto& [kind, payload] : messages)
    feed(again, client_frame(kind == Kind::Text ? 0x1 : 0x2, payload));
  for (const auto& [kind, payload] : messages) {
    const auto event = again.next();
    if (!event || event->kind != kind || event->payload != payload) __builtin_trap();
  }
  return 0;
}
