// N-Queens counting by start constellations (the method of Preußer's Q27 project and of
// NQueensFAF), for empty boards of 5 <= n <= 32.
//
// A constellation fixes the queens of the border: row 0 (its queen in column i), row n-1
// (column j), column 0 (row k) and column n-1 (row l); a corner queen is named twice. Every
// solution has exactly one, and the 8 board symmetries act on constellations as on solutions.
// The host lists one constellation per symmetry class. No reflection fixes a constellation (it
// would need two queens in one row or on one diagonal), so its stabiliser is the identity, the
// half turn or all four turns: the class holds 8, 4 or 2 constellations and a solution counts
// that many times. Distinct solutions follow by Burnside's lemma over the stabiliser:
// (found + fixed by the half turn + 2 × fixed by the quarter turn) / |stabiliser|, where the
// symmetric solutions are recognised at the leaves of the (rare) symmetric constellations.
//
// The rest of the board is searched most constrained line first: at each node the empty row or
// free column with the fewest free squares is filled next (a row or column with none ends the
// branch, one with a single square is a forced move). Rows and columns alike must hold exactly
// one queen, so either can be branched on. At n = 16 this searches 39.5 million nodes where the
// search row by row placed 205.8 million queens (the gap grows with n); every node pays a scan
// of the open lines.
// A node is the empty rows (bit r), the taken columns (bit c, and every bit from n up), and the
// queens' diagonals as three u64 words indexed by r + c, c - r + n - 1 and r - c + n - 1 (the
// last a mirror of the second, so that columns read their free rows with a shift).
//
// The top of each search keeps its nodes in an explicit stack in memory, so that run(budget)
// can stop and resume anywhere; subtrees of at most RECURSIVE_ROWS empty rows are counted by a
// recursion (no stack in memory; a call may overrun its budget by one such subtree), where a
// node with two or three empty rows is counted at once, without a scan (one node). Symmetric
// constellations stay on the explicit stack to the leaves, whose queens it holds.
//
// A constellation is the code (i << 15) | (j << 10) | (k << 5) | l. The host writes a list of
// them where queensConstellationsInputAlloc says; init checks them, run(budget) counts them in turn.
import { DONE, MORE, BAD_INPUT, arenaReset, arenaAlloc } from '../shared/bits';

export const MAX_LIST: i32 = 1 << 20;
const MAX_ROWS: i32 = 32;

/** Subtrees with at most this many empty rows are counted by recursion (never a long call). */
const RECURSIVE_ROWS: i32 = 9;

// The choice of a node packed in a u64, so that the smallest is the one taken: the number of
// free squares of the line (bits 40 up), its free squares (bits 6-37), whether it is a column
// (bit 5) and its index (bits 0-4). Ties go to the smallest mask, then rows before columns.
const COUNT_SHIFT: u64 = 40;
const MASK_SHIFT: u64 = 6;
const IS_COLUMN: u64 = 32;
const TWO_OPTIONS: u64 = <u64>2 << COUNT_SHIFT;
// A subtree's result: solutions in the high half, nodes in the low half.
const ONE_SOLUTION: u64 = <u64>1 << 32;

// One frame of the explicit stack per depth: a node, the free squares of its chosen line still
// to try, the line, and the queen placed from it (read back at symmetric leaves).
const FRAME: usize = 48;
const F_REM: usize = 0;
const F_COL: usize = 4;
const F_D1: usize = 8;
const F_D2: usize = 16;
const F_E2: usize = 24;
const F_OPTIONS: usize = 32;
const F_LINE: usize = 36;
const F_ROW: usize = 40;
const F_COLUMN: usize = 44;

// Everything lives in the arena (the module's static data is kept small), allocated by
// queensConstellationsInputAlloc: the frames, a column per row for symmetric leaves, the list.
let FRAMES: usize = 0;
let COLS: usize = 0;
let INPUT: usize = 0;

let n: i32 = 0;
let n1: i32 = 0; // n - 1
let full: u32 = 0; // a bit for each row or column of the board
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
let depth: i32 = 0;
let found: u64 = 0;
let fixed180: u64 = 0;
let fixed90: u64 = 0;
// Totals over the constellations finished.
let total: u64 = 0;
let distinct: u64 = 0;
let nodes: u64 = 0;

/**
 * Makes room for a list of `count` constellations (and the search's stack); returns where
 * the host writes the list, or 0 when memory is short.
 */
export function queensConstellationsInputAlloc(count: i32): usize {
  if (count < 0 || count > MAX_LIST) return 0;
  arenaReset();
  const stack: usize = <usize>(MAX_ROWS + 1) * FRAME;
  const cols: usize = <usize>MAX_ROWS << 2;
  const base = arenaAlloc(<u64>(stack + cols) + (<u64>count << 2));
  if (base == 0) return 0;
  FRAMES = base;
  COLS = base + stack;
  INPUT = COLS + cols;
  listCapacity = count;
  return INPUT;
}
export function queensConstellationsTotal(): u64 { return total; }
export function queensConstellationsDistinct(): u64 { return distinct; }
export function queensConstellationsNodes(): u64 { return nodes; }

@inline function codeOf(i: i32, j: i32, k: i32, l: i32): i32 { return (i << 15) | (j << 10) | (k << 5) | l; }
@inline function rot90(c: i32): i32 {
  return codeOf(n1 - ((c >> 5) & 31), n1 - (c & 31), (c >> 10) & 31, (c >> 15) & 31);
}

/** Whether the four border queens of a code are consistent on an n×n board. */
function validCode(c: i32): bool {
  if (c < 0 || c >= 1 << 20) return false;
  const i = (c >> 15) & 31;
  const j = (c >> 10) & 31;
  const k = (c >> 5) & 31;
  const l = c & 31;
  const last = n1;
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
  n1 = size - 1;
  full = size == 32 ? 0xffffffff : (<u32>1 << <u32>size) - 1;
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

@inline function bit64(index: i32): u64 { return <u64>1 << <u64>index; }

/** The free squares of empty row r (a bit per column; none outside the board). */
@inline function rowFree(r: i32, col: u32, d1: u64, d2: u64, last: i32): u32 {
  return ~(col | <u32>(d1 >> <u64>r) | <u32>(d2 >> <u64>(last - r)));
}

/**
 * The line a node branches on (see COUNT_SHIFT): the empty row with the fewest free squares,
 * or, when every row has two or more, the free column with fewer. `rem` is not empty.
 */
@inline function choose(rem: u32, col: u32, d1: u64, d2: u64, e2: u64, last: i32): u64 {
  let best: u64 = <u64>-1;
  let open = rem;
  do {
    const r = ctz(open);
    open &= open - 1;
    const free = rowFree(r, col, d1, d2, last);
    if (free == 0) return <u64>r; // a dead row: the least key there is
    const key = (<u64>popcnt(free) << COUNT_SHIFT) | (<u64>free << MASK_SHIFT) | <u64>r;
    best = select(key, best, key < best);
  } while (open != 0);
  if (best >= TWO_OPTIONS) {
    open = ~col;
    do {
      const c = ctz(open);
      open &= open - 1;
      const free = rem & ~(<u32>(d1 >> <u64>c) | <u32>(e2 >> <u64>(last - c)));
      if (free == 0) return IS_COLUMN | <u64>c; // a dead column (no row is dead)
      const key = (<u64>popcnt(free) << COUNT_SHIFT) | (<u64>free << MASK_SHIFT) | IS_COLUMN | <u64>c;
      best = select(key, best, key < best);
    } while (open != 0);
  }
  return best;
}

/**
 * The last two empty rows, `gap` rows apart, with free squares f1 and f2 and the two free
 * columns `rest`: the columns go one to each row, in one order or the other; neither order
 * fits if the columns are `gap` apart too (a diagonal).
 */
@inline function lastTwo(f1: u32, f2: u32, rest: u32, gap: i32): u32 {
  const x = rest & (~rest + 1);
  const y = rest ^ x;
  const both = <u32>((f1 & x) != 0 && (f2 & y) != 0) + <u32>((f1 & y) != 0 && (f2 & x) != 0);
  return gap == ctz(y) - ctz(x) ? 0 : both;
}

/** The solutions of a node with two empty rows (one node). */
@inline function twoRows(rem: u32, col: u32, d1: u64, d2: u64, last: i32): u64 {
  const r1 = ctz(rem);
  const r2 = 31 - clz(rem);
  return <u64>lastTwo(rowFree(r1, col, d1, d2, last), rowFree(r2, col, d1, d2, last), ~col, r2 - r1);
}

/** The solutions of a node with three empty rows (one node): each free square of its first row, then lastTwo. */
@inline function threeRows(rem: u32, col: u32, d1: u64, d2: u64, last: i32): u64 {
  const r1 = ctz(rem);
  const r3 = 31 - clz(rem);
  const r2 = ctz(rem & (rem - 1));
  const s2 = <u32>(r2 - r1);
  const s3 = <u32>(r3 - r1);
  const free = ~col;
  let f1 = rowFree(r1, col, d1, d2, last);
  const f2 = rowFree(r2, col, d1, d2, last);
  const f3 = rowFree(r3, col, d1, d2, last);
  let count: u32 = 0;
  while (f1 != 0) {
    const a = f1 & (~f1 + 1);
    f1 ^= a;
    count += lastTwo(f2 & ~((a << s2) | (a >> s2)), f3 & ~((a << s3) | (a >> s3)), free ^ a, r3 - r2);
  }
  return <u64>count;
}

/**
 * Counts the completions of a node (the hot loop): returns the solutions in the high 32 bits
 * and the nodes visited in the low 32 (a subtree of a few rows has fewer than 2^32 of each).
 * Forced moves are made in place; branches recurse; two or three empty rows are counted at once.
 */
function subtree(rem: u32, col: u32, d1: u64, d2: u64, e2: u64): u64 {
  const last = n1;
  let result: u64 = 0;
  while (true) {
    result++;
    const rest = rem & (rem - 1);
    const rest2 = rest & (rest - 1);
    if ((rest2 & (rest2 - 1)) == 0) {
      if (rest2 != 0) return result + (threeRows(rem, col, d1, d2, last) << 32);
      if (rest != 0) return result + (twoRows(rem, col, d1, d2, last) << 32);
      // One empty row: one free column left, which either fits or not.
      if (rowFree(ctz(rem), col, d1, d2, last) != 0) result += ONE_SOLUTION;
      return result;
    }
    const key = choose(rem, col, d1, d2, e2, last);
    const options = <u32>(key >> COUNT_SHIFT);
    if (options == 0) return result;
    let free = <u32>(key >> MASK_SHIFT);
    const line = <i32>(key & 31);
    if (options == 1) {
      const r = (key & IS_COLUMN) != 0 ? ctz(free) : line;
      const c = (key & IS_COLUMN) != 0 ? line : ctz(free);
      rem &= ~(<u32>1 << <u32>r);
      col |= <u32>1 << <u32>c;
      d1 |= bit64(r + c);
      d2 |= bit64(c - r + last);
      e2 |= bit64(r - c + last);
      continue;
    }
    if ((key & IS_COLUMN) == 0) {
      const r = line;
      const rows = rem & ~(<u32>1 << <u32>r);
      do {
        const b = free & (~free + 1);
        free ^= b;
        const c = ctz(b);
        result += subtree(rows, col | b, d1 | (<u64>b << <u64>r), d2 | (<u64>b << <u64>(last - r)), e2 | bit64(r - c + last));
      } while (free != 0);
    } else {
      const c = line;
      const cb = <u64>1 << <u64>c;
      const cols = col | (<u32>1 << <u32>c);
      do {
        const b = free & (~free + 1);
        free ^= b;
        const r = ctz(b);
        result += subtree(rem ^ b, cols, d1 | (cb << <u64>r), d2 | (cb << <u64>(last - r)), e2 | (<u64>b << <u64>(last - c)));
      } while (free != 0);
    }
    return result;
  }
  return result;
}

@inline function frameAt(t: i32): usize { return FRAMES + <usize>t * FRAME; }

/** Writes a node to frame t with the line it branches on; returns the line's number of free squares. */
function pushNode(t: i32, rem: u32, col: u32, d1: u64, d2: u64, e2: u64): u32 {
  const key = choose(rem, col, d1, d2, e2, n1);
  const frame = frameAt(t);
  store<u32>(frame + F_REM, rem);
  store<u32>(frame + F_COL, col);
  store<u64>(frame + F_D1, d1);
  store<u64>(frame + F_D2, d2);
  store<u64>(frame + F_E2, e2);
  store<u32>(frame + F_OPTIONS, <u32>(key >> MASK_SHIFT));
  store<u32>(frame + F_LINE, <u32>(key & 63));
  return <u32>(key >> COUNT_SHIFT);
}

/** Sets up the search of constellation `listAt`: the node of its border queens in frame 0. */
function startConstellation(): void {
  const c = <i32>load<u32>(INPUT + (<usize>listAt << 2));
  ci = (c >> 15) & 31;
  cj = (c >> 10) & 31;
  ck = (c >> 5) & 31;
  cl = c & 31;
  stabiliser = rot90(c) == c ? 4 : rot90(rot90(c)) == c ? 2 : 1;
  found = 0;
  fixed180 = 0;
  fixed90 = 0;
  depth = 0;
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

/** A leaf of a symmetric constellation: the queens are the border's and those placed from frames 0..t. */
function symmetricLeaf(t: i32): void {
  const last = n1;
  store<u32>(COLS, ci);
  store<u32>(COLS + (<usize>last << 2), cj);
  store<u32>(COLS + (<usize>ck << 2), 0);
  store<u32>(COLS + (<usize>cl << 2), last);
  for (let e = 0; e <= t; e++) {
    const frame = frameAt(e);
    store<u32>(COLS + (<usize>load<u32>(frame + F_ROW) << 2), load<u32>(frame + F_COLUMN));
  }
  let is180 = true;
  let is90 = true;
  for (let r = 0; r < n; r++) {
    const c = <i32>load<u32>(COLS + (<usize>r << 2));
    if (<i32>load<u32>(COLS + (<usize>(last - r) << 2)) != last - c) is180 = false;
    if (<i32>load<u32>(COLS + (<usize>c << 2)) != last - r) is90 = false;
  }
  if (is180) fixed180++;
  if (is90) fixed90++;
}

/** Advances the count by at most `budget` nodes (and one subtree): MORE, or DONE when every constellation is counted. */
export function queensConstellationsRun(budget: i32): i32 {
  let remaining: i64 = max(budget, 1);
  const spent = remaining;
  const last = n1;
  while (!finished) {
    if (!started) {
      if (remaining <= 0) break;
      startConstellation();
      const rem = full & ~(1 | (<u32>1 << <u32>last) | (<u32>1 << <u32>ck) | (<u32>1 << <u32>cl));
      const col = ~full | (<u32>1 << <u32>ci) | (<u32>1 << <u32>cj) | 1 | (<u32>1 << <u32>last);
      const d1 = bit64(ci) | bit64(last + cj) | bit64(ck) | bit64(cl + last);
      const d2 = bit64(ci + last) | bit64(cj) | bit64(last - ck) | bit64(2 * last - cl);
      const e2 = bit64(last - ci) | bit64(2 * last - cj) | bit64(ck + last) | bit64(cl);
      if (stabiliser == 1 && <i32>popcnt(rem) <= RECURSIVE_ROWS) {
        const sub = subtree(rem, col, d1, d2, e2);
        found = sub >> 32;
        remaining -= <i64>(sub & 0xffffffff);
        finishConstellation();
        continue;
      }
      remaining--;
      if (pushNode(0, rem, col, d1, d2, e2) == 0) {
        finishConstellation();
        continue;
      }
    }
    const symmetric = stabiliser > 1;
    let t = depth;
    let done = false;
    while (true) {
      const frame = frameAt(t);
      const options = load<u32>(frame + F_OPTIONS);
      if (options == 0) {
        if (t == 0) {
          done = true;
          break;
        }
        t--;
        continue;
      }
      if (remaining <= 0) break;
      const b = options & (~options + 1);
      store<u32>(frame + F_OPTIONS, options ^ b);
      const line = <i32>load<u32>(frame + F_LINE);
      const isColumn = (line & <i32>IS_COLUMN) != 0;
      const r = isColumn ? ctz(b) : line & 31;
      const c = isColumn ? line & 31 : ctz(b);
      store<u32>(frame + F_ROW, r);
      store<u32>(frame + F_COLUMN, c);
      const rem = load<u32>(frame + F_REM) & ~(<u32>1 << <u32>r);
      const col = load<u32>(frame + F_COL) | (<u32>1 << <u32>c);
      const d1 = load<u64>(frame + F_D1) | bit64(r + c);
      const d2 = load<u64>(frame + F_D2) | bit64(c - r + last);
      const e2 = load<u64>(frame + F_E2) | bit64(r - c + last);
      if (rem == 0) {
        found++;
        if (symmetric) symmetricLeaf(t);
        continue;
      }
      if (!symmetric && <i32>popcnt(rem) <= RECURSIVE_ROWS) {
        const sub = subtree(rem, col, d1, d2, e2);
        found += sub >> 32;
        remaining -= <i64>(sub & 0xffffffff);
        continue;
      }
      remaining--;
      if (pushNode(t + 1, rem, col, d1, d2, e2) != 0) t++;
    }
    depth = t;
    if (!done) break;
    finishConstellation();
  }
  nodes += <u64>(spent - remaining);
  return finished ? DONE : MORE;
}
