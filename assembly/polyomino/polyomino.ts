// Polyomino tiling: a resumable backtracker that always covers the first empty cell of the
// region, trying the placements whose first cell it is (precomputed per cell, grouped by
// piece). Regions of up to 64 cells are one u64 word; larger ones are spans of words.
//
// After each placement the empty components next to it are measured (flood fill, up to a
// limit); a component no combination of the remaining pieces can fill cuts the branch.
//
// Symmetry is handled by the host: it pre-places one piece at the representative of each
// orbit of its placements and passes the orbit size as the weight. When that placement is
// fixed by some symmetries (it lies on a mirror line or at the centre), the host passes
// them as a mask and a leaf counts as distinct only if no image under them is smaller.
//
// Input (u32 words, written by the host after polyInputAlloc):
//   header  C cells, K kinds, M placements, S symmetries (at most 63), P cells per placement,
//           L flood limit (2..64: components of fewer cells are checked),
//           D directions (4 on a plane, 6 in space)
//   kinds   K × (area, count, exact)            exact 1: used exactly count times, 0: at most
//   nbrs    C × D neighbour cells (plane: up, right, down, left; space adds above, below;
//           -1 off the region)
//   places  M × (kind, P cells ascending, unused slots 0xffffffff), grouped by kind
//   syms    S × (C cell images, K kind images, D direction images)
import { DONE, SOLUTION, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaReset, arenaAlloc, arenaGeneration } from '../shared/bits';
import { get, set, get64, set64 } from '../shared/words';

export const MAX_CELLS: i32 = 1024;
const HEADER: i32 = 7;
const MAX_DIRECTIONS: i32 = 6;
const MAX_SYMMETRIES: i32 = 63;
// A list entry of the one-word search: cells u64, near cells u64, kind u32, skip u32.
const ENTRY: usize = 24;
const NONE: u32 = 0xffffffff;

// Host-written: placements fixed before the search (one part of the work).
const PART: usize = memory.data(MAX_CELLS * 4);
// Engine-written: the placements of the solution (or split prefix) just reported.
const OUTPUT: usize = memory.data(MAX_CELLS * 4);

@inline function getByte(base: usize, i: i32): u32 { return load<u8>(base + <usize>i); }

let input: usize = 0;
let loadedGeneration: u32 = 0xffffffff; // the arena generation the tables were built in
let cells: i32 = 0;
let kinds: i32 = 0;
let placements: i32 = 0;
let symmetries: i32 = 0;
let perPlacement: i32 = 0;
let floodLimit: i32 = 0;
let dirs: i32 = 4;
let words: i32 = 0;

// Views into the input.
let kindTable: usize = 0;
let nbrs: usize = 0;
let placeTable: usize = 0;
let symTable: usize = 0;

// Tables built by polyLoad. Per list entry j (placements sorted by first cell):
let listId: usize = 0;    // placement id
let listKind: usize = 0;
let listSkip: usize = 0;  // first later entry of this cell with another kind
let listOffset: usize = 0; // spans: offset of the span in the pools
let entries: usize = 0;   // one word: the list packed for the search (see ENTRY)
let listFrom: usize = 0;  // spans: first word
let listSpan: usize = 0;  // spans: words
let maskPool: usize = 0;
let nearPool: usize = 0;
let cellStart: usize = 0; // C + 1 list offsets
let cellNear: usize = 0;  // one word: each cell's neighbours as a mask
let conn: usize = 0;      // M × P bytes: which neighbours of each placement cell share its tile
let invPerm: usize = 0;   // S × C: the cell each symmetry maps onto c
let connImage: usize = 0; // S × 64 bytes: a cell's connection bits under each symmetry
let labels: usize = 0;    // C: leaf labels (kind << 6 | connections)
let remaining: usize = 0; // K: uses left per kind
let fillable: usize = 0;  // 64 bytes: component sizes the pieces can fill (uniform sets)
let uniform: bool = false;
let board: usize = 0;     // spans: the board's words
let stamps: usize = 0;    // spans: per cell, the flood that last reached it
let floodStack: usize = 0;
let stackCur: usize = 0;  // per depth: next list entry to try
let stackEnd: usize = 0;
let stackPlaced: usize = 0;
let stackCell: usize = 0;

// The current search.
let board1: u64 = 0;
let empty: i32 = 0;
let depth: i32 = 0;
let preCount: i32 = 0;
let weight: u64 = 1;
let symMask: u64 = 0;
let emit: bool = false;
let splitDepth: i32 = -1;
let finished: bool = true;
let popPending: bool = false;
let rootLeafPending: bool = false;
let outputLength: i32 = 0;
let total: u64 = 0;
let distinct: u64 = 0;
let nodes: u64 = 0;

export function polyPartPtr(): usize { return PART; }
export function polyOutputPtr(): usize { return OUTPUT; }
export function polyOutputLength(): i32 { return outputLength; }
export function polyTotal(): u64 { return total; }
export function polyDistinct(): u64 { return distinct; }
export function polyNodes(): u64 { return nodes; }

/** Forgets any loaded problem and returns room for `count` input words (0: out of memory). */
export function polyInputAlloc(count: u32): usize {
  arenaReset();
  input = arenaAlloc(<u64>count << 2);
  return input;
}

// Another engine of this instance may have reset the arena since the tables were built.
@inline function isLoaded(): bool { return loadedGeneration == arenaGeneration(); }

@inline function kindArea(k: i32): u32 { return get(kindTable, k * 3); }
@inline function nbr(c: i32, d: i32): i32 { return <i32>get(nbrs, c * dirs + d); }
@inline function placeKind(p: i32): u32 { return get(placeTable, p * (perPlacement + 1)); }
@inline function placeCell(p: i32, i: i32): u32 { return get(placeTable, p * (perPlacement + 1) + 1 + i); }

function alloc(bytes: i32): usize {
  return arenaAlloc(<u64>max(bytes, 8));
}

/** Checks the input and builds the search tables. */
export function polyLoad(): i32 {
  loadedGeneration = 0xffffffff;
  if (input == 0) return BAD_INPUT;
  cells = <i32>get(input, 0);
  kinds = <i32>get(input, 1);
  placements = <i32>get(input, 2);
  symmetries = <i32>get(input, 3);
  perPlacement = <i32>get(input, 4);
  floodLimit = <i32>get(input, 5);
  dirs = <i32>get(input, 6);
  if (cells < 1 || cells > MAX_CELLS || kinds < 1 || placements < 0 || symmetries < 0 || symmetries > MAX_SYMMETRIES) return BAD_INPUT;
  if (dirs != 4 && dirs != MAX_DIRECTIONS) return BAD_INPUT;
  if (perPlacement < 1 || perPlacement > cells || floodLimit < 2 || floodLimit > 64) return BAD_INPUT;
  words = (cells + 63) >> 6;
  kindTable = input + (<usize>HEADER << 2);
  nbrs = kindTable + (<usize>(kinds * 3) << 2);
  placeTable = nbrs + (<usize>(cells * dirs) << 2);
  symTable = placeTable + (<usize>(placements * (perPlacement + 1)) << 2);

  uniform = true;
  for (let k = 0; k < kinds; k++) {
    const area = kindArea(k);
    if (area < 1 || area > <u32>cells) return BAD_INPUT;
    if (area != kindArea(0) || get(kindTable, k * 3 + 2) == 0) uniform = false;
  }
  for (let i = 0; i < cells * dirs; i++) {
    const c = <i32>get(nbrs, i);
    if (c < -1 || c >= cells) return BAD_INPUT;
  }
  // Placements: a known kind, ascending cells, first cells in kind order within each cell.
  for (let p = 0; p < placements; p++) {
    if (placeKind(p) >= <u32>kinds) return BAD_INPUT;
    if (p > 0 && placeKind(p) < placeKind(p - 1)) return BAD_INPUT;
    const size = <i32>kindArea(placeKind(p));
    if (size > perPlacement) return BAD_INPUT;
    for (let i = 0; i < perPlacement; i++) {
      const c = placeCell(p, i);
      if (i >= size) { if (c != NONE) return BAD_INPUT; continue; }
      if (c >= <u32>cells || (i > 0 && c <= placeCell(p, i - 1))) return BAD_INPUT;
    }
  }
  const symWords = cells + kinds + dirs;
  for (let s = 0; s < symmetries; s++) {
    const base = symTable + (<usize>(s * symWords) << 2);
    for (let c = 0; c < cells; c++) if (get(base, c) >= <u32>cells) return BAD_INPUT;
    for (let k = 0; k < kinds; k++) if (get(base, cells + k) >= <u32>kinds) return BAD_INPUT;
    for (let d = 0; d < dirs; d++) if (get(base, cells + kinds + d) >= <u32>dirs) return BAD_INPUT;
  }

  listId = alloc(placements * 4);
  listKind = alloc(placements * 4);
  listSkip = alloc(placements * 4);
  listOffset = alloc(placements * 4);
  listFrom = alloc(placements * 4);
  listSpan = alloc(placements * 4);
  cellStart = alloc((cells + 1) * 4);
  cellNear = alloc(cells * 8);
  conn = alloc(placements * perPlacement);
  invPerm = alloc(symmetries * cells * 4);
  connImage = alloc(symmetries * 64);
  labels = alloc(cells * 4);
  remaining = alloc(kinds * 4);
  fillable = alloc(64);
  board = alloc(words * 8);
  stamps = alloc(cells * 4);
  floodStack = alloc(cells * 4);
  stackCur = alloc((cells + 1) * 4);
  stackEnd = alloc((cells + 1) * 4);
  stackPlaced = alloc((cells + 1) * 4);
  stackCell = alloc((cells + 1) * 4);
  if (stackCell == 0) return OUT_OF_MEMORY;

  // Lists by first cell (a stable counting sort keeps the kind order within a cell).
  for (let c = 0; c <= cells; c++) set(cellStart, c, 0);
  for (let p = 0; p < placements; p++) {
    const first = <i32>placeCell(p, 0);
    set(cellStart, first + 1, get(cellStart, first + 1) + 1);
  }
  for (let c = 0; c < cells; c++) set(cellStart, c + 1, get(cellStart, c + 1) + get(cellStart, c));
  for (let p = 0; p < placements; p++) {
    const first = <i32>placeCell(p, 0);
    const j = <i32>get(cellStart, first);
    set(cellStart, first, j + 1);
    set(listId, j, p);
    set(listKind, j, placeKind(p));
  }
  for (let c = cells; c > 0; c--) set(cellStart, c, get(cellStart, c - 1));
  set(cellStart, 0, 0);
  for (let c = 0; c < cells; c++) {
    const end = <i32>get(cellStart, c + 1);
    for (let j = end - 1; j >= <i32>get(cellStart, c); j--) {
      const next = j + 1;
      set(listSkip, j, next < end && get(listKind, next) == get(listKind, j) ? get(listSkip, next) : next);
    }
  }

  // Connection bits of each placement cell: which of its neighbours are in the tile.
  for (let p = 0; p < placements; p++) {
    const size = <i32>kindArea(placeKind(p));
    for (let i = 0; i < size; i++) {
      const c = <i32>placeCell(p, i);
      let bits: u32 = 0;
      for (let d = 0; d < dirs; d++) {
        const other = nbr(c, d);
        if (other < 0) continue;
        for (let t = 0; t < size; t++) if (<i32>placeCell(p, t) == other) bits |= <u32>1 << <u32>d;
      }
      store<u8>(conn + <usize>(p * perPlacement + i), <u8>bits);
    }
  }
  for (let s = 0; s < symmetries; s++) {
    const base = symTable + (<usize>(s * symWords) << 2);
    for (let c = 0; c < cells; c++) set(invPerm, s * cells + <i32>get(base, c), c);
    for (let bits = 0; bits < 64; bits++) {
      let image: u32 = 0;
      for (let d = 0; d < dirs; d++) if ((bits >> d) & 1) image |= <u32>1 << get(base, cells + kinds + d);
      store<u8>(connImage + <usize>(s * 64 + bits), <u8>image);
    }
  }
  for (let size = 0; size < 64; size++) {
    store<u8>(fillable + <usize>size, uniform && size % <i32>kindArea(0) == 0 ? 1 : 0);
  }
  for (let c = 0; c < cells; c++) set(stamps, c, 0);
  stampNow = 0;
  return words == 1 ? loadOneWord() : loadSpans();
}

// The neighbour cells of a placement that come after its first cell: the cells before it are
// filled whenever the placement is tried, so only these can start an isolated component.
function isNear(p: i32, c: i32): bool {
  if (c <= <i32>placeCell(p, 0)) return false;
  const size = <i32>kindArea(placeKind(p));
  for (let i = 0; i < size; i++) if (<i32>placeCell(p, i) == c) return false;
  return true;
}

function loadOneWord(): i32 {
  for (let c = 0; c < cells; c++) {
    let near: u64 = 0;
    for (let d = 0; d < dirs; d++) if (nbr(c, d) >= 0) near |= <u64>1 << <u64>nbr(c, d);
    set64(cellNear, c, near);
  }
  entries = alloc(placements * <i32>ENTRY);
  if (entries == 0) return OUT_OF_MEMORY;
  for (let j = 0; j < placements; j++) {
    const p = <i32>get(listId, j);
    const size = <i32>kindArea(placeKind(p));
    let mask: u64 = 0;
    let near: u64 = 0;
    for (let i = 0; i < size; i++) {
      const c = <i32>placeCell(p, i);
      mask |= <u64>1 << <u64>c;
      for (let d = 0; d < dirs; d++) if (isNear(p, nbr(c, d))) near |= <u64>1 << <u64>nbr(c, d);
    }
    const entry = entries + <usize>j * ENTRY;
    store<u64>(entry, mask);
    store<u64>(entry, near, 8);
    store<u32>(entry, get(listKind, j), 16);
    store<u32>(entry, get(listSkip, j), 20);
  }
  loadedGeneration = arenaGeneration();
  return DONE;
}

function loadSpans(): i32 {
  // A placement's span runs from the word of its first cell to the word of its last cell
  // or neighbour, whichever is later; the mask and the near cells share it.
  let poolWords: i32 = 0;
  for (let j = 0; j < placements; j++) {
    const p = <i32>get(listId, j);
    const size = <i32>kindArea(placeKind(p));
    let last = <i32>placeCell(p, size - 1);
    for (let i = 0; i < size; i++) {
      for (let d = 0; d < dirs; d++) {
        const c = nbr(<i32>placeCell(p, i), d);
        if (c > last) last = c;
      }
    }
    const from = <i32>placeCell(p, 0) >> 6;
    set(listFrom, j, from);
    set(listSpan, j, (last >> 6) - from + 1);
    set(listOffset, j, poolWords);
    poolWords += (last >> 6) - from + 1;
  }
  maskPool = alloc(poolWords * 8);
  nearPool = alloc(poolWords * 8);
  if (nearPool == 0) return OUT_OF_MEMORY;
  for (let i = 0; i < poolWords; i++) {
    set64(maskPool, i, 0);
    set64(nearPool, i, 0);
  }
  for (let j = 0; j < placements; j++) {
    const p = <i32>get(listId, j);
    const size = <i32>kindArea(placeKind(p));
    const from = <i32>get(listFrom, j);
    const offset = <i32>get(listOffset, j);
    for (let i = 0; i < size; i++) {
      const c = <i32>placeCell(p, i);
      const w = offset + (c >> 6) - from;
      set64(maskPool, w, get64(maskPool, w) | (<u64>1 << <u64>(c & 63)));
      for (let d = 0; d < dirs; d++) {
        const other = nbr(c, d);
        if (!isNear(p, other)) continue;
        const v = offset + (other >> 6) - from;
        set64(nearPool, v, get64(nearPool, v) | (<u64>1 << <u64>(other & 63)));
      }
    }
  }
  loadedGeneration = arenaGeneration();
  return DONE;
}

/**
 * Starts one part: the `pre` placements in the part region are fixed, each leaf adds `w`
 * to the total, and `maskLow`, `maskHigh` (bits 0..31 and 32..62 of one mask) select the
 * symmetries (bit s: table entry s) a distinct leaf must not be larger than. `emitSolutions`: stop at each counted leaf. `split` > 0: stop at
 * each node `split` placements below the part, and at each leaf above it, instead of
 * searching on; nothing is counted.
 */
export function polyStart(pre: i32, partWeight: u32, maskLow: u32, maskHigh: u32, emitSolutions: i32, split: i32): i32 {
  if (!isLoaded()) return BAD_INPUT;
  if (pre < 0 || pre > cells || partWeight < 1 || split < 0 || split > cells) return BAD_INPUT;
  const mask = (<u64>maskHigh << 32) | <u64>maskLow;
  if ((mask >> <u64>symmetries) != 0) return BAD_INPUT;
  preCount = pre;
  weight = partWeight;
  symMask = mask;
  emit = emitSolutions != 0;
  splitDepth = split > 0 ? split : -1;
  total = 0;
  distinct = 0;
  nodes = 0;
  outputLength = 0;
  popPending = false;
  rootLeafPending = false;
  finished = true;
  depth = 0;
  for (let k = 0; k < kinds; k++) set(remaining, k, get(kindTable, k * 3 + 1));
  for (let w = 0; w < words; w++) set64(board, w, 0);
  empty = cells;
  for (let i = 0; i < pre; i++) {
    const p = <i32>get(PART, i);
    if (p < 0 || p >= placements) return BAD_INPUT;
    const k = <i32>placeKind(p);
    if (get(remaining, k) == 0) return BAD_INPUT;
    set(remaining, k, get(remaining, k) - 1);
    const size = <i32>kindArea(k);
    for (let t = 0; t < size; t++) {
      const c = <i32>placeCell(p, t);
      const bit: u64 = <u64>1 << <u64>(c & 63);
      if (get64(board, c >> 6) & bit) return BAD_INPUT;
      set64(board, c >> 6, get64(board, c >> 6) | bit);
    }
    empty -= size;
  }
  // Cells past the region count as filled, so the first empty cell is the lowest clear bit.
  if (cells & 63) {
    const w = words - 1;
    set64(board, w, get64(board, w) | (~<u64>0 << <u64>(cells & 63)));
  }
  board1 = get64(board, 0);
  finished = false;
  if (empty == 0) {
    finished = true;
    // When splitting, a part with every cell covered is passed on as it is.
    rootLeafPending = splitDepth > 0 ? true : leaf();
  } else {
    enterCell(0, firstEmpty(0));
  }
  return DONE;
}

function firstEmpty(fromCell: i32): i32 {
  for (let w = fromCell >> 6; w < words; w++) {
    const free = ~get64(board, w);
    if (free != 0) return (w << 6) + <i32>ctz(free);
  }
  return cells;
}

@inline function enterCell(d: i32, c: i32): void {
  set(stackCell, d, c);
  set(stackCur, d, get(cellStart, c));
  set(stackEnd, d, get(cellStart, c + 1));
}

/** Advances the search by at most `budget` placements. */
export function polyRun(budget: i32): i32 {
  if (!isLoaded()) return BAD_INPUT;
  if (rootLeafPending) {
    rootLeafPending = false;
    if (emit || splitDepth > 0) {
      writeOutput();
      return SOLUTION;
    }
  }
  if (finished) return DONE;
  if (popPending) {
    popPending = false;
    depth--;
    unplace(<i32>get(stackPlaced, depth));
  }
  return words == 1 ? runOneWord(budget) : runSpans(budget);
}

@inline function unplace(j: i32): void {
  const k = <i32>get(listKind, j);
  set(remaining, k, get(remaining, k) + 1);
  if (words == 1) {
    board1 ^= load<u64>(entries + <usize>j * ENTRY);
  } else {
    const from = <i32>get(listFrom, j);
    const span = <i32>get(listSpan, j);
    const offset = <i32>get(listOffset, j);
    for (let i = 0; i < span; i++) set64(board, from + i, get64(board, from + i) ^ get64(maskPool, offset + i));
    empty += <i32>kindArea(k);
  }
}

/** The search on one word. Returns MORE, SOLUTION (with the output written) or DONE. */
function runOneWord(budget: i32): i32 {
  let spent = 0;
  let d = depth;
  let b = board1;
  // The list entry to try next and the end of the list at depth d; both go to the stack
  // only when the search descends or stops.
  let j = <i32>get(stackCur, d);
  let end = <i32>get(stackEnd, d);
  while (true) {
    if (j >= end) {
      if (d == 0) {
        finished = true;
        board1 = b;
        depth = 0;
        return DONE;
      }
      d--;
      const back = entries + <usize>get(stackPlaced, d) * ENTRY;
      b ^= load<u64>(back);
      const k = <i32>load<u32>(back, 16);
      set(remaining, k, get(remaining, k) + 1);
      j = <i32>get(stackCur, d);
      end = <i32>get(stackEnd, d);
      continue;
    }
    const entry = entries + <usize>j * ENTRY;
    const k = <i32>load<u32>(entry, 16);
    const left = get(remaining, k);
    if (left == 0) {
      j = <i32>load<u32>(entry, 20);
      continue;
    }
    const mask = load<u64>(entry);
    j++;
    if (mask & b) continue;
    b |= mask;
    set(remaining, k, left - 1);
    spent++;
    nodes++;
    if (~b == 0) {
      set(stackPlaced, d, j - 1);
      set(stackCur, d, j);
      depth = d + 1;
      board1 = b;
      if (splitDepth > 0 || (leaf() && emit)) {
        writeOutput();
        popPending = true;
        return SOLUTION;
      }
      b ^= mask;
      set(remaining, k, left);
    } else if (isolatedOneWord(b, load<u64>(entry, 8))) {
      b ^= mask;
      set(remaining, k, left);
    } else {
      set(stackPlaced, d, j - 1);
      set(stackCur, d, j);
      d++;
      if (d == splitDepth) {
        depth = d;
        board1 = b;
        writeOutput();
        popPending = true;
        return SOLUTION;
      }
      const c = <i32>ctz(~b);
      j = <i32>get(cellStart, c);
      end = <i32>get(cellStart, c + 1);
      set(stackEnd, d, end);
    }
    if (spent >= budget) {
      set(stackCur, d, j);
      depth = d;
      board1 = b;
      return MORE;
    }
  }
}

/** True when an empty component next to the placement is too small for the pieces left. */
function isolatedOneWord(b: u64, near: u64): bool {
  const free = ~b;
  let seeds = near & free;
  let visited: u64 = 0;
  sums = 0;
  while (seeds != 0) {
    let component = seeds & (~seeds + 1);
    let frontier = component;
    let size = 1;
    let big = false;
    while (frontier != 0) {
      const f = <i32>ctz(frontier);
      frontier &= frontier - 1;
      const grown = get64(cellNear, f) & free & ~component;
      if (grown & visited) { big = true; break; }
      component |= grown;
      frontier |= grown;
      size += <i32>popcnt(grown);
      if (size >= floodLimit) { big = true; break; }
    }
    visited |= component;
    seeds &= ~component;
    if (!big && cannotFill(size)) return true;
  }
  return false;
}

// The sizes below 64 the remaining pieces can fill, worked out once per check when needed.
let sums: u64 = 0;

/** True when no choice of the remaining pieces covers exactly `size` cells (size < 64). */
function cannotFill(size: i32): bool {
  if (uniform) return getByte(fillable, size) == 0;
  if (sums == 0) sums = reachableSums(); // bit 0 is always set once computed
  return ((sums >> <u64>size) & 1) == 0;
}

/** The sizes below 64 that some choice of the remaining pieces covers exactly. */
function reachableSums(): u64 {
  let reachable: u64 = 1;
  for (let k = 0; k < kinds; k++) {
    const area = kindArea(k);
    if (area >= 64) continue;
    const uses = min<u32>(get(remaining, k), 63 / area);
    for (let u: u32 = 0; u < uses; u++) reachable |= reachable << <u64>area;
  }
  return reachable;
}

/** The search on spans of words: the same steps as runOneWord. */
function runSpans(budget: i32): i32 {
  let spent = 0;
  let d = depth;
  let j = <i32>get(stackCur, d);
  let end = <i32>get(stackEnd, d);
  while (true) {
    if (j >= end) {
      if (d == 0) {
        finished = true;
        depth = 0;
        return DONE;
      }
      d--;
      unplace(<i32>get(stackPlaced, d));
      j = <i32>get(stackCur, d);
      end = <i32>get(stackEnd, d);
      continue;
    }
    const k = <i32>get(listKind, j);
    const left = get(remaining, k);
    if (left == 0) {
      j = <i32>get(listSkip, j);
      continue;
    }
    const from = <i32>get(listFrom, j);
    const span = <i32>get(listSpan, j);
    const offset = <i32>get(listOffset, j);
    j++;
    let clash = false;
    for (let i = 0; i < span; i++) {
      if (get64(maskPool, offset + i) & get64(board, from + i)) { clash = true; break; }
    }
    if (clash) continue;
    for (let i = 0; i < span; i++) set64(board, from + i, get64(board, from + i) | get64(maskPool, offset + i));
    set(remaining, k, left - 1);
    empty -= <i32>kindArea(k);
    spent++;
    nodes++;
    set(stackPlaced, d, j - 1);
    set(stackCur, d, j);
    if (empty == 0) {
      depth = d + 1;
      if (splitDepth > 0 || (leaf() && emit)) {
        writeOutput();
        popPending = true;
        return SOLUTION;
      }
      unplace(j - 1);
    } else if (isolatedSpans(from, span, offset)) {
      unplace(j - 1);
    } else {
      d++;
      if (d == splitDepth) {
        depth = d;
        writeOutput();
        popPending = true;
        return SOLUTION;
      }
      const c = firstEmpty(<i32>get(stackCell, d - 1));
      set(stackCell, d, c);
      j = <i32>get(cellStart, c);
      end = <i32>get(cellStart, c + 1);
      set(stackEnd, d, end);
    }
    if (spent >= budget) {
      set(stackCur, d, j);
      depth = d;
      return MORE;
    }
  }
}

@inline function isEmpty(c: i32): bool {
  return (get64(board, c >> 6) & (<u64>1 << <u64>(c & 63))) == 0;
}

// Flood marks: each component of a check gets a new number, so nothing is cleared between
// components or checks; marks above the check's base belong to this check.
let stampNow: u32 = 0;

/** isolatedOneWord over spans: components are found with a stack of cells. */
function isolatedSpans(from: i32, span: i32, offset: i32): bool {
  if (stampNow > 0xfff00000) {
    for (let c = 0; c < cells; c++) set(stamps, c, 0);
    stampNow = 0;
  }
  const base = ++stampNow;
  sums = 0;
  for (let i = 0; i < span; i++) {
    let seeds = get64(nearPool, offset + i) & ~get64(board, from + i);
    while (seeds != 0) {
      const s = ((from + i) << 6) + <i32>ctz(seeds);
      seeds &= seeds - 1;
      if (get(stamps, s) > base) continue;
      // Flood this component; touching an earlier component's cells means it is the big one
      // an earlier flood stopped in.
      const id = ++stampNow;
      set(stamps, s, id);
      set(floodStack, 0, s);
      let top = 1;
      let size = 1;
      let big = false;
      while (top > 0 && !big) {
        const f = <i32>get(floodStack, --top);
        for (let dir = 0; dir < dirs; dir++) {
          const g = nbr(f, dir);
          if (g < 0 || !isEmpty(g)) continue;
          const mark = get(stamps, g);
          if (mark == id) continue;
          if (mark > base || ++size >= floodLimit) { big = true; break; }
          set(stamps, g, id);
          set(floodStack, top++, g);
        }
      }
      if (!big && cannotFill(size)) return true;
    }
  }
  return false;
}

/** Counts the leaf just reached; true when it is counted as distinct (and may be emitted). */
function leaf(): bool {
  for (let k = 0; k < kinds; k++) {
    if (get(kindTable, k * 3 + 2) != 0 && get(remaining, k) != 0) return false;
  }
  total += weight;
  if (symMask != 0 && !smallestImage()) return false;
  distinct++;
  return true;
}

function labelPlacement(p: i32): void {
  const k = placeKind(p);
  const size = <i32>kindArea(k);
  for (let i = 0; i < size; i++) {
    set(labels, <i32>placeCell(p, i), (k << 6) | getByte(conn, p * perPlacement + i));
  }
}

/** True when no symmetry in the mask maps the tiling to a lexicographically smaller one. */
function smallestImage(): bool {
  for (let i = 0; i < preCount; i++) labelPlacement(<i32>get(PART, i));
  for (let d = 0; d < depth; d++) labelPlacement(<i32>get(listId, <i32>get(stackPlaced, d)));
  const symWords = cells + kinds + dirs;
  for (let s = 0; s < symmetries; s++) {
    if (((symMask >> <u64>s) & 1) == 0) continue;
    const kindImage = symTable + (<usize>(s * symWords + cells) << 2);
    for (let c = 0; c < cells; c++) {
      const source = get(labels, <i32>get(invPerm, s * cells + c));
      const image = (get(kindImage, <i32>(source >> 6)) << 6) | getByte(connImage, s * 64 + <i32>(source & 63));
      const own = get(labels, c);
      if (image < own) return false;
      if (image > own) break;
    }
  }
  return true;
}

function writeOutput(): void {
  let n = 0;
  for (let i = 0; i < preCount; i++) set(OUTPUT, n++, get(PART, i));
  for (let d = 0; d < depth; d++) set(OUTPUT, n++, get(listId, <i32>get(stackPlaced, d)));
  outputLength = n;
}
