// Peg solitaire, SHARDS: counting on several threads.
//
// The same dynamic programming as COUNT (count.ts), cut by a hash of the canonical position into
// `shards` parts per level. A task owns one part of one level: it merges the (position,
// paths) pairs other tasks sent it into a table (summing the paths of equal positions),
// expands every position, and writes the children's pairs bucketed by the shard that owns
// them (each bucket deduplicated, its paths summed as count.ts sums them). Each thread holds
// only its part of a level.
// The host writes the pairs into the staging region (pegsShardInput), then pegsShardStart
// and pegsRun(budget) until DONE; the buckets are at pegsShardPairs, delimited by
// pegsShardOffsets.
import { DONE, SOLUTION, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaGeneration, arenaRewind } from '../shared/bits';
import { get, set } from '../shared/words';
import {
  jumps, syms, full, start, finishPegs, MODE_SHARD, loadedGeneration, mode, nodes, outputLength, finished, tablesTop,
  peakTop, alloc, notePeak, imageOf, canonical, OVERFLOW, countWrapped, addSaturating, addProduct,
} from './board';
import {
  tabBase, tabLog, tabCount, nextBase, nextLog, nextCount, scan, level, findSlot, crowded, grow, newTable, beginSearch,
} from './tables';
import { sumMeet, expand } from './count';

// Kinds:
//   EXPAND  merge A, expand into the next level, write buckets (what they hold: `route`)
//   MEET    merge A (the upper level of the middle) and B (the middle level, routed by the
//           owner of the complement): total = sum over B of paths(q) · paths(~q) / |orbit|
//   FINISH  merge A (the finish level): its distinct positions (the EXPAND into it summed
//           its jumps into finishes as the total, as count.ts does)
export const SHARD_EXPAND: i32 = 0;
export const SHARD_MEET: i32 = 1;
export const SHARD_FINISH: i32 = 2;
// JOIN  merge A (one side's middle level), then stream B (the other side's middle level,
//       routed by the owner of the complement): total = sum over B's pairs of
//       paths(q) · paths(~q) / |orbit| (duplicates in B simply add up: no table for B)
export const SHARD_JOIN: i32 = 3;
// Route bits: which buckets an EXPAND writes, in this order, `shards` buckets each.
export const ROUTE_CHILDREN: i32 = 1;   // the children, by the owner of their canonical form
export const ROUTE_COMPLEMENT: i32 = 2; // the children, by the owner of their complement's
export const ROUTE_TABLE: i32 = 4;      // the merged level itself, by owner
const MAX_SHARDS: i32 = 1024;

let shardKind: i32 = 0;
let shardCount: i32 = 1;
let shardRoute: i32 = 0;
let staging: usize = 0;
let stagedA: u32 = 0;
let stagedB: u32 = 0;
let mergeAt: u32 = 0;
let shardPhase: i32 = 0; // 0: merging A, 1: expanding, 2: merging B
let bucketOffsets: usize = 0; // (buckets + 1) × u32, in pairs
let bucketPairs: usize = 0;   // pairs × (u64 position, u64 paths)
let distinct: u32 = 0;

/** The shard that owns a canonical position (a hash unrelated to the tables' slot hash). */
@inline function ownerOf(key: u64): i32 {
  const h = (key ^ (key >> 31)) * 0xbf58476d1ce4e5b9;
  return <i32>(<u32>(h >> 32) % <u32>shardCount);
}

/** Staging room for `a` + `b` pairs after a load: a pointer the host writes them at, or 0. */
export function pegsShardInput(a: u32, b: u32): usize {
  if (loadedGeneration != arenaGeneration()) return 0;
  arenaRewind(tablesTop);
  peakTop = tablesTop;
  mode = -1;
  stagedA = a;
  stagedB = b;
  staging = alloc((<u64>a + <u64>b) << 4);
  notePeak();
  return staging;
}

/** The log of a table that holds n positions without growing. */
function logFor(n: u32): u32 {
  let log: u32 = 4;
  while (crowded(n + 1, log)) log++;
  return log;
}

/**
 * Starts a shard task on the staged pairs: `level` the pegs of the positions in A, `seed` 1 to
 * add the start position (paths 1) to A; `hintA` and `hintB` size the first tables (the
 * largest piece of each: a lower bound of the positions). DONE, or OUT_OF_MEMORY / BAD_INPUT.
 * The tables grow as they fill; once A is merged, an EXPAND moves its table down over the
 * staged pairs, so the staging room is given back before the expansion.
 */
export function pegsShardStart(kind: i32, level_: i32, shards: i32, route: i32, seed: i32, hintA: u32, hintB: u32, capLog_: i32): i32 {
  if (loadedGeneration != arenaGeneration() || staging == 0) return BAD_INPUT;
  if (kind < SHARD_EXPAND || kind > SHARD_JOIN || shards < 1 || shards > MAX_SHARDS || route < 0 || route > 7) return BAD_INPUT;
  if (hintA > stagedA || hintB > stagedB || capLog_ < 8 || capLog_ > 30) return BAD_INPUT;
  capLog = <u32>capLog_;
  flushed = false;
  beginSearch(MODE_SHARD);
  shardKind = kind;
  shardCount = shards;
  shardRoute = route;
  level = level_;
  distinct = 0;
  bucketOffsets = 0;
  bucketPairs = 0;
  hintMiddle = hintB;
  tabLog = logFor(hintA + 1);
  tabBase = newTable(tabLog);
  if (tabBase == 0) return OUT_OF_MEMORY;
  tabCount = 0;
  nextCount = 0;
  if (seed != 0) {
    const key = canonical(start);
    const slot = findSlot(tabBase, tabLog, key);
    store<u64>(slot, key);
    store<u64>(slot, 1, 8);
    tabCount = 1;
  }
  mergeAt = 0;
  shardPhase = 0;
  scan = 0;
  return DONE;
}
let hintMiddle: u32 = 0;
let capLog: u32 = 30;   // the expansion's table stops growing here: its pairs are sent (SOLUTION) and it starts empty
let flushed: bool = false;

export function pegsShardOffsets(): usize { return bucketOffsets; }
export function pegsShardPairs(): usize { return bucketPairs; }
/** Buckets written by the last EXPAND. */
export function pegsShardBuckets(): i32 { return outputLength; }
/** Positions in the merged level (MEET: in the middle level). */
export function pegsShardDistinct(): u32 { return distinct; }

/**
 * Merges staged pairs up to `end` into the table of the arena's top (tabBase or nextBase, by
 * `intoNext`), growing it. False when out of memory.
 */
function mergeInto(intoNext: bool, end: u32, budget: i32): bool {
  let base = intoNext ? nextBase : tabBase;
  let log = intoNext ? nextLog : tabLog;
  let count = intoNext ? nextCount : tabCount;
  let i = mergeAt;
  let left = budget;
  let ok = true;
  while (i < end && left > 0) {
    const pair = staging + (<usize>i << 4);
    const key = load<u64>(pair);
    let slot = findSlot(base, log, key);
    if (load<u64>(slot) == 0) {
      if (crowded(count + 1, log)) {
        const grown = grow(base, log);
        if (grown == 0) { ok = false; break; }
        log = grown;
        slot = findSlot(base, log, key);
      }
      store<u64>(slot, key);
      count++;
    }
    store<u64>(slot, addSaturating(load<u64>(slot, 8), load<u64>(pair, 8)), 8);
    i++;
    left--;
  }
  mergeAt = i;
  if (intoNext) { nextLog = log; nextCount = count; } else { tabLog = log; tabCount = count; }
  return ok;
}

export function runShard(budget: i32): i32 {
  if (shardPhase == 0) {
    if (!mergeInto(false, stagedA, budget)) return OUT_OF_MEMORY;
    if (mergeAt < stagedA) return MORE;
    distinct = tabCount;
    if (shardKind == SHARD_JOIN) {
      shardPhase = 3;
      return MORE;
    }
    if (shardKind == SHARD_FINISH || level <= finishPegs) {
      finished = true;
      return DONE;
    }
    if (shardKind == SHARD_MEET) {
      nextLog = logFor(hintMiddle + 1);
      nextBase = newTable(nextLog);
      if (nextBase == 0) return OUT_OF_MEMORY;
      nextCount = 0;
      shardPhase = 2;
      return MORE;
    }
    // The staged pairs are merged: the table moves down over them.
    const size: usize = <usize>16 << tabLog;
    memory.copy(staging, tabBase, size);
    tabBase = staging;
    arenaRewind(tabBase + size);
    nextLog = tabLog;
    nextBase = newTable(nextLog);
    if (nextBase == 0) return OUT_OF_MEMORY;
    nextCount = 0;
    shardPhase = 1;
    return MORE;
  }
  if (shardPhase == 2) {
    if (!mergeInto(true, stagedA + stagedB, budget)) return OUT_OF_MEMORY;
    if (mergeAt < stagedA + stagedB) return MORE;
    distinct = nextCount;
    // The middle level (B) against the level above it or beside it (A).
    sumMeet(tabBase, tabLog);
    finished = true;
    return countWrapped() ? OVERFLOW : DONE;
  }
  if (shardPhase == 3) {
    // JOIN: B's pairs against the merged A, a piece of the budget at a time.
    const end = stagedA + stagedB;
    let i = mergeAt;
    for (let left = budget; i < end && left > 0; i++, left--) {
      const pair = staging + (<usize>i << 4);
      const key = load<u64>(pair);
      const other = findSlot(tabBase, tabLog, canonical(~key & full));
      if (load<u64>(other) == 0) continue;
      let fixed: u32 = 1;
      for (let s = 1; s < syms; s++) if (imageOf(s, key) == key) fixed++;
      addProduct(load<u64>(pair, 8), load<u64>(other, 8), <u64>(<u32>syms / fixed));
      nodes++;
    }
    mergeAt = i;
    if (i < end) return MORE;
    finished = true;
    return countWrapped() ? OVERFLOW : DONE;
  }
  // Phase 1: expand, as runCount does.
  if (flushed) {
    // The host has read the last batch: empty the table and go on.
    const size: usize = <usize>16 << nextLog;
    arenaRewind(nextBase + size);
    memory.fill(nextBase, 0, size);
    nextCount = 0;
    outputLength = 0;
    flushed = false;
  }
  const slots: u32 = <u32>1 << tabLog;
  while (scan < slots) {
    if (budget <= 0) return MORE;
    const slot = tabBase + (<usize>scan << 4);
    const key = load<u64>(slot);
    if (key != 0 && nextCount > 0 && nextLog >= capLog && crowded(nextCount + <u32>jumps, nextLog)) {
      // At the cap: send this batch (the owners sum equal positions anyway).
      flushed = true;
      const status = writeBuckets(false);
      return status == DONE ? SOLUTION : status;
    }
    scan++;
    if (key == 0) continue;
    budget--;
    nodes++;
    if (!expand(key, load<u64>(slot, 8), level == finishPegs + 1 && shardRoute == ROUTE_CHILDREN)) return OUT_OF_MEMORY;
  }
  const status = writeBuckets(true);
  if (status != DONE) return status;
  finished = true;
  return countWrapped() ? OVERFLOW : DONE;
}

/**
 * Writes the buckets the route asks for: counts first, then the pairs in place. The merged
 * level's group (ROUTE_TABLE) is written with the last batch only.
 */
function writeBuckets(last: bool): i32 {
  let groups = 0;
  for (let r = 0; r < 3; r++) if ((shardRoute >> r) & 1) groups++;
  const buckets = groups * shardCount;
  let pairs: u64 = 0;
  if (shardRoute & ROUTE_CHILDREN) pairs += nextCount;
  if (shardRoute & ROUTE_COMPLEMENT) pairs += nextCount;
  if ((shardRoute & ROUTE_TABLE) && last) pairs += tabCount;
  bucketOffsets = alloc(<u64>(buckets + 1) << 2);
  bucketPairs = alloc(pairs << 4);
  notePeak();
  if (bucketOffsets == 0 || bucketPairs == 0) return OUT_OF_MEMORY;
  memory.fill(bucketOffsets, 0, <usize>(buckets + 1) << 2);
  // Pass 0 counts into offsets[b + 1]; pass 1 places each pair at offsets[b]++ (then the
  // offsets are restored by shifting).
  for (let pass = 0; pass < 2; pass++) {
    let group = 0;
    for (let r = 0; r < 3; r++) {
      if (((shardRoute >> r) & 1) == 0) continue;
      if (r == 2 && !last) { group++; continue; }
      const base = r == 2 ? tabBase : nextBase;
      const slots: u32 = <u32>1 << (r == 2 ? tabLog : nextLog);
      for (let i: u32 = 0; i < slots; i++) {
        const slot = base + (<usize>i << 4);
        const key = load<u64>(slot);
        if (key == 0) continue;
        const b = group * shardCount + ownerOf(r == 1 ? canonical(~key & full) : key);
        if (pass == 0) { set(bucketOffsets, b + 1, get(bucketOffsets, b + 1) + 1); continue; }
        const at = get(bucketOffsets, b);
        set(bucketOffsets, b, at + 1);
        const out = bucketPairs + (<usize>at << 4);
        store<u64>(out, key);
        store<u64>(out, load<u64>(slot, 8), 8);
      }
      group++;
    }
    if (pass == 0) {
      for (let b = 0; b < buckets; b++) set(bucketOffsets, b + 1, get(bucketOffsets, b + 1) + get(bucketOffsets, b));
    } else {
      for (let b = buckets; b > 0; b--) set(bucketOffsets, b, get(bucketOffsets, b - 1));
      set(bucketOffsets, 0, 0);
    }
  }
  outputLength = buckets;
  return DONE;
}

