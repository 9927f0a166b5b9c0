// Sounds made with WebAudio (no sound files): a soft "stone on wood" click on each move and a
// two-note chime when it becomes your move. On unless the player turns them off; the choice is
// remembered in this browser. Browsers start audio only after the page had a click or a key:
// until then sounds are silently skipped.
const KEY = 'tengen-sound';
let audio = null;

export const soundOn = () => localStorage.getItem(KEY) !== 'off';

export function setSound(on) {
  localStorage.setItem(KEY, on ? 'on' : 'off');
  if (on && !audio) audio = new AudioContext();  // created in the click that turned it on
}

function context() {
  if (!soundOn()) return null;
  try {
    audio ??= new AudioContext();
  } catch {
    return null;
  }
  if (audio.state === 'suspended') audio.resume().catch(() => {});
  return audio.state === 'running' ? audio : null;
}

function tone(a, type, from, to, start, length, volume) {
  const osc = a.createOscillator();
  const gain = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(from, start);
  if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, start + length * 0.7);
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + length);
  osc.connect(gain).connect(a.destination);
  osc.start(start);
  osc.stop(start + length + 0.01);
}

export function playStoneSound() {
  const a = context();
  if (a) tone(a, 'triangle', 900, 180, a.currentTime, 0.09, 0.35);
}

// Your move: the stone, then two soft rising notes.
export function playTurnSound() {
  const a = context();
  if (!a) return;
  const t = a.currentTime;
  tone(a, 'triangle', 900, 180, t, 0.09, 0.3);
  tone(a, 'sine', 660, 660, t + 0.12, 0.18, 0.12);
  tone(a, 'sine', 880, 880, t + 0.26, 0.24, 0.12);
}
