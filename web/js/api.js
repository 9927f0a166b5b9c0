// The HTTP API (accounts and the game archive). Errors come back as Error objects carrying the
// server's own plain-words message.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
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
    throw new ApiError(0, 'network', 'The server cannot be reached. Check your connection and try again.');
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const e = data?.error;
    throw new ApiError(response.status, e?.code ?? 'http', e?.message ?? `The server answered ${response.status}.`);
  }
  return data;
}

export async function currentUser() {
  try {
    return (await fetchJson('/api/v1/me')).user;
  } catch (err) {
    if (err.status === 401) return null;
    throw err;
  }
}

export const login = (username, password) => fetchJson('/api/v1/login', { method: 'POST', body: { username, password } });
export const register = (username, password) => fetchJson('/api/v1/register', { method: 'POST', body: { username, password } });
export const logout = () => fetchJson('/api/v1/logout', { method: 'POST' });
