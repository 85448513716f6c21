// The pure-TS twin of assembly/queens/join.ts: the same count by joining half-boards, the same
// rows decided in the same order and the same partial half-boards made (so the node counts are
// equal), the same leaves joined. Its join is simpler: a mask of crossing diagonals is two
// 32-bit halves (anti-diagonals, main diagonals), the larger list goes in blocks of 32, and a
// query ANDs a word per diagonal it holds. Keep the two files in step.
import { Status, TWIN_CLOCK_MASK, twinDeadline, type StatusCode } from '../wasm/protocol.js';
import { ctz32 as ctz, popcount32 as popcount } from '../bits.js';
import { MAX_JOIN_N, MIN_JOIN_N, type JoinEngine } from './engine.js';

const BLOCK = 32;

/** Reverses the low n bits of a row set. */
function reverseRows(rows: number, n: number): number {
  let out = 0;
  for (let r = 0; r < n; r++) if ((rows >>> r) & 1) out |= 1 << (n - 1 - r);
  return out >>> 0;
}

interface Frame {
  east: number;
  eastLength: number;
  west: number;
  westLength: number;
  rows: number;
  eastRows: number;
  stage: number;
  mark: number;
}

export class ReferenceJoinEngine implements JoinEngine {
  private n = 0;
  private h = 0;
  private k = 0;
  private eastColumns = 0;
  private westColumns = 0;
  private crossMask = 0;
  private symmetric = true;
  private multiplier = 2n;
  private floor = 0;
  private depth = 0;
  private finished = true;
  private count = 0n;
  private states = 0n;
  // The partial half-boards: anti, main, columns per state.
  private lists = new Uint32Array(3 * 4096);
  private listTop = 0;
  private frames: Frame[] = [];
  // The join under way: its pairs still to count, in steps.
  private join: Generator<number, bigint, undefined> | null = null;
  private joinWeight = 0n;

  /** `maxMemory`: the most bytes the lists may take (the engine's whole memory, for the engine). */
  constructor(private readonly maxMemory = Infinity) {}

  init(n: number, prefix: number, rows: number): StatusCode {
    if (!Number.isInteger(n) || n < MIN_JOIN_N || n > MAX_JOIN_N || !Number.isInteger(prefix) || prefix < 1 || prefix > n) return Status.BAD_INPUT;
    rows >>>= 0;
    if (prefix < 32 && rows >>> prefix !== 0) return Status.BAD_INPUT;
    this.n = n;
    this.h = n >> 1;
    this.k = n - this.h;
    this.westColumns = (1 << this.h) - 1;
    this.eastColumns = ((1 << n) - 1) & ~this.westColumns;
    this.crossMask = (1 << (n - 1)) - 1;
    const rowZeroEast = (rows & 1) !== 0;
    if (n % 2 === 0 && !rowZeroEast) return Status.BAD_INPUT;
    if (popcount(rows) > this.k || prefix - popcount(rows) > this.h) return Status.BAD_INPUT;
    this.symmetric = n % 2 === 0 || !rowZeroEast;
    this.multiplier = this.symmetric ? 2n : 1n;
    this.count = 0n;
    this.states = 0n;
    this.join = null;
    this.lists.fill(0, 0, 3);
    this.listTop = 1;
    let east = 0;
    let eastLength = 1;
    let west = 0;
    let westLength = 1;
    this.finished = false;
    // Each prefix row's states count as nodes in one part only (as in the engine).
    const owned: boolean[] = [];
    for (let r = prefix - 1, firstAfter = true; r >= 0; r--) {
      owned[r] = firstAfter;
      const eastBefore = popcount(rows & ((1 << r) - 1));
      firstAfter = firstAfter && ((rows >>> r) & 1) === (eastBefore < this.k ? 1 : 0);
    }
    for (let r = 0; r < prefix; r++) {
      const start = this.listTop;
      const before = this.states;
      if ((rows >>> r) & 1) {
        const columns = r === 0 && !this.symmetric ? 1 << this.h : this.eastColumns;
        eastLength = this.extend(east, eastLength, r, columns, this.h);
        east = start;
        if (eastLength < 0) return Status.OUT_OF_MEMORY;
        if (!owned[r]) this.states = before;
        if (eastLength === 0) return this.finish();
      } else {
        westLength = this.extend(west, westLength, r, this.westColumns, 0);
        west = start;
        if (westLength < 0) return Status.OUT_OF_MEMORY;
        if (!owned[r]) this.states = before;
        if (westLength === 0) return this.finish();
      }
    }
    this.floor = prefix;
    this.depth = prefix;
    this.frames = [];
    this.frames[prefix] = { east, eastLength, west, westLength, rows, eastRows: popcount(rows), stage: 0, mark: this.listTop };
    return Status.DONE;
  }

  private finish(): StatusCode {
    this.finished = true;
    return Status.DONE;
  }

  total(): bigint {
    return this.count;
  }

  nodes(): bigint {
    return this.states;
  }

  /** Appends each state of the list with a queen in row r on `columns`; returns the new list's length, or -1 past maxMemory. */
  private extend(from: number, length: number, r: number, columns: number, offset: number): number {
    const start = this.listTop;
    const antiShift = r - offset;
    const mainShift = this.n - 1 - r - offset;
    for (let i = 0; i < length; i++) {
      const at = 3 * (from + i);
      const anti = this.lists[at];
      const main = this.lists[at + 1];
      const cols = this.lists[at + 2];
      // Shifts by a negative amount are left shifts; the side's window stays within 32 bits.
      const antiFree = antiShift >= 0 ? anti >>> antiShift : anti << -antiShift;
      const mainFree = mainShift >= 0 ? main >>> mainShift : main << -mainShift;
      let free = columns & ~cols & ~antiFree & ~mainFree;
      while (free !== 0) {
        const c = ctz(free);
        free &= free - 1;
        if (3 * this.listTop + 3 > this.lists.length) {
          if (this.lists.byteLength * 2 > this.maxMemory) return -1;
          const grown = new Uint32Array(this.lists.length * 2);
          grown.set(this.lists);
          this.lists = grown;
        }
        const to = 3 * this.listTop++;
        this.lists[to] = anti | (1 << (c + antiShift));
        this.lists[to + 1] = main | (1 << (c + mainShift));
        this.lists[to + 2] = cols | (1 << c);
      }
    }
    this.states += BigInt(this.listTop - start);
    return this.listTop - start;
  }

  /** The crossing diagonals of a list's states: anti-diagonals and main diagonals, each a u32. */
  private masks(from: number, length: number, offset: number): [Uint32Array, Uint32Array] {
    const shift = this.h - offset;
    const anti = new Uint32Array(length);
    const main = new Uint32Array(length);
    for (let i = 0; i < length; i++) {
      anti[i] = (this.lists[3 * (from + i)] >>> shift) & this.crossMask;
      main[i] = (this.lists[3 * (from + i) + 1] >>> shift) & this.crossMask;
    }
    return [anti, main];
  }

  /** The disjoint pairs of the two lists, yielding the work done now and then. */
  private *disjointPairs(a: [Uint32Array, Uint32Array], b: [Uint32Array, Uint32Array]): Generator<number, bigint, undefined> {
    if (a[0].length < b[0].length) [a, b] = [b, a];
    const bits = 2 * (this.n - 1);
    let count = 0n;
    const without = new Uint32Array(bits);
    for (let from = 0; from < a[0].length; from += BLOCK) {
      const items = Math.min(BLOCK, a[0].length - from);
      const valid = items === 32 ? 0xffffffff : (1 << items) - 1;
      // The block bit-sliced: without[j] = its items that lack diagonal j.
      without.fill(valid);
      for (let x = 0; x < items; x++) {
        for (let half = 0; half < 2; half++) {
          let m = a[half][from + x];
          while (m !== 0) {
            without[half * (this.n - 1) + ctz(m)] &= ~(1 << x);
            m &= m - 1;
          }
        }
      }
      let blockCount = 0;
      for (let q = 0; q < b[0].length; q++) {
        let acc = valid;
        for (let half = 0; half < 2 && acc !== 0; half++) {
          let m = b[half][q];
          while (m !== 0 && acc !== 0) {
            acc &= without[half * (this.n - 1) + ctz(m)];
            m &= m - 1;
          }
        }
        blockCount += popcount(acc);
      }
      count += BigInt(blockCount);
      yield 1 + (b[0].length >> 3) + (items >> 2);
    }
    return count;
  }

  /** The partner of a leaf's east rows under the part's symmetry (see the engine). */
  private partnerOf(rows: number): number {
    const n = this.n;
    const all = (1 << n) - 1;
    if (n % 2 === 0) return (rows >>> (n - 1)) & 1 ? reverseRows(rows, n) : reverseRows(all & ~rows, n);
    if (this.symmetric) return (rows >>> (n - 1)) & 1 ? rows : reverseRows(rows, n);
    return (1 | (all & ~rows)) >>> 0; // row 0 in the middle column: the mirror keeps it there
  }

  private pop(): boolean {
    if (this.depth === this.floor) {
      this.finished = true;
      return false;
    }
    this.depth--;
    return true;
  }

  run(budget: number): StatusCode {
    if (this.finished) return Status.DONE;
    const n = this.n;
    let work = 0;
    // A step can extend a whole list or join a block against one (thousands of units of work),
    // so the clock is read by work done, once every TWIN_CLOCK_MASK + 1 units, not by steps.
    const until = twinDeadline();
    let nextLook = TWIN_CLOCK_MASK + 1;
    const late = (): boolean => {
      if (work < nextLook) return false;
      nextLook = work + TWIN_CLOCK_MASK + 1;
      return performance.now() > until;
    };
    for (;;) {
      if (work >= budget || late()) return Status.MORE;
      if (this.join) {
        let step = this.join.next();
        while (!step.done) {
          work += step.value;
          if (work >= budget || late()) return Status.MORE;
          step = this.join.next();
        }
        this.count += this.joinWeight * step.value;
        this.join = null;
        this.listTop = this.frames[this.depth].mark;
        if (!this.pop()) return Status.DONE;
        continue;
      }
      const f = this.frames[this.depth];
      if (this.depth === n) {
        // A leaf: of it and its partner under a symmetry (see the engine), the lesser is joined.
        const partner = this.partnerOf(f.rows);
        work += 1;
        if (partner < f.rows) {
          if (!this.pop()) return Status.DONE;
          continue;
        }
        this.joinWeight = this.multiplier * (partner === f.rows ? 1n : 2n);
        this.join = this.disjointPairs(this.masks(f.east, f.eastLength, this.h), this.masks(f.west, f.westLength, 0));
        continue;
      }
      if (f.stage === 2) {
        if (!this.pop()) return Status.DONE;
        continue;
      }
      const toEast = f.stage === 0;
      f.stage++;
      this.listTop = f.mark;
      const westRows = this.depth - f.eastRows;
      if (toEast ? f.eastRows >= this.k : westRows >= this.h) continue;
      // The last row makes a leaf: one whose partner is joined instead is not made at all.
      if (this.depth === n - 1 && this.partnerOf((f.rows | (toEast ? 1 << this.depth : 0)) >>> 0) < ((f.rows | (toEast ? 1 << this.depth : 0)) >>> 0)) continue;
      const start = this.listTop;
      const length = toEast
        ? this.extend(f.east, f.eastLength, this.depth, this.eastColumns, this.h)
        : this.extend(f.west, f.westLength, this.depth, this.westColumns, 0);
      if (length < 0) return Status.OUT_OF_MEMORY;
      work += length + 1;
      if (length === 0) continue;
      this.frames[this.depth + 1] = {
        east: toEast ? start : f.east,
        eastLength: toEast ? length : f.eastLength,
        west: toEast ? f.west : start,
        westLength: toEast ? f.westLength : length,
        rows: (f.rows | (toEast ? 1 << this.depth : 0)) >>> 0,
        eastRows: f.eastRows + (toEast ? 1 : 0),
        stage: 0,
        mark: this.listTop,
      };
      this.depth++;
    }
  }
}
