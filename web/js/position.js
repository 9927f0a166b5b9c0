// The position on the board, rebuilt from a snapshot's moves. The server is the referee: this
// only places stones and takes away chains left without liberties (the same captures the
// server reports), so that a snapshot's move list can be drawn.
import { parseVertex } from './util.js';

export class Position {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.points = new Array(width * height).fill(null);
  }

  // A copy whose stones change without changing this one's.
  clone() {
    const copy = new Position(this.width, this.height);
    copy.points = [...this.points];
    return copy;
  }

  index(vertex) {
    const p = parseVertex(vertex, this.width, this.height);
    return p ? p.y * this.width + p.x : null;
  }

  neighbours(i) {
    const x = i % this.width;
    const out = [];
    if (x > 0) out.push(i - 1);
    if (x < this.width - 1) out.push(i + 1);
    if (i >= this.width) out.push(i - this.width);
    if (i < this.points.length - this.width) out.push(i + this.width);
    return out;
  }

  // The chain through i and whether it has a liberty.
  chain(i) {
    const color = this.points[i];
    const stones = [i];
    const seen = new Set(stones);
    let free = false;
    for (let k = 0; k < stones.length; k++) {
      for (const n of this.neighbours(stones[k])) {
        if (this.points[n] === null) free = true;
        else if (this.points[n] === color && !seen.has(n)) {
          seen.add(n);
          stones.push(n);
        }
      }
    }
    return { stones, free };
  }

  // Places a stone; returns the indices of the stones it took off (the opponent's, then, where
  // suicide is allowed, the mover's own chain).
  play(color, vertex) {
    const i = this.index(vertex);
    if (i === null) return [];
    this.points[i] = color;
    const taken = [];
    for (const n of this.neighbours(i)) {
      if (this.points[n] && this.points[n] !== color) {
        const c = this.chain(n);
        if (!c.free) for (const s of c.stones) { this.points[s] = null; taken.push(s); }
      }
    }
    const own = this.chain(i);
    if (!own.free) for (const s of own.stones) { this.points[s] = null; taken.push(s); }
    return taken;
  }

  // The stones of the chain at vertex (for scoring-phase marking), or [].
  chainAt(vertex) {
    const i = this.index(vertex);
    return i === null || !this.points[i] ? [] : this.chain(i).stones;
  }
}
