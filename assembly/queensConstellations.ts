// N-Queens counting by start constellations (the method of Preußer's Q27 project and of
// NQueensFAF), for empty boards of 5 <= n <= 32.
//
// A constellation fixes the queens of the border: row 0 (its queen in column i), row n-1
// (column j), column 0 (row k) and column n-1 (row l); a corner queen is named twice. Every
// solution has exactly one, and the 8 board symmetries act on constellations as on solutions.
// The host lists one constellation per symmetry class (in the orientation that searches
// fastest); each is searched here over the inner rows and columns (n-2 bits), rows k and l
// skipped, with the border queens' diagonals as a fixed mask per row. No reflection fixes a
// constellation (it would need two queens in one row or on one diagonal), so its stabiliser is
// the identity, the half turn or all four turns: the class holds 8, 4 or 2 constellations and a
// solution counts that many times. Distinct solutions follow by Burnside's lemma over the
// stabiliser: (found + fixed by the half turn + 2 × fixed by the quarter turn) / |stabiliser|,
// where the symmetric solutions are recognised at the leaves of the (rare) symmetric
// constellations.
//
// A constellation is the code (i << 15) | (j << 10) | (k << 5) | l. The host writes a list of
// them where queensConstellationsInputAlloc says; init checks them, run(budget) counts them in turn.
import { DONE, MORE, BAD_INPUT, arenaReset, arenaAlloc } from './bits';

export const MAX_LIST: i32 = 1 << 20;
const MAX_ROWS: i32 = 32;
const TABLE: usize = MAX_ROWS * 4;

// Everything lives in the arena (the module's static data is kept small), allocated by
// queensConstellationsInputAlloc: eight tables of a u32 per depth, then the list.
let INPUT: usize = 0;
// Per depth of the search (a free row): the border queens' diagonals in that row, the row
// itself, and how many rows down the next free row is.
let FORB: usize = 0;
let ROW: usize = 0;
let SHIFT: usize = 0;
// The explicit stack: the state of each depth above the current one.
let LD: usize = 0;
let RD: usize = 0;
let COL: usize = 0;
let AVAIL: usize = 0;
// Leaf check of symmetric constellations: the column of each row.
let COLS: usize = 0;

@inline function get(base: usize, i: i32): u32 { return load<u32>(base + (<usize>i << 2)); }
@inline function set(base: usize, i: i32, v: u32): void { store<u32>(base + (<usize>i << 2), v); }

let n: i32 = 0;
let listLength: i32 = 0;
let listCapacity: i32 = -1; // what the last InputAlloc made room for
let listAt: i32 = 0;       // the constellation under way (or next to start)
let started: bool = false; // whether listAt's search is set up
let finished: bool = true;
// The constellation under way.
let ci: i32 = 0;
let cj: i32 = 0;
let ck: i32 = 0;
let cl: i32 = 0;
let stabiliser: i32 = 1;
let lastDepth: i32 = 0;
let depth: i32 = 0;
let found: u64 = 0;
let fixed180: u64 = 0;
let fixed90: u64 = 0;
// Totals over the constellations finished.
let total: u64 = 0;
let distinct: u64 = 0;
let nodes: u64 = 0;

/**
 * Makes room for a list of `count` constellations (and the search's tables); returns where
 * the host writes the list, or 0 when memory is short.
 */
export function queensConstellationsInputAlloc(count: i32): usize {
  if (count < 0 || count > MAX_LIST) return 0;
  arenaReset();
  const base = arenaAlloc(<u64>(8 * TABLE) + (<u64>count << 2));
  if (base == 0) return 0;
  FORB = base;
  ROW = base + TABLE;
  SHIFT = base + 2 * TABLE;
  LD = base + 3 * TABLE;
  RD = base + 4 * TABLE;
  COL = base + 5 * TABLE;
  AVAIL = base + 6 * TABLE;
  COLS = base + 7 * TABLE;
  INPUT = base + 8 * TABLE;
  listCapacity = count;
  return INPUT;
}
export function queensConstellationsTotal(): u64 { return total; }
export function queensConstellationsDistinct(): u64 { return distinct; }
export function queensConstellationsNodes(): u64 { return nodes; }

@inline function codeOf(i: i32, j: i32, k: i32, l: i32): i32 { return (i << 15) | (j << 10) | (k << 5) | l; }
@inline function rot90(c: i32): i32 {
  const last = n - 1;
  return codeOf(last - ((c >> 5) & 31), last - (c & 31), (c >> 10) & 31, (c >> 15) & 31);
}

/** Whether the four border queens of a code are consistent on an n×n board. */
function validCode(c: i32): bool {
  if (c < 0 || c >= 1 << 20) return false;
  const i = (c >> 15) & 31;
  const j = (c >> 10) & 31;
  const k = (c >> 5) & 31;
  const l = c & 31;
  const last = n - 1;
  if (i > last || j > last || k > last || l > last) return false;
  if ((i == 0) != (k == 0) || (i == last) != (l == 0) || (j == 0) != (k == last) || (j == last) != (l == last)) return false;
  // Rows and columns of the queens A (0,i), B (n-1,j), C (k,0), D (l,n-1), pairwise.
  for (let a = 0; a < 4; a++) {
    const ra = a == 0 ? 0 : a == 1 ? last : a == 2 ? k : l;
    const ca = a == 0 ? i : a == 1 ? j : a == 2 ? 0 : last;
    for (let b = a + 1; b < 4; b++) {
      const rb = b == 0 ? 0 : b == 1 ? last : b == 2 ? k : l;
      const cb = b == 0 ? i : b == 1 ? j : b == 2 ? 0 : last;
      if (ra == rb && ca == cb) continue; // a corner queen, named twice
      if (ra == rb || ca == cb || ra - ca == rb - cb || ra + ca == rb + cb) return false;
    }
  }
  return true;
}

/** Starts counting the `count` constellations in the input region on an n×n board. */
export function queensConstellationsInit(size: i32, count: i32): i32 {
  if (size < 5 || size > MAX_ROWS || count < 0 || count > listCapacity || INPUT == 0) return BAD_INPUT;
  n = size;
  for (let a = 0; a < count; a++) {
    if (!validCode(<i32>load<u32>(INPUT + (<usize>a << 2)))) return BAD_INPUT;
  }
  listLength = count;
  listAt = 0;
  started = false;
  finished = count == 0;
  total = 0;
  distinct = 0;
  nodes = 0;
  return DONE;
}

@inline function innerBit(c: i32): u32 {
  return c >= 1 && c <= n - 2 ? <u32>1 << <u32>(c - 1) : 0;
}

@inline function diagonals(r: i32, qr: i32, qc: i32): u32 {
  const d = abs(r - qr);
  return innerBit(qc - d) | innerBit(qc + d);
}

/** Sets up the search of constellation `listAt`: its tables and the root of its stack. */
function startConstellation(): void {
  const c = <i32>load<u32>(INPUT + (<usize>listAt << 2));
  ci = (c >> 15) & 31;
  cj = (c >> 10) & 31;
  ck = (c >> 5) & 31;
  cl = c & 31;
  const last = n - 1;
  stabiliser = rot90(c) == c ? 4 : rot90(rot90(c)) == c ? 2 : 1;
  let d = 0;
  for (let r = 1; r < last; r++) {
    if (r == ck || r == cl) continue;
    set(FORB, d, diagonals(r, 0, ci) | diagonals(r, last, cj) | diagonals(r, ck, 0) | diagonals(r, cl, last));
    set(ROW, d, r);
    d++;
  }
  for (let e = 0; e + 1 < d; e++) set(SHIFT, e, get(ROW, e + 1) - get(ROW, e));
  lastDepth = d - 1;
  const inner: u32 = (<u32>1 << <u32>(n - 2)) - 1;
  const col: u32 = ~inner | innerBit(ci) | innerBit(cj);
  depth = 0;
  set(LD, 0, 0);
  set(RD, 0, 0);
  set(COL, 0, col);
  set(AVAIL, 0, ~(col | get(FORB, 0)));
  found = 0;
  fixed180 = 0;
  fixed90 = 0;
  started = true;
}

function finishConstellation(): void {
  total += found * <u64>(8 / stabiliser);
  if (stabiliser == 1) distinct += found;
  else if (stabiliser == 2) distinct += (found + fixed180) >> 1;
  else distinct += (found + fixed180 + 2 * fixed90) >> 2;
  started = false;
  listAt++;
  if (listAt >= listLength) finished = true;
}

/**
 * A leaf of a symmetric constellation: whether the solution is fixed by the half and the
 * quarter turn. COL holds the queens of the depths above `leafDepth - 1`; `col` those down to
 * it, `bit` the leaf row's queen.
 */
function symmetricLeaf(leafDepth: i32, col: u32, bit: u32): void {
  const last = n - 1;
  set(COLS, 0, ci);
  set(COLS, last, cj);
  set(COLS, ck, 0);
  set(COLS, cl, last);
  for (let e = 0; e < leafDepth; e++) {
    const below = e + 1 < leafDepth ? get(COL, e + 1) : col;
    set(COLS, get(ROW, e), ctz(below ^ get(COL, e)) + 1);
  }
  set(COLS, get(ROW, leafDepth), ctz(bit) + 1);
  let is180 = true;
  let is90 = true;
  for (let r = 0; r < n; r++) {
    const c = <i32>get(COLS, r);
    if (<i32>get(COLS, last - r) != last - c) is180 = false;
    if (<i32>get(COLS, c) != last - r) is90 = false;
  }
  if (is180) fixed180++;
  if (is90) fixed90++;
}

// The last rows of a search are counted by recursion (the hot loop: no stack in memory, the
// row's tables in locals), a subtree at a time: this many rows above the leaf parent.
const RECURSIVE_ROWS: i32 = 4;
let leafParentDepth: i32 = 0;

/**
 * Counts the subtree of depth d whose candidates are `avail`: returns the solutions in the
 * high 32 bits and the placements tried in the low 32 (a subtree of a few rows has fewer
 * than 2^32 of each).
 */
function descend(d: i32, ld: u32, rd: u32, col: u32, avail: u32): u64 {
  const s = get(SHIFT, d);
  const f = get(FORB, d + 1);
  let result: u64 = 0;
  if (d == leafParentDepth) {
    do {
      const b = avail & (~avail + 1);
      avail ^= b;
      result += ~(((ld | b) << s) | ((rd | b) >> s) | col | b | f) != 0 ? (<u64>1 << 32) + 1 : 1;
    } while (avail != 0);
    return result;
  }
  do {
    const b = avail & (~avail + 1);
    avail ^= b;
    result++;
    const nextLd = (ld | b) << s;
    const nextRd = (rd | b) >> s;
    const nextCol = col | b;
    const free = ~(nextLd | nextRd | nextCol | f);
    if (free != 0) result += descend(d + 1, nextLd, nextRd, nextCol, free);
  } while (avail != 0);
  return result;
}

/** Advances the count by at most `budget` placements: MORE, or DONE when every constellation is counted. */
export function queensConstellationsRun(budget: i32): i32 {
  let remaining = max(budget, 1);
  const spent = remaining;
  // Placements of a subtree beyond the budget (a call may overrun by one subtree).
  let overshoot = 0;
  while (!finished) {
    if (!started) {
      startConstellation();
      if (lastDepth == 0) {
        // One free row (n = 5 and 6 have some): its one free column, if free, is a solution.
        const avail = get(AVAIL, 0);
        if (avail != 0) {
          remaining = remaining > 0 ? remaining - 1 : 0;
          found = 1;
          if (stabiliser > 1) symmetricLeaf(0, get(COL, 0), avail);
        }
        finishConstellation();
        continue;
      }
    }
    if (remaining == 0) break;
    // The current depth lives in locals; its ancestors are stacked in memory.
    const forbs = FORB;
    const shifts = SHIFT;
    const lds = LD;
    const rds = RD;
    const cols = COL;
    const avails = AVAIL;
    let d = depth;
    let ld = get(lds, d);
    let rd = get(rds, d);
    let col = get(cols, d);
    let avail = get(avails, d);
    let count: u64 = 0;
    const leafParent = lastDepth - 1;
    const symmetric = stabiliser > 1;
    // From this depth on, children are counted by recursion (not in symmetric constellations,
    // whose leaves need the stack).
    leafParentDepth = leafParent;
    const recursive = symmetric || lastDepth < 2 ? MAX_ROWS : max(lastDepth - 2 - RECURSIVE_ROWS, 0);
    let done = false;
    while (true) {
      if (avail == 0) {
        if (d == 0) {
          done = true;
          break;
        }
        d--;
        ld = get(lds, d);
        rd = get(rds, d);
        col = get(cols, d);
        avail = get(avails, d);
        continue;
      }
      if (remaining == 0) break;
      remaining--;
      const bit = avail & (~avail + 1);
      avail ^= bit;
      const s = get(shifts, d);
      const nextLd = (ld | bit) << s;
      const nextRd = (rd | bit) >> s;
      const nextCol = col | bit;
      const free = ~(nextLd | nextRd | nextCol | get(forbs, d + 1));
      if (free == 0) continue;
      if (d >= recursive) {
        const sub = descend(d + 1, nextLd, nextRd, nextCol, free);
        count += sub >> 32;
        remaining -= <i32>(sub & 0xffffffff);
        if (remaining < 0) {
          overshoot -= remaining;
          remaining = 0;
        }
        continue;
      }
      if (d == leafParent) {
        count++;
        if (symmetric) {
          set(cols, d, col);
          symmetricLeaf(d + 1, nextCol, free);
        }
        continue;
      }
      set(lds, d, ld);
      set(rds, d, rd);
      set(cols, d, col);
      set(avails, d, avail);
      d++;
      ld = nextLd;
      rd = nextRd;
      col = nextCol;
      avail = free;
    }
    found += count;
    depth = d;
    set(lds, d, ld);
    set(rds, d, rd);
    set(cols, d, col);
    set(avails, d, avail);
    if (done) finishConstellation();
  }
  nodes += <u64>(spent - remaining) + <u64>overshoot;
  return finished ? DONE : MORE;
}
