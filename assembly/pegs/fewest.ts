// Peg solitaire: the fewest moves by iterative deepening on the number of moves (IDA*), for
// boards where MOVES (moves.ts: every position seen from both ends, in one table)
// does not fit in memory. Depth-first by jumps; a jump costs no move when the peg that made
// the last jump makes it (the chain goes on), else one. Each iteration searches every jump
// sequence of at most `bound` moves whose positions pass two cuts:
//   - a lower bound on the moves still needed: a peg in a hole that no jump passes over (a
//     corner) can only leave by moving itself, and two pegs need two moves; at most
//     finishPegs of them may stay, and none on a hole outside every finish; the peg that just
//     jumped may go on for free;
//   - the problem's pagoda functions (the finish out of reach).
// A bounded transposition table keeps, per canonical position, the most moves r for which a
// search starting a fresh move there found no finish: "no finish within r moves" holds at any
// bound, so entries serve every iteration. A position reached in the middle of a chain, with r
// moves left, has at most the options of a fresh one with r + 1, so it is cut when the table
// holds r + 1 or more. The table is a cache: buckets of 4, the entry with the least r is
// replaced; it doubles (emptied) while memory allows and it fills. The first bound at which
// a finish is reached is the fewest moves; every iteration before proves one more.
import { DONE, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaAlloc, arenaRewind, arenaRoom } from '../shared/bits';
import { get, set, get64, set64 } from '../shared/words';
import {
  holes, jumps, full, start, finishes, finishList, finishPegs, jumpFlip, jumpFrom, jumpLand, fromStart, byFrom, pagodas,
  canonical, legal, hopefulIn, isFinish, notePeak, OUTPUT, MODE_FEWEST, MODE_MOVES, mode,
} from './board';
import { beginOther } from './pegs';
import { depthB, movesSlot, distance } from './moves';

const PHASE_CLEAR: i32 = 0;
const PHASE_SEARCH: i32 = 1;
const PHASE_DONE: i32 = 2;
const INFINITE: i32 = 0x7fffffff;
const BUCKET_BYTES: u64 = 64;        // 4 × (key u64, r u64)
const CLEAR_BYTES: u64 = 65536;      // bytes cleared per unit of budget (about a unit's search time)
const FIRST_LOG: u32 = 12;           // 4096 buckets (256 KiB) to begin with

let phase: i32 = PHASE_DONE;
let corners: u64 = 0;      // holes no jump passes over
let finishUnion: u64 = 0;  // holes some finish has a peg on
// Merson regions (from the host, disjoint, none a corner): every jump over one of their
// holes starts or lands in them, so while one is full the first jump that changes it starts
// a move in it, and a finish lacks some hole of each: every full one costs a move of its own.
let regions: usize = 0;
let regionCount: i32 = 0;
// The perimeter: a MOVES search (moves.ts) grown from the finishes' side alone for
// `perimeter` complete levels, whose table gives the exact fewest moves from every position
// within that many of a finish (as the distance of its complement), and more for the rest.
let perimeter: i32 = -1;
let bound: i32 = 0;        // moves allowed in the iteration in progress
let nextBound: i32 = INFINITE; // the least bound beyond this one that a cut position needs
let proved: i32 = 0;       // no solution has fewer moves than this
let found: i32 = -1;       // the fewest moves, once found
let fewNodes: u64 = 0;
let depth: i32 = 0;
let solutionLength: i32 = 0;
// The ends of a half of a solution (the host's, to find a solution through a position where
// the fewest moves by levels met): the hole the move before the start landed in, whose peg
// may go on for free (-1: none), and the holes the last jump may land in (0: any).
let firstLanding: i32 = -1;
let finishLandings: u64 = 0;

// The stack, per depth (one jump per level): position, the hole the last jump landed in (-1
// before the first), moves used, the next jump to try (see nextJump) and the jump taken.
let sPos: usize = 0;
let sLast: usize = 0;
let sMoves: usize = 0;
let sNext: usize = 0;
let sJump: usize = 0;
const STACK_DEPTH: i32 = 72;

// The transposition table.
let table: usize = 0;
let tableLog: u32 = 0;
let stored: u64 = 0;
let maxLog: u32 = 0;       // the largest table that fits (log2 of buckets)
let clearAt: u64 = 0;

/** A lower bound on the moves from `pos` to a finish when the last jump landed in `last`. */
function lowerBound(pos: u64, last: i32): i32 {
  const onCorners = <i32>popcnt(pos & corners);
  let must = max<i32>(<i32>popcnt(pos & corners & ~finishUnion), onCorners - finishPegs);
  let free = last >= 0 && ((corners >> <u64>last) & 1) != 0; // its chain may go on for free
  for (let i = 0; i < regionCount; i++) {
    const region = get64(regions, i);
    if ((pos & region) != region) continue;
    must++;
    if (last >= 0 && ((region >> <u64>last) & 1) != 0) free = true;
  }
  if (free) must--;
  if (perimeter >= 0) {
    const slot = movesSlot(canonical(~pos & full));
    let d = load<u64>(slot) == 0 ? perimeter + 1 : min<i32>(<i32>distance(slot, 1), perimeter + 1);
    if (last >= 0) d--; // the chain going on may save one move
    must = max<i32>(must, d);
  }
  if (must < 0) must = 0;
  if (must == 0 && last < 0 && !isFinish(pos)) must = 1;
  return must;
}

// ---- the table ---------------------------------------------------------------------------

@inline function bucketOf(key: u64): usize {
  let h = key * 0x9e3779b97f4a7c15;
  h ^= h >> 29;
  return table + <usize>((h >> (<u64>64 - <u64>tableLog)) * BUCKET_BYTES);
}

/** The r stored for `key`, or -1. */
function lookup(key: u64): i32 {
  const b = bucketOf(key);
  for (let i = 0; i < 4; i++) {
    if (load<u64>(b + (<usize>i << 4)) == key) return <i32>load<u64>(b + (<usize>i << 4) + 8);
  }
  return -1;
}

/** Records "no finish within r moves" for `key`; may ask for the table to grow. */
function record(key: u64, r: i32): void {
  const b = bucketOf(key);
  let victim: usize = b;
  let least: u64 = <u64>-1;
  for (let i = 0; i < 4; i++) {
    const e = b + (<usize>i << 4);
    const k = load<u64>(e);
    if (k == key) {
      if (<u64>r > load<u64>(e + 8)) store<u64>(e + 8, <u64>r);
      return;
    }
    if (k == 0) { victim = e; least = 0; break; }
    const v = load<u64>(e + 8) + 1;
    if (v < least) { least = v; victim = e; }
  }
  if (load<u64>(victim) == 0) stored++;
  store<u64>(victim, key);
  store<u64>(victim + 8, <u64>r);
}

/** A fresh table of 2^log buckets at the arena's top (the table is its last allocation). */
function newTable(log: u32): bool {
  if (table != 0) arenaRewind(table);
  table = arenaAlloc(BUCKET_BYTES << log);
  if (table == 0) return false;
  notePeak();
  tableLog = log;
  stored = 0;
  clearAt = 0;
  phase = PHASE_CLEAR;
  return true;
}

// ---- the search --------------------------------------------------------------------------

/**
 * Starts the search on the loaded problem, with `count` Merson regions (u64 masks) in the
 * output region; with `usePerimeter` 1, after a MOVES search from the finishes' side alone
 * (pegsMovesBackwardOnly), whose complete levels serve as the perimeter; `fromBound`: the
 * first bound searched when above the start's lower bound (the host's, proved otherwise: no
 * solution has fewer moves); `first` and `landings`: the ends of a half (see firstLanding; the
 * host keeps only the symmetries that fix them). DONE, OUT_OF_MEMORY or BAD_INPUT. The table
 * grows up to what the arena allows.
 */
export function pegsFewestStart(count: i32, usePerimeter: i32, fromBound: i32, first: i32, landings: u64): i32 {
  if (count < 0 || count > 64 || first < -1 || first >= holes || (landings & ~full) != 0) return BAD_INPUT;
  if (first >= 0 && ((start >> <u64>first) & 1) == 0) return BAD_INPUT; // no peg to go on
  firstLanding = first;
  finishLandings = landings;
  perimeter = -1;
  if (usePerimeter != 0) {
    // Keep the MOVES table below: allocate above it.
    if (mode != MODE_MOVES) return BAD_INPUT;
    perimeter = depthB;
  } else if (!beginOther(MODE_FEWEST)) return BAD_INPUT;
  regions = arenaAlloc(<u64>max(count, 1) << 3);
  if (regions == 0) return OUT_OF_MEMORY;
  regionCount = count;
  let covered: u64 = 0;
  for (let i = 0; i < count; i++) {
    const region = get64(OUTPUT, i);
    if ((region & covered) != 0 || popcnt(region) < 2) return BAD_INPUT;
    covered |= region;
    set64(regions, i, region);
  }
  phase = PHASE_DONE;
  found = -1;
  fewNodes = 0;
  solutionLength = 0;
  corners = full;
  for (let j = 0; j < jumps; j++) {
    const over = get64(jumpFlip, j) ^ (<u64>1 << <u64>get(jumpFrom, j)) ^ (<u64>1 << <u64>get(jumpLand, j));
    corners &= ~over;
  }
  corners &= ~covered;
  finishUnion = 0;
  for (let f = 0; f < finishes; f++) finishUnion |= get64(finishList, f);
  sPos = arenaAlloc(<u64>STACK_DEPTH << 3);
  sLast = arenaAlloc(<u64>STACK_DEPTH << 2);
  sMoves = arenaAlloc(<u64>STACK_DEPTH << 2);
  sNext = arenaAlloc(<u64>STACK_DEPTH << 2);
  sJump = arenaAlloc(<u64>STACK_DEPTH << 2);
  if (sPos == 0 || sLast == 0 || sMoves == 0 || sNext == 0 || sJump == 0) return OUT_OF_MEMORY;
  // The largest table that fits in the room left (a bucket is 64 bytes).
  const room = arenaRoom();
  maxLog = 0;
  while (maxLog < 40 && (BUCKET_BYTES << (maxLog + 1)) <= room) maxLog++;
  if (maxLog < 6) return OUT_OF_MEMORY;
  table = 0;
  if (!newTable(min<u32>(FIRST_LOG, maxLog))) return OUT_OF_MEMORY;
  bound = max<i32>(lowerBound(start, firstLanding), fromBound);
  proved = bound;
  beginIteration();
  return DONE;
}

function beginIteration(): void {
  nextBound = INFINITE;
  depth = 0;
  set64(sPos, 0, start);
  set(sLast, 0, <u32>firstLanding);
  set(sMoves, 0, 0);
  set(sNext, 0, 0);
}

/** The fewest moves, or -1 (not yet, or no solution). */
export function pegsFewestMoves(): i32 { return found; }
/** No solution has fewer moves than this (the bound being searched, once the search is on). */
export function pegsFewestBound(): i32 { return found >= 0 ? found : proved; }
export function pegsFewestNodes(): u64 { return fewNodes; }
/** The jumps of the solution found (u32 jump indices in the output region). */
export function pegsFewestLength(): i32 { return solutionLength; }
/** Bytes of the transposition table in use. */
export function pegsFewestTableBytes(): u64 { return table == 0 ? 0 : BUCKET_BYTES << tableLog; }

/**
 * The next legal jump at depth d from its `next` counter, or -1: first the jumps of the peg
 * that made the last jump (free), then the others.
 */
function nextJump(d: i32, pos: u64, last: i32): i32 {
  let n = <i32>get(sNext, d);
  let own = 0;
  if (last >= 0) {
    const first = <i32>get(fromStart, last);
    own = <i32>get(fromStart, last + 1) - first;
    while (n < own) {
      const j = <i32>get(byFrom, first + n);
      n++;
      if (legal(pos, j)) { set(sNext, d, n); return j; }
    }
  }
  while (n < own + jumps) {
    const j = n - own;
    n++;
    if (<i32>get(jumpFrom, j) == last) continue;
    if (legal(pos, j)) { set(sNext, d, n); return j; }
  }
  set(sNext, d, n);
  return -1;
}

/** Advances by about `budget` units (a unit: 64 jumps tried). DONE when settled. */
export function pegsFewestRun(budget: i32): i32 {
  if (phase == PHASE_DONE) return sPos == 0 ? BAD_INPUT : DONE;
  let left: i64 = <i64>max(budget, 1) * 64;
  for (;;) {
    if (phase == PHASE_CLEAR) {
      const size = BUCKET_BYTES << tableLog;
      const bytes = min<u64>(size - clearAt, <u64>max(budget, 1) * CLEAR_BYTES);
      memory.fill(table + <usize>clearAt, 0, <usize>bytes);
      clearAt += bytes;
      phase = clearAt < size ? PHASE_CLEAR : PHASE_SEARCH;
      return MORE; // the next slice's budget follows the search's own speed
    }
    if (left <= 0) return MORE;
    left--;
    // Grow the table (emptied: it is a cache) when three quarters are used.
    if (stored * 4 > (<u64>3 << (tableLog + 2)) && tableLog < maxLog) {
      if (!newTable(tableLog + 1)) return OUT_OF_MEMORY;
      continue;
    }
    const pos = get64(sPos, depth);
    const last = <i32>get(sLast, depth);
    const used = <i32>get(sMoves, depth);
    const j = nextJump(depth, pos, last);
    if (j < 0) {
      // Every jump from here tried: no finish within bound - used moves (fresh, see above).
      record(canonical(pos), bound - used);
      if (depth == 0) {
        // The iteration is over without a finish.
        // Nothing cut, or past one move per jump: no jump sequence reaches a finish.
        if (nextBound > <i32>popcnt(start) - finishPegs) { phase = PHASE_DONE; return DONE; }
        bound = nextBound;
        proved = bound;
        beginIteration();
        continue;
      }
      depth--;
      continue;
    }
    fewNodes++;
    const child = pos ^ get64(jumpFlip, j);
    const from = <i32>get(jumpFrom, j);
    const land = <i32>get(jumpLand, j);
    const moves = used + (from == last ? 0 : 1);
    if (moves > bound) { nextBound = min<i32>(nextBound, moves); continue; }
    set(sJump, depth, j);
    if (isFinish(child) && (finishLandings == 0 || ((finishLandings >> <u64>land) & 1) != 0)) {
      found = moves;
      solutionLength = depth + 1;
      for (let d = 0; d <= depth; d++) set(OUTPUT, d, get(sJump, d));
      phase = PHASE_DONE;
      return DONE;
    }
    // No finish has fewer pegs (one reached by a landing not allowed goes no further).
    if (<i32>popcnt(child) <= finishPegs) continue;
    const need = moves + lowerBound(child, land);
    if (need > bound) { nextBound = min<i32>(nextBound, need); continue; }
    if (pagodas > 0 && !hopefulIn(child, 0, pagodas)) continue;
    // The table: mid-chain, a fresh search with one move more covers every option.
    const r = bound - moves;
    const known = lookup(canonical(child));
    if (known >= r + 1 || (known >= r && !canGoOn(child, land))) { nextBound = min<i32>(nextBound, bound + 1); continue; }
    if (depth + 1 >= STACK_DEPTH) continue;
    depth++;
    set64(sPos, depth, child);
    set(sLast, depth, land);
    set(sMoves, depth, moves);
    set(sNext, depth, 0);
  }
  return MORE; // not reached: the loop returns
}

/** True when the peg in `land` has a jump: the chain could go on for free. */
function canGoOn(pos: u64, land: i32): bool {
  const end = <i32>get(fromStart, land + 1);
  for (let k = <i32>get(fromStart, land); k < end; k++) if (legal(pos, <i32>get(byFrom, k))) return true;
  return false;
}
