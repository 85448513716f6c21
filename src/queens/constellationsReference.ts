// The pure-TS twin of assembly/queens/constellations.ts: the same count by start
// constellations, most constrained line first, visiting the same nodes in the same order. The
// diagonal words (u64 in the engine) are pairs of 32-bit halves here, and a line's choice key
// is a double (exact below 2^53). The engine counts small subtrees by recursion and may overrun
// a budget by one of them; the twin keeps every node on its explicit stack and stops at the
// budget exactly (node counts are equal either way). Keep the two files in step.
import { Status, type StatusCode, TWIN_CLOCK_MASK, twinDeadline } from '../wasm/protocol.js';
import type { ConstellationEngine } from './engine.js';
import { isConstellation, rot90 } from './constellations.js';
import { ctz32 as ctz, popcount32 as popcount } from '../bits.js';

const MAX_ROWS = 32;
/** Like the engine's MAX_LIST. */
const MAX_LIST = 1 << 20;

// The choice key of the engine: free squares × 2^40 + mask × 64 + (32 for a column) + index.
const COUNT_UNIT = 2 ** 40;
const MASK_UNIT = 64;
const IS_COLUMN = 32;



/** Bits s..s+31 (0 <= s < 64) of the 64-bit word hi:lo, as an int32. */
function window(lo: number, hi: number, s: number): number {
  if (s === 0) return lo;
  if (s < 32) return (lo >>> s) | (hi << (32 - s));
  return hi >>> (s - 32);
}

/** A node's diagonal words, each as [lo, hi]: r + c, c - r + n - 1 and its mirror r - c + n - 1. */
class Node {
  rem = 0;
  col = 0;
  d1lo = 0;
  d1hi = 0;
  d2lo = 0;
  d2hi = 0;
  e2lo = 0;
  e2hi = 0;

  copy(from: Node): void {
    this.rem = from.rem;
    this.col = from.col;
    this.d1lo = from.d1lo;
    this.d1hi = from.d1hi;
    this.d2lo = from.d2lo;
    this.d2hi = from.d2hi;
    this.e2lo = from.e2lo;
    this.e2hi = from.e2hi;
  }

  /** Places a queen on (r, c); `last` is n - 1. */
  place(r: number, c: number, last: number): void {
    this.rem &= ~(1 << r);
    this.col |= 1 << c;
    const a = r + c;
    const b = c - r + last;
    const e = r - c + last;
    if (a < 32) this.d1lo |= 1 << a;
    else this.d1hi |= 1 << (a - 32);
    if (b < 32) this.d2lo |= 1 << b;
    else this.d2hi |= 1 << (b - 32);
    if (e < 32) this.e2lo |= 1 << e;
    else this.e2hi |= 1 << (e - 32);
  }

  /** The free columns of empty row r. */
  rowFree(r: number, last: number): number {
    return ~(this.col | window(this.d1lo, this.d1hi, r) | window(this.d2lo, this.d2hi, last - r));
  }

  /** The engine's twoRows() and threeRows(): the solutions of a node with two or three empty rows. */
  smallCount(last: number): number {
    const { rem } = this;
    const r1 = ctz(rem);
    const r3 = 31 - Math.clz32(rem);
    const free = ~this.col;
    const f3 = this.rowFree(r3, last);
    const lastTwo = (g2: number, g3: number, rest: number, r2: number): number => {
      const x = rest & -rest;
      const y = rest ^ x;
      if (r3 - r2 === ctz(y) - ctz(x)) return 0;
      return Number((g2 & x) !== 0 && (g3 & y) !== 0) + Number((g2 & y) !== 0 && (g3 & x) !== 0);
    };
    const middle = rem & (rem - 1) & ~(1 << r3);
    if (middle === 0) return lastTwo(this.rowFree(r1, last), f3, free, r1);
    const r2 = ctz(middle);
    const [s2, s3] = [r2 - r1, r3 - r1];
    const f2 = this.rowFree(r2, last);
    let f1 = this.rowFree(r1, last);
    let count = 0;
    while (f1 !== 0) {
      const a = f1 & -f1;
      f1 ^= a;
      count += lastTwo(f2 & ~((a << s2) | (a >>> s2)), f3 & ~((a << s3) | (a >>> s3)), free ^ a, r2);
    }
    return count;
  }

  /** The engine's choose(): the key of the line to branch on (rem is not empty). */
  choose(last: number): number {
    let best = Infinity;
    let open = this.rem;
    do {
      const r = ctz(open);
      open &= open - 1;
      const free = this.rowFree(r, last) >>> 0;
      if (free === 0) return r; // a dead row: the least key there is
      const key = popcount(free) * COUNT_UNIT + free * MASK_UNIT + r;
      if (key < best) best = key;
    } while (open !== 0);
    if (best >= 2 * COUNT_UNIT) {
      open = ~this.col;
      do {
        const c = ctz(open);
        open &= open - 1;
        const free = (this.rem & ~(window(this.d1lo, this.d1hi, c) | window(this.e2lo, this.e2hi, last - c))) >>> 0;
        if (free === 0) return IS_COLUMN + c; // a dead column (no row is dead)
        const key = popcount(free) * COUNT_UNIT + free * MASK_UNIT + IS_COLUMN + c;
        if (key < best) best = key;
      } while (open !== 0);
    }
    return best;
  }
}

export class ReferenceConstellationEngine implements ConstellationEngine {
  // The explicit stack: a node per depth, the free squares of its line still to try, the line
  // (index, + 32 for a column) and the queen placed from it.
  private readonly stack = Array.from({ length: MAX_ROWS + 1 }, () => new Node());
  private readonly options = new Int32Array(MAX_ROWS + 1);
  private readonly line = new Int32Array(MAX_ROWS + 1);
  private readonly placedRow = new Int32Array(MAX_ROWS + 1);
  private readonly placedCol = new Int32Array(MAX_ROWS + 1);
  private readonly child = new Node();
  /** Non-symmetric constellations count a node with two or three empty rows at once (as the engine's subtree). */
  private small = false;
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

  /** Writes node `from` to depth t with its line; returns the line's number of free squares. */
  private push(t: number, from: Node): number {
    const key = from.choose(this.n - 1);
    this.stack[t].copy(from);
    this.options[t] = Math.floor(key / MASK_UNIT) % 2 ** 32 | 0;
    this.line[t] = key % MASK_UNIT;
    return Math.floor(key / COUNT_UNIT);
  }

  /** Sets up constellation listAt: the node of its border queens at depth 0; false if it has no free square. */
  private startConstellation(): boolean {
    const c = this.list[this.listAt];
    const n = this.n;
    const last = n - 1;
    this.ci = (c >> 15) & 31;
    this.cj = (c >> 10) & 31;
    this.ck = (c >> 5) & 31;
    this.cl = c & 31;
    this.stabiliser = rot90(n, c) === c ? 4 : rot90(n, rot90(n, c)) === c ? 2 : 1;
    this.found = 0;
    this.fixed180 = 0;
    this.fixed90 = 0;
    this.depth = 0;
    this.started = true;
    this.small = this.stabiliser === 1;
    const root = this.child;
    root.rem = n === 32 ? -1 : (1 << n) - 1;
    root.col = n === 32 ? 0 : ~((1 << n) - 1);
    root.d1lo = root.d1hi = root.d2lo = root.d2hi = root.e2lo = root.e2hi = 0;
    root.place(0, this.ci, last);
    root.place(last, this.cj, last);
    root.place(this.ck, 0, last);
    root.place(this.cl, last, last);
    if (this.isSmall(root)) {
      this.found += root.smallCount(last);
      return false;
    }
    return this.push(0, root) !== 0;
  }

  private isSmall(node: Node): boolean {
    const rows = popcount(node.rem);
    return this.small && (rows === 2 || rows === 3);
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

  /** A leaf of a symmetric constellation: the border queens and those placed from depths 0..t. */
  private symmetricLeaf(t: number): void {
    const { n, cols } = this;
    const last = n - 1;
    cols[0] = this.ci;
    cols[last] = this.cj;
    cols[this.ck] = 0;
    cols[this.cl] = last;
    for (let e = 0; e <= t; e++) cols[this.placedRow[e]] = this.placedCol[e];
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
    const until = twinDeadline();
    const late = (): boolean => (remaining & TWIN_CLOCK_MASK) === 0 && remaining !== spent && performance.now() > until;
    const last = this.n - 1;
    const { stack, options, line, placedRow, placedCol, child } = this;
    while (!this.finished) {
      if (!this.started) {
        if (remaining === 0) break;
        remaining--;
        if (!this.startConstellation()) {
          this.finishConstellation();
          continue;
        }
      }
      const symmetric = this.stabiliser > 1;
      let t = this.depth;
      let done = false;
      for (;;) {
        const free = options[t];
        if (free === 0) {
          if (t === 0) {
            done = true;
            break;
          }
          t--;
          continue;
        }
        if (remaining === 0 || late()) break;
        const b = free & -free;
        options[t] = free ^ b;
        const isColumn = (line[t] & IS_COLUMN) !== 0;
        const r = isColumn ? ctz(b) : line[t] & 31;
        const c = isColumn ? line[t] & 31 : ctz(b);
        placedRow[t] = r;
        placedCol[t] = c;
        child.copy(stack[t]);
        child.place(r, c, last);
        if (child.rem === 0) {
          this.found++;
          if (symmetric) this.symmetricLeaf(t);
          continue;
        }
        remaining--;
        if (this.isSmall(child)) this.found += child.smallCount(last);
        else if (this.push(t + 1, child) !== 0) t++;
      }
      this.depth = t;
      if (!done) break;
      this.finishConstellation();
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
