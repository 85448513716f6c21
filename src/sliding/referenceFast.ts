// The pure-TS twin of the constructive sliding-tile solver (assembly/sliding/fast.ts): the same
// line-by-line solution of any M×N board on typed arrays and 32-bit integers, move for move.
import { Status, type StatusCode } from '../wasm/protocol.js';
import type { FastEngine } from './engine.js';

const UP = 0;
const LEFT = 1;
const RIGHT = 2;
const DOWN = 3;
const MIN_CHUNK = 1 << 18; // as in assembly/sliding/fast.ts
const BOX_CELLS = 1024;
const APPROACH_CELLS = 1 << 14;
/** The approach's ways keep within this many cells of the straight line (scaled to the longer side). */
const BAND = 8;
const NO_WAY = -0x40000000;
const PHASE_LINE = 0;
const PHASE_TILE = 1;
const PHASE_LAST = 2;
const PHASE_PAIR = 3;
const PHASE_BLOCK = 4;
const PHASE_DONE = 5;

export class ReferenceFastEngine implements FastEngine {
  private height = 0;
  private width = 0;
  private board = new Uint32Array(0);
  private where = new Uint32Array(0);
  private output = new Uint8Array(0);
  private capacity = 0;
  private outLength = 0;
  private overflow = false;
  private top = 0;
  private left = 0;
  private phase = PHASE_DONE;
  private column = 0;
  private transposed = false;
  private lineRow = 0;
  private firstColumn = 0;
  private rowsEnd = 0;
  private columnsEnd = 0;
  private prefix = 0;
  private blankCell = 0;
  private blankRow = 0;
  private blankColumn = 0;
  private boxFrom = new Int32Array(BOX_CELLS);
  private boxQueue = new Int32Array(BOX_CELLS);
  private pairFrom = new Int32Array(216);
  private pairQueue = new Int32Array(216);
  private pairDir = new Uint8Array(216);
  private block = new Int32Array(9);
  private blockPath = new Uint8Array(64);
  private approachBest = new Int32Array(APPROACH_CELLS);
  private approachVertical = new Uint8Array(APPROACH_CELLS);
  private approachPath = new Uint8Array(APPROACH_CELLS);
  private blockRows = 0;
  private blockColumns = 0;
  private blockBlank = 0;
  private blockFound = -1;

  alloc(rows: number, cols: number): Uint32Array | null {
    this.phase = PHASE_DONE;
    this.height = rows;
    this.width = cols;
    this.board = new Uint32Array(rows * cols);
    this.where = new Uint32Array(rows * cols);
    this.capacity = Math.max(MIN_CHUNK, 64 * (rows + cols) + 1024);
    this.output = new Uint8Array(this.capacity);
    return this.board;
  }

  start(): StatusCode {
    const cells = this.height * this.width;
    this.where.fill(0xffffffff);
    for (let c = 0; c < cells; c++) {
      const l = this.board[c];
      if (l >= cells || this.where[l] !== 0xffffffff) return Status.BAD_INPUT;
      this.where[l] = c;
    }
    this.blankCell = this.where[cells - 1];
    this.blankRow = Math.floor(this.blankCell / this.width);
    this.blankColumn = this.blankCell % this.width;
    this.top = 0;
    this.left = 0;
    this.overflow = false;
    this.phase = PHASE_LINE;
    return Status.DONE;
  }

  chunk(): Uint8Array {
    return this.output.subarray(0, this.outLength);
  }

  private physical(r: number, c: number): number {
    return this.transposed ? c * this.width + r : r * this.width + c;
  }
  private logicalRow(cell: number): number {
    return this.transposed ? cell % this.width : Math.floor(cell / this.width);
  }
  private logicalColumn(cell: number): number {
    return this.transposed ? Math.floor(cell / this.width) : cell % this.width;
  }
  private blankLogicalRow(): number {
    return this.transposed ? this.blankColumn : this.blankRow;
  }
  private blankLogicalColumn(): number {
    return this.transposed ? this.blankRow : this.blankColumn;
  }
  private free(r: number, c: number): boolean {
    if (r < this.lineRow || r >= this.rowsEnd || c < this.firstColumn || c >= this.columnsEnd) return false;
    return r > this.lineRow || c >= this.prefix;
  }

  private moveBlankPhysical(dir: number): void {
    const w = this.width;
    const b = this.blankCell;
    const to = dir === UP ? b - w : dir === DOWN ? b + w : dir === LEFT ? b - 1 : b + 1;
    const l = this.board[to];
    const blankLabel = this.height * w - 1;
    this.board[b] = l;
    this.where[l] = b;
    this.board[to] = blankLabel;
    this.where[blankLabel] = to;
    this.blankCell = to;
    if (dir === UP) this.blankRow--;
    else if (dir === DOWN) this.blankRow++;
    else if (dir === LEFT) this.blankColumn--;
    else this.blankColumn++;
    if (this.outLength >= this.capacity) {
      this.overflow = true;
      return;
    }
    this.output[this.outLength++] = dir;
  }

  private moveBlank(dir: number): void {
    if (this.transposed) dir = dir === UP ? LEFT : dir === LEFT ? UP : dir === RIGHT ? DOWN : RIGHT;
    this.moveBlankPhysical(dir);
  }

  private searchBox(yr: number, yc: number, xr: number, xc: number): boolean {
    const br = this.blankLogicalRow();
    const bc = this.blankLogicalColumn();
    const r0 = Math.max(this.lineRow, Math.min(br, yr, xr) - 1);
    const r1 = Math.min(this.rowsEnd - 1, Math.max(br, yr, xr) + 1);
    const c0 = Math.max(this.firstColumn, Math.min(bc, yc, xc) - 1);
    const c1 = Math.min(this.columnsEnd - 1, Math.max(bc, yc, xc) + 1);
    const w = c1 - c0 + 1;
    const size = (r1 - r0 + 1) * w;
    if (size > BOX_CELLS) return false;
    const from = this.boxFrom;
    const queue = this.boxQueue;
    from.fill(-1, 0, size);
    const start = (br - r0) * w + (bc - c0);
    const goal = (yr - r0) * w + (yc - c0);
    from[start] = start;
    queue[0] = start;
    let head = 0;
    let tail = 1;
    while (head < tail) {
      const i = queue[head++];
      if (i === goal) break;
      const r = Math.floor(i / w) + r0;
      const c = (i % w) + c0;
      for (let dir = 0; dir < 4; dir++) {
        const nr = dir === UP ? r - 1 : dir === DOWN ? r + 1 : r;
        const nc = dir === LEFT ? c - 1 : dir === RIGHT ? c + 1 : c;
        if (nr < r0 || nr > r1 || nc < c0 || nc > c1 || !this.free(nr, nc) || (nr === xr && nc === xc)) continue;
        const j = (nr - r0) * w + (nc - c0);
        if (from[j] >= 0) continue;
        from[j] = i;
        queue[tail++] = j;
      }
    }
    if (from[goal] < 0) return false;
    let length = 0;
    for (let i = goal; i !== start; i = from[i]) queue[length++] = i;
    for (let k = length - 1; k >= 0; k--) {
      const i = queue[k];
      this.stepTo(Math.floor(i / w) + r0, (i % w) + c0);
    }
    return true;
  }

  private stepTo(r: number, c: number): void {
    this.moveBlank(stepDir(this.blankLogicalRow(), this.blankLogicalColumn(), r, c));
  }

  private goAround(yr: number, yc: number, xr: number, xc: number): boolean {
    const br = this.blankLogicalRow();
    const bc = this.blankLogicalColumn();
    if (Math.abs(br - xr) + Math.abs(bc - xc) !== 1 || Math.abs(yr - xr) + Math.abs(yc - xc) !== 1) return false;
    if (br !== yr && bc !== yc) {
      const cr = br + yr - xr;
      const cc = bc + yc - xc;
      if (!this.free(cr, cc)) return false;
      this.stepTo(cr, cc);
      this.stepTo(yr, yc);
      return true;
    }
    for (let side = 1; side >= -1; side -= 2) {
      if (bc === xc) {
        const c = xc + side;
        if (!this.free(br, c) || !this.free(xr, c) || !this.free(yr, c)) continue;
        this.stepTo(br, c);
        this.stepTo(xr, c);
        this.stepTo(yr, c);
      } else {
        const r = xr + side;
        if (!this.free(r, bc) || !this.free(r, xc) || !this.free(r, yc)) continue;
        this.stepTo(r, bc);
        this.stepTo(r, xc);
        this.stepTo(r, yc);
      }
      this.stepTo(yr, yc);
      return true;
    }
    return false;
  }

  private routeBlank(yr: number, yc: number, xr: number, xc: number): boolean {
    for (;;) {
      const br = this.blankLogicalRow();
      const bc = this.blankLogicalColumn();
      if (br === yr && bc === yc) return true;
      const dr = yr - br;
      const dc = yc - bc;
      const vr = br + (dr > 0 ? 1 : -1);
      const hc = bc + (dc > 0 ? 1 : -1);
      const verticalOk = dr !== 0 && this.free(vr, bc) && !(vr === xr && bc === xc);
      const horizontalOk = dc !== 0 && this.free(br, hc) && !(br === xr && hc === xc);
      if (verticalOk && (Math.abs(dr) >= Math.abs(dc) || !horizontalOk)) this.moveBlank(dr > 0 ? DOWN : UP);
      else if (horizontalOk) this.moveBlank(dc > 0 ? RIGHT : LEFT);
      else return this.goAround(yr, yc, xr, xc) || this.searchBox(yr, yc, xr, xc);
    }
  }

  /**
   * What moving the tile at (r, c) to (r2, c2) does: for a tile still to come in this line,
   * what its walk to its cell costs less; for any other, +1 nearer its goal, -1 further.
   */
  private gain(r: number, c: number, r2: number, c2: number): number {
    const l = this.board[this.physical(r, c)];
    const gr = this.logicalRow(l);
    const gc = this.logicalColumn(l);
    if (gr === this.lineRow) {
      if (gc <= this.column) return 0;
      return lineCost(r - this.lineRow, Math.abs(c - gc)) - lineCost(r2 - this.lineRow, Math.abs(c2 - gc));
    }
    return Math.abs(r - gr) + Math.abs(c - gc) - Math.abs(r2 - gr) - Math.abs(c2 - gc);
  }

  /**
   * Brings the blank to (yr, yc) by a shortest way that keeps to the rectangle between them
   * (so every way is as long), choosing the one whose pushes (a tile the blank enters moves one
   * cell back along its way) gain most, among the ways within BAND of the straight line; on
   * ties the way from above. False (nothing moved)
   * when the tile at (xr, xc) or a solved cell blocks every such way, or the rectangle is too
   * large.
   */
  private approach(yr: number, yc: number, xr: number, xc: number): boolean {
    const br = this.blankLogicalRow();
    const bc = this.blankLogicalColumn();
    const sr = yr > br ? 1 : -1;
    const sc = yc > bc ? 1 : -1;
    const h = Math.abs(yr - br) + 1;
    const w = Math.abs(yc - bc) + 1;
    if (h * w > APPROACH_CELLS) return false;
    const best = this.approachBest;
    const vertical = this.approachVertical;
    for (let i = 0; i < h; i++) {
      const r = br + i * sr;
      for (let j = 0; j < w; j++) {
        const c = bc + j * sc;
        const k = i * w + j;
        if (k === 0) {
          best[0] = 0;
          continue;
        }
        if (!this.free(r, c) || (r === xr && c === xc) || Math.abs(i * (w - 1) - j * (h - 1)) > BAND * Math.max(w - 1, h - 1)) {
          best[k] = NO_WAY;
          continue;
        }
        let v = NO_WAY;
        let fromAbove = 0;
        if (i > 0 && best[k - w] !== NO_WAY) {
          v = best[k - w] + this.gain(r, c, r - sr, c);
          fromAbove = 1;
        }
        if (j > 0 && best[k - 1] !== NO_WAY) {
          const u = best[k - 1] + this.gain(r, c, r, c - sc);
          if (u > v) {
            v = u;
            fromAbove = 0;
          }
        }
        best[k] = v;
        vertical[k] = fromAbove;
      }
    }
    if (best[h * w - 1] === NO_WAY) return false;
    const path = this.approachPath;
    let length = 0;
    for (let k = h * w - 1; k !== 0; ) {
      if (vertical[k]) {
        path[length++] = sr > 0 ? DOWN : UP;
        k -= w;
      } else {
        path[length++] = sc > 0 ? RIGHT : LEFT;
        k -= 1;
      }
    }
    for (let k = length - 1; k >= 0; k--) this.moveBlank(path[k]);
    return true;
  }

  private approachCost(yr: number, yc: number, xr: number, xc: number): number {
    const br = this.blankLogicalRow();
    const bc = this.blankLogicalColumn();
    let cost = Math.abs(br - yr) + Math.abs(bc - yc);
    if ((br === xr && yr === xr && (bc - xc) * (yc - xc) < 0) || (bc === xc && yc === xc && (br - xr) * (yr - xr) < 0)) cost += 2;
    return cost;
  }

  private placeTile(label: number, tr: number, tc: number): boolean {
    let first = true;
    for (;;) {
      const cell = this.where[label];
      const r = this.logicalRow(cell);
      const c = this.logicalColumn(cell);
      if (r === tr && c === tc) return true;
      let yr = r;
      let yc = c;
      if (r < tr) yr = r + 1;
      else if (c === tc) yr = r - 1;
      else if (r === tr) yc = c + (tc > c ? 1 : -1);
      else {
        const hc = c + (tc > c ? 1 : -1);
        if (this.free(r - 1, c) && this.approachCost(r - 1, c, r, c) <= this.approachCost(r, hc, r, c)) yr = r - 1;
        else yc = hc;
      }
      if (!(first && this.approach(yr, yc, r, c)) && !this.routeBlank(yr, yc, r, c)) return false;
      first = false;
      this.moveBlank(stepDir(yr, yc, r, c));
    }
  }

  private chooseLine(): void {
    const rows = this.height - this.top;
    const columns = this.width - this.left;
    if (rows <= 3 && columns <= 3) {
      this.phase = PHASE_BLOCK;
      return;
    }
    const t = (this.transposed = !(rows > 3 && (rows >= columns || columns <= 3)));
    this.lineRow = t ? this.left : this.top;
    this.firstColumn = t ? this.top : this.left;
    this.rowsEnd = t ? this.width : this.height;
    this.columnsEnd = t ? this.height : this.width;
    this.prefix = this.firstColumn;
    this.column = this.firstColumn;
    this.phase = this.columnsEnd - this.firstColumn > 2 ? PHASE_TILE : PHASE_LAST;
  }

  private blockDistance(i: number): number {
    const l = this.block[i];
    if (l === this.height * this.width - 1) return 0;
    const bc = this.blockColumns;
    const g = (Math.floor(l / this.width) - this.top) * bc + ((l % this.width) - this.left);
    return Math.abs(Math.floor(g / bc) - Math.floor(i / bc)) + Math.abs((g % bc) - (i % bc));
  }

  private blockSearch(g: number, limit: number, last: number, h: number): number {
    if (h === 0) {
      this.blockFound = g;
      return g;
    }
    if (g + h > limit) return g + h;
    let best = 0x7fffffff;
    const bc = this.blockColumns;
    const r = Math.floor(this.blockBlank / bc);
    const c = this.blockBlank % bc;
    const blankLabel = this.height * this.width - 1;
    for (let dir = 0; dir < 4; dir++) {
      if (last >= 0 && dir === 3 - last) continue;
      const nr = dir === UP ? r - 1 : dir === DOWN ? r + 1 : r;
      const nc = dir === LEFT ? c - 1 : dir === RIGHT ? c + 1 : c;
      if (nr < 0 || nr >= this.blockRows || nc < 0 || nc >= bc) continue;
      const from = nr * bc + nc;
      const to = this.blockBlank;
      const before = this.blockDistance(from);
      const l = this.block[from];
      this.block[to] = l;
      this.block[from] = blankLabel;
      this.blockBlank = from;
      const next = h - before + this.blockDistance(to);
      this.blockPath[g] = dir;
      const t = this.blockSearch(g + 1, limit, dir, next);
      this.blockBlank = to;
      this.block[from] = l;
      this.block[to] = blankLabel;
      if (this.blockFound >= 0) return t;
      if (t < best) best = t;
    }
    return best;
  }

  private solveBlock(): boolean {
    this.transposed = false;
    this.blockRows = this.height - this.top;
    this.blockColumns = this.width - this.left;
    const blankLabel = this.height * this.width - 1;
    for (let r = 0; r < this.blockRows; r++) {
      for (let c = 0; c < this.blockColumns; c++) {
        const i = r * this.blockColumns + c;
        const l = this.board[(this.top + r) * this.width + this.left + c];
        this.block[i] = l;
        if (l === blankLabel) this.blockBlank = i;
      }
    }
    let h = 0;
    for (let i = 0; i < this.blockRows * this.blockColumns; i++) h += this.blockDistance(i);
    this.blockFound = -1;
    let limit = h;
    while (this.blockFound < 0) {
      const t = this.blockSearch(0, limit, -1, h);
      if (this.blockFound >= 0) break;
      if (t > 60) return false;
      limit = t;
    }
    for (let i = 0; i < this.blockFound; i++) this.moveBlankPhysical(this.blockPath[i]);
    return true;
  }

  private step(): boolean {
    if (this.phase === PHASE_LINE) {
      this.chooseLine();
      return true;
    }
    if (this.phase === PHASE_BLOCK) {
      if (!this.solveBlock()) return false;
      this.phase = PHASE_DONE;
      return true;
    }
    const last = this.columnsEnd - 1;
    const L = this.lineRow;
    if (this.phase === PHASE_TILE) {
      if (!this.placeTile(this.physical(L, this.column), L, this.column)) return false;
      this.column++;
      this.prefix = this.column;
      if (this.column === last - 1) this.phase = PHASE_LAST;
      return true;
    }
    const a = this.physical(L, last - 1);
    const b = this.physical(L, last);
    if (this.phase === PHASE_LAST) {
      if (this.where[a] === a && this.where[b] === b) return this.finishLine();
      if (!this.placeTile(b, L, last - 1)) return false;
      this.prefix = last;
      this.phase = PHASE_PAIR;
      return true;
    }
    if (this.inPairBox(this.where[a])) {
      if (!this.inPairBox(this.blankCell)) {
        const ar = this.logicalRow(this.where[a]);
        const ac = this.logicalColumn(this.where[a]);
        const tc = ar === L + 2 && ac === last - 1 ? last : last - 1;
        if (!this.routeBlank(L + 2, tc, ar, ac)) return false;
      }
      if (!this.pairSearch(a, b)) return false;
      return this.finishLine();
    }
    if (!this.placeTile(a, L + 1, last - 1)) return false;
    if (!this.routeBlank(L, last, L + 1, last - 1)) return false;
    this.moveBlank(LEFT);
    this.moveBlank(DOWN);
    return this.finishLine();
  }

  private finishLine(): boolean {
    if (this.transposed) this.left++;
    else this.top++;
    this.phase = PHASE_LINE;
    return true;
  }

  private inPairBox(cell: number): boolean {
    return this.logicalRow(cell) <= this.lineRow + 2 && this.logicalColumn(cell) >= this.columnsEnd - 2;
  }

  private boxIndex(cell: number): number {
    return (this.logicalRow(cell) - this.lineRow) * 2 + (this.logicalColumn(cell) - (this.columnsEnd - 2));
  }

  private pairSearch(a: number, b: number): boolean {
    const from = this.pairFrom;
    const queue = this.pairQueue;
    from.fill(-1);
    const blankLabel = this.height * this.width - 1;
    const start = this.boxIndex(this.where[blankLabel]) * 36 + this.boxIndex(this.where[a]) * 6 + this.boxIndex(this.where[b]);
    from[start] = start;
    queue[0] = start;
    let head = 0;
    let tail = 1;
    let found = -1;
    while (head < tail) {
      const s = queue[head++];
      const e = Math.floor(s / 36);
      const pa = Math.floor(s / 6) % 6;
      const pb = s % 6;
      if (pa === 0 && pb === 1) {
        found = s;
        break;
      }
      for (let dir = 0; dir < 4; dir++) {
        const r = e >> 1;
        const c = e & 1;
        const nr = dir === UP ? r - 1 : dir === DOWN ? r + 1 : r;
        const nc = dir === LEFT ? c - 1 : dir === RIGHT ? c + 1 : c;
        if (nr < 0 || nr > 2 || nc < 0 || nc > 1) continue;
        const j = nr * 2 + nc;
        const next = j * 36 + (pa === j ? e : pa) * 6 + (pb === j ? e : pb);
        if (from[next] >= 0) continue;
        from[next] = s;
        this.pairDir[next] = dir;
        queue[tail++] = next;
      }
    }
    if (found < 0) return false;
    let length = 0;
    for (let s = found; s !== start; s = from[s]) queue[length++] = s;
    for (let k = length - 1; k >= 0; k--) this.moveBlank(this.pairDir[queue[k]]);
    return true;
  }

  run(): StatusCode {
    this.outLength = 0;
    const reserve = 40 * (this.height + this.width) + 256;
    while (this.phase !== PHASE_DONE) {
      if (this.capacity - this.outLength < reserve) return Status.MORE;
      if (!this.step()) {
        this.phase = PHASE_DONE;
        return Status.BAD_INPUT;
      }
      if (this.overflow) return Status.OUT_OF_MEMORY;
    }
    return Status.DONE;
  }
}

/** The moves a tile needs to travel dr rows and dc columns (diagonal steps 3 moves a cell, straight 5). */
function lineCost(dr: number, dc: number): number {
  return dr > dc ? 5 * dr + dc : 5 * dc + dr;
}

function stepDir(r: number, c: number, r2: number, c2: number): number {
  return r2 < r ? UP : r2 > r ? DOWN : c2 < c ? LEFT : RIGHT;
}
