// The pure-TS twin of the optimal sliding-tile engine (assembly/sliding/sliding.ts and pdb.ts;
// the packed tables of pdbPacked.ts are the Wasm engine's only): the same IDA* and pattern
// databases on typed arrays and 32-bit integers, move for move and node for node. The
// constructive solver's twin is referenceFast.ts.
import { BitpuzzleError } from '../errors.js';
import { Status, twinClock, type StatusCode } from '../wasm/protocol.js';
import { CONFLICT, MAX_DEPTH, PATTERNS, type OptimalEngine } from './engine.js';
import { ctz32 as ctz, popcount32 as popcount } from '../bits.js';

const UNSEEN = 0xff;
/** Boards up to this size follow the blank in the table builds (as in assembly/sliding/pdb.ts). */
const BLANK_AWARE_CELLS = 16;

const NO_MOVE = 4;
const NO_GROUP = 0xff;

/** The rank of k cells (in pattern order) among the placements on n cells. */
function rankCells(at: Int32Array, k: number, n: number): number {
  let used = 0;
  let index = 0;
  for (let i = 0; i < k; i++) {
    const p = at[i];
    const digit = p - popcount(used & ((1 << p) - 1 >>> 0));
    index = index * (n - i) + digit;
    used = (used | (1 << p)) >>> 0;
  }
  return index;
}

function neighbourTable(cells: number, width: number): Int8Array {
  const out = new Int8Array(cells * 4);
  for (let c = 0; c < cells; c++) {
    const r = Math.floor(c / width);
    const col = c % width;
    out[c * 4] = r > 0 ? c - width : -1;
    out[c * 4 + 1] = col > 0 ? c - 1 : -1;
    out[c * 4 + 2] = col < width - 1 ? c + 1 : -1;
    out[c * 4 + 3] = c + width < cells ? c + width : -1;
  }
  return out;
}

interface Slot {
  cells: number[];
  table: Uint8Array;
}

export class ReferenceOptimalEngine implements OptimalEngine {
  private slots: Array<Slot | undefined> = [];
  private patternsKey: string | null = null;
  // Pattern build state.
  private buildSlot = -1;
  private buildDepth = 0;
  private scan = 0;
  private filledCount = 0;
  private filledAtLevelStart = 0;
  private buildNeighbours: Int8Array = new Int8Array(0);
  private buildCells = 0;
  private scratch = new Int32Array(8);
  private digits = new Int32Array(8);
  // The search with the blank (see assembly/sliding/pdb.ts).
  private withBlank = false;
  private visited = new Uint8Array(0);
  private queue = new Uint32Array(0);
  private head = 0;
  private tail = 0;
  private queued = 0;
  private levelLeft = 0;
  private nextLevel = 0;
  private fullMask = 0;
  private buildWidth = 0;
  private notFirstColumn = 0;
  private notLastColumn = 0;

  // Search state.
  private cells = 0;
  private width = 0;
  private height = 0;
  private heuristic = 0;
  private slotCount = 0;
  private mirrored = false;
  private blankLabel = 0;
  private blank = 0;
  private depth = 0;
  private searchBound = 0;
  private nextBound = 0;
  private conflicts = 0;
  private nodeCount = 0;
  private iterationStart = 0;
  private pausing = false;
  private state: StatusCode = Status.DONE;
  private solutionLength = -1;
  private board = new Uint8Array(32);
  private pos = new Int32Array(32);
  private neighbours: Int8Array = new Int8Array(0);
  private distance = new Uint8Array(32 * 32);
  private mirror = new Uint8Array(32);
  private group = new Uint8Array(32);
  private lineConflicts = new Int32Array(64);
  private run_ = new Int32Array(64);
  private next = new Uint8Array(MAX_DEPTH + 1);
  private moves = new Uint8Array(MAX_DEPTH + 1);
  private md = new Int32Array(MAX_DEPTH + 1);
  // Pattern values per depth: slot s at [d*8+s], mirrored at [d*8+4+s].
  private values = new Uint8Array((MAX_DEPTH + 1) * 8);
  // The slots' sums per depth: direct and mirrored.
  private direct = new Int32Array(MAX_DEPTH + 1);
  private reflected = new Int32Array(MAX_DEPTH + 1);
  private output = new Uint8Array(MAX_DEPTH);

  loadedPatterns(): string | null {
    return this.patternsKey;
  }

  clearPatterns(): void {
    this.slots = [];
    this.patternsKey = null;
    this.buildSlot = -1;
  }

  definePattern(slot: number, cells: number, width: number, pattern: readonly number[], packed = false): boolean {
    // The packed 7-8 tables are the Wasm engine's (the host chooses 6-6-3 for the twin).
    if (packed) throw new BitpuzzleError('BAD_INPUT', 'the TS twin has no packed (7-8) pattern databases: use the Wasm engine');
    let size = 1;
    for (let i = 0; i < pattern.length; i++) size *= cells - i;
    this.slots[slot] = { cells: pattern.slice(), table: new Uint8Array(size) };
    this.buildCells = cells;
    this.buildWidth = width;
    this.buildNeighbours = neighbourTable(cells, width);
    this.notFirstColumn = 0;
    this.notLastColumn = 0;
    for (let c = 0; c < cells; c++) {
      if (c % width !== 0) this.notFirstColumn |= 1 << c;
      if (c % width !== width - 1) this.notLastColumn |= 1 << c;
    }
    return true;
  }

  table(slot: number): Uint8Array {
    return this.slots[slot]!.table;
  }

  markPatterns(key: string): void {
    this.patternsKey = key;
  }

  buildStart(slot: number, blank: number): StatusCode {
    const { table, cells } = this.slots[slot]!;
    const n = this.buildCells;
    table.fill(UNSEEN);
    for (let i = 0; i < cells.length; i++) this.scratch[i] = cells[i];
    const start = rankCells(this.scratch, cells.length, n);
    table[start] = 0;
    this.buildSlot = slot;
    this.buildDepth = 0;
    this.scan = 0;
    this.filledCount = 1;
    this.filledAtLevelStart = 1;
    this.withBlank = n <= BLANK_AWARE_CELLS;
    if (this.withBlank) {
      this.visited = new Uint8Array(Math.ceil((table.length * n) / 8));
      this.queue = new Uint32Array(table.length * 2);
      this.fullMask = n === 32 ? 0xffffffff : 2 ** n - 1;
      let used = 0;
      for (const c of cells) used |= 1 << c;
      const state = start * n + ctz(this.flood(1 << blank, this.fullMask & ~used));
      this.markVisited(state);
      this.queue[0] = state;
      this.head = 0;
      this.tail = 1;
      this.queued = 1;
      this.levelLeft = 1;
      this.nextLevel = 0;
    }
    return Status.MORE;
  }

  private flood(from: number, free: number): number {
    const w = this.buildWidth;
    let region = from;
    for (;;) {
      const grown =
        (region | ((region << 1) & this.notFirstColumn) | ((region >>> 1) & this.notLastColumn) | (region << w) | (region >>> w)) & free;
      if (grown === region) return region;
      region = grown;
    }
  }

  private markVisited(state: number): boolean {
    const at = state >>> 3;
    const bit = 1 << (state & 7);
    if (this.visited[at] & bit) return false;
    this.visited[at] |= bit;
    return true;
  }

  private unrank(index: number, k: number): number {
    const n = this.buildCells;
    const digits = this.digits;
    const at = this.scratch;
    for (let i = k - 1; i >= 0; i--) {
      const radix = n - i;
      digits[i] = index % radix;
      index = Math.floor(index / radix);
    }
    let used = 0;
    for (let i = 0; i < k; i++) {
      let free = ~used;
      for (let j = 0; j < digits[i]; j++) free &= free - 1;
      const p = ctz(free);
      at[i] = p;
      used |= 1 << p;
    }
    return used;
  }

  private expandWithBlank(table: Uint8Array, state: number, k: number): boolean {
    const n = this.buildCells;
    const index = Math.floor(state / n);
    const used = this.unrank(index, k);
    const region = this.flood(1 << (state % n), this.fullMask & ~used);
    const next = this.buildDepth + 1;
    const nb = this.buildNeighbours;
    const at = this.scratch;
    for (let i = 0; i < k; i++) {
      const p = at[i];
      for (let dir = 0; dir < 4; dir++) {
        const q = nb[p * 4 + dir];
        if (q < 0 || (region & (1 << q)) === 0) continue;
        at[i] = q;
        const child = rankCells(at, k, n);
        const moved = used ^ (1 << p) ^ (1 << q);
        const childState = child * n + ctz(this.flood(1 << p, this.fullMask & ~moved));
        if (this.markVisited(childState)) {
          if (this.queued >= this.queue.length) return false;
          this.queue[this.tail] = childState;
          this.tail = this.tail + 1 === this.queue.length ? 0 : this.tail + 1;
          this.queued++;
          this.nextLevel++;
          if (table[child] === UNSEEN) {
            table[child] = next;
            this.filledCount++;
          }
        }
      }
      at[i] = p;
    }
    return true;
  }

  private buildWithBlankRun(budget: number): StatusCode {
    const { table, cells } = this.slots[this.buildSlot]!;
    const k = cells.length;
    const late = twinClock(255);
    for (let left = budget; left > 0 && !late(); left -= 4) {
      if (this.levelLeft === 0) {
        if (this.nextLevel === 0) {
          this.buildSlot = -1;
          return Status.DONE;
        }
        this.buildDepth++;
        this.levelLeft = this.nextLevel;
        this.nextLevel = 0;
      }
      const state = this.queue[this.head];
      this.head = this.head + 1 === this.queue.length ? 0 : this.head + 1;
      this.queued--;
      this.levelLeft--;
      if (!this.expandWithBlank(table, state, k)) {
        this.buildSlot = -1;
        return Status.OUT_OF_MEMORY;
      }
    }
    return Status.MORE;
  }

  filled(): number {
    return this.filledCount;
  }

  private expand(table: Uint8Array, index: number, k: number): void {
    const n = this.buildCells;
    const at = this.scratch;
    const used = this.unrank(index, k);
    const next = this.buildDepth + 1;
    const nb = this.buildNeighbours;
    for (let i = 0; i < k; i++) {
      const p = at[i];
      for (let dir = 0; dir < 4; dir++) {
        const q = nb[p * 4 + dir];
        if (q < 0 || (used & (1 << q)) !== 0) continue;
        at[i] = q;
        const child = rankCells(at, k, n);
        if (table[child] === UNSEEN) {
          table[child] = next;
          this.filledCount++;
        }
      }
      at[i] = p;
    }
  }

  buildStage(): number {
    return 0;
  }

  buildRun(budget: number): StatusCode {
    if (this.buildSlot < 0) return Status.BAD_INPUT;
    if (this.withBlank) return this.buildWithBlankRun(budget);
    const { table, cells } = this.slots[this.buildSlot]!;
    const size = table.length;
    const k = cells.length;
    const depth = this.buildDepth;
    let left = budget;
    // The table is scanned in pieces, the clock read after each.
    const late = twinClock(0);
    while (left > 0 && !late()) {
      if (this.scan >= size) {
        if (this.filledCount === this.filledAtLevelStart || this.filledCount === size) {
          this.buildSlot = -1;
          return Status.DONE;
        }
        this.filledAtLevelStart = this.filledCount;
        this.buildDepth++;
        this.scan = 0;
        return Status.MORE;
      }
      const end = Math.min(size, this.scan + Math.min(left, 4096));
      left -= end - this.scan;
      for (let i = this.scan; i < end; i++) {
        if (table[i] === depth) {
          this.expand(table, i, k);
          left -= 8;
        }
      }
      this.scan = end;
    }
    return Status.MORE;
  }

  private computeLine(line: number): number {
    const isRow = line < this.height;
    const index = isRow ? line : line - this.height;
    const length = isRow ? this.width : this.height;
    const run = this.run_;
    let count = 0;
    let longest = 0;
    for (let i = 0; i < length; i++) {
      const c = isRow ? index * this.width + i : i * this.width + index;
      const l = this.board[c];
      if (l === this.blankLabel) continue;
      const goalLine = isRow ? Math.floor(l / this.width) : l % this.width;
      if (goalLine !== index) continue;
      let best = 1;
      for (let j = 0; j < count; j++) {
        if (run[2 * j] < l && run[2 * j + 1] + 1 > best) best = run[2 * j + 1] + 1;
      }
      run[2 * count] = l;
      run[2 * count + 1] = best;
      if (best > longest) longest = best;
      count++;
    }
    return count - longest;
  }

  private updateLine(line: number): void {
    const value = this.computeLine(line);
    this.conflicts += value - this.lineConflicts[line];
    this.lineConflicts[line] = value;
  }

  private patternValue(s: number, reflect: boolean): number {
    const { cells, table } = this.slots[s]!;
    const k = cells.length;
    const at = this.scratch;
    for (let i = 0; i < k; i++) {
      const l = cells[i];
      at[i] = reflect ? this.mirror[this.pos[this.mirror[l]]] : this.pos[l];
    }
    return table[rankCells(at, k, this.cells)];
  }

  start(labels: ArrayLike<number>, rows: number, cols: number, blankGoal: number, kind: number, slots: number, reflect: boolean): StatusCode {
    if (rows < 2 || cols < 2 || rows * cols > 32) return Status.BAD_INPUT;
    this.height = rows;
    this.width = cols;
    const cells = (this.cells = rows * cols);
    this.heuristic = kind;
    this.slotCount = kind === PATTERNS ? slots : 0;
    this.mirrored = kind === PATTERNS && reflect;
    this.blankLabel = blankGoal;
    this.neighbours = neighbourTable(cells, cols);
    for (let c = 0; c < cells; c++) {
      this.mirror[c] = (c % cols) * cols + Math.floor(c / cols);
      this.group[c] = NO_GROUP;
    }
    for (let l = 0; l < cells; l++) {
      for (let c = 0; c < cells; c++) {
        this.distance[l * 32 + c] =
          l === blankGoal ? 0 : Math.abs(Math.floor(l / cols) - Math.floor(c / cols)) + Math.abs((l % cols) - (c % cols));
      }
    }
    for (let s = 0; s < this.slotCount; s++) {
      const slot = this.slots[s];
      if (!slot) return Status.BAD_INPUT;
      for (const l of slot.cells) this.group[l] = s;
    }
    let md = 0;
    for (let c = 0; c < cells; c++) {
      const l = labels[c];
      this.board[c] = l;
      this.pos[l] = c;
      if (l === blankGoal) this.blank = c;
      md += this.distance[l * 32 + c];
    }
    this.conflicts = 0;
    this.lineConflicts.fill(0);
    if (kind === CONFLICT) for (let line = 0; line < rows + cols; line++) this.updateLine(line);
    for (let s = 0; s < this.slotCount; s++) {
      this.values[s] = this.patternValue(s, false);
      if (this.mirrored) this.values[4 + s] = this.patternValue(s, true);
    }
    this.md[0] = md;
    this.direct[0] = 0;
    this.reflected[0] = 0;
    for (let s = 0; s < this.slotCount; s++) {
      this.direct[0] += this.values[s];
      this.reflected[0] += this.values[4 + s];
    }
    let h = kind === PATTERNS ? this.direct[0] : kind === CONFLICT ? md + 2 * this.conflicts : md;
    if (this.mirrored) h = Math.max(h, this.reflected[0]);
    this.searchBound = h;
    this.nextBound = 0x7fffffff;
    this.nodeCount = 1;
    this.iterationStart = 1;
    this.pausing = false;
    this.partMode = false;
    this.depth = 0;
    this.next[0] = 0;
    this.moves[0] = NO_MOVE;
    this.solutionLength = h === 0 ? 0 : -1;
    this.state = h === 0 ? Status.DONE : Status.MORE;
    return Status.DONE;
  }

  private slide(l: number, from: number, to: number, vertical: boolean): void {
    this.board[to] = l;
    this.board[from] = this.blankLabel;
    this.pos[l] = to;
    this.pos[this.blankLabel] = from;
    this.blank = from;
    if (this.heuristic === CONFLICT) {
      const w = this.width;
      if (vertical) {
        this.updateLine(Math.floor(from / w));
        this.updateLine(Math.floor(to / w));
        this.updateLine(this.height + (from % w));
      } else {
        this.updateLine(this.height + (from % w));
        this.updateLine(this.height + (to % w));
        this.updateLine(Math.floor(from / w));
      }
    }
  }

  run(budget: number): StatusCode {
    if (this.state !== Status.MORE) {
      if (this.solutionLength === 0) {
        this.state = Status.DONE;
        this.solutionLength = -1;
        this.output = new Uint8Array(0);
        return Status.SOLUTION;
      }
      return Status.DONE;
    }
    const { next, moves, values, neighbours, distance } = this;
    let left = budget;
    const late = twinClock();
    while (left > 0 && !late()) {
      const at = this.depth;
      const dir = next[at];
      if (dir >= 4) {
        if (at === 0) {
          if (this.partMode || this.nextBound === 0x7fffffff || this.nextBound >= MAX_DEPTH) {
            this.state = Status.DONE;
            return Status.DONE;
          }
          this.searchBound = this.nextBound;
          this.nextBound = 0x7fffffff;
          this.iterationStart = this.nodeCount;
          next[0] = 0;
          if (this.pausing) return Status.MORE;
          left--;
          continue;
        }
        const back = 3 - moves[at];
        const from = neighbours[this.blank * 4 + back];
        this.slide(this.board[from], from, this.blank, back === 0 || back === 3);
        this.depth--;
        continue;
      }
      next[at] = dir + 1;
      const last = moves[at];
      if (last !== NO_MOVE && dir === 3 - last) continue;
      const from = neighbours[this.blank * 4 + dir];
      if (from < 0) continue;
      const l = this.board[from];
      const to = this.blank;
      const md = this.heuristic === PATTERNS ? 0 : this.md[at] + distance[l * 32 + to] - distance[l * 32 + from];
      const d = at + 1;
      values.copyWithin(d * 8, at * 8, at * 8 + 8);
      this.slide(l, from, to, dir === 0 || dir === 3);
      let h: number;
      if (this.heuristic === PATTERNS) {
        const s = this.group[l];
        const value = this.patternValue(s, false);
        const direct = this.direct[at] - values[d * 8 + s] + value;
        values[d * 8 + s] = value;
        let reflected = this.reflected[at];
        h = direct;
        if (this.mirrored && d + h <= this.searchBound) {
          const r = this.group[this.mirror[l]];
          const mirroredValue = this.patternValue(r, true);
          reflected += mirroredValue - values[d * 8 + 4 + r];
          values[d * 8 + 4 + r] = mirroredValue;
          h = Math.max(h, reflected);
        }
        this.direct[d] = direct;
        this.reflected[d] = reflected;
      } else {
        h = this.heuristic === CONFLICT ? md + 2 * this.conflicts : md;
      }
      if (this.partMode && d <= this.splitDepth) this.prefixCount++;
      else this.nodeCount++;
      left--;
      const f = d + h;
      if (f > this.searchBound) {
        if (f < this.nextBound) this.nextBound = f;
        this.slide(this.board[to], to, from, dir === 0 || dir === 3);
        continue;
      }
      if (this.partMode && d === this.splitDepth && h !== 0) {
        const index = this.frontierCount++;
        if (index < this.rangeFirst || index >= this.rangeEnd) {
          this.slide(this.board[to], to, from, dir === 0 || dir === 3);
          continue;
        }
      }
      this.depth = d;
      moves[d] = dir;
      next[d] = 0;
      this.md[d] = md;
      if (h === 0) {
        this.output = moves.slice(1, d + 1);
        this.solutionLength = d;
        this.state = Status.DONE;
        return Status.SOLUTION;
      }
    }
    return Status.MORE;
  }

  nodes(): bigint {
    return BigInt(this.nodeCount);
  }

  // A part of one iteration, as in assembly/sliding/sliding.ts (slidingPart).
  private partMode = false;
  private splitDepth = 0;
  private rangeFirst = 0;
  private rangeEnd = 0;
  private frontierCount = 0;
  private prefixCount = 0;

  part(bound: number, depth: number, first: number, count: number): StatusCode {
    if (depth < 1 || depth >= MAX_DEPTH) return Status.BAD_INPUT;
    this.partMode = true;
    this.splitDepth = depth;
    this.rangeFirst = first;
    this.rangeEnd = Math.min(first + count, 0xffffffff);
    this.frontierCount = 0;
    this.prefixCount = 0;
    this.nodeCount = 0;
    if (bound > this.searchBound) this.searchBound = bound;
    return Status.DONE;
  }

  iterationNodes(): bigint {
    return BigInt(this.iterationStart);
  }

  pauseAtIterations(): void {
    this.pausing = true;
  }

  prefixNodes(): bigint {
    return BigInt(this.prefixCount);
  }

  frontier(): number {
    return this.frontierCount;
  }

  leastCut(): number {
    return this.nextBound;
  }

  bound(): number {
    return this.searchBound;
  }

  solution(): Uint8Array {
    return this.output.slice();
  }
}
