// The Sudoku engine for 9×9 and 16×16 grids: a batch of puzzles searched one after the other,
// each to its solution limit, resumable with a node budget. A node is a state the engine
// propagates: a puzzle's givens, then each digit tried in a branching cell. The search is the
// same for both sizes; propagate.ts and propagate16.ts hold the states and their propagation.
//
// The host asks for room for a batch of one size (sudokuAlloc), writes the puzzles into the
// input region (a byte a cell, 81 or 256 a puzzle: 0 for an empty cell, else the given) and
// reads one record per puzzle (sudokuRecordBytes apart) from the output region:
//   u64 solutions found (up to the limit), u64 nodes, u32 flags (FLAG_CLASH: two givens
//   share a unit), then the first solution's digits, a byte a cell (zeros when there is none).
// MODE_EMIT stops (SOLUTION) at each solution with its digits in the emit region; MODE_SPLIT
// stops at each live node `split` branchings deep, and at each solution above that depth,
// with the solved cells in the emit region (zeros elsewhere): a part whose search is the
// subtree below that node (propagating those cells alone rebuilds its state). The split
// search leaves those nodes to the parts' counts, so nodes add up to the undivided search's.
import { BAD_INPUT, DONE, MORE, SOLUTION, arenaAlloc, arenaReset } from '../shared/bits';
import { STATE_BYTES, ALL_DIGITS, candidates, chooseCell, clearState, digitsOf, place, propagate, solved, unsolved } from './propagate';
import { STATE16_BYTES, ALL_DIGITS16, candidates16, chooseCell16, clearState16, digitsOf16, place16, propagate16, solved16, unsolved16 } from './propagate16';

/** The most puzzles one batch takes. */
export const BATCH: i32 = 4096;
const RECORD_SOLUTION: usize = 24;
export const FLAG_CLASH: u32 = 1;

export const MODE_COUNT: i32 = 0;
export const MODE_EMIT: i32 = 1;
export const MODE_SPLIT: i32 = 2;

let INPUT: usize = 0;
let OUTPUT: usize = 0;
let capacity: i32 = 0;
const EMIT: usize = memory.data(256);
let CURRENT: usize = 0;
let LEVELS: usize = 0;

// The size of the batch allocated: 16×16 (`wide`) or 9×9, and what follows from it.
let wide = false;
let cells: i32 = 81;
let stateBytes: usize = STATE_BYTES;
let recordBytes: usize = 112;
// A branching level: the state before the branch, the cell, and the digits not yet tried.
let levelBytes: usize = STATE_BYTES + 16;

// What the loop does next.
const STEP_START: i32 = 0;     // load the next puzzle
const STEP_EXPAND: i32 = 1;    // the current state propagated without contradiction
const STEP_BACKTRACK: i32 = 2; // try the next digit of the deepest open level
const STEP_FINISH: i32 = 3;    // write the puzzle's record

let puzzles: i32 = 0;
let puzzle: i32 = 0;
let limit: u64 = 0;
let mode: i32 = MODE_COUNT;
let splitDepth: i32 = 0;
let step: i32 = STEP_START;
let depth: i32 = 0;
let found: u64 = 0;
let puzzleNodes: u64 = 0;
let nodes: u64 = 0;
let flags: u32 = 0;

export function sudokuInputPtr(): usize { return INPUT; }
export function sudokuOutputPtr(): usize { return OUTPUT; }
export function sudokuEmitPtr(): usize { return EMIT; }
export function sudokuBatchSize(): i32 { return BATCH; }

/**
 * Room for a batch of `count` puzzles in the arena (forgetting any other engine's tables):
 * the input region's pointer, or 0 (OUT_OF_MEMORY within the limit, or a bad count).
 */
export function sudokuAlloc(count: i32, size: i32): usize {
  if (count < 1 || count > BATCH || (size != 9 && size != 16)) return 0;
  arenaReset();
  capacity = 0;
  wide = size == 16;
  cells = size * size;
  stateBytes = wide ? STATE16_BYTES : STATE_BYTES;
  levelBytes = stateBytes + 16;
  recordBytes = (RECORD_SOLUTION + <usize>cells + 15) & ~15;
  CURRENT = arenaAlloc(stateBytes);
  LEVELS = arenaAlloc(<u64>(cells + 1) * levelBytes);
  OUTPUT = arenaAlloc(<u64>count * recordBytes);
  INPUT = arenaAlloc(<u64>count * cells);
  if (CURRENT == 0 || LEVELS == 0 || OUTPUT == 0 || INPUT == 0) return 0;
  capacity = count;
  return INPUT;
}
/** Bytes from one puzzle's record to the next's, for the size allocated. */
export function sudokuRecordBytes(): i32 { return <i32>recordBytes; }
/** Nodes of every puzzle started since sudokuStart. */
export function sudokuNodes(): u64 { return nodes; }
/** Puzzles whose records are written. */
export function sudokuFinished(): i32 { return puzzle; }

/**
 * Starts a batch of `count` puzzles from the input region. `maxSolutions`: stop a puzzle
 * at this many solutions (0: no limit). `searchMode`: MODE_COUNT, MODE_EMIT or MODE_SPLIT
 * (one puzzle, stopping at the nodes `split` branchings deep).
 */
export function sudokuStart(count: i32, maxSolutions: f64, searchMode: i32, split: i32): i32 {
  if (count < 0 || count > capacity) return BAD_INPUT;
  if (searchMode < MODE_COUNT || searchMode > MODE_SPLIT) return BAD_INPUT;
  if (searchMode == MODE_SPLIT && (count != 1 || split < 1 || split > cells)) return BAD_INPUT;
  if (!(maxSolutions >= 0) || maxSolutions > 1.8e19) return BAD_INPUT;
  const size = wide ? 16 : 9;
  for (let i = 0; i < count * cells; i++) if (load<u8>(INPUT + <usize>i) > <u8>size) return BAD_INPUT;
  puzzles = count;
  puzzle = 0;
  limit = maxSolutions == 0 ? U64.MAX_VALUE : <u64>maxSolutions;
  mode = searchMode;
  splitDepth = searchMode == MODE_SPLIT ? split : 0;
  step = STEP_START;
  nodes = 0;
  return DONE;
}

// The state's operations for the size of the batch (a branch the processor always predicts).
@inline function placeDigit(cell: i32, digit: i32): u32 {
  return wide ? place16(CURRENT, cell, digit) : place(CURRENT, cell, digit);
}
@inline function propagateCurrent(dirty: u32): bool {
  return wide ? propagate16(CURRENT, dirty) : propagate(CURRENT, dirty);
}
@inline function hasDigit(cell: i32, digit: i32): bool {
  return wide ? ((candidates16(CURRENT, digit, cell >> 6) >> <u64>(cell & 63)) & 1) != 0 : ((candidates(CURRENT, digit, cell / 27) >> <u32>(cell % 27)) & 1) != 0;
}

/** Loads puzzle `index` into the current state; false when its givens clash. */
function loadPuzzle(index: i32): bool {
  if (wide) clearState16(CURRENT);
  else clearState(CURRENT);
  const input = INPUT + <usize>index * <usize>cells;
  for (let cell = 0; cell < cells; cell++) {
    const digit = <i32>load<u8>(input + <usize>cell) - 1;
    if (digit < 0) continue;
    if (!hasDigit(cell, digit)) return false;
    placeDigit(cell, digit);
  }
  return true;
}

/** The digit of each solved cell (0 for an unsolved one). */
function writeGrid(state: usize, to: usize): void {
  memory.fill(to, 0, cells);
  const digits = wide ? 16 : 9;
  const bands = wide ? 4 : 3;
  for (let d = 0; d < digits; d++) {
    for (let band = 0; band < bands; band++) {
      // A digit's word also holds unsolved cells: keep the solved ones.
      let word = wide ? candidates16(state, d, band) & ~unsolved16(state, band) : <u64>(candidates(state, d, band) & ~unsolved(state, band));
      const first = band * (wide ? 64 : 27);
      while (word != 0) {
        const bit = ctz(word);
        word &= word - 1;
        store<u8>(to + <usize>first + <usize>bit, <u8>(d + 1));
      }
    }
  }
}

function finishRecord(): void {
  const record = OUTPUT + <usize>puzzle * recordBytes;
  store<u64>(record, found);
  store<u64>(record + 8, puzzleNodes);
  store<u32>(record + 16, flags);
  if (found == 0) memory.fill(record + RECORD_SOLUTION, 0, cells);
}

/** Advances by at most `budget` nodes: DONE (every record written), MORE, or SOLUTION (emit and split modes). */
export function sudokuRun(budget: i32): i32 {
  let left = budget;
  while (true) {
    if (step == STEP_START) {
      if (puzzle >= puzzles) return DONE;
      if (left <= 0) return MORE;
      left--;
      nodes++;
      puzzleNodes = 1;
      found = 0;
      depth = 0;
      flags = 0;
      if (!loadPuzzle(puzzle)) {
        flags = FLAG_CLASH;
        step = STEP_FINISH;
      } else {
        step = propagateCurrent(wide ? ALL_DIGITS16 : ALL_DIGITS) ? STEP_EXPAND : STEP_BACKTRACK;
      }
    } else if (step == STEP_EXPAND) {
      if (wide ? solved16(CURRENT) : solved(CURRENT)) {
        if (mode == MODE_SPLIT) return emitPart();
        found++;
        if (found == 1) writeGrid(CURRENT, OUTPUT + <usize>puzzle * recordBytes + RECORD_SOLUTION);
        step = found >= limit ? STEP_FINISH : STEP_BACKTRACK;
        if (mode == MODE_EMIT) {
          writeGrid(CURRENT, EMIT);
          return SOLUTION;
        }
      } else if (mode == MODE_SPLIT && depth == splitDepth) {
        return emitPart();
      } else {
        if (left <= 0) return MORE;
        left--;
        const cell = wide ? chooseCell16(CURRENT) : chooseCell(CURRENT);
        const digits = wide ? digitsOf16(CURRENT, cell) : digitsOf(CURRENT, cell);
        const level = LEVELS + <usize>depth * levelBytes;
        memory.copy(level, CURRENT, stateBytes);
        store<i32>(level + stateBytes, cell);
        store<u32>(level + stateBytes + 4, digits & (digits - 1));
        depth++;
        branch(cell, <i32>ctz(digits));
      }
    } else if (step == STEP_BACKTRACK) {
      // The deepest level with a digit left; levels with none are closed.
      while (depth > 0 && load<u32>(LEVELS + <usize>(depth - 1) * levelBytes + stateBytes + 4) == 0) depth--;
      if (depth == 0) {
        step = STEP_FINISH;
        continue;
      }
      if (left <= 0) return MORE;
      left--;
      const level = LEVELS + <usize>(depth - 1) * levelBytes;
      const digits = load<u32>(level + stateBytes + 4);
      store<u32>(level + stateBytes + 4, digits & (digits - 1));
      memory.copy(CURRENT, level, stateBytes);
      branch(load<i32>(level + stateBytes), <i32>ctz(digits));
    } else {
      if (mode != MODE_SPLIT) finishRecord();
      puzzle++;
      step = STEP_START;
    }
  }
}

/** Tries a digit in a cell of the current state: one node. */
function branch(cell: i32, digit: i32): void {
  nodes++;
  puzzleNodes++;
  step = propagateCurrent(placeDigit(cell, digit)) ? STEP_EXPAND : STEP_BACKTRACK;
}

/** Hands the current node to the host as a part; its own node is the part's to count. */
function emitPart(): i32 {
  writeGrid(CURRENT, EMIT);
  nodes--;
  puzzleNodes--;
  step = STEP_BACKTRACK;
  return SOLUTION;
}
