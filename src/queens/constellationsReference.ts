// The pure-TS twin of assembly/queensConstellations.ts: the same count by start
// constellations on 32-bit ints and typed arrays, visiting the same nodes in the same order.
// The engine counts the last rows by recursion and may overrun a budget by one such subtree;
// the twin keeps every row on its explicit stack and stops at the budget exactly (node counts
// are equal either way). Keep the two files in step.
import { Status, type StatusCode } from '../wasm/protocol.js';
import type { ConstellationEngine } from './engine.js';
import { isConstellation, rot90 } from './constellations.js';

const MAX_ROWS = 32;
/** Like the engine's MAX_LIST. */
const MAX_LIST = 1 << 20;

const innerBitOf = (n: number, c: number): number => (c >= 1 && c <= n - 2 ? 1 << (c - 1) : 0);
const ctz = (x: number): number => 31 - Math.clz32(x & -x);

export class ReferenceConstellationEngine implements ConstellationEngine {
  private readonly forb = new Int32Array(MAX_ROWS);
  private readonly row = new Int32Array(MAX_ROWS);
  private readonly shift = new Int32Array(MAX_ROWS);
  private readonly ldStack = new Int32Array(MAX_ROWS);
  private readonly rdStack = new Int32Array(MAX_ROWS);
  private readonly colStack = new Int32Array(MAX_ROWS);
  private readonly availStack = new Int32Array(MAX_ROWS);
  private readonly cols = new Int32Array(MAX_ROWS);

  private n = 0;
  private list: number[] = [];
  private listAt = 0;
  private started = false;
  private finished = true;
  private ci = 0;
  private cj = 0;
  private ck = 0;
  private cl = 0;
  private stabiliser = 1;
  private lastDepth = 0;
  private depth = 0;
  private found = 0;
  private fixed180 = 0;
  private fixed90 = 0;
  private totalCount = 0n;
  private distinctCount = 0n;
  private nodeCount = 0n;

  init(n: number, list: ArrayLike<number>): StatusCode {
    if (!(n >= 5 && n <= MAX_ROWS) || list.length > MAX_LIST) return Status.BAD_INPUT;
    this.n = n;
    for (let a = 0; a < list.length; a++) if (!isConstellation(n, list[a])) return Status.BAD_INPUT;
    this.list = Array.from(list);
    this.listAt = 0;
    this.started = false;
    this.finished = list.length === 0;
    this.totalCount = 0n;
    this.distinctCount = 0n;
    this.nodeCount = 0n;
    return Status.DONE;
  }

  private startConstellation(): void {
    const c = this.list[this.listAt];
    const { n, forb, row, shift } = this;
    const [i, j, k, l, last] = [(c >> 15) & 31, (c >> 10) & 31, (c >> 5) & 31, c & 31, n - 1];
    this.ci = i;
    this.cj = j;
    this.ck = k;
    this.cl = l;
    this.stabiliser = rot90(n, c) === c ? 4 : rot90(n, rot90(n, c)) === c ? 2 : 1;
    const diagonals = (r: number, qr: number, qc: number): number => {
      const d = Math.abs(r - qr);
      return innerBitOf(n, qc - d) | innerBitOf(n, qc + d);
    };
    let d = 0;
    for (let r = 1; r < last; r++) {
      if (r === k || r === l) continue;
      forb[d] = diagonals(r, 0, i) | diagonals(r, last, j) | diagonals(r, k, 0) | diagonals(r, l, last);
      row[d] = r;
      d++;
    }
    for (let e = 0; e + 1 < d; e++) shift[e] = row[e + 1] - row[e];
    this.lastDepth = d - 1;
    const inner = (1 << (n - 2)) - 1;
    const col = ~inner | innerBitOf(n, i) | innerBitOf(n, j);
    this.depth = 0;
    this.ldStack[0] = 0;
    this.rdStack[0] = 0;
    this.colStack[0] = col;
    this.availStack[0] = ~(col | forb[0]);
    this.found = 0;
    this.fixed180 = 0;
    this.fixed90 = 0;
    this.started = true;
  }

  private finishConstellation(): void {
    const { found, stabiliser } = this;
    this.totalCount += BigInt(found) * BigInt(8 / stabiliser);
    const distinct = stabiliser === 1 ? found : stabiliser === 2 ? (found + this.fixed180) / 2 : (found + this.fixed180 + 2 * this.fixed90) / 4;
    this.distinctCount += BigInt(distinct);
    this.started = false;
    this.listAt++;
    if (this.listAt >= this.list.length) this.finished = true;
  }

  private symmetricLeaf(leafDepth: number, col: number, bit: number): void {
    const { n, cols, colStack, row } = this;
    const last = n - 1;
    cols[0] = this.ci;
    cols[last] = this.cj;
    cols[this.ck] = 0;
    cols[this.cl] = last;
    for (let e = 0; e < leafDepth; e++) {
      const below = e + 1 < leafDepth ? colStack[e + 1] : col;
      cols[row[e]] = ctz(below ^ colStack[e]) + 1;
    }
    cols[row[leafDepth]] = ctz(bit) + 1;
    let is180 = true;
    let is90 = true;
    for (let r = 0; r < n; r++) {
      const c = cols[r];
      if (cols[last - r] !== last - c) is180 = false;
      if (cols[c] !== last - r) is90 = false;
    }
    if (is180) this.fixed180++;
    if (is90) this.fixed90++;
  }

  run(budget: number): StatusCode {
    let remaining = Math.max(budget, 1);
    const spent = remaining;
    while (!this.finished) {
      if (!this.started) {
        this.startConstellation();
        if (this.lastDepth === 0) {
          const avail = this.availStack[0];
          if (avail !== 0) {
            remaining = remaining > 0 ? remaining - 1 : 0;
            this.found = 1;
            if (this.stabiliser > 1) this.symmetricLeaf(0, this.colStack[0], avail);
          }
          this.finishConstellation();
          continue;
        }
      }
      if (remaining === 0) break;
      const { forb, shift, ldStack, rdStack, colStack, availStack } = this;
      let d = this.depth;
      let ld = ldStack[d];
      let rd = rdStack[d];
      let col = colStack[d];
      let avail = availStack[d];
      let count = 0;
      const leafParent = this.lastDepth - 1;
      const symmetric = this.stabiliser > 1;
      const leafGrandparent = symmetric ? -1 : this.lastDepth - 2;
      let done = false;
      for (;;) {
        if (avail === 0) {
          if (d === 0) {
            done = true;
            break;
          }
          d--;
          ld = ldStack[d];
          rd = rdStack[d];
          col = colStack[d];
          avail = availStack[d];
          continue;
        }
        if (remaining === 0) break;
        remaining--;
        const bit = avail & -avail;
        avail ^= bit;
        const s = shift[d];
        const nextLd = (ld | bit) << s;
        const nextRd = (rd | bit) >>> s;
        const nextCol = col | bit;
        const free = ~(nextLd | nextRd | nextCol | forb[d + 1]);
        if (free === 0) continue;
        if (d === leafGrandparent && remaining >= MAX_ROWS) {
          const s1 = shift[d + 1];
          const lastForb = forb[d + 2];
          let candidates = free;
          do {
            const b = candidates & -candidates;
            candidates ^= b;
            remaining--;
            if (~(((nextLd | b) << s1) | ((nextRd | b) >>> s1) | nextCol | b | lastForb) !== 0) count++;
          } while (candidates !== 0);
          continue;
        }
        if (d === leafParent) {
          count++;
          if (symmetric) {
            colStack[d] = col;
            this.symmetricLeaf(d + 1, nextCol, free);
          }
          continue;
        }
        ldStack[d] = ld;
        rdStack[d] = rd;
        colStack[d] = col;
        availStack[d] = avail;
        d++;
        ld = nextLd;
        rd = nextRd;
        col = nextCol;
        avail = free;
      }
      this.found += count;
      this.depth = d;
      ldStack[d] = ld;
      rdStack[d] = rd;
      colStack[d] = col;
      availStack[d] = avail;
      if (done) this.finishConstellation();
    }
    this.nodeCount += BigInt(spent - remaining);
    return this.finished ? Status.DONE : Status.MORE;
  }

  total(): bigint {
    return this.totalCount;
  }

  distinct(): bigint {
    return this.distinctCount;
  }

  nodes(): bigint {
    return this.nodeCount;
  }
}
