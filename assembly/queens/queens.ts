// N-Queens for n <= 32: a resumable bitmask backtracker over rows (one u32 per row),
// with an explicit stack in linear memory.
//
// MODE_ALL visits every solution whose queens lie in the columns the host allows per row
// (pre-placed queens, split prefixes). MODE_DISTINCT visits one representative per class
// of the 8 board symmetries: the lexicographically smallest image. Partial placements that
// cannot lead to that representative are cut at the root rows, and the class size (8, 4
// or 2) is added to the total, so a count does about an eighth of the plain work:
//  - corner class: a queen at (0,0). The only other image with a queen there is the
//    transpose, which is smaller unless the queen in column 1 sits below row B (the column
//    of row 1's queen): rows 2..B-1 may not use column 1. All such classes have size 8.
//  - edge class: the smallest of the 8 border distances is row 0's column a, with
//    0 < a < n-1-a. Then columns 0 and n-1 hold queens only in rows a..n-1-a (both taken
//    by row n-1-a), and row n-1's queen lies in columns a..n-1-a. Survivors are compared
//    with their images at the leaf.
import { DONE, SOLUTION, MORE, BAD_INPUT, arenaReset, arenaAlloc } from '../shared/bits';
import { get, set } from '../shared/words';

export const MODE_ALL: i32 = 0;
export const MODE_DISTINCT: i32 = 1;
export const MAX_N: i32 = 32;

const KIND_CORNER: i32 = 0;
const KIND_EDGE: i32 = 1;

// Host-written: the allowed columns of each row (a bit per column).
const INPUT: usize = memory.data(MAX_N * 4);
// Engine-written: the queens of the current solution (or split prefix), a column per row.
const OUTPUT: usize = memory.data(MAX_N * 4);

// Search state, a u32 per row.
const BASE: usize = memory.data(MAX_N * 4);    // INPUT masked to the board
const ALLOWED: usize = memory.data(MAX_N * 4); // BASE with the symmetry cuts of the chosen class
const LEFT: usize = memory.data(MAX_N * 4);
const DOWN: usize = memory.data(MAX_N * 4);
const RIGHT: usize = memory.data(MAX_N * 4);
const AVAIL: usize = memory.data(MAX_N * 4);   // candidates not yet tried
const PLACED: usize = memory.data(MAX_N * 4);  // the bit placed in each row
const COLS: usize = memory.data(MAX_N * 4);    // leaf check: column of each row
const INV: usize = memory.data(MAX_N * 4);     // leaf check: row of each column

let n: i32 = 0;
let last: i32 = 0;
let mask: u32 = 0;
let side: u32 = 0;       // columns 0 and n-1
let mode: i32 = MODE_ALL;
let emit: bool = false;  // stop at each leaf with the solution in OUTPUT
let splitDepth: i32 = -1; // stop at each live node of this depth with its prefix in OUTPUT
let symRows: i32 = -1;   // rows whose placement picks the symmetry class (0 and 1, or none)
let sideRow: i32 = -1;   // edge class: the row by which both side columns must be taken
let kind: i32 = KIND_CORNER;
let depth: i32 = 0;
let finished: bool = true;
let pendingSingle: bool = false; // n = 1: the lone square is a leaf with no parent
let total: u64 = 0;
let distinct: u64 = 0;
let nodes: u64 = 0;

export function queensInputPtr(): usize { return INPUT; }
export function queensOutputPtr(): usize { return OUTPUT; }
export function queensTotal(): u64 { return total; }
export function queensDistinct(): u64 { return distinct; }
export function queensNodes(): u64 { return nodes; }

/**
 * Starts a search on an n×n board whose allowed columns per row are in the input region.
 * `emitSolutions`: stop at each solution. `split` (> 0): stop at each live node with
 * `split` rows placed instead of searching below it (used to cut the work into parts).
 */
export function queensInit(size: i32, searchMode: i32, emitSolutions: i32, split: i32): i32 {
  if (size < 1 || size > MAX_N) return BAD_INPUT;
  if (searchMode != MODE_ALL && searchMode != MODE_DISTINCT) return BAD_INPUT;
  if (split != 0 && (split < 1 || split > size - 2)) return BAD_INPUT;
  n = size;
  last = size - 1;
  mask = size == 32 ? 0xffffffff : (<u32>1 << <u32>size) - 1;
  side = 1 | (<u32>1 << <u32>last);
  mode = searchMode;
  emit = emitSolutions != 0;
  splitDepth = split > 0 ? split : -1;
  symRows = mode == MODE_DISTINCT ? 1 : -1;
  sideRow = -1;
  kind = KIND_CORNER;
  total = 0;
  distinct = 0;
  nodes = 0;
  for (let r = 0; r < n; r++) {
    const allowed = get(INPUT, r) & mask;
    set(BASE, r, allowed);
    set(ALLOWED, r, allowed);
  }
  let root = get(BASE, 0);
  if (mode == MODE_DISTINCT) {
    // Row 0 holds the corner queen or the edge distance a with a < n-1-a.
    let roots: u32 = 1;
    for (let a = 1; a < last - a; a++) roots |= <u32>1 << <u32>a;
    root &= roots;
  }
  depth = 0;
  set(LEFT, 0, 0);
  set(DOWN, 0, 0);
  set(RIGHT, 0, 0);
  set(AVAIL, 0, root);
  pendingSingle = n == 1 && root != 0;
  finished = root == 0;
  return DONE;
}

// Row 0 or 1 was just placed: cut the rows below for the symmetry class it selects.
function chooseClass(row: i32, bit: u32): void {
  const col = <i32>ctz(bit);
  if (row == 0) {
    if (col == 0) {
      kind = KIND_CORNER;
      sideRow = -1;
      for (let r = 1; r < n; r++) set(ALLOWED, r, get(BASE, r));
    } else {
      kind = KIND_EDGE;
      sideRow = last - col;
      const inner = mask & ~side;
      for (let r = 1; r < n; r++) {
        const allowed = get(BASE, r);
        set(ALLOWED, r, r < col || r > sideRow ? allowed & inner : allowed);
      }
      // Row n-1's queen lies in columns a..n-1-a.
      const band = (mask >> <u32>col) << <u32>col & (mask >> <u32>col);
      set(ALLOWED, last, get(ALLOWED, last) & band);
    }
  } else if (kind == KIND_CORNER) {
    for (let r = 2; r < n; r++) {
      const allowed = get(BASE, r);
      set(ALLOWED, r, r < col ? allowed & ~<u32>2 : allowed);
    }
  }
}

// Edge class at a leaf: the lexicographic comparison of this solution with each image
// that could be smaller. Returns the class size if it is the representative, else 0.
function edgeClassSize(): u64 {
  for (let r = 0; r < n; r++) {
    const c = <i32>ctz(get(PLACED, r));
    set(COLS, r, c);
    set(INV, c, r);
  }
  // The mirror image (column c -> n-1-c) starts with n-1-a > a, so it is never smaller.
  let equal90 = false;
  let equal180 = false;
  for (let t = 0; t < 6; t++) {
    let cmp = 0;
    for (let i = 0; i < n; i++) {
      let image: i32;
      switch (t) {
        case 0: image = last - <i32>get(INV, i); break;        // rotate 90
        case 1: image = last - <i32>get(COLS, last - i); break; // rotate 180
        case 2: image = <i32>get(INV, last - i); break;        // rotate 270
        case 3: image = <i32>get(COLS, last - i); break;       // flip rows
        case 4: image = <i32>get(INV, i); break;               // transpose
        default: image = last - <i32>get(INV, last - i); break; // anti-transpose
      }
      const own = <i32>get(COLS, i);
      if (own != image) {
        cmp = own < image ? -1 : 1;
        break;
      }
    }
    if (cmp > 0) return 0;
    if (cmp == 0) {
      if (t == 0) equal90 = true;
      else if (t == 1) equal180 = true;
    }
  }
  return equal90 ? 2 : equal180 ? 4 : 8;
}

// Counts the solution held in PLACED; false when it is not a class representative.
@inline function recordLeaf(): bool {
  if (mode == MODE_ALL || n == 1) {
    total += 1;
    distinct += 1;
    return true;
  }
  const size: u64 = kind == KIND_CORNER ? 8 : edgeClassSize();
  if (size == 0) return false;
  total += size;
  distinct += 1;
  return true;
}

// Fills PLACED for rows 0..y from the stacked column sets, given row y's bit.
function collectPlaced(y: i32, down: u32, bit: u32): void {
  set(DOWN, y, down);
  for (let r = 0; r < y; r++) set(PLACED, r, get(DOWN, r + 1) ^ get(DOWN, r));
  set(PLACED, y, bit);
}

function writeOutput(rows: i32): void {
  for (let r = 0; r < rows; r++) set(OUTPUT, r, ctz(get(PLACED, r)));
}

/** Advances the search by at most `budget` placements. */
export function queensRun(budget: i32): i32 {
  if (finished) return DONE;
  if (pendingSingle) {
    pendingSingle = false;
    finished = true;
    nodes += 1;
    set(PLACED, 0, 1);
    recordLeaf();
    if (emit) {
      writeOutput(1);
      return SOLUTION;
    }
    return DONE;
  }
  // The current row lives in locals; its ancestors' rows are stacked in memory.
  let y = depth;
  let left = get(LEFT, y);
  let down = get(DOWN, y);
  let right = get(RIGHT, y);
  let avail = get(AVAIL, y);
  let remaining = max(budget, 1);
  let status = MORE;
  const lastRow = last;
  const split = splitDepth;
  const sym = symRows;
  while (true) {
    if (avail == 0) {
      if (y == 0) {
        finished = true;
        status = DONE;
        break;
      }
      y--;
      left = get(LEFT, y);
      down = get(DOWN, y);
      right = get(RIGHT, y);
      avail = get(AVAIL, y);
      continue;
    }
    if (remaining == 0) break;
    remaining--;
    const bit = avail & (~avail + 1);
    avail ^= bit;
    if (y <= sym) chooseClass(y, bit);
    const nextDown = down | bit;
    const nextLeft = (left | bit) << 1;
    const nextRight = (right | bit) >> 1;
    const next = y + 1;
    let free = get(ALLOWED, next) & ~(nextLeft | nextDown | nextRight);
    if (next == sideRow) {
      // Both side columns are barred below this row: one must be taken already.
      const used = nextDown & side;
      free = used == 0 ? 0 : used == side ? free : free & side;
    }
    if (free == 0) continue;
    if (next == lastRow) {
      // One column is left for the last row: a leaf, without a stack frame.
      collectPlaced(y, down, bit);
      set(PLACED, lastRow, free);
      if (recordLeaf() && emit) {
        writeOutput(n);
        status = SOLUTION;
        break;
      }
      continue;
    }
    if (next == split) {
      collectPlaced(y, down, bit);
      writeOutput(next);
      status = SOLUTION;
      break;
    }
    set(LEFT, y, left);
    set(DOWN, y, down);
    set(RIGHT, y, right);
    set(AVAIL, y, avail);
    y = next;
    left = nextLeft;
    down = nextDown;
    right = nextRight;
    avail = free;
  }
  nodes += <u64>(max(budget, 1) - remaining);
  depth = y;
  set(LEFT, y, left);
  set(DOWN, y, down);
  set(RIGHT, y, right);
  set(AVAIL, y, avail);
  return status;
}

let constructOut: usize = 0;
let constructRow: usize = 0;
let constructSize: i32 = 0;
// The construction as up to five runs of columns (from, to, step 2), filled in turn, so that
// a huge board is written in slices (queensConstructRun) without holding the thread.
// (A static segment below the arena, which arenaReset would otherwise overwrite.)
const RUNS = memory.data(5 * 8);
let runCount: i32 = 0;
let runAt: i32 = 0;
let nextColumn: i32 = 0;

@inline function addRun(from: i32, to: i32): void {
  store<i32>(RUNS + (<usize>runCount << 3), from);
  store<i32>(RUNS + (<usize>runCount << 3), to, 4);
  runCount++;
}

/**
 * Starts the explicit construction of Hoffman, Loessi and Moore (1969) for any n >= 4 (or
 * n = 1): allocates the column per row in the arena and returns its pointer, or 0 when
 * memory is short. queensConstructRun fills it.
 */
export function queensConstructStart(size: i32): usize {
  arenaReset();
  constructOut = arenaAlloc(<u64>size << 2);
  if (constructOut == 0) return 0;
  constructRow = 0;
  constructSize = size;
  runCount = 0;
  const rest = size % 6;
  if (rest == 3) {
    // evens from 4, then 2; odds from 5, then 1 and 3
    addRun(4, size);
    addRun(2, 2);
    addRun(5, size);
    addRun(1, 1);
    addRun(3, 3);
  } else if (rest == 2) {
    // evens; then 3, 1, the odds from 7, and 5 last
    addRun(2, size);
    addRun(3, 3);
    addRun(1, 1);
    addRun(7, size);
    addRun(5, 5);
  } else {
    // evens, then odds
    addRun(2, size);
    addRun(1, size);
  }
  runAt = 0;
  nextColumn = load<i32>(RUNS);
  return constructOut;
}

/** Writes up to `budget` more rows of the construction: MORE, or DONE when all n are written. */
export function queensConstructRun(budget: i32): i32 {
  let left = max(budget, 1);
  while (runAt < runCount) {
    const to = load<i32>(RUNS + (<usize>runAt << 3), 4);
    while (nextColumn <= to) {
      if (left == 0) return MORE;
      left--;
      // the 1-based column, stored 0-based
      store<i32>(constructOut + (constructRow++ << 2), nextColumn - 1);
      nextColumn += 2;
    }
    runAt++;
    if (runAt < runCount) nextColumn = load<i32>(RUNS + (<usize>runAt << 3));
  }
  return DONE;
}

/** The whole construction at once (for small n; the host uses the sliced pair). */
export function queensConstruct(size: i32): usize {
  if (queensConstructStart(size) == 0) return 0;
  while (queensConstructRun(1 << 30) == MORE) {}
  return constructOut;
}
