// Additive pattern databases for the sliding-tile IDA* (sliding.ts), built by
// breadth-first search in the engine and kept in the shared arena.
//
// Tiles are labelled by their goal cell, so a pattern is a list of goal cells. Its table has
// one byte per placement of the pattern's k tiles on the n cells, n!/(n-k)! entries, indexed
// by the rank of the cells in pattern order: digit i is the cell's number among the cells the
// earlier tiles leave free. Every move of a pattern tile costs one and moves of other tiles
// cost nothing, so the entries of disjoint patterns add up to a lower bound.
//
// On boards of up to 16 cells the search follows the blank too: a state is the pattern's
// placement and the region of free cells the blank can reach without moving a pattern tile
// (named by its lowest cell), and a pattern tile moves only into that region. The entry of a
// placement is its smallest distance over the regions. Larger boards (5×5) ignore the blank:
// a pattern tile may move into any free cell, a weaker bound that needs no state per region.
import { DONE, MORE, BAD_INPUT, OUT_OF_MEMORY, arenaAlloc, arenaReset } from '../shared/bits';

export const MAX_SLOTS: i32 = 4;
export const MAX_PATTERN: i32 = 8;
export const MAX_CELLS: i32 = 32;
const UNSEEN: u8 = 0xff;

// Variables, not constants, only for the build whose memory threads share (shared.ts), which
// moves them to each instance's block (pdbPlaceState); the engine's own build never does.
// Host-written: the goal cells of the pattern being defined.
let PATTERN_INPUT: usize = memory.data(MAX_PATTERN);
// Per slot: its cells (MAX_PATTERN bytes), its size k, its table and the table's entries.
let SLOT_CELLS: usize = memory.data(MAX_SLOTS * MAX_PATTERN);
let SLOT_K: usize = memory.data(MAX_SLOTS * 4);
let SLOT_TABLE: usize = memory.data(MAX_SLOTS * 4);
let SLOT_SIZE: usize = memory.data(MAX_SLOTS * 4);
// Per slot: 1 when its table is packed, 4 bits an entry (pdbPacked.ts).
let SLOT_PACKED: usize = memory.data(MAX_SLOTS * 4);

/** Moves the pattern input and the slots to a block at `base` (16-byte aligned); returns its end. */
export function pdbPlaceState(base: usize): usize {
  PATTERN_INPUT = base;
  SLOT_CELLS = base + 16;
  SLOT_K = SLOT_CELLS + <usize>(MAX_SLOTS * MAX_PATTERN);
  SLOT_TABLE = SLOT_K + <usize>(MAX_SLOTS * 4);
  SLOT_SIZE = SLOT_TABLE + <usize>(MAX_SLOTS * 4);
  SLOT_PACKED = SLOT_SIZE + <usize>(MAX_SLOTS * 4);
  return SLOT_PACKED + <usize>(MAX_SLOTS * 4);
}
// Neighbours of each cell in the order up, left, right, down (-1 off the board).
const NEIGHBOURS: usize = memory.data(MAX_CELLS * 4);
// Scratch of the build: digits and cells of the entry being expanded.
const DIGITS: usize = memory.data(MAX_PATTERN * 4);
const CELLS: usize = memory.data(MAX_PATTERN * 4);

let boardCells: i32 = 0;
let boardWidth: i32 = 0;
// Build state: the slot, the depth being expanded and the next entry to scan.
let buildSlot: i32 = -1;
let buildDepth: u32 = 0;
let scan: u32 = 0;
let filled: u32 = 0;
let filledAtLevelStart: u32 = 0;
// The search with the blank: a ring queue of states (rank × cells + region) and a visited bit
// per state, in scratch memory reused by each build.
export const BLANK_AWARE_CELLS: i32 = 16;
let withBlank: bool = false;
let scratch: usize = 0;
let scratchBytes: u64 = 0;
let queue: usize = 0;
let queueSlots: u32 = 0;
let head: u32 = 0;
let tail: u32 = 0;
let queued: u32 = 0;
let levelLeft: u32 = 0;   // states of the current depth still to expand
let nextLevel: u32 = 0;   // states of the next depth queued so far
let visited: usize = 0;
let fullMask: u32 = 0;
let notFirstColumn: u32 = 0; // cells with a left neighbour
let notLastColumn: u32 = 0;  // cells with a right neighbour

@inline export function slotK(slot: i32): i32 { return load<i32>(SLOT_K + (<usize>slot << 2)); }
@inline export function slotCells(slot: i32): usize { return SLOT_CELLS + <usize>(slot * MAX_PATTERN); }
@inline export function slotCell(slot: i32, i: i32): i32 { return load<u8>(slotCells(slot) + <usize>i); }
@inline export function slotTable(slot: i32): usize { return load<u32>(SLOT_TABLE + (<usize>slot << 2)); }

export function pdbPatternPtr(): usize { return PATTERN_INPUT; }

/** A fresh arena for a new set of tables: every slot forgotten. */
export function slidingReset(): void {
  arenaReset();
  pdbClear();
}

/** Forgets every slot. */
export function pdbClear(): void {
  scratch = 0;
  scratchBytes = 0;
  for (let s = 0; s < MAX_SLOTS; s++) {
    store<i32>(SLOT_K + (<usize>s << 2), 0);
    store<u32>(SLOT_TABLE + (<usize>s << 2), 0);
    store<u32>(SLOT_SIZE + (<usize>s << 2), 0);
    store<i32>(SLOT_PACKED + (<usize>s << 2), 0);
  }
  buildSlot = -1;
}

/** Entries of a table of k tiles on n cells: n!/(n-k)!. */
function tableSize(n: i32, k: i32): u64 {
  let size: u64 = 1;
  for (let i = 0; i < k; i++) size *= <u64>(n - i);
  return size;
}

function setBoard(cells: i32, width: i32): void {
  boardCells = cells;
  boardWidth = width;
  fullMask = cells == 32 ? 0xffffffff : (<u32>1 << <u32>cells) - 1;
  notFirstColumn = 0;
  notLastColumn = 0;
  for (let c = 0; c < cells; c++) {
    if (c % width != 0) notFirstColumn |= <u32>1 << <u32>c;
    if (c % width != width - 1) notLastColumn |= <u32>1 << <u32>c;
  }
  fillNeighbours(NEIGHBOURS, cells, width);
}

/** Writes the neighbours of each cell (up, left, right, down; -1 off the board), 4 bytes a cell. */
export function fillNeighbours(table: usize, cells: i32, width: i32): void {
  for (let c = 0; c < cells; c++) {
    const r = c / width;
    const col = c % width;
    const at = table + (<usize>c << 2);
    store<i8>(at, r > 0 ? <i8>(c - width) : -1);
    store<i8>(at + 1, col > 0 ? <i8>(c - 1) : -1);
    store<i8>(at + 2, col < width - 1 ? <i8>(c + 1) : -1);
    store<i8>(at + 3, c + width < cells ? <i8>(c + width) : -1);
  }
}

/**
 * Defines slot `slot` as the k goal cells in the pattern input, on a board of `cells` cells
 * `width` wide, and allocates its table from the arena: a byte an entry, or with `packed` 4 bits
 * (built by pdbPacked.ts, following the blank). Returns the table's address (the
 * host may fill it from a cache) or 0 when the memory limit refuses it.
 */
export function pdbDefine(slot: i32, cells: i32, width: i32, k: i32, packed: i32): usize {
  if (slot < 0 || slot >= MAX_SLOTS || k < 1 || k > MAX_PATTERN || cells > MAX_CELLS || k >= cells) return 0;
  const size = tableSize(cells, k);
  if (size > 0xffffffff) return 0;
  const table = arenaAlloc(packed != 0 ? (size + 1) >> 1 : size);
  if (table == 0) return 0;
  setBoard(cells, width);
  setSlot(slot, k, table, <u32>size, packed);
  return table;
}

/**
 * Defines slot `slot` as pdbDefine does, over a table already filled at `table` (the tables a
 * host loaded once into a memory that threads share); 0 for arguments pdbDefine refuses.
 */
export function pdbAdopt(slot: i32, cells: i32, k: i32, packed: i32, table: usize): usize {
  if (slot < 0 || slot >= MAX_SLOTS || k < 1 || k > MAX_PATTERN || cells > MAX_CELLS || k >= cells || table == 0) return 0;
  const size = tableSize(cells, k);
  if (size > 0xffffffff) return 0;
  setSlot(slot, k, table, <u32>size, packed);
  return table;
}

function setSlot(slot: i32, k: i32, table: usize, size: u32, packed: i32): void {
  for (let i = 0; i < k; i++) store<u8>(slotCells(slot) + <usize>i, load<u8>(PATTERN_INPUT + <usize>i));
  store<i32>(SLOT_K + (<usize>slot << 2), k);
  store<u32>(SLOT_TABLE + (<usize>slot << 2), <u32>table);
  store<u32>(SLOT_SIZE + (<usize>slot << 2), size);
  store<i32>(SLOT_PACKED + (<usize>slot << 2), packed != 0 ? 1 : 0);
}

/** Entries of a slot's table. */
export function pdbSize(slot: i32): u32 { return load<u32>(SLOT_SIZE + (<usize>slot << 2)); }
/** Bytes of a slot's table. */
export function pdbBytes(slot: i32): u32 {
  const size = pdbSize(slot);
  return load<i32>(SLOT_PACKED + (<usize>slot << 2)) != 0 ? (size + 1) >> 1 : size;
}
@inline export function slotPacked(slot: i32): bool { return load<i32>(SLOT_PACKED + (<usize>slot << 2)) != 0; }
/** The board of the slots defined last: its cells and width. */
export function boardCellsOf(): i32 { return boardCells; }
export function boardWidthOf(): i32 { return boardWidth; }
export function pdbTablePtr(slot: i32): usize { return slotTable(slot); }

/** The rank of k cells (in pattern order) among the placements on n cells. */
@inline export function rankCells(cellsAt: usize, k: i32, n: i32): u32 {
  let used: u32 = 0;
  let index: u32 = 0;
  for (let i = 0; i < k; i++) {
    const p = load<i32>(cellsAt + (<usize>i << 2));
    const digit = <u32>p - popcnt(used & ((<u32>1 << <u32>p) - 1));
    index = index * <u32>(n - i) + digit;
    used |= <u32>1 << <u32>p;
  }
  return index;
}

/**
 * Starts the breadth-first search that fills slot `slot`'s table from the goal, where the
 * blank is at cell `blank`. OUT_OF_MEMORY when the scratch of the search is refused.
 */
export function pdbBuildStart(slot: i32, blank: i32): i32 {
  const table = slotTable(slot);
  if (slot < 0 || slot >= MAX_SLOTS || table == 0 || slotPacked(slot) || blank < 0 || blank >= boardCells) return BAD_INPUT;
  const size = pdbSize(slot);
  buildSlot = slot;
  filled = 0;
  withBlank = boardCells <= BLANK_AWARE_CELLS;
  visitedBytes = 0;
  if (withBlank) {
    // Visited bits for size × cells states, and a queue of twice the placements.
    const bits = (<u64>size * <u64>boardCells + 7) >> 3;
    const slots = <u64>size * 2;
    const bytes = ((bits + 15) & ~<u64>15) + slots * 4;
    if (bytes > scratchBytes) {
      scratch = arenaAlloc(bytes);
      if (scratch == 0) {
        scratchBytes = 0;
        buildSlot = -1;
        return OUT_OF_MEMORY;
      }
      scratchBytes = bytes;
    }
    visited = scratch;
    visitedBytes = bits;
    queue = scratch + <usize>((bits + 15) & ~<u64>15);
    queueSlots = <u32>slots;
  }
  // The table and the visited bits are cleared by pdbBuildRun, in pieces, before the search.
  clearing = true;
  clearedBytes = 0;
  buildBlank = blank;
  return MORE;
}

// Clearing before a build: bytes done of the table (then of the visited bits).
let clearing: bool = false;
let clearedBytes: u64 = 0;
let visitedBytes: u64 = 0;
let buildBlank: i32 = 0;
const CLEAR_BYTES: u64 = 8192; // bytes cleared per unit of budget

/** Clears up to `budget` units of the table and visited bits; true when all is clear. */
function clearPiece(budget: i32): bool {
  const size = <u64>pdbSize(buildSlot);
  let allowed = <u64>max(budget, 1) * CLEAR_BYTES;
  if (clearedBytes < size) {
    const bytes = min<u64>(size - clearedBytes, allowed);
    memory.fill(slotTable(buildSlot) + <usize>clearedBytes, UNSEEN, <usize>bytes);
    clearedBytes += bytes;
    allowed -= bytes;
  }
  if (clearedBytes >= size && allowed > 0 && clearedBytes < size + visitedBytes) {
    const at = clearedBytes - size;
    const bytes = min<u64>(visitedBytes - at, allowed);
    memory.fill(visited + <usize>at, 0, <usize>bytes);
    clearedBytes += bytes;
  }
  return clearedBytes >= size + visitedBytes;
}

/** The search's first state: the pattern on its goal cells (and the blank's region). */
function seedBuild(): void {
  const slot = buildSlot;
  const table = slotTable(slot);
  const k = slotK(slot);
  for (let i = 0; i < k; i++) store<i32>(CELLS + (<usize>i << 2), slotCell(slot, i));
  const start = rankCells(CELLS, k, boardCells);
  store<u8>(table + <usize>start, 0);
  buildDepth = 0;
  scan = 0;
  filled = 1;
  filledAtLevelStart = 1;
  if (withBlank) {
    let used: u32 = 0;
    for (let i = 0; i < k; i++) used |= <u32>1 << <u32>slotCell(slot, i);
    const state = start * <u32>boardCells + ctz(flood(<u32>1 << <u32>buildBlank, fullMask & ~used));
    markVisited(state);
    store<u32>(queue, state);
    head = 0;
    tail = 1;
    queued = 1;
    levelLeft = 1;
    nextLevel = 0;
  }
}

// The cells the blank reaches from `from` through `free` cells.
@inline function flood(from: u32, free: u32): u32 {
  return floodRegion(from, free, boardWidth, notFirstColumn, notLastColumn);
}

/** The cells reachable from `from` through `free` cells on a board `width` wide (the column masks: cells with a left, a right neighbour). */
@inline export function floodRegion(from: u32, free: u32, width: i32, notFirstColumn: u32, notLastColumn: u32): u32 {
  let region = from;
  for (;;) {
    const grown = (region | ((region << 1) & notFirstColumn) | ((region >> 1) & notLastColumn) |
      (region << <u32>width) | (region >> <u32>width)) & free;
    if (grown == region) return region;
    region = grown;
  }
  return region;
}

@inline function markVisited(state: u32): bool {
  const at = visited + <usize>(state >> 3);
  const bit: u32 = <u32>1 << (state & 7);
  const byte = <u32>load<u8>(at);
  if ((byte & bit) != 0) return false;
  store<u8>(at, <u8>(byte | bit));
  return true;
}

// Unranks `index` into CELLS; returns the mask of the cells.
function unrank(index: u32, k: i32): u32 {
  const n = boardCells;
  for (let i = k - 1; i >= 0; i--) {
    const radix = <u32>(n - i);
    store<u32>(DIGITS + (<usize>i << 2), index % radix);
    index /= radix;
  }
  let used: u32 = 0;
  for (let i = 0; i < k; i++) {
    let free = ~used;
    const digit = load<u32>(DIGITS + (<usize>i << 2));
    for (let j: u32 = 0; j < digit; j++) free &= free - 1;
    const p = ctz(free);
    store<i32>(CELLS + (<usize>i << 2), p);
    used |= <u32>1 << p;
  }
  return used;
}

// Expands a state of the search with the blank: each pattern tile next to the blank's region
// moves into it, leaving the blank where the tile was.
function expandWithBlank(table: usize, state: u32, k: i32): bool {
  const n = <u32>boardCells;
  const used = unrank(state / n, k);
  return expandInto(table, k, used, flood(<u32>1 << (state % n), fullMask & ~used), true);
}

// Moves each pattern tile (at CELLS, occupying `used`) to each neighbouring cell in `allowed`,
// giving unseen placements the next depth. With the blank, a child is a state (placement and
// the blank's region), queued when new; false when the queue is full.
@inline function expandInto(table: usize, k: i32, used: u32, allowed: u32, withBlank: bool): bool {
  const n = <u32>boardCells;
  const next = <u8>(buildDepth + 1);
  for (let i = 0; i < k; i++) {
    const at = CELLS + (<usize>i << 2);
    const p = load<i32>(at);
    for (let dir = 0; dir < 4; dir++) {
      const q = <i32>load<i8>(NEIGHBOURS + (<usize>p << 2) + <usize>dir);
      if (q < 0 || (allowed & (<u32>1 << <u32>q)) == 0) continue;
      store<i32>(at, q);
      const child = rankCells(CELLS, k, boardCells);
      if (withBlank) {
        const moved = used ^ (<u32>1 << <u32>p) ^ (<u32>1 << <u32>q);
        const childState = child * n + ctz(flood(<u32>1 << <u32>p, fullMask & ~moved));
        if (!markVisited(childState)) continue;
        if (queued >= queueSlots) return false;
        store<u32>(queue + (<usize>tail << 2), childState);
        tail = tail + 1 == queueSlots ? 0 : tail + 1;
        queued++;
        nextLevel++;
      }
      const entry = table + <usize>child;
      if (load<u8>(entry) == UNSEEN) {
        store<u8>(entry, next);
        filled++;
      }
    }
    store<i32>(at, p);
  }
  return true;
}

function buildWithBlankRun(budget: i32): i32 {
  const table = slotTable(buildSlot);
  const k = slotK(buildSlot);
  for (let left = budget; left > 0; left -= 4) {
    if (levelLeft == 0) {
      if (nextLevel == 0) {
        buildSlot = -1;
        return DONE;
      }
      buildDepth++;
      levelLeft = nextLevel;
      nextLevel = 0;
    }
    const state = load<u32>(queue + (<usize>head << 2));
    head = head + 1 == queueSlots ? 0 : head + 1;
    queued--;
    levelLeft--;
    if (!expandWithBlank(table, state, k)) {
      buildSlot = -1;
      return OUT_OF_MEMORY;
    }
  }
  return MORE;
}

/** Entries filled so far by the build in progress. */
export function pdbFilled(): u32 { return filled; }

// Expands the entry `index` (at depth buildDepth): every move of one pattern tile to a free cell.
function expand(table: usize, index: u32, k: i32): void {
  const used = unrank(index, k);
  expandInto(table, k, used, fullMask & ~used, false);
}

/** The build's stage (1 clearing, 0 searching): a unit costs unlike times in them, so the host keeps a budget for each. */
export function pdbBuildStage(): i32 { return clearing ? 1 : 0; }

/** Advances the build by about `budget` entries scanned; DONE when the table is full. */
export function pdbBuildRun(budget: i32): i32 {
  if (buildSlot < 0) return BAD_INPUT;
  if (clearing) {
    if (!clearPiece(budget)) return MORE;
    clearing = false;
    seedBuild();
    return MORE;
  }
  if (withBlank) return buildWithBlankRun(budget);
  const table = slotTable(buildSlot);
  const size = pdbSize(buildSlot);
  const k = slotK(buildSlot);
  const depth = <u8>buildDepth;
  let left = budget;
  while (left > 0) {
    if (scan >= size) {
      // A level that added nothing (or a full table) ends the search.
      if (filled == filledAtLevelStart || filled == size) {
        buildSlot = -1;
        return DONE;
      }
      filledAtLevelStart = filled;
      buildDepth++;
      scan = 0;
      return MORE;
    }
    const end = min<u32>(size, scan + <u32>left);
    left -= <i32>(end - scan);
    for (let i = scan; i < end; i++) {
      if (load<u8>(table + <usize>i) == depth) {
        expand(table, i, k);
        left -= 8;
      }
    }
    scan = end;
  }
  return MORE;
}
