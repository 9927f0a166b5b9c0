// libFuzzer target: the WebSocket protocol's decoder (every client message, the game settings
// and the tournament settings JSON). Whatever decodes must encode to text that decodes again, and
// the decoder's direct reading of moves must agree with the full one.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "protocol/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tengen::protocol;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto decoded = decode_client(text);
  // decode_client reads plain moves without a JSON document: it must agree with the full decoder.
  const auto full = decode_client_with_json(text);
  if (decoded.index() != full.index()) __builtin_trap();
  if (const auto* a = std::get_if<ClientEnvelope>(&decoded)) {
    if (encode(*a) != encode(std::get<ClientEnvelope>(full))) __builtin_trap();
  } else {
    const auto& x = std::get<Error>(decoded);
    const auto& y = std::get<Error>(full);
    if (x.code != y.code || x.message != y.message || x.cid != y.cid) __builtin_trap();
  }
  if (const auto* envelope = std::get_if<ClientEnvelope>(&decoded)) {
    const auto again = decode_client(encode(*envelope));
    if (!std::holds_alternative<ClientEnvelope>(again)) __builtin_trap();
  }
  const auto settings = decode_settings(text);
  if (const auto* s = std::get_if<GameSettings>(&settings)) {
    (void)validate(*s);
    const auto again = decode_settings(encode_settings(*s));
    if (!std::holds_alternative<GameSettings>(again) || std::get<GameSettings>(again) != *s)
      __builtin_trap();
  }
  const auto tournament = decode_tournament_settings(text);
  if (const auto* t = std::get_if<TournamentSettings>(&tournament)) {
    (void)validate(*t);
    const auto again = decode_tournament_settings(encode_tournament_settings(*t));
    if (!std::holds_alternative<TournamentSettings>(again) ||
        std::get<TournamentSettings>(again) != *t)
      __builtin_trap();
  }
  return 0;
}
