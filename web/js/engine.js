// The rules engine in this browser: the server's own C++ (engine/, and the answers of
// server/src/rooms/position_answer.cpp) compiled to WebAssembly with Emscripten (wasm/), loaded
// the first time it is asked. It answers what POST /api/v1/positions answers, the same bytes,
// and the local board's games, with no server: the rules course and the local board work offline
// (docs/web-client.md, "Offline"). Nothing here knows the rules.
import { ApiError } from './api.js';
import { t } from './i18n.js';

let loading = null;

function load() {
  loading ??= import('../wasm/engine.js')
    .then((module) => module.default())
    .catch((err) => {
      loading = null;  // a later call tries again (the file may come with the network)
      throw new ApiError(0, 'engine_missing', t('local.engine_missing'), null, { cause: String(err) });
    });
  return loading;
}

// The engine's answer to `body`, as fetchJson would give the server's: the JSON, or an ApiError.
async function ask(entry, body) {
  const engine = await load();
  const reply = engine.ccall(entry, 'string', ['string'], [JSON.stringify(body)]);
  const newline = reply.indexOf('\n');
  const status = Number(reply.slice(0, newline));
  const data = JSON.parse(reply.slice(newline + 1));
  if (status !== 200) {
    const e = data.error;
    throw new ApiError(status, e.code, e.message, e.reason ?? null, e);
  }
  return data;
}

// POST /api/v1/positions, answered here.
export const enginePosition = (body) => ask('tengen_positions', body);
// A local game (protocol/http_api.h LocalGameQuery): {position, phase, result?, suggested_dead?}.
export const engineLocalGame = (body) => ask('tengen_local_game', body);
// Starts loading the engine (a page that will need it asks early).
export const warmEngine = () => load().catch(() => null);
