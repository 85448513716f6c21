// Optimal sliding-tile solving: a resumable IDA* over boards of up to 32 cells.
//
// Tiles are labelled by their goal cell (the host relabels any goal this way), so the goal
// is the board whose cell c holds c. The blank moves up, left, right, down (in that order)
// and never undoes its last move. Heuristics:
//  - MANHATTAN: the sum of the tiles' grid distances to their goal cells;
//  - CONFLICT: Manhattan plus two moves per tile that must leave its row (column) so that
//    the tiles of that row (column) already in their goal line can pass each other (the
//    line's tiles minus its longest increasing run of goal positions);
//  - PATTERNS: the sum of the additive pattern databases in the slots (pdb.ts),
//    and on square boards whose blank goal lies on the diagonal, the max of that sum and the
//    same sum for the board mirrored in its diagonal (the reflected lookup). Packed tables
//    (pdbPacked.ts) hold each pattern's excess over its Manhattan distance in halves:
//    the sum is then Manhattan + 2 × the entries (the mirrored board has the same Manhattan).
// The state of the search is an explicit stack in memory, so run(budget) can stop after any
// node and resume.
import { DONE, SOLUTION, MORE, BAD_INPUT } from '../shared/bits';
import { MAX_SLOTS, MAX_PATTERN, slotK, slotCells, slotCell, slotTable, slotPacked, fillNeighbours } from './pdb';

export const MANHATTAN: i32 = 0;
export const CONFLICT: i32 = 1;
export const PATTERNS: i32 = 2;
export const MAX_CELLS: i32 = 32;
export const MAX_DEPTH: i32 = 1000;
const NO_MOVE: i32 = 4;
const NO_GROUP: u8 = 0xff;

// The search's state. These addresses are constants in the engine's own memory; the build
// whose memory threads share (shared.ts) places each instance's state in a block of its own
// (slidingPlaceState), so the regions are variables that only that build ever moves.
// Host-written: the start board, the label (goal cell) of the tile in each cell.
let INPUT: usize = memory.data(MAX_CELLS);
// Engine-written: the blank's moves of the solution (0 up, 1 left, 2 right, 3 down).
let OUTPUT: usize = memory.data(MAX_DEPTH);

let BOARD: usize = memory.data(MAX_CELLS);     // label in each cell
let POS: usize = memory.data(MAX_CELLS * 4);   // cell of each label (i32)
let NEIGHBOURS: usize = memory.data(MAX_CELLS * 4);
let DISTANCE: usize = memory.data(MAX_CELLS * MAX_CELLS); // Manhattan distance of label l at cell c
let MIRROR: usize = memory.data(MAX_CELLS);    // the cell mirrored in the diagonal
let GROUP: usize = memory.data(MAX_CELLS);     // the slot whose pattern holds label l
let LINE_CONFLICTS: usize = memory.data(MAX_CELLS * 2 * 4); // rows then columns (i32)
let MIRRORED_LABELS: usize = memory.data(MAX_SLOTS * MAX_PATTERN); // per slot: mirror of each label
let RUN: usize = memory.data(MAX_CELLS * 4);
// Per depth: the next direction to try, the move made, the Manhattan sum, the pattern values.
let NEXT: usize = memory.data(MAX_DEPTH + 1);
let MOVES: usize = memory.data(MAX_DEPTH + 1);
let MD: usize = memory.data((MAX_DEPTH + 1) * 4);
let VALUES: usize = memory.data((MAX_DEPTH + 1) * 8); // byte s: slot s; byte 4+s: slot s mirrored
let SUMS: usize = memory.data((MAX_DEPTH + 1) * 8);   // the slots' sum (low word) and the mirrored sum

// The address after a region of `bytes` at `at`, 16-byte aligned as memory.data places them.
@inline function take(bytes: i32, at: usize): usize { return (at + <usize>bytes + 15) & ~15; }

/** Moves the state's regions to a block at `base` (16-byte aligned); returns the block's end. */
export function slidingPlaceState(base: usize): usize {
  let at = base;
  INPUT = at; at = take(MAX_CELLS, at);
  OUTPUT = at; at = take(MAX_DEPTH, at);
  BOARD = at; at = take(MAX_CELLS, at);
  POS = at; at = take(MAX_CELLS * 4, at);
  NEIGHBOURS = at; at = take(MAX_CELLS * 4, at);
  DISTANCE = at; at = take(MAX_CELLS * MAX_CELLS, at);
  MIRROR = at; at = take(MAX_CELLS, at);
  GROUP = at; at = take(MAX_CELLS, at);
  LINE_CONFLICTS = at; at = take(MAX_CELLS * 2 * 4, at);
  MIRRORED_LABELS = at; at = take(MAX_SLOTS * MAX_PATTERN, at);
  RUN = at; at = take(MAX_CELLS * 4, at);
  NEXT = at; at = take(MAX_DEPTH + 1, at);
  MOVES = at; at = take(MAX_DEPTH + 1, at);
  MD = at; at = take((MAX_DEPTH + 1) * 4, at);
  VALUES = at; at = take((MAX_DEPTH + 1) * 8, at);
  SUMS = at; at = take((MAX_DEPTH + 1) * 8, at);
  return at;
}

let cells: i32 = 0;
let width: i32 = 0;
let height: i32 = 0;
let heuristic: i32 = MANHATTAN;
let slots: i32 = 0;
let mirrored: bool = false;
let packed: bool = false;
let blankLabel: i32 = 0;
let blank: i32 = 0;
let depth: i32 = 0;
let bound: i32 = 0;
let nextBound: i32 = 0;
let conflicts: i32 = 0; // the sum of LINE_CONFLICTS
let nodes: u64 = 0;
let iterationNodes: u64 = 0; // nodes before the iteration under way began
let pauseAtIterations: bool = false;
let state: i32 = DONE;  // MORE while a search is under way
let solutionLength: i32 = -1;
// A part of one iteration (slidingPart): the tree is split at depth splitDepth; the nodes there
// within the bound are numbered in search order (the frontier), and only those numbered in
// [rangeFirst, rangeEnd) are searched below. Nodes down to splitDepth (the prefix) are counted
// apart, the same in every part; `nodes` counts those below the frontier in range.
let partMode: bool = false;
let splitDepth: i32 = 0;
let rangeFirst: u32 = 0;
let rangeEnd: u32 = 0;
let frontier: u32 = 0;
let prefixNodes: u64 = 0;

export function slidingInputPtr(): usize { return INPUT; }
export function slidingOutputPtr(): usize { return OUTPUT; }
export function slidingNodes(): u64 { return nodes; }
/** Nodes counted before the iteration under way began (a search handed to threads goes on from there). */
export function slidingIterationNodes(): u64 { return iterationNodes; }
/** After slidingStart: slidingRun returns MORE as each iteration begins (so the host can stop there with nothing of it searched). */
export function slidingPauseAtIterations(): void { pauseAtIterations = true; }
/** The bound of the iteration under way: no solution is shorter. */
export function slidingBound(): i32 { return bound; }
export function slidingLength(): i32 { return solutionLength; }
export function slidingPrefixNodes(): u64 { return prefixNodes; }
/** Frontier nodes numbered so far (at a solution: those generated before it, and its own). */
export function slidingFrontier(): u32 { return frontier; }
/** The smallest f above the bound seen in the iteration (0x7fffffff: none). */
export function slidingNextBound(): i32 { return nextBound; }

/**
 * After slidingStart: makes the search one iteration at `partBound` (the root's bound when
 * smaller), searching below depth `depth` only the frontier nodes numbered `first` to
 * first + count - 1. Nodes are counted from 0 (the root is not a node of an iteration).
 */
export function slidingPart(partBound: i32, depth: i32, first: u32, count: u32): i32 {
  if (depth < 1 || depth >= MAX_DEPTH) return BAD_INPUT;
  partMode = true;
  splitDepth = depth;
  rangeFirst = first;
  rangeEnd = first + count < first ? 0xffffffff : first + count;
  frontier = 0;
  prefixNodes = 0;
  nodes = 0;
  if (partBound > bound) bound = partBound;
  return DONE;
}

@inline function boardAt(c: i32): i32 { return load<u8>(BOARD + <usize>c); }
@inline function posOf(l: i32): i32 { return load<i32>(POS + (<usize>l << 2)); }
@inline function distance(l: i32, c: i32): i32 { return load<u8>(DISTANCE + <usize>(l * MAX_CELLS + c)); }
@inline function neighbour(c: i32, dir: i32): i32 { return <i32>load<i8>(NEIGHBOURS + (<usize>c << 2) + <usize>dir); }
@inline function mirror(c: i32): i32 { return load<u8>(MIRROR + <usize>c); }
@inline function lineConflicts(line: i32): i32 { return load<i32>(LINE_CONFLICTS + (<usize>line << 2)); }

// The tiles of a line that must leave it: the tiles whose goal is in the line, minus the
// longest run of them already in increasing goal order. `line` < height: a row; else a column.
function computeLine(line: i32): i32 {
  const isRow = line < height;
  const index = isRow ? line : line - height;
  const length = isRow ? width : height;
  let count = 0;
  let longest = 0;
  for (let i = 0; i < length; i++) {
    const c = isRow ? index * width + i : i * width + index;
    const l = boardAt(c);
    if (l == blankLabel) continue;
    const goalLine = isRow ? l / width : l % width;
    if (goalLine != index) continue;
    // RUN holds, per tile seen, the longest increasing run ending at it.
    let best = 1;
    for (let j = 0; j < count; j++) {
      const other = load<i32>(RUN + (<usize>(2 * j) << 2));
      const run = load<i32>(RUN + (<usize>(2 * j + 1) << 2));
      if (other < l && run + 1 > best) best = run + 1;
    }
    store<i32>(RUN + (<usize>(2 * count) << 2), l);
    store<i32>(RUN + (<usize>(2 * count + 1) << 2), best);
    if (best > longest) longest = best;
    count++;
  }
  return count - longest;
}

function updateLine(line: i32): void {
  const value = computeLine(line);
  conflicts += value - lineConflicts(line);
  store<i32>(LINE_CONFLICTS + (<usize>line << 2), value);
}

// The pattern value of slot s, on the board or on its mirror image.
@inline function patternValue(s: i32, reflect: bool): u32 {
  const k = slotK(s);
  // Mirrored board: tile l sits at the mirror of the cell holding tile mirror(l).
  const labels = (reflect ? MIRRORED_LABELS + <usize>(s * MAX_PATTERN) : slotCells(s));
  let used: u32 = 0;
  let index: u32 = 0;
  for (let i = 0; i < k; i++) {
    let p = <u32>posOf(load<u8>(labels + <usize>i));
    if (reflect) p = <u32>mirror(p);
    index = index * <u32>(cells - i) + p - popcnt(used & ((<u32>1 << p) - 1));
    used |= <u32>1 << p;
  }
  if (packed) return (<u32>load<u8>(slotTable(s) + <usize>(index >> 1)) >> ((index & 1) << 2)) & 15;
  return load<u8>(slotTable(s) + <usize>index);
}

// The heuristic from the slots' sum: the sum, or with packed tables Manhattan + 2 × the sum.
@inline function patternBound(md: i32, sum: i32): i32 { return packed ? md + (sum << 1) : sum; }

// The sums of the slots' values, direct (low word) and mirrored (high word).
function patternSums(values: u64): u64 {
  let direct: u64 = 0;
  let reflected: u64 = 0;
  for (let s = 0; s < slots; s++) {
    direct += (values >> (<u64>s << 3)) & 0xff;
    reflected += (values >> (<u64>(s + 4) << 3)) & 0xff;
  }
  return direct | (reflected << 32);
}

/**
 * Prepares a search of the board in the input region (`rows`×`columns`, labels are goal cells,
 * the blank's label is `blankGoal`). `reflect` uses the mirrored lookup (square boards whose
 * blank goal is on the diagonal). PATTERNS needs `patternSlots` slots defined on this board.
 */
export function slidingStart(rows: i32, columns: i32, blankGoal: i32, kind: i32, patternSlots: i32, reflect: i32): i32 {
  if (rows < 2 || columns < 2 || rows * columns > MAX_CELLS) return BAD_INPUT;
  if (kind < MANHATTAN || kind > PATTERNS || patternSlots < 0 || patternSlots > MAX_SLOTS) return BAD_INPUT;
  if (reflect != 0 && rows != columns) return BAD_INPUT;
  height = rows;
  width = columns;
  cells = rows * columns;
  heuristic = kind;
  slots = kind == PATTERNS ? patternSlots : 0;
  mirrored = kind == PATTERNS && reflect != 0;
  blankLabel = blankGoal;
  fillNeighbours(NEIGHBOURS, cells, width);
  for (let c = 0; c < cells; c++) {
    store<u8>(MIRROR + <usize>c, <u8>((c % width) * width + c / width));
    store<u8>(GROUP + <usize>c, NO_GROUP);
  }
  for (let l = 0; l < cells; l++) {
    for (let c = 0; c < cells; c++) {
      const d = l == blankLabel ? 0 : abs(l / width - c / width) + abs(l % width - c % width);
      store<u8>(DISTANCE + <usize>(l * MAX_CELLS + c), <u8>d);
    }
  }
  packed = slots > 0 && slotPacked(0);
  for (let s = 0; s < slots; s++) {
    if (slotTable(s) == 0 || slotPacked(s) != packed) return BAD_INPUT;
    const k = slotK(s);
    for (let i = 0; i < k; i++) {
      store<u8>(GROUP + <usize>slotCell(s, i), <u8>s);
      store<u8>(MIRRORED_LABELS + <usize>(s * MAX_PATTERN + i), <u8>mirror(slotCell(s, i)));
    }
  }
  let md = 0;
  let seen: u64 = 0;
  for (let c = 0; c < cells; c++) {
    const l = <i32>load<u8>(INPUT + <usize>c);
    if (l >= cells || (seen & (<u64>1 << <u64>l)) != 0) return BAD_INPUT;
    seen |= <u64>1 << <u64>l;
    store<u8>(BOARD + <usize>c, <u8>l);
    store<i32>(POS + (<usize>l << 2), c);
    if (l == blankLabel) blank = c;
    md += distance(l, c);
  }
  for (let l = 0; l < cells; l++) {
    if (l != blankLabel && heuristic == PATTERNS && load<u8>(GROUP + <usize>l) == NO_GROUP) return BAD_INPUT;
  }
  conflicts = 0;
  for (let line = 0; line < height + width; line++) {
    store<i32>(LINE_CONFLICTS + (<usize>line << 2), 0);
    if (heuristic == CONFLICT) updateLine(line);
  }
  let values: u64 = 0;
  for (let s = 0; s < slots; s++) {
    values |= <u64>patternValue(s, false) << (<u64>s << 3);
    if (mirrored) values |= <u64>patternValue(s, true) << (<u64>(s + 4) << 3);
  }
  store<u64>(VALUES, values);
  const sums = patternSums(values);
  store<u64>(SUMS, sums);
  store<i32>(MD, md);
  let h = heuristic == PATTERNS ? patternBound(md, <i32>(sums & 0xffffffff)) : heuristic == CONFLICT ? md + 2 * conflicts : md;
  if (mirrored) h = max(h, patternBound(md, <i32>(sums >> 32)));
  bound = h;
  nextBound = 0x7fffffff;
  nodes = 1; // the root, counted once (as Korf counts)
  iterationNodes = 1;
  pauseAtIterations = false;
  partMode = false;
  depth = 0;
  store<u8>(NEXT, 0);
  store<u8>(MOVES, <u8>NO_MOVE);
  solutionLength = h == 0 ? 0 : -1;
  state = h == 0 ? DONE : MORE;
  return DONE;
}

// Tile `l` slides from cell `from` into the blank at `to`; the blank moves to `from`.
@inline function slide(l: i32, from: i32, to: i32, vertical: bool): void {
  store<u8>(BOARD + <usize>to, <u8>l);
  store<u8>(BOARD + <usize>from, <u8>blankLabel);
  store<i32>(POS + (<usize>l << 2), to);
  store<i32>(POS + (<usize>blankLabel << 2), from);
  blank = from;
  if (heuristic == CONFLICT) {
    if (vertical) {
      updateLine(from / width);
      updateLine(to / width);
      updateLine(height + from % width);
    } else {
      updateLine(height + from % width);
      updateLine(height + to % width);
      updateLine(from / width);
    }
  }
}

/**
 * Advances the search by at most `budget` nodes. SOLUTION: the moves are in the output region
 * (slidingLength of them); MORE: call again; DONE: finished (the solution, if any, was reported).
 */
export function slidingRun(budget: i32): i32 {
  if (state != MORE) {
    if (solutionLength == 0) {
      solutionLength = 0;
      state = DONE;
      return SOLUTION;
    }
    return DONE;
  }
  let left = budget;
  while (left > 0) {
    const at = <usize>depth;
    const dir = <i32>load<u8>(NEXT + at);
    if (dir >= 4) {
      if (depth == 0) {
        // The iteration is exhausted: the next one allows the smallest f that was cut.
        if (partMode || nextBound == 0x7fffffff || nextBound >= MAX_DEPTH) {
          state = DONE;
          return DONE;
        }
        bound = nextBound;
        nextBound = 0x7fffffff;
        iterationNodes = nodes;
        store<u8>(NEXT, 0);
        if (pauseAtIterations) return MORE;
        left--;
        continue;
      }
      // Back up: the blank returns along the move that led here.
      const back = 3 - <i32>load<u8>(MOVES + at);
      const from = neighbour(blank, back);
      slide(boardAt(from), from, blank, back == 0 || back == 3);
      depth--;
      continue;
    }
    store<u8>(NEXT + at, <u8>(dir + 1));
    const last = <i32>load<u8>(MOVES + at);
    if (last != NO_MOVE && dir == 3 - last) continue;
    const from = neighbour(blank, dir);
    if (from < 0) continue;
    const l = boardAt(from);
    const to = blank;
    // The Manhattan sum is kept only for the heuristics that use it.
    const md = heuristic == PATTERNS && !packed ? 0 : load<i32>(MD + (at << 2)) + distance(l, to) - distance(l, from);
    let values = load<u64>(VALUES + (at << 3));
    let sums = load<u64>(SUMS + (at << 3));
    slide(l, from, to, dir == 0 || dir == 3);
    let h: i32;
    if (heuristic == PATTERNS) {
      const shift = <u64>load<u8>(GROUP + <usize>l) << 3;
      const value = <u64>patternValue(<i32>(shift >> 3), false);
      const direct = (sums & 0xffffffff) - ((values >> shift) & 0xff) + value;
      values = (values & ~(<u64>0xff << shift)) | (value << shift);
      let reflected = sums >> 32;
      h = patternBound(md, <i32>direct);
      // The mirrored lookup matters only when the direct one does not cut the node already.
      if (mirrored && depth + 1 + h <= bound) {
        const r = <u64>load<u8>(GROUP + <usize>mirror(l));
        const mirroredShift = (r + 4) << 3;
        const mirroredValue = <u64>patternValue(<i32>r, true);
        reflected = reflected - ((values >> mirroredShift) & 0xff) + mirroredValue;
        values = (values & ~(<u64>0xff << mirroredShift)) | (mirroredValue << mirroredShift);
        h = max(h, patternBound(md, <i32>reflected));
      }
      sums = direct | (reflected << 32);
    } else {
      h = heuristic == CONFLICT ? md + 2 * conflicts : md;
    }
    if (partMode && depth < splitDepth) prefixNodes++;
    else nodes++;
    left--;
    const f = depth + 1 + h;
    if (f > bound) {
      if (f < nextBound) nextBound = f;
      slide(boardAt(to), to, from, dir == 0 || dir == 3);
      continue;
    }
    if (partMode && depth + 1 == splitDepth && h != 0) {
      const index = frontier++;
      if (index < rangeFirst || index >= rangeEnd) {
        slide(boardAt(to), to, from, dir == 0 || dir == 3);
        continue;
      }
    }
    depth++;
    const next = <usize>depth;
    store<u8>(MOVES + next, <u8>dir);
    store<u8>(NEXT + next, 0);
    store<i32>(MD + (next << 2), md);
    store<u64>(VALUES + (next << 3), values);
    store<u64>(SUMS + (next << 3), sums);
    if (h == 0) {
      for (let d = 1; d <= depth; d++) store<u8>(OUTPUT + <usize>(d - 1), load<u8>(MOVES + <usize>d));
      solutionLength = depth;
      state = DONE;
      return SOLUTION;
    }
  }
  return MORE;
}
