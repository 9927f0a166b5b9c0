// The HTTP API (accounts and the game archive). Errors come back as Error objects carrying the
// server's message in the player's words (i18n.js errorText).
import { t, errorText } from './i18n.js';

export class ApiError extends Error {
  constructor(status, code, message, reason = null, detail = {}) {
    super(errorText(code, reason, message));
    this.status = status;
    this.code = code;
    this.reason = reason;
    this.detail = detail;  // the server's whole error object (a suspension's until_ms)
  }
}

export async function fetchJson(url, { method = 'GET', body } = {}) {
  let response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', t('error.network'));
  }
  return answerOf(response);
}

// A response's JSON, or its error as an ApiError.
async function answerOf(response) {
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const e = data?.error;
    throw new ApiError(response.status, e?.code ?? 'http', e?.message ?? t('error.http', { status: response.status }), e?.reason, e ?? {});
  }
  return data;
}

// A file chosen by the player, sent as it is (its bytes) with its type.
async function sendFile(url, file, type) {
  let response;
  try {
    response = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': type }, body: file });
  } catch {
    throw new ApiError(0, 'network', t('error.network'));
  }
  return answerOf(response);
}
// OpenGotha's tournament file (the server reads UTF-8 and ISO-8859-1): {tournament}, its id.
export const importTournament = (file) => sendFile('/api/v1/tournaments/import', file, 'application/xml');
// A list of players from a spreadsheet, as CSV: {added}, how many were registered.
export const addPlayerList = (tournament, file) => sendFile(`/api/v1/tournaments/${tournament}/players`, file, 'text/csv');

// `ask`: even without the marker (the WebSocket said this page is signed in).
export async function currentUser({ ask = false } = {}) {
  // No session cookie (the server marks one with a readable twin): a guest, without asking (a
  // 401 would be a console error on every visit).
  if (!ask && !document.cookie.split(/;\s*/).includes('tengen_signed_in=1')) return null;
  try {
    return (await fetchJson('/api/v1/me')).user;
  } catch (err) {
    if (err.status === 401) return null;
    throw err;
  }
}

export const login = (username, password) => fetchJson('/api/v1/login', { method: 'POST', body: { username, password } });
export const register = (username, password, invite = '') =>
  fetchJson('/api/v1/register', { method: 'POST', body: invite ? { username, password, invite } : { username, password } });
// Where the player's weekends fall in correspondence games (docs/correspondence.md); the user.
export const setTimeZone = async (zone) =>
  (await fetchJson('/api/v1/me', { method: 'PATCH', body: { time_zone: zone } })).user;
// Starts (true) or ends (false) one's vacation (docs/correspondence.md); the user, with
// `vacation: { left_ms, until_ms }`.
export const setVacation = async (on) =>
  (await fetchJson('/api/v1/me', { method: 'PATCH', body: { vacation: on } })).user;
// The browser's own time zone, an IANA name ('Europe/Amsterdam'), if it says.
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || '';
export const logout = () => fetchJson('/api/v1/logout', { method: 'POST' });
