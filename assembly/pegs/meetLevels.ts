// Peg solitaire, the count from both ends (meet.ts): the levels in memory. A step expands the
// smaller side into a table sized from its last growth (in parts when the memory left is
// short: each part's table compacted right after the parts before), grows the table as
// chores when the guess was short, compacts it and moves it down over the level it replaces.
// The last level is kept as a table, or joined part by part (meetJoin.ts); spilled, a level
// goes to the host instead (meetSpill.ts).
import { DONE, MORE, OUT_OF_MEMORY, arenaAlloc, arenaTop, arenaRewind, arenaRoom } from '../shared/bits';
import { get64, set64 } from '../shared/words';
import {
  holes, jumps, syms, pagodas, jumpFlip, jumpImage, images, OUTPUT, keepImages, legalJumps, LEGAL, notePeak, hopefulIn,
} from './board';
import {
  width, pairPaths, isEmpty, setPair, P_EXPAND, P_GROW_FILL, P_COMPACT, P_MOVE, P_FINAL, P_JOIN_BUILD, P_DONE, P_SPILL,
  P_GATHER, MAX_PARTS, MAX_SPILL_PARTS, base0, base1, count0, count1, level0, level1, ratio0, ratio1, lower, selfDual,
  forwardEnd, phase, x, at, xAt, tBase, tSize, tCount, fresh, freshSize, keepTable, parts, part, nBase, nCount, joining, lookup,
  grand, grown, moves, moveDst0, moveSrc0, moveLen0, moveDst1, moveSrc1, moveLen1, steps, spillMode, spilled, spillAt,
  leastParts, sumCap, scattering, joinScatter, baseOf, countOf, partRecords, home, findIn, slotsFor, fewest, valueOut, ownerOf,
  CHILDREN, VALUES,
} from './meetState';
import { clearTotal, beginJoin } from './meetJoin';
import { beginJoinScatter, beginLevel, toBuffer, newTable, gatherDone } from './meetSpill';
import { combine, fewestChild } from './meetFewest';

/** Starts expanding the smaller side, in as many parts as the memory left asks for. */
export function beginStep(): i32 {
  x = selfDual || count0 <= count1 ? 0 : 1;
  const n = countOf(x);
  const ratio = x == 0 ? ratio0 : ratio1;
  // The first levels grow by the number of jumps at most; later, by the side's last ratio
  // (and a margin: growth later costs more than slack now).
  const guess = max<f64>(ratio == 0 ? <f64>n * 4 : <f64>n * ratio * 1.15, <f64>(n + <u64>jumps));
  part = 0;
  nCount = 0;
  if (spilled) {
    // The window and one part's table: the level goes to the host part by part.
    parts = max<u32>(leastParts, partsFor(guess, MAX_SPILL_PARTS));
    return beginLevel(guess);
  }
  // One table for the level if it fits; else parts, the level's pairs (dense) and one part's table.
  const room = <f64>arenaRoom();
  parts = 1;
  if (<f64>slotsFor(guess) * <f64>width > room) {
    parts = 2;
    while (parts < MAX_PARTS && (guess + <f64>slotsFor(guess / <f64>parts)) * <f64>width > room) parts++;
  }
  if ((parts > 1 && spillMode != 0) || spillMode == 2) {
    // The levels go to disk: first the sides in memory, one HAVE_PAIRS each (pegsMeetRun).
    phase = P_SPILL;
    spillAt = 0;
    return DONE;
  }
  nBase = arenaTop();
  if (parts > 1 && !selfDual && level0 - level1 == 2) {
    // The last level would not fit in one table: skip it. The other side goes into tables (in
    // parts) and side x's grandchildren stream against them.
    grand = true;
    joining = true;
    lookup = 1 - x;
    parts = partsFor(<f64>countOf(lookup), MAX_PARTS);
    const status = beginJoin(0);
    return status == MORE ? DONE : status;
  }
  return beginPart(guess);
}

/**
 * Spilled, memory holds little but the table: up to half again the slots for n pairs, as the
 * room allows, so that a part seldom has to start again for want of growing.
 */
export function roomier(size: u32, n: f64): u32 {
  if (!spilled) return size;
  const most = <f64>arenaRoom() / <f64>width * 0.98;
  return max<u32>(size, <u32>min<f64>(<f64>slotsFor(n * 1.5), most));
}

/** Parts (at most `most`) for tables of n pairs in the memory left. */
export function partsFor(n: f64, most: u32): u32 {
  const room = <f64>arenaRoom();
  let k: u32 = 1;
  while (k < most && <f64>slotsFor(n / <f64>k * (k == 1 ? 1 : 1.1)) * <f64>width > room) k++;
  return k;
}

/** A table for one part of the level side x is building. */
export function beginPart(guess: f64): i32 {
  return newTable(roomier(slotsFor(guess / <f64>parts), guess / <f64>parts), P_EXPAND) ? DONE : OUT_OF_MEMORY;
}

/**
 * Adds the children of a position reached by `paths` sequences (orbit total) to the group from
 * CHILDREN[m] on (scattered, to the buffers at once); the group's new size. insertGroup puts
 * them in the table.
 */
export function expand(key: u64, paths: u64, m: i32): i32 {
  keepImages(key);
  let n = m;
  const legalCount = legalJumps(key);
  for (let i = 0; i < legalCount; i++) {
    const j = <i32>load<u32>(LEGAL + (<usize>i << 2));
    let child: u64;
    let value = paths;
    if (fewest) {
      child = fewestChild(images, key, j, paths, x, 0);
      value = valueOut;
    } else {
      child = load<u64>(images) ^ get64(jumpFlip, j);
      for (let s = 1; s < syms; s++) child = min<u64>(child, get64(images, s) ^ get64(jumpImage, s * jumps + j));
    }
    const owner = ownerOf(child);
    if (scattering) {
      // Judged by the pagodas once summed (P_COMPACT): once a child, not once a jump.
      toBuffer(owner, child, value);
      continue;
    }
    if (owner != part) continue;
    set64(VALUES, n, value);
    set64(CHILDREN, n++, child);
  }
  return n;
}

/** Puts the group's first n children in the table (the parents' children in the order made). */
export function insertGroup(n: i32): void {
  readAhead(n);
  for (let i = 0; i < n; i++) {
    const child = get64(CHILDREN, i);
    const value = get64(VALUES, i);
    const slot = findIn(tBase, tSize, child);
    if (isEmpty(slot)) {
      // Children the side's pagodas rule out are never stored.
      if (!hopeful(child)) continue;
      setPair(slot, child, value);
      tCount++;
    } else setPair(slot, child, combine(pairPaths(slot), value));
  }
}

/**
 * Reads the table slot of each of the first n keys in CHILDREN before any is used: the reads
 * do not wait on one another, so their cache misses (the table is most of memory) overlap.
 */
@inline export function readAhead(n: i32): void {
  let touched: u64 = 0;
  for (let i = 0; i < n; i++) touched |= load<u64>(tBase + <usize>home(get64(CHILDREN, i), tSize) * width);
  touchedSink ^= touched;
}
let touchedSink: u64 = 0; // keeps the reads above from being optimized away

/** Whether side x's pagodas leave the finish (forward) or the start's complement (backward) in reach. */
@inline export function hopeful(pos: u64): bool {
  return x == 0 ? hopefulIn(pos, 0, forwardEnd) : hopefulIn(pos, forwardEnd, pagodas);
}

/** The table is about to crowd: starts growing it, by the guess the pairs done so far give. */
export function beginGrowth(resume: i32): bool {
  const n = resume == P_GATHER ? partRecords(part) : countOf(resume == P_JOIN_BUILD ? lookup : x);
  const guess = <f64>tCount * (<f64>n / <f64>max<u64>(xAt, 1)) * 1.1;
  const least = tSize + (tSize >> 2);
  let size = <u32>min<f64>(<f64>tSize * 2, max<f64>(<f64>least, <f64>slotsFor(guess)));
  if ((resume == P_GATHER || joinScatter) && sumCap != 0 && size > sumCap) return false;
  for (;;) {
    fresh = arenaAlloc(<u64>size * <u64>width);
    if (fresh != 0 || size <= least) break;
    size = max<u32>(least, size - ((size - tSize) >> 1));
  }
  notePeak();
  if (fresh == 0) return false;
  freshSize = size;
  grown = resume;
  phase = P_GROW_FILL;
  at = 0;
  return true;
}

/** One part's table is built: compact it where it stands (right after the parts before). */
export function compactPart(): i32 {
  at = 0;
  xAt = 0;
  phase = P_COMPACT;
  return MORE;
}

/** One part's pairs are dense after the parts before: the next part, or the level is built. */
export function partDone(): i32 {
  if (scattering) return gatherDone();
  nCount += tCount;
  // Spilled, the part is with the host: its table's memory is free.
  arenaRewind(spilled ? tBase : nBase + <usize>nCount * width);
  part++;
  if (part < parts) {
    const n = countOf(x);
    const ratio = x == 0 ? ratio0 : ratio1;
    // The parts so far tell the level's size better than the last ratio.
    const guess = max<f64>(<f64>nCount / <f64>part * <f64>parts * 1.05, ratio == 0 ? <f64>n * 4 : 0);
    const status = beginPart(guess);
    return status == DONE ? MORE : status;
  }
  tBase = nBase;
  tCount = nCount;
  return levelBuilt();
}

/** Side x's new level is built (a table, or dense when in parts): record it, compact or keep it. */
export function levelBuilt(): i32 {
  steps++;
  const n = countOf(x);
  if (x == 0) { level0--; ratio0 = <f64>tCount / <f64>n; } else { level1++; ratio1 = <f64>tCount / <f64>n; }
  if (selfDual) level1 = holes - level0; // the complements of the forward side
  set64(OUTPUT, x == 0 ? level0 : level1, tCount);
  if (tCount == 0) {
    // Nothing left on this side: no solution.
    clearTotal();
    phase = P_DONE;
    return DONE;
  }
  // The last level: one jump from the other side (self-dual: from its own complements, or
  // on them when the middle level is its own complement level).
  const last = level0 - level1 <= 1;
  if (spilled) {
    // The level is with the host: the next step, or the join part by part, from disk.
    if (x == 0) count0 = tCount; else count1 = tCount;
    if (!last) {
      const status = beginStep();
      return status == DONE ? MORE : status;
    }
    joining = true;
    lookup = selfDual || count0 <= count1 ? 0 : 1;
    parts = max<u32>(leastParts, partsFor(<f64>countOf(lookup), MAX_SPILL_PARTS));
    return parts > 1 ? beginJoinScatter() : beginJoin(0);
  }
  keepTable = last && parts == 1;
  joining = last && parts > 1;
  at = 0;
  xAt = 0;
  if (parts > 1 || keepTable) planMoves();
  else phase = P_COMPACT;
  return MORE;
}

/**
 * Plans moving the new level (dense, or the whole table when kept) down over side x's old
 * pairs: [y][x][new] moves the new level down; [x][y][new] moves y down, then the new level.
 */
export function planMoves(): void {
  const y = 1 - x;
  const bytes: u64 = (keepTable ? <u64>tSize : tCount) * <u64>width;
  const xBase = baseOf(x);
  if (lower == y) {
    moves = 1;
    moveDst1 = xBase; moveSrc1 = tBase; moveLen1 = bytes;
  } else {
    const yBytes = countOf(y) * <u64>width;
    moves = 2;
    moveDst0 = xBase; moveSrc0 = baseOf(y); moveLen0 = yBytes;
    moveDst1 = xBase + <usize>yBytes; moveSrc1 = tBase; moveLen1 = bytes;
    if (y == 0) base0 = xBase; else base1 = xBase;
    lower = y;
  }
  if (x == 0) { base0 = moveDst1; count0 = keepTable ? <u64>tSize : tCount; } else { base1 = moveDst1; count1 = keepTable ? <u64>tSize : tCount; }
  at = 0;
  phase = P_MOVE;
}

/** The moves are done: the next step, or the final stream (against the table, or part by part). */
export function moved(): i32 {
  const xBase = baseOf(x);
  arenaRewind(xBase + <usize>countOf(x) * width);
  if (keepTable) {
    // Side x is now a table of countOf(x) slots; the other side streams against it.
    tBase = xBase;
    tSize = <u32>countOf(x);
    part = 0;
    parts = 1;
    at = 0;
    phase = P_FINAL;
    return MORE;
  }
  if (joining) {
    // The smaller side goes into the tables, in as few parts as the memory left allows.
    lookup = selfDual || count0 <= count1 ? 0 : 1;
    parts = partsFor(<f64>countOf(lookup), MAX_PARTS);
    return beginJoin(0);
  }
  const status = beginStep();
  return status == DONE ? MORE : status;
}
