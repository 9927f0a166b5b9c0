// The rules engine for the browser (compiled to WebAssembly with Emscripten, wasm/CMakeLists.txt):
// the same answers the server gives to POST /api/v1/positions, and the local board's games, from
// the same code (rooms/position_answer.h), so that the rules course and the local board work with
// no server (docs/web-client.md, "Offline"). web/js/engine.js loads it and calls these two.
#include <string>

#include "rooms/position_answer.h"

namespace {
std::string last;  // the answer handed to JavaScript, kept until the next call (one thread)

const char* hand_over(const tengen::PositionAnswer& a) {
  last = std::to_string(a.status) + "\n" + a.body;
  return last.c_str();
}
}  // namespace

// "<status>\n<JSON body>", as the server would answer the same body.
extern "C" const char* tengen_positions(const char* body) {
  return hand_over(tengen::answer_position(body));
}
extern "C" const char* tengen_local_game(const char* body) {
  return hand_over(tengen::answer_local_game(body));
}
