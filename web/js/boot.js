// The page's first WebSocket, opened as soon as this small module runs: index.html loads it
// before the rest, so the connection is made while the other modules still load and start
// (docs/web-client.md, "Caching"). What the socket hears before connection.js takes it over is
// kept, in order, and handed over with it. No imports: it runs first.
let early = null;

if (typeof WebSocket !== 'undefined' && typeof location !== 'undefined') {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/v1`;
  try {
    const socket = new WebSocket(url);
    const events = [];
    socket.onopen = socket.onmessage = socket.onclose = (e) => events.push(e);
    early = { url, socket, events };
  } catch {
    early = null;  // the Connection opens its own
  }
}

// The early socket if it is for `url`, once, with the events it heard ({socket, events}); null
// otherwise (a socket for another address is closed).
export function takeEarlySocket(url) {
  const taken = early;
  early = null;
  if (!taken) return null;
  if (taken.url !== url) {
    taken.socket.onopen = taken.socket.onmessage = taken.socket.onclose = null;
    taken.socket.close(1000, 'not needed');
    return null;
  }
  return taken;
}
