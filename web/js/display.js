// How the page looks, chosen in the bar's "Display" menu and remembered in this browser: light or
// dark (or as the system says), the board (wood, pale wood, flat, slate) and the stones (shell and
// slate, or flat). Applied as attributes of <html> that the stylesheet reads.
import { h, fill, selectInput, field } from './util.js';

const CHOICES = {
  theme: { label: 'Colours', options: { auto: 'As the system', light: 'Light', dark: 'Dark' }, fallback: 'auto' },
  board: { label: 'Board', options: { wood: 'Wood', pale: 'Pale wood', flat: 'Flat', slate: 'Slate' }, fallback: 'wood' },
  stones: { label: 'Stones', options: { shell: 'Shell and slate', flat: 'Flat' }, fallback: 'shell' },
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
  const fields = Object.entries(CHOICES).map(([name, { label, options, fallback }]) => {
    const stored = localStorage.getItem(key(name));
    const value = stored && options[stored] ? stored : fallback;
    apply(name, value);
    const select = selectInput(`display-${name}`, name, options, value, {
      onchange: (e) => {
        localStorage.setItem(key(name), e.target.value);
        apply(name, e.target.value);
      },
    });
    return field(label, select);
  });
  fill(panel, ...fields);
  // The system switching between light and dark while the page is open.
  systemDark.addEventListener('change', () => apply('theme', localStorage.getItem(key('theme')) || 'auto'));
  // Closes when a click lands elsewhere.
  const menu = panel.closest('details');
  document.addEventListener('click', (e) => { if (menu?.open && !menu.contains(e.target)) menu.open = false; });
}
