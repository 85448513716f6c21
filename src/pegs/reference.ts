// The pure-TS twin of assembly/pegs/ for the solution search and the counting (solve.ts,
// count.ts): the same algorithms on positions held as two 32-bit words (lo: holes 0-31, hi:
// holes 32-63).
import { Status, twinClock, type StatusCode } from '../wasm/protocol.js';
import { MODE_COUNT, MODE_SOLVE, OVERFLOW, type PegsEngine } from './engine.js';
import { popcount32 } from '../bits.js';

const MAX_LOAD = 0.7;
const unsignedLess = (aHi: number, aLo: number, bHi: number, bLo: number): boolean =>
  aHi !== bHi ? aHi >>> 0 < bHi >>> 0 : aLo >>> 0 < bLo >>> 0;

/** Open addressing on two key words and two value words; key (0, 0) is empty. */
class Table {
  keyLo: Uint32Array;
  keyHi: Uint32Array;
  valLo: Uint32Array;
  valHi: Uint32Array;
  count = 0;
  constructor(public log: number) {
    const n = 1 << log;
    this.keyLo = new Uint32Array(n);
    this.keyHi = new Uint32Array(n);
    this.valLo = new Uint32Array(n);
    this.valHi = new Uint32Array(n);
  }
  /** The slot of the key: its own, or the empty one it would take. */
  find(lo: number, hi: number): number {
    const mask = (1 << this.log) - 1;
    let i = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> (32 - this.log);
    for (;;) {
      const kl = this.keyLo[i];
      const kh = this.keyHi[i];
      if ((kl === lo && kh === hi) || (kl === 0 && kh === 0)) return i;
      i = (i + 1) & mask;
    }
  }
  crowded(extra = 1): boolean {
    return this.count + extra >= MAX_LOAD * (1 << this.log);
  }
  bytes(): number {
    return 16 << this.log;
  }
}

export class ReferencePegsEngine implements PegsEngine {
  private holes = 0;
  private jumpCount = 0;
  private syms = 0;
  private bytesUsed = 0;
  private fullLo = 0;
  private fullHi = 0;
  private startLo = 0;
  private startHi = 0;
  private finishLo = new Uint32Array(0);
  private finishHi = new Uint32Array(0);
  private finishPegs = 0;
  private needLo = new Uint32Array(0);
  private needHi = new Uint32Array(0);
  private toLo = new Uint32Array(0);
  private toHi = new Uint32Array(0);
  private flipLo = new Uint32Array(0);
  private flipHi = new Uint32Array(0);
  private imgLo = new Uint32Array(0); // S × J: the jump's holes under each symmetry
  private imgHi = new Uint32Array(0);
  private symLo = new Uint32Array(0); // S × 8 × 256: a byte's image
  private symHi = new Uint32Array(0);
  private pagodaTables: Uint32Array[] = [];
  private pagodaNeed: number[] = [];
  private imagesLo = new Uint32Array(12);
  private imagesHi = new Uint32Array(12);
  private canonLo = 0;
  private canonHi = 0;

  private mode = -1;
  private finished = false;
  private nodeCount = 0n;
  private totalCount = 0n;
  /** A sum met a saturated position (paths kept as min(paths, 2^64 − 1), as the engine keeps them): OVERFLOW. */
  private wrapped = false;
  private out: number[] = [];
  private levelSizes: bigint[] = [];
  // SOLVE
  private stackLo: number[] = [];
  private stackHi: number[] = [];
  private stackNext: number[] = [];
  private stackJump: number[] = [];
  private stackLive: boolean[] = [];
  private depth = 0;
  private dead = new Table(4);
  private order: number[] = [];
  private deadMaxLog = 0;
  // COUNT
  private current = new Table(4);
  private next = new Table(4);
  private scan = 0;
  private levelNow = 0;
  private meetLevel = -1;
  // Chores, done over several run calls as the engine does them: a table growing (SOLVE's dead
  // set, COUNT's next level: its pairs moved into growTo from slot growAt on), and COUNT's sum
  // where the halves meet (from slot meetAt on).
  private growTo: Table | null = null;
  private growAt = 0;
  private meetAt = -1;

  constructor(private readonly maxMemory: number) {}

  load(input: Uint32Array): StatusCode {
    const [n, j, s, p, f] = input;
    this.holes = n;
    this.jumpCount = j;
    this.syms = s;
    this.bytesUsed = (n + 7) >> 3;
    this.fullLo = n >= 32 ? 0xffffffff : 2 ** n - 1;
    this.fullHi = n >= 64 ? 0xffffffff : n > 32 ? 2 ** (n - 32) - 1 : 0;
    const words = (k: number): [number, number] => [k < 32 ? 2 ** k : 0, k >= 32 ? 2 ** (k - 32) : 0];
    let at = 5;
    this.needLo = new Uint32Array(j);
    this.needHi = new Uint32Array(j);
    this.toLo = new Uint32Array(j);
    this.toHi = new Uint32Array(j);
    this.flipLo = new Uint32Array(j);
    this.flipHi = new Uint32Array(j);
    for (let k = 0; k < j; k++, at += 3) {
      const [fl, fh] = words(input[at]);
      const [ol, oh] = words(input[at + 1]);
      const [tl, th] = words(input[at + 2]);
      this.needLo[k] = fl | ol;
      this.needHi[k] = fh | oh;
      this.toLo[k] = tl;
      this.toHi[k] = th;
      this.flipLo[k] = fl | ol | tl;
      this.flipHi[k] = fh | oh | th;
    }
    this.symLo = new Uint32Array(s * 8 * 256);
    this.symHi = new Uint32Array(s * 8 * 256);
    for (let sym = 0; sym < s; sym++, at += n) {
      for (let h = 0; h < n; h++) {
        const [il, ih] = words(input[at + h]);
        const row = (sym * 8 + (h >> 3)) * 256;
        for (let v = 0; v < 256; v++) {
          if ((v >> (h & 7)) & 1) {
            this.symLo[row + v] |= il;
            this.symHi[row + v] |= ih;
          }
        }
      }
    }
    this.imgLo = new Uint32Array(s * j);
    this.imgHi = new Uint32Array(s * j);
    for (let sym = 0; sym < s; sym++) {
      for (let k = 0; k < j; k++) {
        this.image(sym, this.flipLo[k], this.flipHi[k]);
        this.imgLo[sym * j + k] = this.canonLo;
        this.imgHi[sym * j + k] = this.canonHi;
      }
    }
    this.pagodaTables = [];
    this.pagodaNeed = [];
    for (let q = 0; q < p; q++, at += n + 1) {
      const table = new Uint32Array(8 * 256);
      for (let h = 0; h < n; h++) {
        for (let v = 0; v < 256; v++) if ((v >> (h & 7)) & 1) table[(h >> 3) * 256 + v] += input[at + h];
      }
      this.pagodaTables.push(table);
      this.pagodaNeed.push(input[at + n]);
    }
    this.startLo = input[at];
    this.startHi = input[at + 1];
    this.finishLo = new Uint32Array(f);
    this.finishHi = new Uint32Array(f);
    for (let k = 0; k < f; k++) {
      this.finishLo[k] = input[at + 2 + 2 * k];
      this.finishHi[k] = input[at + 3 + 2 * k];
    }
    this.finishPegs = popcount32(this.finishLo[0]) + popcount32(this.finishHi[0]);
    this.order = Array.from({ length: j }, (_, k) => k);
    this.mode = -1;
    return Status.DONE;
  }

  /** The image of (lo, hi) under a symmetry, into canonLo/canonHi. */
  private image(sym: number, lo: number, hi: number): void {
    let ol = 0;
    let oh = 0;
    for (let b = 0; b < this.bytesUsed; b++) {
      const v = (b < 4 ? lo >>> (b * 8) : hi >>> ((b - 4) * 8)) & 255;
      const k = (sym * 8 + b) * 256 + v;
      ol |= this.symLo[k];
      oh |= this.symHi[k];
    }
    this.canonLo = ol >>> 0;
    this.canonHi = oh >>> 0;
  }

  /** The least image, into canonLo/canonHi. */
  private canonical(lo: number, hi: number): void {
    let bl = lo >>> 0;
    let bh = hi >>> 0;
    for (let s = 1; s < this.syms; s++) {
      this.image(s, lo, hi);
      if (unsignedLess(this.canonHi, this.canonLo, bh, bl)) ((bl = this.canonLo), (bh = this.canonHi));
    }
    this.canonLo = bl;
    this.canonHi = bh;
  }

  private legal(lo: number, hi: number, j: number): boolean {
    const nl = this.needLo[j];
    const nh = this.needHi[j];
    return (lo & nl) >>> 0 === nl && (hi & nh) >>> 0 === nh && (lo & this.toLo[j]) === 0 && (hi & this.toHi[j]) === 0;
  }

  private hopeful(lo: number, hi: number): boolean {
    for (let p = 0; p < this.pagodaTables.length; p++) {
      const table = this.pagodaTables[p];
      let value = 0;
      for (let b = 0; b < this.bytesUsed; b++) value += table[b * 256 + ((b < 4 ? lo >>> (b * 8) : hi >>> ((b - 4) * 8)) & 255)];
      if (value < this.pagodaNeed[p]) return false;
    }
    return true;
  }

  private isFinish(lo: number, hi: number): boolean {
    for (let f = 0; f < this.finishLo.length; f++) if (this.finishLo[f] === lo >>> 0 && this.finishHi[f] === hi >>> 0) return true;
    return false;
  }

  private fits(bytes: number): boolean {
    return bytes <= this.maxMemory;
  }

  start(mode: number, log: number): StatusCode {
    this.mode = mode;
    this.finished = false;
    this.nodeCount = 0n;
    this.totalCount = 0n;
    this.wrapped = false;
    this.out = [];
    this.growTo = null;
    if (mode === MODE_SOLVE) {
      this.deadMaxLog = log;
      this.dead = new Table(Math.min(log, 16));
      return this.restart(this.order);
    }
    if (mode === MODE_COUNT) {
      this.current = new Table(4);
      this.canonical(this.startLo, this.startHi);
      const slot = this.current.find(this.canonLo, this.canonHi);
      this.current.keyLo[slot] = this.canonLo;
      this.current.keyHi[slot] = this.canonHi;
      this.current.valLo[slot] = 1;
      this.current.count = 1;
      this.next = new Table(log);
      this.meetAt = -1;
      this.levelNow = popcount32(this.startLo) + popcount32(this.startHi);
      this.levelSizes = new Array<bigint>(65).fill(0n);
      this.levelSizes[this.levelNow] = 1n;
      this.scan = 0;
      const selfDual = this.finishLo.length === 1 && this.finishLo[0] === (~this.startLo & this.fullLo) >>> 0 && this.finishHi[0] === (~this.startHi & this.fullHi) >>> 0;
      this.meetLevel = selfDual && this.levelNow > this.holes >> 1 ? this.holes >> 1 : -1;
      if (this.levelNow === this.finishPegs) this.finishCount();
      return Status.DONE;
    }
    return Status.BAD_INPUT;
  }

  restart(order: readonly number[]): StatusCode {
    if (this.mode !== MODE_SOLVE || order.length !== this.jumpCount) return Status.BAD_INPUT;
    this.order = order.slice();
    this.finished = false;
    this.depth = 0;
    this.stackLo = [this.startLo];
    this.stackHi = [this.startHi];
    this.stackNext = [-1];
    this.stackLive = [false];
    this.stackJump = [];
    return Status.DONE;
  }

  run(budget: number): StatusCode {
    if (this.finished) return this.wrapped ? OVERFLOW : Status.DONE;
    if (this.mode === MODE_SOLVE) return this.runSolve(budget);
    if (this.mode === MODE_COUNT) return this.runCount(budget);
    return Status.BAD_INPUT;
  }

  private runSolve(budget: number): StatusCode {
    const { stackLo, stackHi, stackNext, stackJump, stackLive } = this;
    const late = twinClock(255);
    if (this.growTo) {
      const grown = this.growPiece(this.dead, budget, late);
      if (!grown) return Status.MORE;
      this.dead = grown;
      return Status.MORE; // as the engine ends a call where its chore does
    }
    while (this.depth >= 0) {
      const d = this.depth;
      const lo = stackLo[d];
      const hi = stackHi[d];
      let next = stackNext[d];
      if (next < 0) {
        if (this.isFinish(lo, hi)) {
          this.out = stackJump.slice(0, d);
          for (let k = 0; k <= d; k++) stackLive[k] = true;
          stackNext[d] = this.jumpCount;
          return Status.SOLUTION;
        }
        this.canonical(lo, hi);
        const slot = this.dead.find(this.canonLo, this.canonHi);
        const known = this.dead.keyLo[slot] !== 0 || this.dead.keyHi[slot] !== 0;
        if (popcount32(lo) + popcount32(hi) <= this.finishPegs || !this.hopeful(lo, hi) || known) {
          this.depth--;
          continue;
        }
        next = 0;
      }
      if (budget <= 0 || late()) {
        stackNext[d] = next;
        return Status.MORE;
      }
      const order = this.order;
      let k = next;
      while (k < this.jumpCount && !this.legal(lo, hi, order[k])) k++;
      if (k >= this.jumpCount) {
        if (!stackLive[d] && this.dead.crowded() && this.dead.log < this.deadMaxLog) {
          if (this.fits(3 * this.dead.bytes())) {
            // The set grows first; this position comes back here when it has.
            this.growTo = new Table(this.dead.log + 1);
            this.growAt = 0;
            stackNext[d] = next;
            return Status.MORE;
          }
          this.deadMaxLog = this.dead.log;
        }
        if (!stackLive[d] && !this.dead.crowded()) {
          this.canonical(lo, hi);
          const slot = this.dead.find(this.canonLo, this.canonHi);
          if (this.dead.keyLo[slot] === 0 && this.dead.keyHi[slot] === 0) {
            this.dead.keyLo[slot] = this.canonLo;
            this.dead.keyHi[slot] = this.canonHi;
            this.dead.count++;
          }
        }
        this.depth--;
        continue;
      }
      budget--;
      this.nodeCount++;
      const j = order[k];
      stackNext[d] = k + 1;
      stackJump[d] = j;
      this.depth = d + 1;
      stackLo[d + 1] = (lo ^ this.flipLo[j]) >>> 0;
      stackHi[d + 1] = (hi ^ this.flipHi[j]) >>> 0;
      stackNext[d + 1] = -1;
      stackLive[d + 1] = false;
    }
    return Status.DONE;
  }

  private finishCount(): void {
    const t = this.current;
    let total = 0n;
    for (let i = 0; i < t.keyLo.length; i++) {
      if ((t.keyLo[i] !== 0 || t.keyHi[i] !== 0) && this.isFinish(t.keyLo[i], t.keyHi[i])) {
        total += this.paths(t, i);
      }
    }
    this.totalCount = total;
    this.levelNow = this.finishPegs;
    this.finished = true;
  }

  /** A position's paths from its two words; a saturated one marks the sum that reads it. */
  private paths(t: Table, i: number): bigint {
    if (t.valHi[i] === 0xffffffff && t.valLo[i] === 0xffffffff) this.wrapped = true;
    return (BigInt(t.valHi[i]) << 32n) | BigInt(t.valLo[i]);
  }

  /**
   * The two halves meet: the sum of paths(p) · paths(~p) (see assembly/pegs/count.ts), from
   * slot meetAt on, within the budget; true when it is done.
   */
  private meetCount(budget: number, late: () => boolean): boolean {
    const middle = this.next;
    const upper = this.holes - this.levelNow === this.levelNow ? this.next : this.current;
    for (; this.meetAt < middle.keyLo.length; this.meetAt++) {
      if (budget <= 0 || late()) return false;
      const i = this.meetAt;
      const lo = middle.keyLo[i];
      const hi = middle.keyHi[i];
      if (lo === 0 && hi === 0) continue;
      budget--;
      this.canonical((~lo & this.fullLo) >>> 0, (~hi & this.fullHi) >>> 0);
      const other = upper.find(this.canonLo, this.canonHi);
      if (upper.keyLo[other] === 0 && upper.keyHi[other] === 0) continue;
      let fixed = 1;
      for (let s = 1; s < this.syms; s++) {
        this.image(s, lo, hi);
        if (this.canonLo === lo && this.canonHi === hi) fixed++;
      }
      this.totalCount += this.paths(middle, i) * (this.paths(upper, other) / BigInt(this.syms / fixed));
    }
    this.finished = true;
    return true;
  }

  /**
   * Moves `from`'s pairs into growTo (a table twice its size) from slot growAt on, within the
   * budget: growTo when it is done, else null.
   */
  private growPiece(from: Table, budget: number, late: () => boolean): Table | null {
    const to = this.growTo!;
    for (; this.growAt < from.keyLo.length; this.growAt++) {
      if (budget <= 0 || late()) return null;
      const i = this.growAt;
      if (from.keyLo[i] === 0 && from.keyHi[i] === 0) continue;
      budget--;
      const slot = to.find(from.keyLo[i], from.keyHi[i]);
      to.keyLo[slot] = from.keyLo[i];
      to.keyHi[slot] = from.keyHi[i];
      to.valLo[slot] = from.valLo[i];
      to.valHi[slot] = from.valHi[i];
    }
    to.count = from.count;
    this.growTo = null;
    return to;
  }

  private runCount(budget: number): StatusCode {
    const { imagesLo, imagesHi } = this;
    const s = this.syms;
    const J = this.jumpCount;
    // A position expanded tries every jump under every symmetry: microseconds.
    const late = twinClock(63);
    for (;;) {
      if (this.meetAt >= 0) {
        if (!this.meetCount(budget, late)) return Status.MORE;
        return this.wrapped ? OVERFLOW : Status.DONE;
      }
      if (this.growTo) {
        const grown = this.growPiece(this.next, budget, late);
        if (!grown) return Status.MORE;
        this.next = grown;
      }
      const cur = this.current;
      const slots = cur.keyLo.length;
      // Into the finishes' level: each jump into a finish adds its parent's paths to the total
      // (exact while no parent saturates; as assembly/pegs/count.ts sums it).
      const last = this.levelNow === this.finishPegs + 1 && this.meetLevel < 0;
      while (this.scan < slots) {
        if (budget <= 0 || late()) return Status.MORE;
        const i = this.scan;
        const lo = cur.keyLo[i];
        const hi = cur.keyHi[i];
        if (lo === 0 && hi === 0) {
          this.scan++;
          continue;
        }
        // This position's children could crowd the table: it grows first, in pieces (as
        // count.ts grows it). Where that would not fit, an insert into a crowded table below
        // stops the count.
        if (this.next.crowded(J) && this.fits(cur.bytes() + 3 * this.next.bytes())) {
          this.growTo = new Table(this.next.log + 1);
          this.growAt = 0;
          return Status.MORE;
        }
        this.scan++;
        budget--;
        this.nodeCount++;
        const pl = cur.valLo[i];
        const ph = cur.valHi[i];
        imagesLo[0] = lo;
        imagesHi[0] = hi;
        for (let k = 1; k < s; k++) {
          this.image(k, lo, hi);
          imagesLo[k] = this.canonLo;
          imagesHi[k] = this.canonHi;
        }
        for (let j = 0; j < J; j++) {
          if (!this.legal(lo, hi, j)) continue;
          let bl = (lo ^ this.flipLo[j]) >>> 0;
          let bh = (hi ^ this.flipHi[j]) >>> 0;
          for (let k = 1; k < s; k++) {
            const cl = (imagesLo[k] ^ this.imgLo[k * J + j]) >>> 0;
            const ch = (imagesHi[k] ^ this.imgHi[k * J + j]) >>> 0;
            if (ch < bh || (ch === bh && cl < bl)) ((bl = cl), (bh = ch));
          }
          if (last && this.isFinish(bl, bh)) {
            if (ph === 0xffffffff && pl === 0xffffffff) this.wrapped = true;
            this.totalCount += (BigInt(ph) << 32n) | BigInt(pl);
          }
          const next = this.next;
          const slot = next.find(bl, bh);
          if (next.keyLo[slot] === 0 && next.keyHi[slot] === 0) {
            if (!this.hopeful(bl, bh)) continue;
            // Crowded though its parent's children were made room for: there was no room to grow.
            if (next.crowded()) return Status.OUT_OF_MEMORY;
            next.keyLo[slot] = bl;
            next.keyHi[slot] = bh;
            next.count++;
          }
          // Saturated at 2^64 − 1, as assembly/pegs/board.ts keeps them.
          const sumLo = next.valLo[slot] + pl;
          const sumHi = next.valHi[slot] + ph + (sumLo > 0xffffffff ? 1 : 0);
          next.valLo[slot] = sumHi > 0xffffffff ? 0xffffffff : sumLo >>> 0;
          next.valHi[slot] = sumHi > 0xffffffff ? 0xffffffff : sumHi;
        }
      }
      this.levelNow--;
      this.levelSizes[this.levelNow] = BigInt(this.next.count);
      if (this.levelNow === this.meetLevel) {
        this.meetAt = 0;
        this.totalCount = 0n;
        return Status.MORE;
      }
      this.current = this.next;
      if (this.levelNow === this.finishPegs || this.current.count === 0) {
        // The total was summed as the last level was expanded.
        this.levelNow = this.finishPegs;
        this.finished = true;
        return this.wrapped ? OVERFLOW : Status.DONE;
      }
      this.next = new Table(this.current.log);
      this.scan = 0;
      return Status.MORE;
    }
  }

  jumps(): number[] {
    return this.out.slice();
  }
  positions(): bigint[] {
    return [];
  }
  levels(): bigint[] {
    return this.levelSizes.slice();
  }
  nodes(): bigint {
    return this.nodeCount;
  }
  total(): bigint {
    return this.totalCount;
  }
  level(): number {
    return this.levelNow;
  }
  phase(): number {
    return 0;
  }
  moves(): number {
    return -1;
  }
  memory(): number {
    return this.current.bytes() + this.next.bytes() + this.dead.bytes();
  }
}
