// Exact cover: Knuth's Algorithm X with dancing links, resumable, in arena memory.
//
// Nodes are 32-byte records (left, right, up, down, column, row, size): node 0 heads the
// list of primary columns, nodes 1..C are the column headers (column c at node c + 1),
// node C + 1 heads the list of secondary columns, and the row nodes follow, each row's
// nodes contiguous. Secondary columns sit in a list of their own, so they are covered
// when a chosen row uses them but never chosen themselves; a column is covered exactly
// when its left neighbour no longer points back at it.
//
// The host writes the matrix into the input region (per row: its number of columns, then
// their indices, primary columns first), loads it, optionally forces rows into the
// solution (givens, or the prefix of a part), starts, and runs with a node budget.
import { DONE, SOLUTION, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaReset, arenaAlloc } from '../shared/bits';

/** Bounds that keep every node index and count inside an i32. */
const MAX_ITEMS: u32 = 1 << 28;

const NODE_SHIFT: usize = 5; // 32 bytes a node
const LEFT: usize = 0;
const RIGHT: usize = 4;
const UP: usize = 8;
const DOWN: usize = 12;
const COLUMN: usize = 16;
const ROW: usize = 20;
const SIZE: usize = 24; // rows left in the column (headers only)

const ROOT: i32 = 0;

const PHASE_ENTER: i32 = 0; // choose a column at the current level
const PHASE_TRY: i32 = 1; // select the current level's next row
const PHASE_BACKTRACK: i32 = 2; // undo the level below and move on
const PHASE_FINISHED: i32 = 3;

let input: usize = 0;
let inputWords: u32 = 0;
let links: usize = 0;
let rowStart: usize = 0; // first node of each row
let columnStack: usize = 0; // the column chosen at each level
let choiceStack: usize = 0; // the row node selected at each level (the header when exhausted)
let forced: usize = 0; // row ids forced before the search
let output: usize = 0;
// The shape the regions above were sized for, so that loading the same matrix again reuses them.
let allocatedPrimary: u32 = 0;
let allocatedSecondary: u32 = 0;
let allocatedRows: u32 = 0;
let allocatedEntries: u32 = 0;

let columnCount: i32 = 0;
let primaryCount: i32 = 0;
let rowCount: i32 = 0;
let forcedCount: i32 = 0;
let outputLength: i32 = 0;
let loaded: bool = false; // links built, the search not started: rows may be forced
let emit: bool = false;
let splitDepth: i32 = -1;
let level: i32 = 0;
let phase: i32 = PHASE_FINISHED;
let solutions: u64 = 0;
let nodes: u64 = 0;

@inline function field(node: i32, offset: usize): i32 {
  return load<i32>(links + (<usize>node << NODE_SHIFT) + offset);
}
@inline function setField(node: i32, offset: usize, value: i32): void {
  store<i32>(links + (<usize>node << NODE_SHIFT) + offset, value);
}
@inline function word(base: usize, i: i32): i32 { return load<i32>(base + (<usize>i << 2)); }
@inline function setWord(base: usize, i: i32, value: i32): void { store<i32>(base + (<usize>i << 2), value); }

export function dlxOutputPtr(): usize { return output; }
export function dlxOutputLength(): i32 { return outputLength; }
export function dlxSolutions(): u64 { return solutions; }
export function dlxNodes(): u64 { return nodes; }

/** Forgets everything and returns an input region of `words` u32s, or 0 when memory is short. */
export function dlxInputAlloc(words: u32): usize {
  arenaReset();
  loaded = false;
  phase = PHASE_FINISHED;
  links = 0;
  inputWords = words;
  input = arenaAlloc(<u64>words << 2);
  return input;
}

// Removes column c from its list and its rows from the other columns.
@inline function cover(c: i32): void {
  const left = field(c, LEFT);
  const right = field(c, RIGHT);
  setField(right, LEFT, left);
  setField(left, RIGHT, right);
  for (let i = field(c, DOWN); i != c; i = field(i, DOWN)) {
    for (let j = field(i, RIGHT); j != i; j = field(j, RIGHT)) {
      const up = field(j, UP);
      const down = field(j, DOWN);
      setField(down, UP, up);
      setField(up, DOWN, down);
      const col = field(j, COLUMN);
      setField(col, SIZE, field(col, SIZE) - 1);
    }
  }
}

// Exactly undoes cover(c), in reverse order.
@inline function uncover(c: i32): void {
  for (let i = field(c, UP); i != c; i = field(i, UP)) {
    for (let j = field(i, LEFT); j != i; j = field(j, LEFT)) {
      const col = field(j, COLUMN);
      setField(col, SIZE, field(col, SIZE) + 1);
      setField(field(j, DOWN), UP, j);
      setField(field(j, UP), DOWN, j);
    }
  }
  setField(field(c, RIGHT), LEFT, c);
  setField(field(c, LEFT), RIGHT, c);
}

// The rows still to link, for a load in slices (dlxLoadStart, then dlxLoadRun).
let loadRead: usize = 0;
let loadRow: i32 = 0;
let loadNode: i32 = 0;
let loadUsed: u32 = 0;
let loadEntries: u32 = 0;
let loading: bool = false;

/**
 * Builds the links from the input region: `primary` + `secondary` columns, `rows` rows
 * with `entries` column indices in all. Any earlier search is forgotten; the input stays,
 * so a matrix can be loaded again for another part.
 */
export function dlxLoad(primary: u32, secondary: u32, rows: u32, entries: u32): i32 {
  let status = dlxLoadStart(primary, secondary, rows, entries);
  while (status == MORE) status = dlxLoadRun(0x7fffffff);
  return status;
}

/**
 * dlxLoad in slices: prepares the headers and returns MORE; dlxLoadRun then links the rows,
 * `budget` at a time, until DONE (or BAD_INPUT).
 */
export function dlxLoadStart(primary: u32, secondary: u32, rows: u32, entries: u32): i32 {
  loading = false;
  loaded = false;
  phase = PHASE_FINISHED;
  if (input == 0 || primary > MAX_ITEMS || secondary > MAX_ITEMS || rows > MAX_ITEMS || entries > MAX_ITEMS) return BAD_INPUT;
  if (<u64>rows + <u64>entries > <u64>inputWords) return BAD_INPUT;
  const columns = <i32>(primary + secondary);
  const nodeCount = <u64>columns + 2 + <u64>entries;
  const sameShape = allocatedPrimary == primary && allocatedSecondary == secondary && allocatedRows == rows && allocatedEntries == entries;
  if (links == 0 || !sameShape) {
    links = arenaAlloc(nodeCount << NODE_SHIFT);
    rowStart = arenaAlloc(<u64>rows << 2);
    columnStack = arenaAlloc(<u64>(primary + 1) << 2);
    choiceStack = arenaAlloc(<u64>(primary + 1) << 2);
    // Forced and chosen rows each cover a column of their own, so `columns` bounds both.
    forced = arenaAlloc(<u64>columns << 2);
    output = arenaAlloc(<u64>columns << 2);
    if (links == 0 || rowStart == 0 || columnStack == 0 || choiceStack == 0 || forced == 0 || output == 0) {
      links = 0;
      return OUT_OF_MEMORY;
    }
    allocatedPrimary = primary;
    allocatedSecondary = secondary;
    allocatedRows = rows;
    allocatedEntries = entries;
  }
  columnCount = columns;
  primaryCount = <i32>primary;
  rowCount = <i32>rows;

  // Headers: primary columns in the list at node 0, secondary ones in the list at node C + 1.
  const secondaryRoot = columns + 1;
  for (let h = 0; h <= secondaryRoot; h++) {
    setField(h, LEFT, h - 1);
    setField(h, RIGHT, h + 1);
    setField(h, UP, h);
    setField(h, DOWN, h);
    setField(h, COLUMN, h);
    setField(h, ROW, -1);
    setField(h, SIZE, 0);
  }
  setField(ROOT, LEFT, <i32>primary);
  setField(<i32>primary, RIGHT, ROOT);
  const firstSecondary = secondary == 0 ? secondaryRoot : <i32>primary + 1;
  setField(secondaryRoot, RIGHT, firstSecondary);
  setField(firstSecondary, LEFT, secondaryRoot);
  setField(secondaryRoot, LEFT, secondary == 0 ? secondaryRoot : columns);
  setField(secondary == 0 ? secondaryRoot : columns, RIGHT, secondaryRoot);

  loadRead = input;
  loadUsed = 0;
  loadRow = 0;
  loadNode = secondaryRoot + 1;
  loadEntries = entries;
  loading = true;
  return MORE;
}

/** Links up to `budget` more rows of a load begun by dlxLoadStart. */
export function dlxLoadRun(budget: i32): i32 {
  if (!loading) return BAD_INPUT;
  const columns = columnCount;
  const entries = loadEntries;
  let read = loadRead;
  let used = loadUsed;
  let node = loadNode;
  let r = loadRow;
  const end = <i32>min<i64>(<i64>rowCount, <i64>r + <i64>max(budget, 1));
  for (; r < end; r++) {
    const count = load<u32>(read);
    read += 4;
    if (count == 0 || count > entries - used) { loading = false; return BAD_INPUT; }
    used += count;
    const first = node;
    setWord(rowStart, r, first);
    for (let k: u32 = 0; k < count; k++) {
      const column = load<u32>(read);
      read += 4;
      if (column >= <u32>columns) { loading = false; return BAD_INPUT; }
      const header = <i32>column + 1;
      const bottom = field(header, UP);
      // Rows are appended in order, so the column's last node is this row's only if repeated.
      if (field(bottom, ROW) == r) { loading = false; return BAD_INPUT; }
      setField(node, UP, bottom);
      setField(node, DOWN, header);
      setField(bottom, DOWN, node);
      setField(header, UP, node);
      setField(header, SIZE, field(header, SIZE) + 1);
      setField(node, COLUMN, header);
      setField(node, ROW, r);
      setField(node, LEFT, node - 1);
      setField(node, RIGHT, node + 1);
      node++;
    }
    setField(first, LEFT, node - 1);
    setField(node - 1, RIGHT, first);
  }
  loadRead = read;
  loadUsed = used;
  loadNode = node;
  loadRow = r;
  if (r < rowCount) return MORE;
  loading = false;
  if (used != entries) return BAD_INPUT;
  forcedCount = 0;
  loaded = true;
  return DONE;
}

/** Puts row `row` into every solution before the search; BAD_INPUT if it clashes with one forced earlier. */
export function dlxForce(row: i32): i32 {
  if (!loaded || row < 0 || row >= rowCount) return BAD_INPUT;
  const first = word(rowStart, row);
  let j = first;
  do {
    const c = field(j, COLUMN);
    if (field(field(c, LEFT), RIGHT) != c) return BAD_INPUT;
    j = field(j, RIGHT);
  } while (j != first);
  do {
    cover(field(j, COLUMN));
    j = field(j, RIGHT);
  } while (j != first);
  setWord(forced, forcedCount++, row);
  return DONE;
}

/**
 * Starts the search on the loaded matrix. `emitSolutions`: stop at each solution with its
 * rows in the output region. `split` (> 0): stop at each node with `split` rows chosen
 * (or at a solution reached sooner) with those rows as output, without searching below.
 */
export function dlxStart(emitSolutions: i32, split: i32): i32 {
  if (!loaded || split < 0) return BAD_INPUT;
  loaded = false;
  emit = emitSolutions != 0;
  splitDepth = split > 0 ? split : -1;
  level = 0;
  phase = PHASE_ENTER;
  solutions = 0;
  nodes = 0;
  outputLength = 0;
  return DONE;
}

// The forced rows, then the row of each level's choice.
function writeOutput(depth: i32): void {
  for (let i = 0; i < forcedCount; i++) setWord(output, i, word(forced, i));
  for (let i = 0; i < depth; i++) setWord(output, forcedCount + i, field(word(choiceStack, i), ROW));
  outputLength = forcedCount + depth;
}

/** Advances the search by at most `budget` row selections. */
export function dlxRun(budget: i32): i32 {
  if (phase == PHASE_FINISHED) return DONE;
  const start = max(budget, 1);
  let remaining = start;
  let status = MORE;
  let depth = level;
  let step = phase;
  const stops = emit || splitDepth >= 0;
  while (true) {
    if (step == PHASE_ENTER) {
      const first = field(ROOT, RIGHT);
      if (first == ROOT || depth == splitDepth) {
        if (first == ROOT) solutions++;
        step = PHASE_BACKTRACK;
        if (stops) {
          writeOutput(depth);
          status = SOLUTION;
          break;
        }
        continue;
      }
      // The primary column with fewest rows; the first of equals.
      let best = first;
      let bestSize = field(first, SIZE);
      for (let c = field(first, RIGHT); c != ROOT && bestSize > 0; c = field(c, RIGHT)) {
        const size = field(c, SIZE);
        if (size < bestSize) {
          best = c;
          bestSize = size;
        }
      }
      if (bestSize == 0) {
        step = PHASE_BACKTRACK;
        continue;
      }
      cover(best);
      setWord(columnStack, depth, best);
      setWord(choiceStack, depth, field(best, DOWN));
      step = PHASE_TRY;
    } else if (step == PHASE_TRY) {
      const c = word(columnStack, depth);
      const r = word(choiceStack, depth);
      if (r == c) {
        uncover(c);
        step = PHASE_BACKTRACK;
        continue;
      }
      if (remaining == 0) break;
      remaining--;
      for (let j = field(r, RIGHT); j != r; j = field(j, RIGHT)) cover(field(j, COLUMN));
      depth++;
      step = PHASE_ENTER;
    } else {
      if (depth == 0) {
        step = PHASE_FINISHED;
        status = DONE;
        break;
      }
      depth--;
      const r = word(choiceStack, depth);
      for (let j = field(r, LEFT); j != r; j = field(j, LEFT)) uncover(field(j, COLUMN));
      setWord(choiceStack, depth, field(r, DOWN));
      step = PHASE_TRY;
    }
  }
  nodes += <u64>(start - remaining);
  level = depth;
  phase = step;
  return status;
}
