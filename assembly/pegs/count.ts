// Peg solitaire, COUNT: the number of jump sequences from the start to the finishes, by
// dynamic programming level by level (a jump removes one peg): a hash table maps each
// canonical position to the number of jump sequences reaching its whole orbit. Summing orbit
// totals is exact: F(R) = sum over orbits Q of F(Q) · (jumps from one representative of Q
// into R), because every member of Q has as many. When the finish is the complement of the
// start (the central games), undoing jumps from the finish is jumping from the start on
// complements, so the search stops halfway: the solutions through p are paths(p) · paths(~p),
// summed over the middle level. SHARDS (shards.ts) runs the same levels on several threads.
// Paths saturate (board.ts, SATURATED). The total is summed in 128 bits (total, totalHigh) as
// the last level is expanded: each jump into a finish adds its parent's paths, so a finish
// reached by more than 2^64 - 1 sequences is counted exactly while no parent of it saturates.
import { DONE, MORE, OUT_OF_MEMORY, arenaAlloc, arenaRewind } from '../shared/bits';
import { get64, set64 } from '../shared/words';
import {
  holes, jumps, syms, finishes, full, start, finishPegs, finishList, OUTPUT, total, totalHigh, outputLength, finished, nodes,
  notePeak, imageOf, canonical, keepImages, childCanonical, legal, hopeful, isFinish, OVERFLOW, countWrapped,
  addSaturating, addPaths, addProduct,
} from './board';
import {
  tabBase, tabLog, tabCount, nextBase, nextLog, nextCount, scan, level, findSlot, crowded, grow, newTable, slotIndex,
  CHORE_NONE, CHORE_GROW_FILL, CHORE_GROW_REHASH, CHORE_GROW_COPY, chore, choreAt, choreFresh, choreUsed, unitsFor,
  startChore, bulkPiece, rehashPiece,
} from './tables';
import { CHILDREN, VALUES, EXPAND_GROUP, GROUP_ROOM } from './meetState';

let meetLevel: i32 = -1;  // COUNT: the middle level where the two halves meet, or -1

export function startCount(log: u32): i32 {
  tabLog = 4;
  tabBase = newTable(tabLog);
  if (tabBase == 0) return OUT_OF_MEMORY;
  store<u64>(findSlot(tabBase, tabLog, canonical(start)), canonical(start));
  store<u64>(findSlot(tabBase, tabLog, canonical(start)), 1, 8);
  tabCount = 1;
  nextLog = log;
  nextBase = newTable(nextLog);
  if (nextBase == 0) return OUT_OF_MEMORY;
  nextCount = 0;
  pregrowFailed = false;
  level = <i32>popcnt(start);
  scan = 0;
  const selfDual = finishes == 1 && get64(finishList, 0) == (~start & full);
  meetLevel = selfDual && level > (holes >> 1) ? holes >> 1 : -1;
  for (let i = 0; i < 72; i++) set64(OUTPUT, i, 0);
  outputLength = 65;
  set64(OUTPUT, level, 1);
  return level == finishPegs ? finishCount() : DONE;
}

/** The start is on the finishes' level: one sequence (of no jumps) when it is a finish. */
function finishCount(): i32 {
  total = isFinish(canonical(start)) ? 1 : 0;
  level = finishPegs;
  finished = true;
  return DONE;
}

/**
 * The total: solutions = the sum over positions p of the middle level of paths(p) · paths(~p).
 * Per orbit R: F(R) · F(~R) / |R|, and F(~R) / |R| is exact because |~R| = |R|. With an odd
 * number of holes ~p is one level up (the table just expanded), with an even number on the same level.
 */
export function sumMeet(upper: usize, upperLog: u32): void {
  total = 0;
  totalHigh = 0;
  meetSum(upper, upperLog, 0, <u32>1 << nextLog);
}

/** sumMeet over the slots from `first` up to `end` of the middle level's table, added to the total. */
function meetSum(upper: usize, upperLog: u32, first: u32, end: u32): void {
  for (let i: u32 = first; i < end; i++) {
    const slot = nextBase + (<usize>i << 4);
    const key = load<u64>(slot);
    if (key == 0) continue;
    const other = findSlot(upper, upperLog, canonical(~key & full));
    if (load<u64>(other) == 0) continue;
    let fixed: u32 = 1;
    for (let s = 1; s < syms; s++) if (imageOf(s, key) == key) fixed++;
    addProduct(load<u64>(slot, 8), load<u64>(other, 8), <u64>(<u32>syms / fixed));
  }
}

/**
 * Adds the children of a position reached by `paths` jump sequences to the group from
 * CHILDREN[m] on (meetState.ts's scratch: COUNT and MEET never run at once in one instance);
 * the group's new size. insertGroup puts them in the next level's table. With `last` (the
 * children are on the finishes' level) each finish among them adds `paths` to the total.
 */
function collect(key: u64, paths: u64, m: i32, last: bool): i32 {
  keepImages(key);
  let n = m;
  for (let j = 0; j < jumps; j++) {
    if (!legal(key, j)) continue;
    const child = childCanonical(j);
    if (last && isFinish(child)) addPaths(paths);
    set64(CHILDREN, n, child);
    set64(VALUES, n++, paths);
  }
  return n;
}

/**
 * Puts the group's first n children in the next level's table (the arena's last allocation,
 * grown as needed), every child's slot read before any is written, so that the cache misses
 * overlap. False when out of memory.
 */
function insertGroup(n: i32): bool {
  let touched: u64 = 0;
  for (let i = 0; i < n; i++) touched |= load<u64>(nextBase + (<usize>slotIndex(get64(CHILDREN, i), nextLog) << 4));
  touchedSink ^= touched;
  for (let i = 0; i < n; i++) {
    const child = get64(CHILDREN, i);
    let to = findSlot(nextBase, nextLog, child);
    if (load<u64>(to) == 0) {
      // Children the pagodas rule out are never stored.
      if (!hopeful(child)) continue;
      if (crowded(nextCount + 1, nextLog)) {
        const grown = grow(nextBase, nextLog);
        if (grown == 0) return false;
        nextLog = grown;
        to = findSlot(nextBase, nextLog, child);
      }
      store<u64>(to, child);
      nextCount++;
    }
    store<u64>(to, addSaturating(load<u64>(to, 8), get64(VALUES, i)), 8);
  }
  return true;
}
let touchedSink: u64 = 0; // keeps the reads ahead from being optimized away

/**
 * Adds the children of a position reached by `paths` jump sequences to the next level's table
 * (the arena's last allocation, grown as needed), and with `last` its jumps into finishes to
 * the total (collect). False when out of memory.
 */
export function expand(key: u64, paths: u64, last: bool): bool {
  return insertGroup(collect(key, paths, 0, last));
}

// COUNT's chores (see tables.ts): the next level's growth (CHORE_GROW_*), a finished level
// moving down, the final sums.
const CHORE_LEVEL_COPY: i32 = 4;  // the finished next level moves down over the expanded one
const CHORE_LEVEL_FILL: i32 = 5;  // clear the following level's table
const CHORE_MEET_SUM: i32 = 6;    // sum over the middle level (sumMeet)
// Slots of chore work per unit of budget, about a node's time each (see tables.ts): the middle
// sum also finds canonical forms.
const MEET_SLOTS: u64 = 8;
let pregrowFailed: bool = false; // no room to grow ahead: expand() grows if it must (and fails then)

/**
 * One piece of the current chore, of at most `budget` units (choreUsed tells how many it
 * took). True when the chore is done.
 */
function chorePiece(budget: i32): bool {
  if (chore == CHORE_GROW_FILL) return bulkPiece(choreFresh, 0, <u64>16 << (nextLog + 1), 16, budget);
  if (chore == CHORE_GROW_REHASH) return rehashPiece(nextBase, nextLog, budget);
  if (chore == CHORE_GROW_COPY) return bulkPiece(nextBase, choreFresh, <u64>16 << (nextLog + 1), 16, budget);
  if (chore == CHORE_LEVEL_COPY) return bulkPiece(tabBase, nextBase, <u64>16 << nextLog, 16, budget);
  if (chore == CHORE_LEVEL_FILL) return bulkPiece(nextBase, 0, <u64>16 << nextLog, 16, budget);
  // The sum over the middle level against its complements.
  const slots: u64 = <u64>1 << nextLog;
  const end = min<u64>(slots, choreAt + <u64>max(budget, 1) * MEET_SLOTS);
  const upper = holes - level == level ? nextBase : tabBase;
  const upperLog = holes - level == level ? nextLog : tabLog;
  meetSum(upper, upperLog, <u32>choreAt, <u32>end);
  choreUsed = unitsFor(end - choreAt, MEET_SLOTS);
  choreAt = end;
  return end >= slots;
}

/** What follows a finished chore: MORE to go on, or the search's end. */
function afterChore(): i32 {
  const done = chore;
  chore = CHORE_NONE;
  if (done == CHORE_GROW_FILL) {
    startChore(CHORE_GROW_REHASH);
  } else if (done == CHORE_GROW_REHASH) {
    startChore(CHORE_GROW_COPY);
  } else if (done == CHORE_GROW_COPY) {
    nextLog++;
    arenaRewind(nextBase + (<usize>16 << nextLog));
  } else if (done == CHORE_LEVEL_COPY) {
    const size: usize = <usize>16 << nextLog;
    tabLog = nextLog;
    tabCount = nextCount;
    arenaRewind(tabBase + size);
    if (level == finishPegs || tabCount == 0) {
      // The total was summed as the last level was expanded (collect).
      level = finishPegs;
      finished = true;
      return countWrapped() ? OVERFLOW : DONE;
    }
    // Start the following level's table at the size of this one.
    nextBase = arenaAlloc(<u64>size);
    notePeak();
    if (nextBase == 0) return OUT_OF_MEMORY;
    nextCount = 0;
    scan = 0;
    pregrowFailed = false;
    startChore(CHORE_LEVEL_FILL);
  } else if (done == CHORE_MEET_SUM) {
    finished = true;
    return countWrapped() ? OVERFLOW : DONE;
  }
  return MORE;
}

export function runCount(budget: i32): i32 {
  const entered = chore;
  for (;;) {
    if (chore != entered) return MORE;
    if (chore != CHORE_NONE) {
      if (budget <= 0) return MORE;
      const finishedChore = chorePiece(budget);
      budget -= choreUsed;
      if (!finishedChore) return MORE;
      const status = afterChore();
      if (status != MORE) return status;
      continue;
    }
    if (level <= finishPegs) return DONE;
    const slots: u32 = <u32>1 << tabLog;
    // Parents go into the table a group at a time; a group is always put in before the loop
    // stops, so no run call ends with one pending.
    let pending = 0; // parents in the group
    let grouped = 0; // their children
    while (scan < slots) {
      if (budget <= 0) break;
      const slot = tabBase + (<usize>scan << 4);
      const key = load<u64>(slot);
      if (key != 0 && !pregrowFailed && crowded(nextCount + <u32>(jumps * (pending + 1)), nextLog)) {
        if (pending > 0) {
          if (!insertGroup(grouped)) return OUT_OF_MEMORY;
          pending = grouped = 0;
          continue;
        }
        // This position's children could crowd the table: grow it first, as chores.
        choreFresh = arenaAlloc(<u64>16 << (nextLog + 1));
        if (choreFresh != 0) {
          notePeak();
          startChore(CHORE_GROW_FILL);
          break;
        }
        pregrowFailed = true;
      }
      scan++;
      if (key == 0) continue;
      budget--;
      nodes++;
      grouped = collect(key, load<u64>(slot, 8), grouped, level == finishPegs + 1 && meetLevel < 0);
      if (++pending == EXPAND_GROUP || grouped + jumps > GROUP_ROOM) {
        if (!insertGroup(grouped)) return OUT_OF_MEMORY;
        pending = grouped = 0;
      }
    }
    if (pending > 0 && !insertGroup(grouped)) return OUT_OF_MEMORY;
    if (budget <= 0 && scan < slots && chore == CHORE_NONE) return MORE;
    if (chore != CHORE_NONE) continue;
    // The level is done: the next level moves down into the place of this one.
    level--;
    set64(OUTPUT, level, <u64>nextCount);
    startChore(level == meetLevel ? CHORE_MEET_SUM : CHORE_LEVEL_COPY);
  }
  return DONE;
}
