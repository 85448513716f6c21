// Peg solitaire: what the searches by levels share (COUNT, MOVES, SHARDS, and SOLVE's table of
// dead positions): the growable hash tables and their state, the chores that do long table
// work in pieces within the budget, and the start of every search (beginSearch).
import { arenaAlloc, arenaRewind } from '../shared/bits';
import { mode, finished, nodes, total, totalHigh, outputLength, notePeak, clearWrapped } from './board';

/** The multiplier of the tables' Fibonacci hashing (meet.ts hashes with it too). */
export const GOLDEN: u64 = 0x9e3779b97f4a7c15;
const MAX_LOAD_NUM: u32 = 7; // tables grow beyond 7/10 full
const MAX_LOAD_DEN: u32 = 10;

// Growable hash tables (key u64, value u64; key 0 is empty). The growing table is always
// the arena's last allocation, so growth can move it back down over its old place.
export let tabBase: usize = 0;   // COUNT: the level being expanded; MOVES: every position seen
export let tabLog: u32 = 0;
export let tabCount: u32 = 0;
export let nextBase: usize = 0;  // COUNT: the level being built
export let nextLog: u32 = 0;
export let nextCount: u32 = 0;
export let scan: u32 = 0;        // the slot reached in the table being expanded
export let level: i32 = 0;       // COUNT: pegs of the level being expanded; MOVES: depth expanded

// ---- hash tables -------------------------------------------------------------------------

@inline export function slotIndex(key: u64, log: u32): u32 {
  return <u32>((key * GOLDEN) >> (64 - <u64>log));
}

/** The slot of `key` in a table of 2^log slots: its own, or the empty one it would take. */
@inline export function findSlot(base: usize, log: u32, key: u64): usize {
  const mask: u32 = (<u32>1 << log) - 1;
  let i = slotIndex(key, log);
  for (;;) {
    const slot = base + (<usize>i << 4);
    const k = load<u64>(slot);
    if (k == key || k == 0) return slot;
    i = (i + 1) & mask;
  }
  return 0; // not reached: tables never fill
}

@inline export function crowded(count: u32, log: u32): bool {
  return <u64>count * MAX_LOAD_DEN >= (<u64>MAX_LOAD_NUM << <u64>log);
}

/**
 * Doubles a table that is the arena's last allocation: rehashes into fresh space above it,
 * then moves the result down over the old place. Returns the new log, or 0 when out of memory.
 */
export function grow(base: usize, log: u32): u32 {
  const newLog = log + 1;
  const size: u64 = <u64>16 << newLog;
  const fresh = arenaAlloc(size);
  if (fresh == 0) return 0;
  notePeak();
  memory.fill(fresh, 0, <usize>size);
  rehashSlots(base, log, fresh, 0, <u64>1 << log);
  memory.copy(base, fresh, <usize>size);
  arenaRewind(base + <usize>size);
  return newLog;
}

/** Puts the pairs in slots `from` to `end` − 1 of table (base, log) into the empty doubled table `fresh`. */
function rehashSlots(base: usize, log: u32, fresh: usize, from: u64, end: u64): void {
  for (let i = from; i < end; i++) {
    const slot = base + (<usize>i << 4);
    const key = load<u64>(slot);
    if (key == 0) continue;
    const to = findSlot(fresh, log + 1, key);
    store<u64>(to, key);
    store<u64>(to, load<u64>(slot, 8), 8);
  }
}

/** A fresh table of 2^log empty slots at the top of the arena, or 0. */
export function newTable(log: u32): usize {
  const base = arenaAlloc(<u64>16 << log);
  if (base != 0) memory.fill(base, 0, <usize>16 << log);
  notePeak();
  return base;
}

// Chores: the searches' long table work (a table's growth, a finished level moving down, the
// final sums) runs in pieces between nodes, so that no pegsRun call does more than its budget.
// The pieces that clear, copy or rehash are here (bulkPiece, rehashPiece); each search names
// its other kinds of chore (count.ts, moves.ts). A unit of budget is BULK_SLOTS slots of
// sequential work (copies, fills) or PROBE_SLOTS of probing at random.
export const CHORE_NONE: i32 = 0;
// A table's growth (COUNT's next level, SOLVE's dead set; MOVES has its own kinds, its slots
// being 8 bytes): clear the doubled table above it, move its pairs there, copy it down.
export const CHORE_GROW_FILL: i32 = 1;
export const CHORE_GROW_REHASH: i32 = 2;
export const CHORE_GROW_COPY: i32 = 3;
export const BULK_SLOTS: u64 = 512;
export const PROBE_SLOTS: u64 = 64;
// The most bytes one run call clears or copies: a unit's bytes cost far more in fresh memory
// (its pages mapped as they are first written: about 10 µs a unit of 8 KiB, 15 times a
// position expanded) than in memory written before, so a budget that cleared the one would
// clear too much of the other in one call (4 MiB: about 5 ms fresh). A run call also ends
// where its chore (or meet.ts's phase) changes: the host keeps a budget for each (runSliced).
export const BULK_CALL_BYTES: u64 = 4 << 20;
export let chore: i32 = CHORE_NONE;
export let choreAt: u64 = 0;       // slots (or bytes, for fills and copies) done
export let choreFresh: usize = 0;  // the doubled table
export let choreUsed: i32 = 0;     // budget the last piece used

/** Units of budget for `work` slots at `perUnit` slots a unit (at least 1). */
@inline export function unitsFor(work: u64, perUnit: u64): i32 {
  return <i32>max<u64>(1, (work + perUnit - 1) / perUnit);
}

@inline export function startChore(kind: i32): void {
  chore = kind;
  choreAt = 0;
}

/**
 * The next piece of a chore that clears (`from` 0) or copies the `size` bytes at `to` (from
 * `from`), forward, so that a copy down from a table above never overwrites what it has yet to
 * read: at most `budget` units of BULK_SLOTS slots of `slotBytes`, and BULK_CALL_BYTES.
 * choreUsed: the units it took. True when the chore is done.
 */
export function bulkPiece(to: usize, from: usize, size: u64, slotBytes: u64, budget: i32): bool {
  const allowed: u64 = <u64>max(budget, 1);
  const bytes = min<u64>(size - choreAt, min<u64>(allowed * BULK_SLOTS * slotBytes, BULK_CALL_BYTES));
  if (from == 0) memory.fill(to + <usize>choreAt, 0, <usize>bytes);
  else memory.copy(to + <usize>choreAt, from + <usize>choreAt, <usize>bytes);
  choreAt += bytes;
  choreUsed = unitsFor(bytes / slotBytes, BULK_SLOTS);
  return choreAt >= size;
}

/**
 * The next piece of a growth's rehash: the pairs of table (base, log) into the doubled table
 * at choreFresh, at most `budget` units of PROBE_SLOTS slots. choreUsed: the units it took.
 * True when every slot is done.
 */
export function rehashPiece(base: usize, log: u32, budget: i32): bool {
  const slots: u64 = <u64>1 << log;
  const end = min<u64>(slots, choreAt + <u64>max(budget, 1) * PROBE_SLOTS);
  rehashSlots(base, log, choreFresh, choreAt, end);
  choreUsed = unitsFor(end - choreAt, PROBE_SLOTS);
  choreAt = end;
  return end >= slots;
}

// ---- start -------------------------------------------------------------------------------

/** The state every search starts from: its mode, no nodes, no answer yet. */
export function beginSearch(searchMode: i32): void {
  mode = searchMode;
  finished = false;
  chore = CHORE_NONE;
  nodes = 0;
  total = 0;
  totalHigh = 0;
  clearWrapped();
  outputLength = 0;
}
