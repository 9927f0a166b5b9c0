#pragma once

#include <string>
#include <string_view>

// The engine's answers to a browser about positions, written once for two places: the server's
// POST /api/v1/positions, and the same code compiled to WebAssembly (wasm/), which answers it and
// the local board's games in the browser when the server cannot be reached (docs/web-client.md,
// "Offline"). Bodies in and out are the protocol's JSON (protocol/http_api.h); nothing here
// knows of sockets or of the server's state, so it compiles with the engine and the protocol alone.
namespace tengen {

struct PositionAnswer {
  int status = 200;  // 200; 400 for a malformed query; 422 for a move the rules refuse
  std::string body;
};

// POST /api/v1/positions: replays the line with the rules engine (engine/variation.h); the first
// move it refuses is named, in players' words.
PositionAnswer answer_position(std::string_view body);

// The local board's game (protocol::http::LocalGameQuery): the moves replayed as a game
// (engine/game.h), the count with the dead stones named, or the engine's guess at them.
PositionAnswer answer_local_game(std::string_view body);

}  // namespace tengen
