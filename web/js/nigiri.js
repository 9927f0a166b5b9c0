// Checks a revealed nigiri in the browser, as docs/nigiri.md describes:
// commitment = SHA-256(secret ‖ nonce) and
// stones = (first 8 hex digits of SHA-256(secret ‖ holder_seed ‖ guesser_seed)) mod 20 + 1.
import { t } from './i18n.js';

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

// { state: 'ok' } or { state: 'bad', why } or { state: 'unavailable' } (no WebCrypto: plain
// http from another host is not a secure context).
export async function verifyNigiri(n) {
  if (!globalThis.crypto?.subtle) return { state: 'unavailable' };
  const commitment = await sha256Hex(n.secret + n.nonce);
  if (commitment !== n.commitment) return { state: 'bad', why: t('nigiri.bad_commitment') };
  const draw = await sha256Hex(n.secret + n.holder_seed + n.guesser_seed);
  const stones = (parseInt(draw.slice(0, 8), 16) % 20) + 1;
  if (stones !== n.stones) return { state: 'bad', why: t('nigiri.bad_count', { stones, shown: n.stones }) };
  return { state: 'ok' };
}
