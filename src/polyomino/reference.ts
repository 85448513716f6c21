// The pure-TS twin of assembly/polyomino/polyomino.ts: the same search, step for step (so the same node
// counts), on spans of 32-bit words. The JS baseline of the benchmark, the engine for hosts
// without Wasm, and the oracle of the differential tests.
import { Status, twinClock, type StatusCode } from '../wasm/protocol.js';
import type { TilingEngine } from './engine.js';

const HEADER = 7;
const NONE = 0xffffffff;

export class ReferenceTilingEngine implements TilingEngine {
  private input: Uint32Array | undefined;
  private cells = 0;
  private kinds = 0;
  private placements = 0;
  private symmetries = 0;
  private perPlacement = 0;
  private floodLimit = 0;
  private dirs = 4;
  private words = 0;
  private kindArea = new Int32Array(0);
  private kindCount = new Int32Array(0);
  private kindExact = new Uint8Array(0);
  private nbrs = new Int32Array(0);
  private placeKind = new Int32Array(0);
  private placeCells = new Int32Array(0);
  private conn = new Uint8Array(0);
  private listId = new Int32Array(0);
  private listKind = new Int32Array(0);
  private listSkip = new Int32Array(0);
  private listFrom = new Int32Array(0);
  private listSpan = new Int32Array(0);
  private listOffset = new Int32Array(0);
  private maskPool = new Int32Array(0);
  private nearPool = new Int32Array(0);
  private cellStart = new Int32Array(0);
  private invPerm = new Int32Array(0);
  private kindImage = new Int32Array(0);
  private connImage = new Uint8Array(0);
  private uniform = false;

  private board = new Int32Array(0);
  private seen = new Int32Array(0);
  private comp = new Int32Array(0);
  private floodStack = new Int32Array(0);
  private labels = new Int32Array(0);
  private remaining = new Int32Array(0);
  private stackCur = new Int32Array(0);
  private stackEnd = new Int32Array(0);
  private stackPlaced = new Int32Array(0);
  private stackCell = new Int32Array(0);
  private pre: number[] = [];
  private empty = 0;
  private depth = 0;
  private weight = 1n;
  /** Bit s of the symmetry mask is symMask[s]. */
  private symMask = new Uint8Array(0);
  private anyMask = false;
  private emit = false;
  private splitDepth = -1;
  private finished = true;
  private popPending = false;
  private rootLeafPending = false;
  private out: number[] = [];
  private totalCount = 0n;
  private distinctCount = 0n;
  private nodeCount = 0;

  load(input: Uint32Array): StatusCode {
    if (input === this.input) return Status.DONE;
    this.input = undefined;
    const [cells, kinds, placements, symmetries, perPlacement, floodLimit, dirs] = input;
    if (cells < 1 || cells > 1024 || kinds < 1 || symmetries > 63 || perPlacement < 1 || floodLimit < 2 || floodLimit > 64 || (dirs !== 4 && dirs !== 6)) {
      return Status.BAD_INPUT;
    }
    Object.assign(this, { cells, kinds, placements, symmetries, perPlacement, floodLimit, dirs, words: (cells + 31) >> 5 });
    const words = new Int32Array(input.buffer, input.byteOffset, input.length);
    this.kindArea = new Int32Array(kinds);
    this.kindCount = new Int32Array(kinds);
    this.kindExact = new Uint8Array(kinds);
    for (let k = 0; k < kinds; k++) {
      this.kindArea[k] = input[HEADER + k * 3];
      this.kindCount[k] = input[HEADER + k * 3 + 1];
      this.kindExact[k] = input[HEADER + k * 3 + 2];
    }
    this.uniform = this.kindArea.every((a) => a === this.kindArea[0]) && this.kindExact.every((e) => e === 1);
    let at = HEADER + kinds * 3;
    this.nbrs = words.slice(at, at + cells * dirs);
    at += cells * dirs;
    this.placeKind = new Int32Array(placements);
    this.placeCells = new Int32Array(placements * perPlacement);
    for (let p = 0; p < placements; p++) {
      this.placeKind[p] = input[at];
      for (let i = 0; i < perPlacement; i++) {
        const c = input[at + 1 + i];
        this.placeCells[p * perPlacement + i] = c === NONE ? -1 : c;
      }
      at += perPlacement + 1;
    }
    this.buildLists();
    this.buildSymmetries(input, at);
    this.board = new Int32Array(this.words);
    this.seen = new Int32Array(this.words);
    this.comp = new Int32Array(this.words);
    this.floodStack = new Int32Array(cells);
    this.labels = new Int32Array(cells);
    this.remaining = new Int32Array(kinds);
    this.stackCur = new Int32Array(cells + 1);
    this.stackEnd = new Int32Array(cells + 1);
    this.stackPlaced = new Int32Array(cells + 1);
    this.stackCell = new Int32Array(cells + 1);
    this.input = input;
    return Status.DONE;
  }

  private cellOf(p: number, i: number): number {
    return this.placeCells[p * this.perPlacement + i];
  }

  private isNear(p: number, c: number): boolean {
    if (c <= this.cellOf(p, 0)) return false;
    for (let i = 0; i < this.kindArea[this.placeKind[p]]; i++) if (this.cellOf(p, i) === c) return false;
    return true;
  }

  private buildLists(): void {
    const { cells, placements, perPlacement } = this;
    const start = new Int32Array(cells + 1);
    for (let p = 0; p < placements; p++) start[this.cellOf(p, 0) + 1]++;
    for (let c = 0; c < cells; c++) start[c + 1] += start[c];
    this.cellStart = start.slice();
    this.listId = new Int32Array(placements);
    this.listKind = new Int32Array(placements);
    for (let p = 0; p < placements; p++) {
      const j = start[this.cellOf(p, 0)]++;
      this.listId[j] = p;
      this.listKind[j] = this.placeKind[p];
    }
    this.listSkip = new Int32Array(placements);
    for (let c = 0; c < cells; c++) {
      const end = this.cellStart[c + 1];
      for (let j = end - 1; j >= this.cellStart[c]; j--) {
        this.listSkip[j] = j + 1 < end && this.listKind[j + 1] === this.listKind[j] ? this.listSkip[j + 1] : j + 1;
      }
    }
    this.conn = new Uint8Array(placements * perPlacement);
    for (let p = 0; p < placements; p++) {
      const size = this.kindArea[this.placeKind[p]];
      for (let i = 0; i < size; i++) {
        let bits = 0;
        for (let d = 0; d < this.dirs; d++) {
          const other = this.nbrs[this.cellOf(p, i) * this.dirs + d];
          for (let t = 0; other >= 0 && t < size; t++) if (this.cellOf(p, t) === other) bits |= 1 << d;
        }
        this.conn[p * perPlacement + i] = bits;
      }
    }
    // Spans of 32-bit words from the first cell to the last cell or later neighbour.
    this.listFrom = new Int32Array(placements);
    this.listSpan = new Int32Array(placements);
    this.listOffset = new Int32Array(placements);
    let pool = 0;
    for (let j = 0; j < placements; j++) {
      const p = this.listId[j];
      const size = this.kindArea[this.placeKind[p]];
      let last = this.cellOf(p, size - 1);
      for (let i = 0; i < size; i++) for (let d = 0; d < this.dirs; d++) last = Math.max(last, this.nbrs[this.cellOf(p, i) * this.dirs + d]);
      this.listFrom[j] = this.cellOf(p, 0) >> 5;
      this.listSpan[j] = (last >> 5) - this.listFrom[j] + 1;
      this.listOffset[j] = pool;
      pool += this.listSpan[j];
    }
    this.maskPool = new Int32Array(pool);
    this.nearPool = new Int32Array(pool);
    for (let j = 0; j < placements; j++) {
      const p = this.listId[j];
      const base = this.listOffset[j] - this.listFrom[j];
      for (let i = 0; i < this.kindArea[this.placeKind[p]]; i++) {
        const c = this.cellOf(p, i);
        this.maskPool[base + (c >> 5)] |= 1 << (c & 31);
        for (let d = 0; d < this.dirs; d++) {
          const other = this.nbrs[c * this.dirs + d];
          if (this.isNear(p, other)) this.nearPool[base + (other >> 5)] |= 1 << (other & 31);
        }
      }
    }
  }

  private buildSymmetries(input: Uint32Array, at: number): void {
    const { cells, kinds, symmetries, dirs } = this;
    this.invPerm = new Int32Array(symmetries * cells);
    this.kindImage = new Int32Array(symmetries * kinds);
    this.connImage = new Uint8Array(symmetries * 64);
    for (let s = 0; s < symmetries; s++) {
      const base = at + s * (cells + kinds + dirs);
      for (let c = 0; c < cells; c++) this.invPerm[s * cells + input[base + c]] = c;
      for (let k = 0; k < kinds; k++) this.kindImage[s * kinds + k] = input[base + cells + k];
      for (let bits = 0; bits < 64; bits++) {
        let image = 0;
        for (let d = 0; d < dirs; d++) if ((bits >> d) & 1) image |= 1 << input[base + cells + kinds + d];
        this.connImage[s * 64 + bits] = image;
      }
    }
  }

  start(pre: readonly number[], weight: number, mask: number, emit: boolean, split: number): StatusCode {
    if (!this.input) return Status.BAD_INPUT;
    if (pre.length > this.cells || weight < 1 || split < 0 || split > this.cells || !(mask >= 0 && mask < 2 ** this.symmetries)) return Status.BAD_INPUT;
    this.pre = [...pre];
    this.weight = BigInt(weight);
    this.symMask = new Uint8Array(this.symmetries);
    for (let s = 0; s < this.symmetries; s++) this.symMask[s] = Math.floor(mask / 2 ** s) % 2;
    this.anyMask = mask !== 0;
    this.emit = emit;
    this.splitDepth = split > 0 ? split : -1;
    this.totalCount = 0n;
    this.distinctCount = 0n;
    this.nodeCount = 0;
    this.out = [];
    this.popPending = false;
    this.rootLeafPending = false;
    this.finished = true;
    this.depth = 0;
    this.remaining.set(this.kindCount);
    this.board.fill(0);
    this.empty = this.cells;
    for (const p of pre) {
      if (!(p >= 0 && p < this.placements)) return Status.BAD_INPUT;
      const k = this.placeKind[p];
      if (this.remaining[k] === 0) return Status.BAD_INPUT;
      this.remaining[k]--;
      for (let i = 0; i < this.kindArea[k]; i++) {
        const c = this.cellOf(p, i);
        if (this.board[c >> 5] & (1 << (c & 31))) return Status.BAD_INPUT;
        this.board[c >> 5] |= 1 << (c & 31);
      }
      this.empty -= this.kindArea[k];
    }
    if (this.cells & 31) this.board[this.words - 1] |= -1 << (this.cells & 31);
    this.finished = false;
    if (this.empty === 0) {
      this.finished = true;
      this.rootLeafPending = this.splitDepth > 0 ? true : this.leaf();
    } else {
      this.enterCell(0, this.firstEmpty(0));
    }
    return Status.DONE;
  }

  private firstEmpty(from: number): number {
    for (let w = from >> 5; w < this.words; w++) {
      const free = ~this.board[w];
      if (free !== 0) return (w << 5) + (31 - Math.clz32(free & -free));
    }
    return this.cells;
  }

  private enterCell(d: number, c: number): void {
    this.stackCell[d] = c;
    this.stackCur[d] = this.cellStart[c];
    this.stackEnd[d] = this.cellStart[c + 1];
  }

  private unplace(j: number): void {
    const k = this.listKind[j];
    this.remaining[k]++;
    const from = this.listFrom[j];
    const offset = this.listOffset[j];
    for (let i = 0; i < this.listSpan[j]; i++) this.board[from + i] ^= this.maskPool[offset + i];
    this.empty += this.kindArea[k];
  }

  run(budget: number): StatusCode {
    if (!this.input) return Status.BAD_INPUT;
    if (this.rootLeafPending) {
      this.rootLeafPending = false;
      if (this.emit || this.splitDepth > 0) {
        this.writeOutput();
        return Status.SOLUTION;
      }
    }
    if (this.finished) return Status.DONE;
    if (this.popPending) {
      this.popPending = false;
      this.depth--;
      this.unplace(this.stackPlaced[this.depth]);
    }
    const { board, remaining, maskPool, listKind, listFrom, listSpan, listOffset, stackCur, stackEnd, stackPlaced } = this;
    let spent = 0;
    // A placement checks the region's empty components (isolated): up to microseconds.
    const late = twinClock(255);
    let d = this.depth;
    for (;;) {
      const j = stackCur[d];
      if (j >= stackEnd[d]) {
        if (d === 0) {
          this.finished = true;
          this.depth = 0;
          return Status.DONE;
        }
        d--;
        this.unplace(stackPlaced[d]);
        continue;
      }
      const k = listKind[j];
      const left = remaining[k];
      if (left === 0) {
        stackCur[d] = this.listSkip[j];
        continue;
      }
      stackCur[d] = j + 1;
      const from = listFrom[j];
      const span = listSpan[j];
      const offset = listOffset[j];
      let clash = false;
      for (let i = 0; i < span; i++) {
        if (maskPool[offset + i] & board[from + i]) {
          clash = true;
          break;
        }
      }
      if (clash) continue;
      for (let i = 0; i < span; i++) board[from + i] |= maskPool[offset + i];
      remaining[k] = left - 1;
      this.empty -= this.kindArea[k];
      spent++;
      this.nodeCount++;
      stackPlaced[d] = j;
      if (this.empty === 0) {
        this.depth = d + 1;
        if (this.splitDepth > 0 || (this.leaf() && this.emit)) {
          this.writeOutput();
          this.popPending = true;
          return Status.SOLUTION;
        }
        this.unplace(j);
      } else if (this.isolated(from, span, offset)) {
        this.unplace(j);
      } else {
        d++;
        if (d === this.splitDepth) {
          this.depth = d;
          this.writeOutput();
          this.popPending = true;
          return Status.SOLUTION;
        }
        this.enterCell(d, this.firstEmpty(this.stackCell[d - 1]));
      }
      if (spent >= budget || late()) {
        this.depth = d;
        return Status.MORE;
      }
    }
  }

  /** True when an empty component next to the placement is too small for the pieces left. */
  private isolated(from: number, span: number, offset: number): boolean {
    const { board, seen, comp, nbrs, floodStack, floodLimit } = this;
    seen.fill(0);
    let fitsReady = false;
    for (let i = 0; i < span; i++) {
      let seeds = this.nearPool[offset + i] & ~board[from + i];
      while (seeds !== 0) {
        const low = seeds & -seeds;
        const s = ((from + i) << 5) + (31 - Math.clz32(low));
        seeds ^= low;
        if (seen[s >> 5] & (1 << (s & 31))) continue;
        comp.fill(0);
        comp[s >> 5] |= 1 << (s & 31);
        floodStack[0] = s;
        let top = 1;
        let size = 1;
        let big = false;
        while (top > 0 && !big) {
          const f = floodStack[--top];
          for (let dir = 0; dir < this.dirs; dir++) {
            const g = nbrs[f * this.dirs + dir];
            if (g < 0) continue;
            const bit = 1 << (g & 31);
            if (board[g >> 5] & bit || comp[g >> 5] & bit) continue;
            if (seen[g >> 5] & bit || ++size >= floodLimit) {
              big = true;
              break;
            }
            comp[g >> 5] |= bit;
            floodStack[top++] = g;
          }
        }
        for (let w = 0; w < this.words; w++) seen[w] |= comp[w];
        if (big) continue;
        if (this.uniform) {
          if (size % this.kindArea[0] !== 0) return true;
        } else {
          if (!fitsReady) this.markFits();
          fitsReady = true;
          if (!this.fits[size]) return true;
        }
      }
    }
    return false;
  }

  private fits = new Uint8Array(64);

  /** Marks in `fits` the sizes below 64 that some choice of the remaining pieces covers. */
  private markFits(): void {
    const fits = this.fits;
    fits.fill(0);
    fits[0] = 1;
    for (let k = 0; k < this.kinds; k++) {
      const area = this.kindArea[k];
      if (area >= 64) continue;
      const uses = Math.min(this.remaining[k], Math.floor(63 / area));
      for (let u = 0; u < uses; u++) for (let s = 63; s >= area; s--) fits[s] |= fits[s - area];
    }
  }

  /** Counts the leaf just reached; true when it is counted as distinct (and may be emitted). */
  private leaf(): boolean {
    for (let k = 0; k < this.kinds; k++) if (this.kindExact[k] && this.remaining[k] !== 0) return false;
    this.totalCount += this.weight;
    if (this.anyMask && !this.smallestImage()) return false;
    this.distinctCount++;
    return true;
  }

  private labelPlacement(p: number): void {
    const k = this.placeKind[p];
    for (let i = 0; i < this.kindArea[k]; i++) {
      this.labels[this.cellOf(p, i)] = (k << 6) | this.conn[p * this.perPlacement + i];
    }
  }

  private smallestImage(): boolean {
    const { cells, kinds, labels } = this;
    for (const p of this.pre) this.labelPlacement(p);
    for (let d = 0; d < this.depth; d++) this.labelPlacement(this.listId[this.stackPlaced[d]]);
    for (let s = 0; s < this.symmetries; s++) {
      if (this.symMask[s] === 0) continue;
      for (let c = 0; c < cells; c++) {
        const source = labels[this.invPerm[s * cells + c]];
        const image = (this.kindImage[s * kinds + (source >> 6)] << 6) | this.connImage[s * 64 + (source & 63)];
        if (image < labels[c]) return false;
        if (image > labels[c]) break;
      }
    }
    return true;
  }

  private writeOutput(): void {
    this.out = [...this.pre];
    for (let d = 0; d < this.depth; d++) this.out.push(this.listId[this.stackPlaced[d]]);
  }

  output(): number[] {
    return this.out.slice();
  }

  total(): bigint {
    return this.totalCount;
  }

  distinct(): bigint {
    return this.distinctCount;
  }

  nodes(): bigint {
    return BigInt(this.nodeCount);
  }
}
