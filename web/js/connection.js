// The WebSocket to /ws/v1: commands with ids and promises, automatic reconnection (and resync
// without one, when the server asks), and a heartbeat that notices a dead network. Views listen
// for 'message', 'open' (also after a resync: join your rooms again) and 'status'.
import { randomHex } from './util.js';
import { t, errorText } from './i18n.js';
import { takeEarlySocket } from './boot.js';
import { Command, CommandFields, Message, VERSION } from './wire.js';

const PING_EVERY_MS = 10000;   // an application ping; its pong also proves the path is alive
const PONG_WITHIN_MS = 8000;   // no pong by then: the socket is treated as dead and replaced
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 5000];

// The server's refusal in the player's words (i18n.js errorText); `serverMessage` keeps its own.
export class ServerError extends Error {
  constructor(code, message, reason = null) {
    super(errorText(code, reason, message));
    this.code = code;
    this.reason = reason;
    this.serverMessage = message;
  }
}

export class Connection extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.prefix = randomHex(6);  // cids are unique per user across tabs and reloads
    this.counter = 0;
    this.pending = new Map();    // cid → {message, resolve, reject, resend, socket}
    this.status = 'connecting';
    this.attempt = 0;
    this.socket = null;
    this.stopped = false;
    this.user = null;
  }

  start() {
    this.stopped = false;
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.probe(3000);
    });
    this.open();
  }

  // Closes and opens again at once (after logging in or out: the upgrade carries the cookie).
  restart() {
    this.attempt = 0;
    if (this.socket) {
      const old = this.socket;
      this.socket = null;
      old.onclose = null;
      old.close(1000, 'restart');
      this.lost(old);
    }
    this.open();
  }

  open() {
    clearTimeout(this.retryTimer);
    // The first time, the socket boot.js opened while the page loaded, with what it heard.
    const early = takeEarlySocket(this.url);
    const socket = early ? early.socket : new WebSocket(this.url);
    this.socket = socket;
    this.setStatus(this.attempt === 0 && this.status !== 'reconnecting' ? 'connecting' : 'reconnecting');
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.heard = false;  // the backoff starts afresh once the server has said something
      this.setStatus('open');
      this.dispatchEvent(new Event('open'));  // views join their rooms first
      for (const [cid, p] of this.pending) {  // then what was in flight goes again, same cid
        if (p.socket !== socket) {
          p.socket = socket;
          socket.send(JSON.stringify(p.message));
        }
      }
      this.heartbeat();
    };
    socket.onmessage = (e) => {
      if (socket !== this.socket) return;
      this.lastHeard = performance.now();
      // Not on open: a server that accepts and drops at once must not be retried at full speed.
      if (!this.heard) {
        this.heard = true;
        this.attempt = 0;
      }
      let message;
      try {
        message = JSON.parse(e.data);
      } catch {
        return;
      }
      this.receive(message);
    };
    socket.onclose = (e) => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.lost(socket);
      // 1008: the server ended this login (a logout elsewhere, a suspension): the page is told.
      // Its reason says why when the administrators restricted the account ("banned",
      // "suspended until <ms>").
      if (e.code === 1008) this.dispatchEvent(new CustomEvent('session-ended', { detail: e.reason }));
      // 1013: this server cannot serve now (it lost its bus): not before a second, then backing off.
      if (e.code === 1013) this.attempt = Math.max(this.attempt, 2);
      if (!this.stopped) this.scheduleRetry();
    };
    socket.onerror = () => {};  // onclose follows and says the same
    // What the early socket heard, as if it came now, in order.
    for (const e of early?.events ?? []) socket[`on${e.type}`](e);
  }

  lost(socket) {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    for (const [cid, p] of this.pending) {
      if (p.socket === socket && !p.resend) {
        this.pending.delete(cid);
        p.reject(new ServerError('disconnected', t('error.disconnected')));
      } else if (p.socket === socket) {
        p.socket = null;  // sent again on the next socket
      }
    }
    this.setStatus('reconnecting');
    this.dispatchEvent(new Event('close'));
  }

  scheduleRetry() {
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.open(), base + Math.random() * base * 0.3);
  }

  heartbeat() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.probe(PONG_WITHIN_MS), PING_EVERY_MS);
  }

  // A ping that must be answered within `within` ms, or the socket is replaced. Also sent when
  // the page becomes visible again: a phone may have dropped the connection while asleep.
  probe(within) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    const socket = this.socket;
    this.command(Command.ping, { t: Date.now() }, { resend: false }).then((pong) => {
      this.rtt = Date.now() - pong.t;
    }, () => {});
    clearTimeout(this.pongTimer);
    this.pongTimer = setTimeout(() => {
      if (socket === this.socket) socket.close(4000, 'no pong');  // onclose reconnects
    }, within);
  }

  receive(message) {
    if ((message.type === Message.ack || message.type === Message.error || message.type === Message.pong) && message.cid !== undefined) {
      const p = this.pending.get(String(message.cid));
      if (message.type === Message.pong) clearTimeout(this.pongTimer);
      if (p) {
        this.pending.delete(String(message.cid));
        if (message.type === Message.error) p.reject(new ServerError(message.code, message.message, message.reason));
        else p.resolve(message);
        return;
      }
    }
    if (message.type === Message.welcome) this.user = message.user;
    if (message.type === Message.resync) {
      this.resync();
      return;
    }
    // The server cannot store moves now (its database is away): they stay pending, and the
    // indicator says why until it can again.
    if (message.type === Message.service) this.setStatus(message.state === 'degraded' ? 'degraded' : 'open');
    this.dispatchEvent(new CustomEvent('message', { detail: message }));
  }

  // The server kept this socket but lost what it had joined and what it had not answered yet
  // (another node of a cluster took over the hub, or its bus was cut a moment: docs/cluster.md).
  // As after a reconnection, without one: what cannot be sent again fails, the views join their
  // rooms again from the last event they saw, and what was in flight goes again under its cid
  // (the server applies a cid once). The indicator stays as it is: nothing was closed.
  resync() {
    const socket = this.socket;
    if (!socket) return;
    for (const [cid, p] of this.pending) {
      if (!p.resend && p.message.type !== Command.ping) {  // a ping is answered by the socket's node
        this.pending.delete(cid);
        p.reject(new ServerError('disconnected', t('error.disconnected')));
      }
    }
    this.dispatchEvent(new Event('open'));
    for (const [, p] of this.pending) {
      if (p.resend) {
        p.socket = socket;
        socket.send(JSON.stringify(p.message));
      }
    }
  }

  // Sends a command; resolves with its ack, rejects with a ServerError. `resend`: sent again
  // after a reconnection (safe: the server applies a cid once); otherwise it fails when the
  // socket goes.
  // A type or field the protocol does not have throws at once (web/js/wire.js): it is this
  // page's mistake, and the server would only refuse it.
  command(type, fields = {}, { resend = true } = {}) {
    const allowed = CommandFields[type];
    for (const key of Object.keys(fields)) {
      if (!allowed.includes(key)) throw new Error(`the command '${type}' has no field '${key}'`);
    }
    const cid = `${this.prefix}-${++this.counter}`;
    const message = { v: VERSION, type, cid, ...fields };
    return new Promise((resolve, reject) => {
      const open = this.socket && this.socket.readyState === WebSocket.OPEN;
      if (!open && !resend) {
        reject(new ServerError('disconnected', t('error.not_connected')));
        return;
      }
      this.pending.set(cid, { message, resolve, reject, resend, socket: open ? this.socket : null });
      if (open) this.socket.send(JSON.stringify(message));
    });
  }

  // Degraded is open: the socket is up, commands go and wait for their acks.
  get isOpen() {
    return this.status === 'open' || this.status === 'degraded';
  }

  setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.dispatchEvent(new Event('status'));
  }
}
