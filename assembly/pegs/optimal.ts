// Peg solitaire: every fewest-move solution, counted exactly (and the positions on them, for
// listing). It runs after a MOVES search (moves.ts) has proved the fewest moves L and
// left its table: every canonical position within depthA moves of the start (distance byte 0)
// and every complement within depthB moves of the finishes' complements (byte 1), with
// L = depthA + depthB.
//
// A solution with L moves is a sequence of L chains (a chain: one or more jumps by one peg);
// were two consecutive chains by the same peg, merged they would make a solution of L − 1
// moves, so the sequences of L chains from the start to a finish are exactly the fewest-move
// solutions, each once. The position after i chains of such a solution is exactly i moves
// from the start and L − i from the finish. So, over the table:
//   A(p)  chain sequences from the start reaching p's orbit in dist0(p) moves (orbit totals,
//         as COUNT keeps them: expanding one representative with the orbit's total is exact),
//         built layer by layer forward for dist0 = 0 .. depthA;
//   B(q)  the same from the finishes' complements by reverse chains, for dist1 = 0 .. depthB;
//   total = the sum over p with dist0(p) = depthA and dist1(~p) = depthB of A(p) · B(~p) / |orbit|
//         (every member of ~p's orbit has the same B, as the symmetries keep the finishes).
// For listing, H(p) = the fewest-move completions from one position p of the first half
// (dist0 ≤ depthA), computed backwards from the meeting layer; a position after i moves is on
// a fewest-move solution when H > 0 (i ≤ depthA) or dist1 of its complement is L − i.
//
// Counts are u64; a sum or product that would overflow stops the search with an error.
import { DONE, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaAlloc } from '../shared/bits';
import { get, set, get64, set64 } from '../shared/words';
import {
  jumps, syms, full, start, finishes, finishList, jumpFlip, jumpLand, jumpFrom, jumpImage, fromStart, byFrom, toStart, byTo,
  finished, mode, MODE_MOVES, MAX_SYMS, imageOf, canonical, legal, notePeak,
  OVERFLOW, addChecked, mulChecked, countWrapped, clearWrapped, leastComplement, fixedBy,
} from './board';
import { tabBase, tabLog } from './tables';
import { depthA, depthB, best, movesSlot, distance } from './moves';

const PHASE_CLEAR: i32 = 0;   // clear the counts
const PHASE_FORWARD: i32 = 1; // A, layer by layer
const PHASE_BACKWARD: i32 = 2; // B, layer by layer
const PHASE_MEET: i32 = 3;    // the total
const PHASE_H: i32 = 4;       // H, from the meeting layer back to the start (listing only)
const PHASE_DONE: i32 = 5;

// Slots of table work per unit of budget (a unit is about one position's walk).
const SCAN_SLOTS: u64 = 64;
const CLEAR_BYTES: u64 = 8192;

let counts: usize = 0;   // per slot of the MOVES table: A, B (and H when listing), u64 each
let width: u32 = 16;     // bytes of counts per slot
let phase: i32 = PHASE_DONE;
let layer: i32 = 0;      // the layer being expanded (forward, backward) or summed (H)
let at: u64 = 0;         // slot (or byte, when clearing) reached in the current pass
let total: u64 = 0;
let listing: bool = false;
let optNodes: u64 = 0;
let split: i32 = 0;      // depthA of the MOVES search: the meeting layer
let other: i32 = 0;      // depthB

// The chain walk: per chain depth the position, the moving peg's hole, the next jump to try
// and the position's images under the symmetries.
let walkPos: usize = 0;
let walkPeg: usize = 0;
let walkNext: usize = 0;
let walkImages: usize = 0;
let rootImages: usize = 0;
const WALK_DEPTH: i32 = 72;

// What the walk does with each position a chain reaches.
const ADD_A: i32 = 0;  // A(child) += paths when dist0(child) = layer + 1
const ADD_B: i32 = 1;  // B(child) += paths when dist1(child) = layer + 1
const SUM_H: i32 = 2;  // hSum += H(child) when dist0(child) = layer + 1
let walkKind: i32 = 0;
let walkPaths: u64 = 0;
let hSum: u64 = 0;

@inline function countAt(slot: usize, k: i32): usize {
  return counts + <usize>(<u32>((slot - tabBase) >> 3) * width) + (<usize>k << 3);
}

/**
 * Starts counting after a finished MOVES search that found the fewest moves. `list` 1 also
 * keeps H for listing. DONE, OUT_OF_MEMORY or BAD_INPUT.
 */
export function pegsOptimalStart(list: i32): i32 {
  if (mode != MODE_MOVES || !finished || best == 0x7fffffff) return BAD_INPUT;
  listing = list != 0;
  width = listing ? 24 : 16;
  split = depthA;
  other = depthB;
  const slots: u64 = <u64>1 << tabLog;
  walkPos = arenaAlloc(8 * WALK_DEPTH);
  walkPeg = arenaAlloc(4 * WALK_DEPTH);
  walkNext = arenaAlloc(4 * WALK_DEPTH);
  walkImages = arenaAlloc(<u64>(8 * WALK_DEPTH * MAX_SYMS));
  rootImages = arenaAlloc(8 * MAX_SYMS);
  counts = arenaAlloc(slots * width);
  notePeak();
  if (walkPos == 0 || walkPeg == 0 || walkNext == 0 || walkImages == 0 || rootImages == 0 || counts == 0) return OUT_OF_MEMORY;
  phase = PHASE_CLEAR;
  at = 0;
  total = 0;
  clearWrapped();
  optNodes = 0;
  return DONE;
}

export function pegsOptimalTotal(): u64 { return total; }
export function pegsOptimalNodes(): u64 { return optNodes; }
/** The pass in progress, for progress reports: 0 clearing, then 1 + each layer done. */
export function pegsOptimalStep(): i32 {
  if (phase == PHASE_CLEAR) return 0;
  if (phase == PHASE_FORWARD) return 1 + layer;
  if (phase == PHASE_BACKWARD) return 1 + split + layer;
  if (phase == PHASE_MEET) return 1 + split + other;
  if (phase == PHASE_H) return 2 + split + other + (split - layer);
  return pegsOptimalSteps();
}
/** The number of passes in all. */
export function pegsOptimalSteps(): i32 { return 2 + split + other + (listing ? split + 1 : 0); }
/** The meeting layer (moves from the start). */
export function pegsOptimalSplit(): i32 { return split; }

/** Seeds a pass's first layer. */
function seed(): void {
  if (phase == PHASE_FORWARD) {
    const slot = movesSlot(canonical(start));
    store<u64>(countAt(slot, 0), 1);
  } else if (phase == PHASE_BACKWARD) {
    for (let f = 0; f < finishes; f++) {
      const slot = movesSlot(canonical(~get64(finishList, f) & full));
      store<u64>(countAt(slot, 1), load<u64>(countAt(slot, 1)) + 1);
    }
  }
}

/** Advances by about `budget` units. DONE when the total (and H) are ready; OVERFLOW. */
export function pegsOptimalRun(budget: i32): i32 {
  if (mode != MODE_MOVES || counts == 0) return BAD_INPUT;
  const slots: u64 = <u64>1 << tabLog;
  let left: u64 = <u64>max(budget, 1) * SCAN_SLOTS;
  while (phase != PHASE_DONE) {
    if (countWrapped()) return OVERFLOW;
    if (left == 0) return MORE;
    if (phase == PHASE_CLEAR) {
      const size: u64 = slots * width;
      const bytes = min<u64>(size - at, (left / SCAN_SLOTS) * CLEAR_BYTES + CLEAR_BYTES);
      memory.fill(counts + <usize>at, 0, <usize>bytes);
      at += bytes;
      left -= min<u64>(left, (bytes / CLEAR_BYTES) * SCAN_SLOTS);
      if (at >= size) nextPass(PHASE_FORWARD, 0);
      continue;
    }
    // A pass over the table's slots.
    while (at < slots && left > 0) {
      const slot = tabBase + (<usize>at << 3);
      at++;
      left--;
      const entry = load<u64>(slot);
      if (entry == 0) continue;
      const key = entry & ((<u64>1 << 48) - 1);
      if (phase == PHASE_FORWARD) {
        if (distance(slot, 0) != <u32>layer) continue;
        walkKind = ADD_A;
        walkPaths = load<u64>(countAt(slot, 0));
        if (walkPaths == 0) continue;
        walk(key, false);
      } else if (phase == PHASE_BACKWARD) {
        if (distance(slot, 1) != <u32>layer) continue;
        walkKind = ADD_B;
        walkPaths = load<u64>(countAt(slot, 1));
        if (walkPaths == 0) continue;
        walk(key, true);
      } else if (phase == PHASE_MEET) {
        if (distance(slot, 0) != <u32>split) continue;
        const completions = meetCompletions(key);
        if (completions == 0) continue;
        total = addChecked(total, mulChecked(load<u64>(countAt(slot, 0)), completions));
        if (listing) store<u64>(countAt(slot, 2), completions);
      } else {
        if (distance(slot, 0) != <u32>layer) continue;
        walkKind = SUM_H;
        hSum = 0;
        walk(key, false);
        store<u64>(countAt(slot, 2), hSum);
      }
      left -= min<u64>(left, SCAN_SLOTS - 1);
      optNodes++;
    }
    if (at < slots) return MORE;
    // The pass is done.
    if (phase == PHASE_FORWARD) {
      if (layer + 1 < split) nextPass(PHASE_FORWARD, layer + 1);
      else nextPass(PHASE_BACKWARD, 0);
    } else if (phase == PHASE_BACKWARD) {
      if (layer + 1 < other) nextPass(PHASE_BACKWARD, layer + 1);
      else nextPass(PHASE_MEET, 0);
    } else if (phase == PHASE_MEET) {
      if (listing && split > 0) nextPass(PHASE_H, split - 1);
      else phase = PHASE_DONE;
    } else {
      if (layer > 0) nextPass(PHASE_H, layer - 1);
      else phase = PHASE_DONE;
    }
  }
  return countWrapped() ? OVERFLOW : DONE;
}

/** Starts a pass; a forward or backward pass of layer 0 first seeds its side. */
function nextPass(next: i32, nextLayer: i32): void {
  const seeding = (next == PHASE_FORWARD || next == PHASE_BACKWARD) && nextLayer == 0;
  phase = next;
  layer = nextLayer;
  at = 0;
  if (seeding) seed();
  // With no layers to expand on a side, go straight on (the seed is the layer).
  if (phase == PHASE_FORWARD && split == 0) { phase = PHASE_BACKWARD; seed(); }
  if (phase == PHASE_BACKWARD && other == 0) phase = PHASE_MEET;
}

/**
 * The fewest-move completions from one position p of the meeting layer: B(~p) / |orbit| when
 * ~p is depthB moves from the finishes, else 0.
 */
function meetCompletions(key: u64): u64 {
  const slot = movesSlot(leastComplement(key));
  if (load<u64>(slot) == 0 || distance(slot, 1) != <u32>other) return 0;
  return load<u64>(countAt(slot, 1)) / <u64>(<u32>syms / fixedBy);
}

/** Every chain from `pos` (reverse: undone on complements), each reached position handled. */
function walk(pos: u64, reverse: bool): void {
  for (let s = 0; s < syms; s++) set64(rootImages, s, s == 0 ? pos : imageOf(s, pos));
  const starts = reverse ? toStart : fromStart;
  const list = reverse ? byTo : byFrom;
  for (let j = 0; j < jumps; j++) {
    if (!legal(pos, j)) continue;
    push(0, pos ^ get64(jumpFlip, j), j, reverse, rootImages);
    let top = 0;
    while (top >= 0) {
      const here = get64(walkPos, top);
      const end = get(starts, <i32>get(walkPeg, top) + 1);
      let k = get(walkNext, top);
      while (k < end && !legal(here, <i32>get(list, <i32>k))) k++;
      if (k >= end) { top--; continue; }
      set(walkNext, top, k + 1);
      const next = <i32>get(list, <i32>k);
      top++;
      push(top, here ^ get64(jumpFlip, next), next, reverse, walkImages + (<usize>((top - 1) * MAX_SYMS) << 3));
    }
  }
}

@inline function push(top: i32, pos: u64, j: i32, reverse: bool, before: usize): void {
  const peg = reverse ? get(jumpFrom, j) : get(jumpLand, j);
  set64(walkPos, top, pos);
  set(walkPeg, top, peg);
  set(walkNext, top, get(reverse ? toStart : fromStart, <i32>peg));
  const after = walkImages + (<usize>(top * MAX_SYMS) << 3);
  let key = pos;
  for (let s = 0; s < syms; s++) {
    const image = get64(before, s) ^ get64(jumpImage, s * jumps + j);
    set64(after, s, image);
    key = min<u64>(key, image);
  }
  reach(key);
}

/** A chain reached the position whose canonical form is `key`. */
function reach(key: u64): void {
  const slot = movesSlot(key);
  if (load<u64>(slot) == 0) return;
  if (walkKind == ADD_A) {
    if (distance(slot, 0) == <u32>(layer + 1)) store<u64>(countAt(slot, 0), addChecked(load<u64>(countAt(slot, 0)), walkPaths));
  } else if (walkKind == ADD_B) {
    if (distance(slot, 1) == <u32>(layer + 1)) store<u64>(countAt(slot, 1), addChecked(load<u64>(countAt(slot, 1)), walkPaths));
  } else if (distance(slot, 0) == <u32>(layer + 1)) {
    hSum = addChecked(hSum, load<u64>(countAt(slot, 2)));
  }
}

/**
 * Listing: 1 when the position (lo, hi) after `index` moves lies on a fewest-move solution
 * (given that the positions before it do), else 0.
 */
export function pegsOptimalOnPath(lo: u32, hi: u32, index: i32): i32 {
  if (mode != MODE_MOVES || counts == 0 || !listing || phase != PHASE_DONE) return 0;
  const pos = (<u64>lo | (<u64>hi << 32)) & full;
  if (index <= split) {
    const slot = movesSlot(canonical(pos));
    return load<u64>(slot) != 0 && distance(slot, 0) == <u32>index && load<u64>(countAt(slot, 2)) != 0 ? 1 : 0;
  }
  const slot = movesSlot(canonical(~pos & full));
  return load<u64>(slot) != 0 && distance(slot, 1) == <u32>(best - index) ? 1 : 0;
}
