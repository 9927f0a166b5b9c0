// How the page looks, chosen in the bar's "Display" menu and remembered in this browser: light or
// dark (or as the system says), the board (wood, pale wood, flat, slate, or high contrast for low
// vision), the stones (shell and slate, flat, or marked with shapes so that colour is not all that
// tells them apart), the coordinates' size, and blind mode (blind.js). Applied as attributes of
// <html> that the stylesheet reads.
import { fill, selectInput, field } from './util.js';
import { t, currentLanguage, languages, languageName, setLanguage } from './i18n.js';
import { blindOn, setBlind, applyBlind } from './blind.js';

// Each choice's values; their words are the catalog's display.<name>_<value>.
const CHOICES = {
  theme: { options: ['auto', 'light', 'dark'], fallback: 'auto' },
  board: { options: ['wood', 'pale', 'flat', 'slate', 'contrast'], fallback: 'wood' },
  stones: { options: ['shell', 'flat', 'marked'], fallback: 'shell' },
  coords: { options: ['normal', 'large'], fallback: 'normal' },
};
const key = (name) => `tengen-${name}`;

const systemDark = matchMedia('(prefers-color-scheme: dark)');

// "As the system" is resolved here, so that the stylesheet has one dark palette.
function apply(name, value) {
  const root = document.documentElement;
  const shown = name === 'theme' && value === 'auto' ? (systemDark.matches ? 'dark' : 'light') : value;
  if (shown === CHOICES[name].fallback || (name === 'theme' && shown === 'light')) delete root.dataset[name];
  else root.dataset[name] = shown;
}

// Applies the remembered choices at once, and fills the menu.
export function mountDisplaySettings(panel) {
  const fields = Object.entries(CHOICES).map(([name, { options, fallback }]) => {
    const stored = localStorage.getItem(key(name));
    const value = stored && options.includes(stored) ? stored : fallback;
    apply(name, value);
    const words = Object.fromEntries(options.map((o) => [o, t(`display.${name}_${o}`)]));
    const select = selectInput(`display-${name}`, name, words, value, {
      onchange: (e) => {
        localStorage.setItem(key(name), e.target.value);
        apply(name, e.target.value);
      },
    });
    return field(t(`display.${name}`), select);
  });
  // The language: each in its own name; choosing one reloads the page in it.
  const language = selectInput('display-language', 'language',
    Object.fromEntries(languages().map((code) => [code, languageName(code)])), currentLanguage(),
    { onchange: (e) => setLanguage(e.target.value) });
  // Blind mode: the game by typed commands and announcements (blind.js); the page is mounted again.
  applyBlind();
  const blind = selectInput('display-blind', 'blind', { off: t('display.blind_off'), on: t('display.blind_on') },
    blindOn() ? 'on' : 'off', { onchange: (e) => setBlind(e.target.value === 'on') });
  window.addEventListener('tengen-blind', () => { blind.value = blindOn() ? 'on' : 'off'; });
  fill(panel, field(t('display.language'), language), ...fields, field(t('display.blind'), blind));
  // The system switching between light and dark while the page is open.
  systemDark.addEventListener('change', () => apply('theme', localStorage.getItem(key('theme')) || 'auto'));
  // Closes when a click lands elsewhere.
  const menu = panel.closest('details');
  document.addEventListener('click', (e) => { if (menu?.open && !menu.contains(e.target)) menu.open = false; });
}
