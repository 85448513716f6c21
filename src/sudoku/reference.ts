// The pure-TS twin of the Sudoku engine (assembly/sudoku/): the same propagation, the same
// choice of branching cell and the same search, so the same node counts. It is the JS
// baseline of the benchmarks, the engine of hosts without WebAssembly (`engine: 'js'`) and
// the oracle of the differential tests. See the engine's files for the method. This file
// holds the 9×9 state and the search; reference16.ts the 16×16 state.
import { Status, type StatusCode, twinClock } from '../wasm/protocol.js';
import { BATCH, FLAG_CLASH, MODE_COUNT, MODE_EMIT, MODE_SPLIT, gridsText, type SudokuEngine } from './engine.js';
import { ops16 } from './reference16.js';
import { ctz32 as ctz, popcount32 as popcnt } from '../bits.js';

/** What the search needs of one grid size's state. */
export interface GridOps {
  size: number;
  stateWords: number;
  allDigits: number;
  clear(s: Uint32Array): void;
  place(s: Uint32Array, cell: number, digit: number): number;
  propagate(s: Uint32Array, dirty: number): boolean;
  solved(s: Uint32Array): boolean;
  chooseCell(s: Uint32Array): number;
  digitsOf(s: Uint32Array, cell: number): number;
  /** The digit of each solved cell (0 for an unsolved one). */
  writeGrid(s: Uint32Array, to: Uint8Array): void;
}

// ---- tables (assembly/sudoku/tables.ts) -----------------------------------------------------

const MINIROW = new Uint8Array(512);
const PERMUTATIONS = new Uint16Array(512);
const CELLS_OF_MINIROWS = new Uint32Array(512);
const LONE = new Uint16Array(512);
const PEERS = new Uint32Array(81 * 3);
const ALL_ROWS = 0x40201;

for (let x = 0; x < 512; x++) {
  MINIROW[x] = ((x & 7) !== 0 ? 1 : 0) | ((x & 0x38) !== 0 ? 2 : 0) | ((x & 0x1c0) !== 0 ? 4 : 0);
  LONE[x] = x !== 0 && (x & (x - 1)) === 0 ? x : 0;
  let cells = 0;
  for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) if (((x >> (3 * r + k)) & 1) !== 0) cells |= 7 << (9 * r + 3 * k);
  CELLS_OF_MINIROWS[x] = cells;
  let union = 0;
  for (let a = 0; a < 3; a++) {
    for (let b = 0; b < 3; b++) {
      if (b === a) continue;
      const p = (1 << a) | (1 << (3 + b)) | (1 << (6 + (3 - a - b)));
      if ((x & p) === p) union |= p;
    }
  }
  PERMUTATIONS[x] = union;
}
for (let cell = 0; cell < 81; cell++) {
  const row = Math.floor(cell / 9);
  const col = cell % 9;
  for (let other = 0; other < 81; other++) {
    const r = Math.floor(other / 9);
    const c = other % 9;
    if (other !== cell && (r === row || c === col || (Math.floor(r / 3) === Math.floor(row / 3) && Math.floor(c / 3) === Math.floor(col / 3)))) {
      PEERS[cell * 3 + Math.floor(r / 3)] |= 1 << (9 * (r % 3) + c);
    }
  }
}


// ---- state and propagation (assembly/sudoku/propagate.ts) ----------------------------------

/** Words of a state: 27 candidate words (3d + b), then the unsolved cells of each band. */
const STATE_WORDS = 32;
const UNSOLVED = 27;
const ALL_DIGITS = 0x1ff;

function clearState(s: Uint32Array): void {
  s.fill(0x7ffffff, 0, 30);
}

const columnsOf = (w: number): number => (w | (w >>> 9) | (w >>> 18)) & 0x1ff;
const minirows = (w: number): number => MINIROW[w & 0x1ff] | (MINIROW[(w >>> 9) & 0x1ff] << 3) | (MINIROW[w >>> 18] << 6);
const stackMatrix = (c0: number, c1: number, c2: number, shift: number): number =>
  ((c0 >>> shift) & 7) | (((c1 >>> shift) & 7) << 3) | (((c2 >>> shift) & 7) << 6);
const rowSingles = (w: number): number => LONE[w & 0x1ff] | (LONE[(w >>> 9) & 0x1ff] << 9) | (LONE[w >>> 18] << 18);

function filterDigit(s: Uint32Array, digit: number): boolean {
  const at = digit * 3;
  let w0 = s[at];
  let w1 = s[at + 1];
  let w2 = s[at + 2];
  for (;;) {
    const c0 = columnsOf(w0);
    const c1 = columnsOf(w1);
    const c2 = columnsOf(w2);
    const s0 = PERMUTATIONS[stackMatrix(c0, c1, c2, 0)];
    const s1 = PERMUTATIONS[stackMatrix(c0, c1, c2, 3)];
    const s2 = PERMUTATIONS[stackMatrix(c0, c1, c2, 6)];
    if (s0 === 0 || s1 === 0 || s2 === 0) return false;
    let n0 = w0 & Math.imul((s0 & 7) | ((s1 & 7) << 3) | ((s2 & 7) << 6), ALL_ROWS);
    let n1 = w1 & Math.imul(((s0 >>> 3) & 7) | (s1 & 0x38) | ((s2 & 0x38) << 3), ALL_ROWS);
    let n2 = w2 & Math.imul((s0 >>> 6) | ((s1 >>> 3) & 0x38) | (s2 & 0x1c0), ALL_ROWS);
    const b0 = PERMUTATIONS[minirows(n0)];
    const b1 = PERMUTATIONS[minirows(n1)];
    const b2 = PERMUTATIONS[minirows(n2)];
    if (b0 === 0 || b1 === 0 || b2 === 0) return false;
    n0 &= CELLS_OF_MINIROWS[b0];
    n1 &= CELLS_OF_MINIROWS[b1];
    n2 &= CELLS_OF_MINIROWS[b2];
    if (n0 === w0 && n1 === w1 && n2 === w2) break;
    w0 = n0;
    w1 = n1;
    w2 = n2;
  }
  s[at] = w0;
  s[at + 1] = w1;
  s[at + 2] = w2;
  return true;
}

function place(s: Uint32Array, cell: number, digit: number): number {
  const band = Math.floor(cell / 27);
  const bit = 1 << cell % 27;
  let changed = 1 << digit;
  for (let d = 0; d < 9; d++) {
    const word = s[d * 3 + band];
    if ((word & bit) !== 0 && d !== digit) {
      s[d * 3 + band] = word & ~bit;
      changed |= 1 << d;
    }
  }
  for (let b = 0; b < 3; b++) s[digit * 3 + b] &= ~PEERS[cell * 3 + b];
  s[UNSOLVED + band] &= ~bit;
  return changed;
}

function propagate(s: Uint32Array, dirty: number): boolean {
  for (;;) {
    while (dirty !== 0) {
      const digit = ctz(dirty);
      dirty &= dirty - 1;
      if (!filterDigit(s, digit)) return false;
      for (let band = 0; band < 3; band++) {
        const solved = rowSingles(s[digit * 3 + band]) & s[UNSOLVED + band];
        if (solved === 0) continue;
        s[UNSOLVED + band] &= ~solved;
        for (let d = 0; d < 9; d++) {
          const word = s[d * 3 + band];
          if (d !== digit && (word & solved) !== 0) {
            s[d * 3 + band] = word & ~solved;
            dirty |= 1 << d;
          }
        }
      }
    }
    for (let band = 0; band < 3; band++) {
      const open = s[UNSOLVED + band];
      if (open === 0) continue;
      let once = 0;
      let twice = 0;
      for (let d = 0; d < 9; d++) {
        const word = s[d * 3 + band];
        twice |= once & word;
        once |= word;
      }
      if ((open & ~once) !== 0) return false;
      let single = open & ~twice;
      while (single !== 0) {
        const bit = ctz(single);
        single &= single - 1;
        let digit = 0;
        while (digit < 9 && ((s[digit * 3 + band] >>> bit) & 1) === 0) digit++;
        if (digit === 9) return false;
        const cell = band * 27 + bit;
        for (let b = 0; b < 3; b++) {
          const word = s[digit * 3 + b];
          const cleared = word & ~PEERS[cell * 3 + b];
          if (cleared !== word) {
            s[digit * 3 + b] = cleared;
            dirty |= 1 << digit;
          }
        }
        s[UNSOLVED + band] &= ~(1 << bit);
      }
    }
    if (dirty === 0) return true;
  }
}

const isSolved = (s: Uint32Array): boolean => (s[UNSOLVED] | s[UNSOLVED + 1] | s[UNSOLVED + 2]) === 0;

function digitsOf(s: Uint32Array, cell: number): number {
  const band = Math.floor(cell / 27);
  const bit = cell % 27;
  let digits = 0;
  for (let d = 0; d < 9; d++) digits |= ((s[d * 3 + band] >>> bit) & 1) << d;
  return digits;
}

function chooseCell(s: Uint32Array): number {
  let best = -1;
  let bestScore = -1;
  const pairs = [0, 0, 0];
  for (let band = 0; band < 3; band++) {
    let once = 0;
    let twice = 0;
    let thrice = 0;
    for (let d = 0; d < 9; d++) {
      const word = s[d * 3 + band];
      thrice |= twice & word;
      twice |= once & word;
      once |= word;
    }
    pairs[band] = s[UNSOLVED + band] & twice & ~thrice;
  }
  if ((pairs[0] | pairs[1] | pairs[2]) !== 0) {
    for (let band = 0; band < 3; band++) {
      let left = pairs[band];
      while (left !== 0) {
        const bit = ctz(left);
        left &= left - 1;
        const cell = band * 27 + bit;
        const p0 = PEERS[cell * 3];
        const p1 = PEERS[cell * 3 + 1];
        const p2 = PEERS[cell * 3 + 2];
        let score = 2 * (popcnt(pairs[0] & p0) + popcnt(pairs[1] & p1) + popcnt(pairs[2] & p2));
        let digits = digitsOf(s, cell);
        while (digits !== 0) {
          const d = ctz(digits);
          digits &= digits - 1;
          score += popcnt(s[d * 3] & p0) + popcnt(s[d * 3 + 1] & p1) + popcnt(s[d * 3 + 2] & p2);
        }
        if (score > bestScore) {
          bestScore = score;
          best = cell;
        }
      }
    }
    return best;
  }
  let fewest = 10;
  for (let band = 0; band < 3; band++) {
    let open = s[UNSOLVED + band];
    while (open !== 0) {
      const bit = ctz(open);
      open &= open - 1;
      const cell = band * 27 + bit;
      const count = popcnt(digitsOf(s, cell));
      if (count < fewest) {
        fewest = count;
        best = cell;
      }
    }
  }
  return best;
}

const ops9: GridOps = {
  size: 9,
  stateWords: STATE_WORDS,
  allDigits: ALL_DIGITS,
  clear: clearState,
  place,
  propagate,
  solved: isSolved,
  chooseCell,
  digitsOf,
  writeGrid(s, to) {
    to.fill(0);
    for (let d = 0; d < 9; d++) {
      for (let band = 0; band < 3; band++) {
        let word = s[d * 3 + band] & ~s[UNSOLVED + band];
        while (word !== 0) {
          to[band * 27 + ctz(word)] = d + 1;
          word &= word - 1;
        }
      }
    }
  },
};

// ---- the batch search (assembly/sudoku/search.ts) ------------------------------------------

const STEP_START = 0;
const STEP_EXPAND = 1;
const STEP_BACKTRACK = 2;
const STEP_FINISH = 3;

export class ReferenceSudokuEngine implements SudokuEngine {
  private ops = ops9;
  private cells = 81;
  private inputBytes = new Uint8Array(0);
  private counts: number[] = [];
  private nodeCounts: number[] = [];
  private flagList: number[] = [];
  /** The first solution of each puzzle, a byte a cell. */
  private grids = new Uint8Array(0);
  private emit = new Uint8Array(81);
  private current = new Uint32Array(STATE_WORDS);
  private levels: Uint32Array[] = [];
  private levelCell = new Int32Array(0);
  private levelDigits = new Int32Array(0);
  private puzzles = 0;
  private puzzle = 0;
  private limit = 0;
  private mode = MODE_COUNT;
  private splitDepth = 0;
  private step = STEP_START;
  private depth = 0;
  // Numbers, not BigInts: exact below 2^53, which no search here reaches (years of nodes).
  private found = 0;
  private puzzleNodes = 0;
  private totalNodes = 0;
  private flags = 0;

  /** `maxMemory` is accepted for the same interface: the twin's memory is a few kilobytes a puzzle. */
  constructor(readonly maxMemory?: number) {}

  alloc(count: number, size: number): boolean {
    if (count < 1 || count > BATCH || (size !== 9 && size !== 16)) return false;
    if (size !== this.ops.size || this.levels.length === 0) {
      this.ops = size === 16 ? ops16 : ops9;
      this.cells = size * size;
      this.emit = new Uint8Array(this.cells);
      this.current = new Uint32Array(this.ops.stateWords);
      this.levels = Array.from({ length: this.cells + 1 }, () => new Uint32Array(this.ops.stateWords));
      this.levelCell = new Int32Array(this.cells + 1);
      this.levelDigits = new Int32Array(this.cells + 1);
    }
    this.inputBytes = new Uint8Array(count * this.cells);
    return true;
  }

  input(): Uint8Array {
    return this.inputBytes;
  }

  start(count: number, maxSolutions: number, mode: number, split: number): StatusCode {
    const cells = this.cells;
    if (count < 0 || count * cells > this.inputBytes.length) return Status.BAD_INPUT;
    if (mode < MODE_COUNT || mode > MODE_SPLIT) return Status.BAD_INPUT;
    if (mode === MODE_SPLIT && (count !== 1 || split < 1 || split > cells)) return Status.BAD_INPUT;
    if (!(maxSolutions >= 0) || maxSolutions > 1.8e19) return Status.BAD_INPUT;
    for (let i = 0; i < count * cells; i++) if (this.inputBytes[i] > this.ops.size) return Status.BAD_INPUT;
    this.puzzles = count;
    this.puzzle = 0;
    this.limit = maxSolutions === 0 ? Infinity : maxSolutions;
    this.mode = mode;
    this.splitDepth = mode === MODE_SPLIT ? split : 0;
    this.step = STEP_START;
    this.totalNodes = 0;
    this.counts = new Array(count).fill(0);
    this.nodeCounts = new Array(count).fill(0);
    this.flagList = new Array(count).fill(0);
    this.grids = new Uint8Array(count * cells);
    return Status.DONE;
  }

  private loadPuzzle(index: number): boolean {
    const { ops, current, cells } = this;
    ops.clear(current);
    for (let cell = 0; cell < cells; cell++) {
      const digit = this.inputBytes[index * cells + cell] - 1;
      if (digit < 0) continue;
      if (((ops.digitsOf(current, cell) >>> digit) & 1) === 0) return false;
      ops.place(current, cell, digit);
    }
    return true;
  }

  private writeGrid(to: Uint8Array): void {
    this.ops.writeGrid(this.current, to);
  }

  run(budget: number): StatusCode {
    let left = budget;
    // A node propagates its placements: microseconds.
    const late = twinClock(255);
    for (;;) {
      if (this.step === STEP_START) {
        if (this.puzzle >= this.puzzles) return Status.DONE;
        if (left <= 0 || late()) return Status.MORE;
        left--;
        this.totalNodes++;
        this.puzzleNodes = 1;
        this.found = 0;
        this.depth = 0;
        this.flags = 0;
        if (!this.loadPuzzle(this.puzzle)) {
          this.flags = FLAG_CLASH;
          this.step = STEP_FINISH;
        } else {
          this.step = this.ops.propagate(this.current, this.ops.allDigits) ? STEP_EXPAND : STEP_BACKTRACK;
        }
      } else if (this.step === STEP_EXPAND) {
        if (this.ops.solved(this.current)) {
          if (this.mode === MODE_SPLIT) return this.emitPart();
          this.found++;
          if (this.found === 1) this.writeGrid(this.grids.subarray(this.puzzle * this.cells, (this.puzzle + 1) * this.cells));
          this.step = this.found >= this.limit ? STEP_FINISH : STEP_BACKTRACK;
          if (this.mode === MODE_EMIT) {
            this.writeGrid(this.emit);
            return Status.SOLUTION;
          }
        } else if (this.mode === MODE_SPLIT && this.depth === this.splitDepth) {
          return this.emitPart();
        } else {
          if (left <= 0 || late()) return Status.MORE;
          left--;
          const cell = this.ops.chooseCell(this.current);
          const digits = this.ops.digitsOf(this.current, cell);
          this.levels[this.depth].set(this.current);
          this.levelCell[this.depth] = cell;
          this.levelDigits[this.depth] = digits & (digits - 1);
          this.depth++;
          this.branch(cell, ctz(digits));
        }
      } else if (this.step === STEP_BACKTRACK) {
        while (this.depth > 0 && this.levelDigits[this.depth - 1] === 0) this.depth--;
        if (this.depth === 0) {
          this.step = STEP_FINISH;
          continue;
        }
        if (left <= 0 || late()) return Status.MORE;
        left--;
        const level = this.depth - 1;
        const digits = this.levelDigits[level];
        this.levelDigits[level] = digits & (digits - 1);
        this.current.set(this.levels[level]);
        this.branch(this.levelCell[level], ctz(digits));
      } else {
        if (this.mode !== MODE_SPLIT) {
          this.counts[this.puzzle] = this.found;
          this.nodeCounts[this.puzzle] = this.puzzleNodes;
          this.flagList[this.puzzle] = this.flags;
        }
        this.puzzle++;
        this.step = STEP_START;
      }
    }
  }

  private branch(cell: number, digit: number): void {
    this.totalNodes++;
    this.puzzleNodes++;
    this.step = this.ops.propagate(this.current, this.ops.place(this.current, cell, digit)) ? STEP_EXPAND : STEP_BACKTRACK;
  }

  private emitPart(): StatusCode {
    this.writeGrid(this.emit);
    this.totalNodes--;
    this.puzzleNodes--;
    this.step = STEP_BACKTRACK;
    return Status.SOLUTION;
  }

  solutions(index: number): number {
    return this.counts[index];
  }

  nodesOf(index: number): number {
    return this.nodeCounts[index];
  }

  flagsOf(index: number): number {
    return this.flagList[index];
  }

  solution(index: number): Uint8Array {
    return this.grids.subarray(index * this.cells, (index + 1) * this.cells);
  }

  solutionsText(count: number): string {
    return gridsText(this.grids, 0, this.cells, this.cells, count);
  }

  emitted(): Uint8Array {
    return this.emit;
  }

  nodes(): bigint {
    return BigInt(this.totalNodes);
  }

  finished(): number {
    return this.puzzle;
  }
}
