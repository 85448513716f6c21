// Clickomania / SameGame: boards, moves, and the exhaustive search for the fewest blocks
// left (which decides whether a board clears: the fewest left is 0).
//
// A board is column-major, one byte per cell (0 empty, colours 1..10), cell = column × H +
// row with row 0 at the bottom, plus a header (hash, score, blocks, live columns, blocks per
// colour, column heights). Cells above a column's height are never read. A move is a group
// (orthogonally connected, one colour, 2 or more blocks) named by its first cell in column-
// then-row order, so clicking any block of a group is the same move.
//
// The search is a depth-first branch and bound on the fewest blocks left, resumable, with
// an explicit stack of frames in the arena. Each node's result is a lower bound on the
// fewest blocks any line of play from it leaves (exact when nothing below was cut); it is
// kept in a transposition table keyed by a Zobrist hash, and a position whose bound cannot
// beat the best found is cut. The static bound: a colour with exactly one block can never
// be removed. Clear mode is the same search with nothing but 0 accepted.
import { xorshift64 } from '../shared/random';
import { DONE, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaReset, arenaAlloc } from '../shared/bits';

export const MAX_SIDE: i32 = 32;
export const MAX_CELLS: i32 = MAX_SIDE * MAX_SIDE;
export const MAX_COLOURS: i32 = 10;

// Board header offsets.
const HASH: usize = 0; // u64
const SCORE: usize = 8; // i32: group scores so far, plus 1000 once the board is clear
const BLOCKS: usize = 12; // u16
const COLS: usize = 14; // u16: columns with blocks
const COUNTS: usize = 16; // u16 × 11: blocks per colour (index 0 unused)
const HEIGHTS: usize = 40; // u8 × MAX_SIDE
const CELLS: usize = 72; // u8 × W·H

// Host-written: the cells of the start board, column-major from the bottom-left.
const INPUT: usize = memory.data(MAX_CELLS);
// Engine-written: the clicks of the best line found, as cells of the board at each click.
const OUTPUT: usize = memory.data(MAX_CELLS * 2);
// Scratch: a stamp per cell (flood fills mark cells with the current stamp), the fill
// stack, and the moves of a board (cell, size, colour, sort key).
const MARK: usize = memory.data(MAX_CELLS * 4);
const FILL: usize = memory.data(MAX_CELLS * 2);
const MOVE_CELL: usize = memory.data(MAX_CELLS);
const MOVE_SIZE: usize = memory.data(MAX_CELLS);
const MOVE_COLOUR: usize = memory.data(MAX_CELLS / 2);
const MOVE_KEY: usize = memory.data(MAX_CELLS * 2);
// The column of each cell (no division in the fills).
const COLUMN_OF: usize = memory.data(MAX_CELLS);

export let width: i32 = 0;
export let height: i32 = 0;
export let boardBytes: usize = 0;
let stamp: u32 = 0;
let fillFirstColumn = 0; // the leftmost column of the group fill() marked last
let fillLastColumn = 0; // and its rightmost
let zobristKeys: usize = 0; // u64 per cell and colour, in the arena

@inline function cellAt(b: usize, cell: i32): i32 { return <i32>load<u8>(b + CELLS + <usize>cell); }
@inline export function heightOf(b: usize, col: i32): i32 { return <i32>load<u8>(b + HEIGHTS + <usize>col); }
@inline export function blocksOf(b: usize): i32 { return <i32>load<u16>(b + BLOCKS); }
@inline export function columnsOf(b: usize): i32 { return <i32>load<u16>(b + COLS); }
@inline export function scoreOf(b: usize): i32 { return load<i32>(b + SCORE); }
@inline export function hashOf(b: usize): u64 { return load<u64>(b + HASH); }
@inline export function countOf(b: usize, colour: i32): i32 { return <i32>load<u16>(b + COUNTS + (<usize>colour << 1)); }

/**
 * The colour with the most blocks on board b; of equals, the one in the fewest groups (single
 * blocks counted), the easiest to gather into one; then the lowest.
 */
export function mostBlocksGathered(b: usize): i32 {
  const most = countOf(b, mostBlocks(b));
  stamp++;
  let best = 0;
  let bestParts = 0;
  for (let colour = 1; colour <= MAX_COLOURS; colour++) {
    if (countOf(b, colour) != most) continue;
    let parts = 0;
    for (let c = 0; c < columnsOf(b); c++) {
      for (let r = 0; r < heightOf(b, c); r++) {
        const cell = c * height + r;
        if (cellAt(b, cell) != colour || load<u32>(MARK + (<usize>cell << 2)) == stamp) continue;
        fill(b, cell);
        parts++;
      }
    }
    if (best == 0 || parts < bestParts) {
      best = colour;
      bestParts = parts;
    }
  }
  return best;
}

/** The colour with the most blocks on board b (the lowest of equals). */
export function mostBlocks(b: usize): i32 {
  let colour = 1;
  for (let c = 2; c <= MAX_COLOURS; c++) if (countOf(b, c) > countOf(b, colour)) colour = c;
  return colour;
}
@inline function zobrist(cell: i32, colour: i32): u64 { return load<u64>(zobristKeys + ((<usize>cell * 11 + <usize>colour) << 3)); }
@inline export function moveCell(i: i32): i32 { return <i32>load<u16>(MOVE_CELL + (<usize>i << 1)); }
@inline export function moveSize(i: i32): i32 { return <i32>load<u16>(MOVE_SIZE + (<usize>i << 1)); }
@inline export function moveColour(i: i32): i32 { return <i32>load<u8>(MOVE_COLOUR + <usize>i); }

export function samegameInputPtr(): usize { return INPUT; }
export function samegameOutputPtr(): usize { return OUTPUT; }

/**
 * Resets the arena for a search on a w×h board: sets the bytes a board takes and draws the
 * Zobrist keys (xorshift64 from a fixed seed, as the TS twin does). A status: DONE when ready.
 */
export function prepareBoards(w: i32, h: i32): i32 {
  if (w < 1 || h < 1 || w > MAX_SIDE || h > MAX_SIDE) return BAD_INPUT;
  arenaReset();
  width = w;
  height = h;
  boardBytes = (CELLS + <usize>(w * h) + 15) & ~<usize>15;
  for (let cell = 0; cell < w * h; cell++) store<u8>(COLUMN_OF + <usize>cell, cell / h);
  const keys = w * h * (MAX_COLOURS + 1);
  zobristKeys = arenaAlloc(<u64>keys << 3);
  if (zobristKeys == 0) return OUT_OF_MEMORY;
  let x: u64 = 0x9e3779b97f4a7c15;
  for (let i = 0; i < keys; i++) {
    x = xorshift64(x);
    store<u64>(zobristKeys + (<usize>i << 3), x);
  }
  return DONE;
}

/**
 * Copies INPUT into board `b`, filling its header; false when a colour is out of range or a
 * block floats over a hole (the host rejects such boards first).
 */
export function loadInput(b: usize): bool {
  memory.fill(b, 0, boardBytes);
  let cols = 0;
  let blocks = 0;
  let hash: u64 = 0;
  for (let c = 0; c < width; c++) {
    let h = 0;
    for (let r = 0; r < height; r++) {
      const colour = <i32>load<u8>(INPUT + <usize>(c * height + r));
      if (colour > MAX_COLOURS) return false;
      if (colour == 0) continue;
      if (h != r) return false;
      const cell = cols * height + r;
      store<u8>(b + CELLS + <usize>cell, colour);
      hash ^= zobrist(cell, colour);
      const at = b + COUNTS + (<usize>colour << 1);
      store<u16>(at, load<u16>(at) + 1);
      h++;
    }
    if (h == 0) continue;
    store<u8>(b + HEIGHTS + <usize>cols, h);
    blocks += h;
    cols++;
  }
  store<u16>(b + COLS, cols);
  store<u16>(b + BLOCKS, blocks);
  store<u64>(b + HASH, hash);
  store<i32>(b + SCORE, blocks == 0 ? 1000 : 0);
  return true;
}

// Marks the group of `cell` with the current stamp and returns its size (and notes its
// leftmost column).
function fill(b: usize, cell: i32): i32 {
  const colour = cellAt(b, cell);
  const cols = columnsOf(b);
  let top = 0;
  let size = 0;
  fillFirstColumn = MAX_SIDE;
  fillLastColumn = 0;
  store<u32>(MARK + (<usize>cell << 2), stamp);
  store<u16>(FILL, cell);
  top = 1;
  while (top > 0) {
    top--;
    const at = <i32>load<u16>(FILL + (<usize>top << 1));
    size++;
    const c = <i32>load<u8>(COLUMN_OF + <usize>at);
    const r = at - c * height;
    if (c < fillFirstColumn) fillFirstColumn = c;
    if (c > fillLastColumn) fillLastColumn = c;
    // Up, down, left, right: each pushed once when it has the colour and is unmarked.
    for (let k = 0; k < 4; k++) {
      let n = -1;
      if (k == 0) { if (r + 1 < heightOf(b, c)) n = at + 1; }
      else if (k == 1) { if (r > 0) n = at - 1; }
      else if (k == 2) { if (c > 0 && r < heightOf(b, c - 1)) n = at - height; }
      else if (c + 1 < cols && r < heightOf(b, c + 1)) n = at + height;
      if (n < 0 || cellAt(b, n) != colour) continue;
      const mark = MARK + (<usize>n << 2);
      if (load<u32>(mark) == stamp) continue;
      store<u32>(mark, stamp);
      store<u16>(FILL + (<usize>top << 1), n);
      top++;
    }
  }
  return size;
}

/**
 * Lists the moves of board `b` (groups of 2 or more) in MOVE_*, in order of their first
 * cell; returns how many. `singles` (out) counts the lone blocks.
 */
export function listMoves(b: usize): i32 {
  stamp++;
  let moves = 0;
  const cols = columnsOf(b);
  for (let c = 0; c < cols; c++) {
    const h = heightOf(b, c);
    for (let r = 0; r < h; r++) {
      const cell = c * height + r;
      if (load<u32>(MARK + (<usize>cell << 2)) == stamp) continue;
      const size = fill(b, cell);
      if (size < 2) continue;
      store<u16>(MOVE_CELL + (<usize>moves << 1), cell);
      store<u16>(MOVE_SIZE + (<usize>moves << 1), size);
      store<u8>(MOVE_COLOUR + <usize>moves, cellAt(b, cell));
      moves++;
    }
  }
  return moves;
}

/**
 * Plays the group at `cell` of board `src` into board `dst` (which may be `src` itself: cells
 * only move down and left); returns the group's size.
 */
export function play(src: usize, dst: usize, cell: i32): i32 {
  stamp++;
  const size = fill(src, cell);
  const colour = cellAt(src, cell);
  memory.copy(dst + COUNTS, src + COUNTS, 22);
  const at = dst + COUNTS + (<usize>colour << 1);
  store<u16>(at, load<u16>(at) - <u16>size);
  // Columns left of the group stay as they are; the hash changes by the cells that move.
  const first = fillFirstColumn;
  if (dst != src) {
    memory.copy(dst + CELLS, src + CELLS, <usize>(first * height));
    memory.copy(dst + HEIGHTS, src + HEIGHTS, <usize>first);
  }
  const cols = columnsOf(src);
  let out = first;
  let hash = hashOf(src);
  for (let c = first; c < cols; c++) {
    const h = heightOf(src, c);
    let k = 0;
    for (let r = 0; r < h; r++) {
      const from = c * height + r;
      const v = cellAt(src, from);
      hash ^= zobrist(from, v);
      if (load<u32>(MARK + (<usize>from << 2)) == stamp) continue;
      const to = out * height + k;
      store<u8>(dst + CELLS + <usize>to, v);
      hash ^= zobrist(to, v);
      k++;
    }
    if (k == 0) continue; // an emptied column closes up
    store<u8>(dst + HEIGHTS + <usize>out, k);
    out++;
  }
  const blocks = blocksOf(src) - size;
  let score = scoreOf(src) + (size - 2) * (size - 2);
  if (blocks == 0) score += 1000;
  store<u16>(dst + COLS, out);
  store<u16>(dst + BLOCKS, blocks);
  store<u64>(dst + HASH, hash);
  store<i32>(dst + SCORE, score);
  return size;
}

/**
 * play() without the hash, for playouts: only the group's columns are rebuilt, the columns
 * right of it move left in one copy when some emptied. `dst` may be `src`. The group's size.
 */
export function playFast(src: usize, dst: usize, cell: i32): i32 {
  stamp++;
  const size = fill(src, cell);
  const colour = cellAt(src, cell);
  if (dst != src) memory.copy(dst + COUNTS, src + COUNTS, 22);
  const at = dst + COUNTS + (<usize>colour << 1);
  store<u16>(at, load<u16>(at) - <u16>size);
  const first = fillFirstColumn;
  const last = fillLastColumn;
  const cols = columnsOf(src);
  if (dst != src) {
    memory.copy(dst + CELLS, src + CELLS, <usize>(first * height));
    memory.copy(dst + HEIGHTS, src + HEIGHTS, <usize>first);
  }
  let out = first;
  for (let c = first; c <= last; c++) {
    const h = heightOf(src, c);
    const base = c * height;
    let k = 0;
    const to = out * height;
    for (let r = 0; r < h; r++) {
      const from = base + r;
      if (load<u32>(MARK + (<usize>from << 2)) == stamp) continue;
      store<u8>(dst + CELLS + <usize>(to + k), cellAt(src, from));
      k++;
    }
    if (k == 0) continue;
    store<u8>(dst + HEIGHTS + <usize>out, k);
    out++;
  }
  const rest = cols - last - 1;
  if (rest > 0 && (out != last + 1 || dst != src)) {
    memory.copy(dst + CELLS + <usize>(out * height), src + CELLS + <usize>((last + 1) * height), <usize>(rest * height));
    memory.copy(dst + HEIGHTS + <usize>out, src + HEIGHTS + <usize>(last + 1), <usize>rest);
  }
  const blocks = blocksOf(src) - size;
  let score = scoreOf(src) + (size - 2) * (size - 2);
  if (blocks == 0) score += 1000;
  store<u16>(dst + COLS, out + (rest > 0 ? rest : 0));
  store<u16>(dst + BLOCKS, blocks);
  store<u64>(dst + HASH, 0);
  store<i32>(dst + SCORE, score);
  return size;
}

/** The leftmost column of the group the last play() or playFast() removed. */
export function lastFirstColumn(): i32 { return fillFirstColumn; }
/** Its rightmost column (before the columns closed up). */
export function lastLastColumn(): i32 { return fillLastColumn; }

/** Marks the group of `cell` (see marked). */
export function markGroup(b: usize, cell: i32): void {
  stamp++;
  fill(b, cell);
}

/** True when `cell` is in the group markGroup marked last. */
export function marked(cell: i32): bool {
  return load<u32>(MARK + (<usize>cell << 2)) == stamp;
}

/** True when the block at `cell` (of column c, row r) has a neighbour of its colour. */
export function inGroup(b: usize, c: i32, r: i32): bool {
  const cell = c * height + r;
  const colour = cellAt(b, cell);
  return (r + 1 < heightOf(b, c) && cellAt(b, cell + 1) == colour)
    || (r > 0 && cellAt(b, cell - 1) == colour)
    || (c > 0 && r < heightOf(b, c - 1) && cellAt(b, cell - height) == colour)
    || (c + 1 < columnsOf(b) && r < heightOf(b, c + 1) && cellAt(b, cell + height) == colour);
}

@inline export function colourAt(b: usize, cell: i32): i32 { return cellAt(b, cell); }

/** Colours with exactly one block: those blocks stay to the end. */
export function lowerBound(b: usize): i32 {
  let lone = 0;
  for (let colour = 1; colour <= MAX_COLOURS; colour++) if (countOf(b, colour) == 1) lone++;
  return lone;
}

// ---- the fewest-left search --------------------------------------------------------------

// Frame: a board, then the number of moves, the next one to try, the least result of the
// children so far, and the moves' cells in the order they are tried.
const F_COUNT: usize = 0;
const F_NEXT: usize = 2;
const F_VALUE: usize = 4;
const F_MOVES: usize = 8;
const NONE: i32 = 0xffff;

let frames: usize = 0;
let frameBytes: usize = 0;
let table: usize = 0; // entries: hash u64, bound u32, pad
let tableMask: u64 = 0;
let depth: i32 = 0;
let best: i32 = 0; // fewest blocks left on a line found (or the bound to beat)
let bestLength: i32 = -1; // clicks of that line; -1 before one is found
let finished = true;
let searchNodes: u64 = 0;

@inline function frameAt(d: i32): usize { return frames + <usize>d * frameBytes; }
@inline function slotOf(f: usize): usize { return f + boardBytes; }
@inline function frameMove(f: usize, i: i32): i32 { return <i32>load<u16>(slotOf(f) + F_MOVES + (<usize>i << 1)); }

export function samegameNodes(): u64 { return searchNodes; }
/** The fewest blocks left on the best line found (the bound passed to start when none was). */
export function samegameBest(): i32 { return best; }
/** Clicks of the best line found (in OUTPUT), or -1 when none was found. */
export function samegameBestLength(): i32 { return bestLength; }

/**
 * Loads the board from INPUT (w columns, h rows) and starts a search for a line leaving
 * fewer than `bound` blocks (1: clear mode; blocks + 1: fewest left). The transposition
 * table has 2^tableBits entries of 16 bytes.
 */
export function samegameStart(w: i32, h: i32, bound: i32, tableBits: i32): i32 {
  finished = true;
  if (tableBits < 4 || tableBits > 30 || bound < 1) return BAD_INPUT;
  const ready = prepareBoards(w, h);
  if (ready != DONE) return ready;
  const maxMoves = w * h / 2 + 1;
  frameBytes = boardBytes + ((F_MOVES + <usize>maxMoves * 2 + 15) & ~<usize>15);
  frames = arenaAlloc(<u64>frameBytes * <u64>(maxMoves + 1));
  if (frames == 0) return OUT_OF_MEMORY;
  if (!loadInput(frameAt(0))) return BAD_INPUT;
  table = arenaAlloc(<u64>16 << <u64>tableBits);
  if (table == 0) return OUT_OF_MEMORY;
  memory.fill(table, 0, <usize>16 << <usize>tableBits);
  tableMask = (<u64>1 << <u64>tableBits) - 1;
  best = bound;
  bestLength = -1;
  searchNodes = 1;
  depth = 0;
  finished = enter(frameAt(0)) >= 0;
  return DONE;
}

// Records the line to the current depth as the best one, leaving `left` blocks.
function improve(left: i32): void {
  best = left;
  bestLength = depth;
  for (let d = 0; d < depth; d++) {
    const f = frameAt(d);
    store<u16>(OUTPUT + (<usize>d << 1), frameMove(f, <i32>load<u16>(slotOf(f) + F_NEXT) - 1));
  }
}

// Sort key of a move: moves that empty their colour first, then larger groups first.
@inline function orderKey(b: usize, i: i32): i32 {
  const size = moveSize(i);
  return (size == countOf(b, moveColour(i)) ? 0 : 2048) - size;
}

// A new node at frame f: returns its result when it is a leaf or cut, or -1 to search it.
function enter(f: usize): i32 {
  const blocks = blocksOf(f);
  if (blocks == 0 || blocks < best && lowerBound(f) == blocks) {
    // Cleared, or nothing but lone colours left: no move can do better than this.
    if (blocks < best) improve(blocks);
    return blocks;
  }
  const bound = lowerBound(f);
  if (bound >= best) return bound;
  const key = hashOf(f);
  const entry = table + (<usize>(key & tableMask) << 4);
  if (load<u64>(entry) == key) {
    const known = <i32>load<u32>(entry + 8);
    if (known >= best) return known;
  }
  const moves = listMoves(f);
  if (moves == 0) {
    if (blocks < best) improve(blocks);
    return blocks;
  }
  // Insertion sort by key (stable: ties keep board order).
  const slot = slotOf(f);
  for (let i = 0; i < moves; i++) {
    const k = orderKey(f, i);
    const cell = moveCell(i);
    let j = i;
    while (j > 0 && <i32>load<i16>(MOVE_KEY + (<usize>(j - 1) << 1)) > k) {
      store<i16>(MOVE_KEY + (<usize>j << 1), load<i16>(MOVE_KEY + (<usize>(j - 1) << 1)));
      store<u16>(slot + F_MOVES + (<usize>j << 1), load<u16>(slot + F_MOVES + (<usize>(j - 1) << 1)));
      j--;
    }
    store<i16>(MOVE_KEY + (<usize>j << 1), <i16>k);
    store<u16>(slot + F_MOVES + (<usize>j << 1), cell);
  }
  store<u16>(slot + F_COUNT, moves);
  store<u16>(slot + F_NEXT, 0);
  store<u16>(slot + F_VALUE, NONE);
  return -1;
}

@inline function lower(f: usize, v: i32): void {
  const at = slotOf(f) + F_VALUE;
  if (v < <i32>load<u16>(at)) store<u16>(at, v);
}

/** Advances the search by at most `budget` nodes: MORE, or DONE when it is over. */
export function samegameRun(budget: i32): i32 {
  if (finished) return DONE;
  while (budget > 0) {
    const f = frameAt(depth);
    const slot = slotOf(f);
    const next = <i32>load<u16>(slot + F_NEXT);
    if (best > 0 && next < <i32>load<u16>(slot + F_COUNT)) {
      store<u16>(slot + F_NEXT, next + 1);
      const child = frameAt(depth + 1);
      play(f, child, frameMove(f, next));
      depth++;
      searchNodes++;
      budget--;
      const v = enter(child);
      if (v >= 0) {
        depth--;
        lower(f, v);
      }
      continue;
    }
    // Every child searched (or the search is won): the node's bound is known.
    const v = <i32>load<u16>(slot + F_VALUE);
    if (best > 0) {
      const key = hashOf(f);
      const entry = table + (<usize>(key & tableMask) << 4);
      store<u64>(entry, key);
      store<u32>(entry + 8, v);
    }
    if (depth == 0) {
      finished = true;
      return DONE;
    }
    depth--;
    lower(frameAt(depth), v);
  }
  return MORE;
}
