// The board as SVG: crisp at any size, any rectangle from 2×2 to 25×25. One unit per line
// spacing; every intersection has a hit target carrying its GTP name (data-vertex).
import { svg, vertexName, COLUMNS } from './util.js';

let uid = 0;

// Star points: the customary ones for square boards, and the same rule per axis for others.
function starLines(n) {
  if (n < 7) return [];
  const edge = n >= 13 ? 3 : 2;
  const lines = [edge, n - 1 - edge];
  if (n % 2 === 1) lines.splice(1, 0, (n - 1) / 2);
  return lines;
}

function starPoints(width, height) {
  const xs = starLines(width);
  const ys = starLines(height);
  const points = [];
  for (const x of xs) {
    for (const y of ys) {
      const middleX = x === (width - 1) / 2;
      const middleY = y === (height - 1) / 2;
      // Below 15 lines: corners and centre only, no side stars.
      if ((middleX !== middleY) && (width < 15 || height < 15)) continue;
      points.push([x, y]);
    }
  }
  return points;
}

export class BoardView {
  // onPoint(vertex, event) is called on a click; ghost() says which colour the hover stone is (or null).
  constructor(width, height, { onPoint, ghost, label }) {
    this.width = width;
    this.height = height;
    this.onPoint = onPoint;
    this.ghost = ghost;
    const id = ++uid;
    this.ids = { wood: `wood${id}`, black: `bs${id}`, white: `ws${id}` };
    const pad = 1.05;
    this.aspect = (width - 1 + 2 * pad) / (height - 1 + 2 * pad);
    const root = svg('svg', {
      viewBox: `${-pad} ${-pad} ${width - 1 + 2 * pad} ${height - 1 + 2 * pad}`,
      class: 'board',
      role: 'img',
      'aria-label': label,
    });
    root.append(this.defs());
    root.append(svg('rect', {
      x: -pad, y: -pad, width: width - 1 + 2 * pad, height: height - 1 + 2 * pad, rx: 0.18,
      fill: `url(#${this.ids.wood})`, class: 'wood',
    }));
    const grid = svg('g', { class: 'grid' });
    for (let x = 0; x < width; x++) grid.append(svg('line', { x1: x, y1: 0, x2: x, y2: height - 1 }));
    for (let y = 0; y < height; y++) grid.append(svg('line', { x1: 0, y1: y, x2: width - 1, y2: y }));
    grid.append(svg('rect', { x: 0, y: 0, width: width - 1, height: height - 1, class: 'edge' }));
    root.append(grid);
    const stars = svg('g', { class: 'stars' });
    for (const [x, y] of starPoints(width, height)) stars.append(svg('circle', { cx: x, cy: y, r: 0.11 }));
    root.append(stars);
    root.append(this.coordinates(pad));
    this.territory = svg('g', { class: 'territory' });
    this.stones = svg('g', { class: 'stones' });
    this.marks = svg('g', { class: 'marks' });
    this.ghostStone = svg('circle', { r: 0.47, class: 'ghost', visibility: 'hidden' });
    // A stone tapped once on a touch screen, drawn until it is confirmed or moved.
    this.pendingStone = svg('g', { class: 'pending', visibility: 'hidden' });
    this.pendingStone.append(svg('circle', { r: 0.47, class: 'body' }), svg('circle', { r: 0.62, class: 'ring' }));
    root.append(this.stones, this.territory, this.marks, this.ghostStone, this.pendingStone);
    root.append(this.hitTargets());
    this.el = root;
  }

  defs() {
    const defs = svg('defs');
    const wood = svg('linearGradient', { id: this.ids.wood, x1: 0, y1: 0, x2: 1, y2: 1 });
    wood.append(svg('stop', { offset: '0', 'stop-color': '#e6c47f' }));
    wood.append(svg('stop', { offset: '0.55', 'stop-color': '#dbb469' }));
    wood.append(svg('stop', { offset: '1', 'stop-color': '#cfa658' }));
    const black = svg('radialGradient', { id: this.ids.black, cx: '0.35', cy: '0.32', r: '0.75' });
    black.append(svg('stop', { offset: '0', 'stop-color': '#5c5c5c' }));
    black.append(svg('stop', { offset: '0.45', 'stop-color': '#222' }));
    black.append(svg('stop', { offset: '1', 'stop-color': '#0a0a0a' }));
    const white = svg('radialGradient', { id: this.ids.white, cx: '0.35', cy: '0.32', r: '0.8' });
    white.append(svg('stop', { offset: '0', 'stop-color': '#ffffff' }));
    white.append(svg('stop', { offset: '0.7', 'stop-color': '#f1efe9' }));
    white.append(svg('stop', { offset: '1', 'stop-color': '#c9c6bd' }));
    defs.append(wood, black, white);
    return defs;
  }

  coordinates(pad) {
    const g = svg('g', { class: 'coords', 'aria-hidden': 'true' });
    const at = pad * 0.62;
    for (let x = 0; x < this.width; x++) {
      for (const y of [-at, this.height - 1 + at]) {
        const t = svg('text', { x, y });
        t.textContent = COLUMNS[x];
        g.append(t);
      }
    }
    for (let y = 0; y < this.height; y++) {
      for (const x of [-at, this.width - 1 + at]) {
        const t = svg('text', { x, y });
        t.textContent = String(this.height - y);
        g.append(t);
      }
    }
    return g;
  }

  hitTargets() {
    const g = svg('g', { class: 'hits' });
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        const vertex = vertexName(x, y, this.height);
        const r = svg('rect', { x: x - 0.5, y: y - 0.5, width: 1, height: 1, 'data-vertex': vertex });
        r.addEventListener('click', (e) => this.onPoint(vertex, e));
        // A finger has no hover: the tapped stone shows instead (game.js, setPending).
        r.addEventListener('pointerenter', (e) => { if (e.pointerType !== 'touch') this.hover(x, y); });
        r.addEventListener('pointerleave', () => this.ghostStone.setAttribute('visibility', 'hidden'));
        g.append(r);
      }
    }
    return g;
  }

  // Shows (or, with null, hides) the stone a first tap chose.
  setPending(vertex, color) {
    if (!vertex) {
      this.pendingStone.setAttribute('visibility', 'hidden');
      return;
    }
    const i = this.indexOf(vertex);
    const x = i % this.width;
    const y = Math.floor(i / this.width);
    this.pendingStone.setAttribute('transform', `translate(${x} ${y})`);
    this.pendingStone.querySelector('.body').setAttribute('fill', `url(#${color === 'b' ? this.ids.black : this.ids.white})`);
    this.pendingStone.setAttribute('class', `pending ${color === 'b' ? 'black' : 'white'}`);
    this.pendingStone.setAttribute('visibility', 'visible');
    this.pendingStone.dataset.pending = vertex;
  }

  // A brief shake of a point that cannot be played (a stone is there).
  flash(vertex) {
    const stone = this.el.querySelector(`[data-stone="${vertex}"]`);
    if (!stone) return;
    stone.classList.remove('refused');
    void stone.getBoundingClientRect();  // restart the animation
    stone.classList.add('refused');
  }

  indexOf(vertex) {
    const x = COLUMNS.indexOf(vertex[0].toUpperCase());
    const y = this.height - Number(vertex.slice(1));
    return y * this.width + x;
  }

  hover(x, y) {
    const color = this.ghost();
    if (!color || this.position?.[y * this.width + x]) {
      this.ghostStone.setAttribute('visibility', 'hidden');
      return;
    }
    this.ghostStone.setAttribute('cx', x);
    this.ghostStone.setAttribute('cy', y);
    this.ghostStone.setAttribute('fill', `url(#${color === 'b' ? this.ids.black : this.ids.white})`);
    this.ghostStone.setAttribute('visibility', 'visible');
  }

  // position: array of 'b' / 'w' / null, row by row from the top; last: index of the last move;
  // dead: set of indices drawn as dead; ownership: the server's string ('b', 'w', '.') or null;
  // labels: Map index -> text drawn on the point (move numbers, a review's letters); shapes:
  // [{ i, shape: 'triangle' | 'square' | 'circle' | 'cross' }].
  render({ position, last = null, dead = new Set(), ownership = null, labels = null, shapes = [] }) {
    this.position = position;
    this.ghostStone.setAttribute('visibility', 'hidden');
    this.stones.replaceChildren();
    this.territory.replaceChildren();
    this.marks.replaceChildren();
    for (let i = 0; i < position.length; i++) {
      const color = position[i];
      const x = i % this.width;
      const y = Math.floor(i / this.width);
      if (color) {
        const g = svg('g', { class: `stone ${color === 'b' ? 'black' : 'white'}${dead.has(i) ? ' dead' : ''}`, 'data-stone': vertexName(x, y, this.height) });
        g.append(svg('circle', { cx: x + 0.04, cy: y + 0.06, r: 0.47, class: 'shadow' }));
        g.append(svg('circle', { cx: x, cy: y, r: 0.475, fill: `url(#${color === 'b' ? this.ids.black : this.ids.white})`, class: 'body' }));
        // Shown when the Display menu asks for shapes on the stones: a cross on black, a ring on white.
        g.append(color === 'b'
          ? svg('path', { d: `M${x - 0.17} ${y - 0.17}L${x + 0.17} ${y + 0.17}M${x + 0.17} ${y - 0.17}L${x - 0.17} ${y + 0.17}`, class: 'shape-mark' })
          : svg('circle', { cx: x, cy: y, r: 0.19, class: 'shape-mark' }));
        this.stones.append(g);
      }
      const owner = ownership?.[i];
      if (owner === 'b' || owner === 'w') {
        if (color && !dead.has(i) && (color === owner)) continue;  // a living stone in its own area
        this.territory.append(svg('rect', {
          x: x - 0.17, y: y - 0.17, width: 0.34, height: 0.34, class: owner === 'b' ? 'black' : 'white',
          'data-owner': owner,
        }));
      }
    }
    const tone = (i) => (position[i] === 'b' ? 'on-black' : position[i] === 'w' ? 'on-white' : 'on-board');
    for (const { i, shape } of shapes) {
      const x = i % this.width;
      const y = Math.floor(i / this.width);
      const attrs = { class: `shape ${shape} ${tone(i)}`, 'data-shape': `${shape} ${vertexName(x, y, this.height)}` };
      const r = 0.26;
      if (shape === 'triangle') this.marks.append(svg('polygon', { ...attrs, points: `${x},${y - r * 1.15} ${x + r},${y + r * 0.6} ${x - r},${y + r * 0.6}` }));
      else if (shape === 'square') this.marks.append(svg('rect', { ...attrs, x: x - r * 0.85, y: y - r * 0.85, width: r * 1.7, height: r * 1.7 }));
      else if (shape === 'circle') this.marks.append(svg('circle', { ...attrs, cx: x, cy: y, r }));
      else if (shape === 'cross') this.marks.append(svg('path', { ...attrs, d: `M${x - r},${y - r}L${x + r},${y + r}M${x + r},${y - r}L${x - r},${y + r}` }));
    }
    for (const [i, text] of labels ?? []) {
      const x = i % this.width;
      const y = Math.floor(i / this.width);
      if (!position[i]) {  // a label on an empty point hides the lines under it
        this.marks.append(svg('circle', { cx: x, cy: y, r: 0.36, class: 'label-ground wood', fill: `url(#${this.ids.wood})` }));
      }
      const t = svg('text', { x, y, class: `label ${tone(i)}${String(text).length > 2 ? ' long' : ''}`, 'data-label': `${text} ${vertexName(x, y, this.height)}` });
      t.textContent = String(text);
      this.marks.append(t);
    }
    if (last !== null && position[last] && !labels?.has(last)) {
      const x = last % this.width;
      const y = Math.floor(last / this.width);
      this.marks.append(svg('circle', {
        cx: x, cy: y, r: 0.22, class: `last ${position[last] === 'b' ? 'on-black' : 'on-white'}`,
        'data-last': vertexName(x, y, this.height),
      }));
    }
  }
}
