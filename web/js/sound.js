// A soft "stone on wood" click on each move, made with WebAudio (no sound files). Off until the
// player turns it on; the choice is remembered in this browser.
const KEY = 'tengen-sound';
let audio = null;

export const soundOn = () => localStorage.getItem(KEY) === 'on';

export function setSound(on) {
  localStorage.setItem(KEY, on ? 'on' : 'off');
  if (on && !audio) audio = new AudioContext();  // created in the click that turned it on
}

export function playStoneSound() {
  if (!soundOn()) return;
  audio ??= new AudioContext();
  const t = audio.currentTime;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = 'triangle';
  osc.frequency.setValueAtTime(900, t);
  osc.frequency.exponentialRampToValueAtTime(180, t + 0.06);
  gain.gain.setValueAtTime(0.35, t);
  gain.gain.exponentialRampToValueAtTime(0.001, t + 0.09);
  osc.connect(gain).connect(audio.destination);
  osc.start(t);
  osc.stop(t + 0.1);
}
