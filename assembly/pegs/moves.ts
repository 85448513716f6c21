// Peg solitaire, MOVES: the fewest moves (a chain of jumps by one peg is one move) by
// breadth-first search from both ends, in one table of every position seen with its distance
// from each side. Undoing a jump is jumping on the complement, so the finish side searches
// from the complements of the finishes; undoing a chain is, on the complement, a chain in
// which each jump lands where the last one started (a "reverse chain"). A position p meets
// the other side when ~p is there. optimal.ts and fewest.ts read the table it leaves.
import { DONE, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaAlloc, arenaRewind } from '../shared/bits';
import { get, set, get64, set64 } from '../shared/words';
import {
  MAX_SYMS, holes, jumps, syms, finishes, full, start, finishList, jumpFlip, jumpLand, jumpImage, fromStart, byFrom, toStart,
  byTo, jumpFrom, images, OUTPUT, nodes, outputLength, finished, chainPos, chainNext, chainPeg, chainImages,
  notePeak, canonical, keepImages, legal, hopeful, isFinish,
} from './board';
import {
  tabBase, tabLog, tabCount, scan, slotIndex, crowded,
  CHORE_NONE, PROBE_SLOTS, chore, choreAt, choreFresh, choreUsed, unitsFor, startChore, bulkPiece,
} from './tables';

const UNSEEN: u32 = 0xff;

// MOVES state.
export let depthA: i32 = 0;      // levels completed on each side
export let depthB: i32 = 0;
let frontA: u64 = 0;      // positions at the last completed level of each side
let frontB: u64 = 0;
let frontNew: u64 = 0;
let side: i32 = 0;        // 0: from the start, 1: from the finishes' complements
export let best: i32 = 0x7fffffff;
let meetPos: u64 = 0;     // an actual position of `side` whose complement the other side saw
let meetSide: i32 = 0;
let grewDuringScan: bool = false; // the table grew: its slots moved

// The MOVES table packs a slot into one u64: the position in the low 48 bits (boards of up
// to 48 holes), its distance from each side in the top two bytes (0xff: not reached).
export const MAX_MOVES_HOLES: i32 = 48;
const POSITION_BITS: u64 = (<u64>1 << 48) - 1;

@inline export function distance(slot: usize, s: i32): u32 {
  return <u32>((load<u64>(slot) >> (48 + (<u64>s << 3))) & 0xff);
}

/** The slot of a position in the MOVES table: its own, or the empty one it would take. */
@inline export function movesSlot(key: u64): usize {
  const mask: u32 = (<u32>1 << tabLog) - 1;
  let i = slotIndex(key, tabLog);
  for (;;) {
    const slot = tabBase + (<usize>i << 3);
    const k = load<u64>(slot);
    if (k == 0 || (k & POSITION_BITS) == key) return slot;
    i = (i + 1) & mask;
  }
  return 0; // not reached: tables never fill
}

/** Doubles the MOVES table (the arena's last allocation), as grow() does for wide slots. */
function growMoves(): bool {
  const newLog = tabLog + 1;
  const size: u64 = <u64>8 << newLog;
  const fresh = arenaAlloc(size);
  if (fresh == 0) return false;
  notePeak();
  memory.fill(fresh, 0, <usize>size);
  const slots: u32 = <u32>1 << tabLog;
  const newMask: u32 = (<u32>1 << newLog) - 1;
  for (let i: u32 = 0; i < slots; i++) {
    const entry = load<u64>(tabBase + (<usize>i << 3));
    if (entry == 0) continue;
    let j = slotIndex(entry & POSITION_BITS, newLog);
    while (load<u64>(fresh + (<usize>j << 3)) != 0) j = (j + 1) & newMask;
    store<u64>(fresh + (<usize>j << 3), entry);
  }
  memory.copy(tabBase, fresh, <usize>size);
  arenaRewind(tabBase + <usize>size);
  tabLog = newLog;
  return true;
}

/** Records `pos` (canonical) at distance d on side s; false when out of memory. */
function visit(key: u64, s: i32, d: u32): bool {
  let slot = movesSlot(key);
  if (load<u64>(slot) == 0) {
    if (crowded(tabCount + 1, tabLog)) {
      // In a search's walk the table grows as chores (runMoves), and the walk resumes here.
      if (deferGrowth) { needGrowth = true; return false; }
      if (!growMoves()) return false;
      grewDuringScan = true;
      slot = movesSlot(key);
    }
    store<u64>(slot, key | (<u64>0xffff << 48));
    tabCount++;
  }
  if (d < distance(slot, s)) {
    const shift = 48 + (<u64>s << 3);
    store<u64>(slot, (load<u64>(slot) & ~(<u64>0xff << shift)) | (<u64>d << shift));
  }
  return true;
}

/** The distance of a position (any image) from side s, or UNSEEN. */
function seen(pos: u64, s: i32): u32 {
  const slot = movesSlot(canonical(pos));
  return load<u64>(slot) == 0 ? UNSEEN : distance(slot, s);
}

// MOVES from the finishes' side only (the perimeter of fewest.ts), for the
// next MOVES search only.
let backwardOnly: bool = false;
let backwardNext: bool = false;
/** The next MOVES search grows the finishes' side only (exact distances to the finish). */
export function pegsMovesBackwardOnly(): void { backwardNext = true; }

export function startMoves(log: u32): i32 {
  backwardOnly = backwardNext;
  backwardNext = false;
  if (holes > MAX_MOVES_HOLES) return BAD_INPUT;
  tabLog = log;
  tabBase = arenaAlloc(<u64>8 << tabLog);
  if (tabBase == 0) return OUT_OF_MEMORY;
  notePeak();
  memory.fill(tabBase, 0, <usize>8 << tabLog);
  tabCount = 0;
  best = 0x7fffffff;
  depthA = 0;
  depthB = 0;
  if (!visit(canonical(start), 0, 0)) return OUT_OF_MEMORY;
  frontA = 1;
  frontB = <u64>finishes;
  for (let f = 0; f < finishes; f++) if (!visit(canonical(~get64(finishList, f) & full), 1, 0)) return OUT_OF_MEMORY;
  if (isFinish(start)) {
    best = 0;
    meetPos = start;
    meetSide = 0;
    return finishMoves();
  }
  beginLevel();
  return DONE;
}

function beginLevel(): void {
  side = backwardOnly || frontA > frontB ? 1 : 0;
  scan = 0;
  frontNew = 0;
  grewDuringScan = false;
}

// What walkMoves does with each position a move reaches.
const REACH: i32 = 0;  // record it at distance target on `side` (arrive)
const FIND: i32 = 1;   // stop at the first whose complement is at distance target on findSide
let target: u32 = 0;
let findSide: i32 = 0;
let found: u64 = 0;

/**
 * Every position one move (a chain of jumps by one peg) after `pos`, by an explicit stack of
 * (position, the moving peg's hole, its next jump). False when REACH ran out of memory or
 * FIND found its position.
 */
function walkMoves(pos: u64, purpose: i32, reverse: bool): bool {
  chainReverse = reverse;
  keepImages(pos);
  return walkFrom(pos, purpose, 0, -1);
}

// A REACH walk stopped for the table to grow: where to resume it.
let deferGrowth: bool = false; // visit() asks for growth (needGrowth) instead of growing
let needGrowth: bool = false;
let walkPos: u64 = 0;
let walkJump: i32 = 0;
let walkTop: i32 = -1;

/**
 * walkMoves from the first jump `first`; with `resumeTop` >= 0 it resumes a walk stopped at
 * that chain depth (whose arrival is made again: it stopped before changing anything).
 */
function walkFrom(pos: u64, purpose: i32, first: i32, resumeTop: i32): bool {
  const starts = chainReverse ? toStart : fromStart;
  const list = chainReverse ? byTo : byFrom;
  for (let j = first; j < jumps; j++) {
    let top = 0;
    if (resumeTop >= 0) {
      top = resumeTop;
      resumeTop = -1;
      const images = chainImages + (<usize>(top * MAX_SYMS) << 3);
      if (!arrive(get64(chainPos, top), target, 1 - side, images)) return stopWalk(pos, j, top);
    } else {
      if (!legal(pos, j)) continue;
      if (!pushChain(0, pos ^ get64(jumpFlip, j), j, purpose)) return stopWalk(pos, j, 0);
    }
    while (top >= 0) {
      const here = get64(chainPos, top);
      const end = get(starts, get(chainPeg, top) + 1);
      let k = get(chainNext, top);
      while (k < end && !legal(here, <i32>get(list, <i32>k))) k++;
      if (k >= end) { top--; continue; }
      set(chainNext, top, k + 1);
      const next = <i32>get(list, <i32>k);
      top++;
      if (!pushChain(top, here ^ get64(jumpFlip, next), next, purpose)) return stopWalk(pos, j, top);
    }
  }
  return true;
}

/** Keeps where a walk stopped (for growth; FIND's stops and running out of memory never resume). */
function stopWalk(pos: u64, j: i32, top: i32): bool {
  walkPos = pos;
  walkJump = j;
  walkTop = top;
  return false;
}

// The hole the next jump of the chain is anchored at: where the peg landed (forward), or
// where the jump started (reverse).
let chainReverse: bool = false;

@inline function pushChain(top: i32, pos: u64, j: i32, purpose: i32): bool {
  const peg = chainReverse ? get(jumpFrom, j) : get(jumpLand, j);
  set64(chainPos, top, pos);
  set(chainPeg, top, peg);
  set(chainNext, top, get(chainReverse ? toStart : fromStart, peg));
  // The images of the new position: those of the last one, each with the jump's image flipped.
  const before = top == 0 ? images : chainImages + (<usize>((top - 1) * MAX_SYMS) << 3);
  const after = chainImages + (<usize>(top * MAX_SYMS) << 3);
  for (let s = 0; s < syms; s++) set64(after, s, get64(before, s) ^ get64(jumpImage, s * jumps + j));
  if (purpose == REACH) return arrive(pos, target, 1 - side, after);
  const back = ~pos & full;
  if (seen(back, findSide) == target) { found = back; return false; }
  return true;
}

/** A position reached at distance d: record it and look for the other side. */
function arrive(child: u64, d: u32, other: i32, imagesOfChild: usize): bool {
  if (!hopefulFor(child)) return true;
  // Its least image and its complement's (the complement of an image is the image of the complement).
  let key = child;
  let complement = ~child & full;
  for (let s = 1; s < syms; s++) {
    const image = get64(imagesOfChild, s);
    key = min<u64>(key, image);
    complement = min<u64>(complement, ~image & full);
  }
  const before = movesSlot(key);
  const known = load<u64>(before) != 0 && distance(before, side) <= d;
  if (!known) {
    if (!visit(key, side, d)) return false;
    frontNew++;
  }
  const slot = movesSlot(complement);
  const there = load<u64>(slot) == 0 ? UNSEEN : distance(slot, other);
  if (there != UNSEEN && <i32>(d + there) < best) {
    best = <i32>(d + there);
    meetPos = child;
    meetSide = side;
  }
  return true;
}

/** Pagodas judge positions of the start's side; the finish side plays on complements. */
@inline function hopefulFor(pos: u64): bool {
  return side == 0 ? hopeful(pos) : true;
}

// The MOVES table grows as chores too: clear the doubled table, rehash, move it down.
const CHORE_MOVES_FILL: i32 = 8;
const CHORE_MOVES_REHASH: i32 = 9;
const CHORE_MOVES_COPY: i32 = 10;

/** One piece of the MOVES table's growth (choreUsed: the budget it took). True when done. */
function movesChorePiece(budget: i32): bool {
  const size: u64 = <u64>8 << (tabLog + 1);
  if (chore == CHORE_MOVES_FILL) return bulkPiece(choreFresh, 0, size, 8, budget);
  if (chore == CHORE_MOVES_COPY) return bulkPiece(tabBase, choreFresh, size, 8, budget);
  // The rehash: MOVES entries are 8 bytes, a position and its moves, hashed by the position.
  const slots: u64 = <u64>1 << tabLog;
  const end = min<u64>(slots, choreAt + <u64>max(budget, 1) * PROBE_SLOTS);
  const newLog = tabLog + 1;
  const newMask: u32 = (<u32>1 << newLog) - 1;
  for (let i = choreAt; i < end; i++) {
    const entry = load<u64>(tabBase + (<usize>i << 3));
    if (entry == 0) continue;
    let j = slotIndex(entry & POSITION_BITS, newLog);
    while (load<u64>(choreFresh + (<usize>j << 3)) != 0) j = (j + 1) & newMask;
    store<u64>(choreFresh + (<usize>j << 3), entry);
  }
  choreUsed = unitsFor(end - choreAt, PROBE_SLOTS);
  choreAt = end;
  return end >= slots;
}

/** Starts growing the MOVES table for a walk that stopped; false when out of memory. */
function startMovesGrowth(): bool {
  choreFresh = arenaAlloc(<u64>8 << (tabLog + 1));
  if (choreFresh == 0) return false;
  notePeak();
  startChore(CHORE_MOVES_FILL);
  return true;
}

/** A REACH walk of the search: growth is deferred to chores. 1 done, 0 out of memory, -1 stopped to grow. */
function searchWalk(resume: bool, key: u64): i32 {
  deferGrowth = true;
  needGrowth = false;
  let ok: bool;
  if (resume) {
    chainReverse = side == 1;
    keepImages(walkPos);
    ok = walkFrom(walkPos, REACH, walkJump, walkTop);
  } else {
    ok = walkMoves(key, REACH, side == 1);
  }
  deferGrowth = false;
  if (ok) return 1;
  if (!needGrowth) return 0;
  return startMovesGrowth() ? -1 : 0;
}

export function runMoves(budget: i32): i32 {
  const entered = chore;
  for (;;) {
    if (chore != entered) return MORE;
    if (chore != CHORE_NONE) {
      if (budget <= 0) return MORE;
      const finishedChore = movesChorePiece(budget);
      budget -= choreUsed;
      if (!finishedChore) return MORE;
      if (chore == CHORE_MOVES_FILL) { startChore(CHORE_MOVES_REHASH); continue; }
      if (chore == CHORE_MOVES_REHASH) { startChore(CHORE_MOVES_COPY); continue; }
      chore = CHORE_NONE;
      tabLog++;
      arenaRewind(tabBase + (<usize>8 << tabLog));
      grewDuringScan = true;
      // The walk that stopped goes on where it stopped.
      const walked = searchWalk(true, 0);
      if (walked == 0) return OUT_OF_MEMORY;
      if (walked > 0 && grewDuringScan) {
        // Growth moved every slot: scan again (positions done are found again, harmlessly).
        grewDuringScan = false;
        scan = 0;
      }
      // The chore is over (or another began): the scan goes on in the next call, at its own budget.
      return MORE;
    }
    const slots: u32 = <u32>1 << tabLog;
    const d: u32 = <u32>(side == 0 ? depthA : depthB);
    let skipped = 0;
    while (scan < slots) {
      if (budget <= 0) return MORE;
      const slot = tabBase + (<usize>scan << 3);
      scan++;
      const entry = load<u64>(slot);
      if (entry == 0 || distance(slot, side) != d) {
        // Slots of other levels cost budget too, or a scan of a large table overruns its slice.
        if (++skipped == <i32>PROBE_SLOTS) { skipped = 0; budget--; }
        continue;
      }
      const key = entry & POSITION_BITS;
      budget--;
      nodes++;
      target = d + 1;
      const walked = searchWalk(false, key);
      if (walked == 0) return OUT_OF_MEMORY;
      if (walked < 0) break;
      if (grewDuringScan) {
        // Growth moved every slot: scan again (positions done are found again, harmlessly).
        grewDuringScan = false;
        scan = 0;
        break;
      }
    }
    if (chore != CHORE_NONE) continue;
    if (scan < (<u32>1 << tabLog)) continue;
    if (side == 0) { depthA++; frontA = frontNew; } else { depthB++; frontB = frontNew; }
    if (best != 0x7fffffff) return finishMoves();
    if (frontNew == 0) { finished = true; return DONE; } // a side ran dry: no solution
    beginLevel();
  }
  return DONE;
}

/** Writes the positions of a shortest solution to the output region. */
function finishMoves(): i32 {
  // Walk back from the meeting position to each side's root.
  const a = meetSide == 0 ? meetPos : (~meetPos & full); // in the start's space
  const b = ~a & full;                                     // in the finishes' complement space
  const sideB = 1;
  const da = <i32>seen(a, 0);
  const db = <i32>seen(b, sideB);
  // Start side: a, then predecessors back to the start, stored reversed.
  let pos = a;
  set64(OUTPUT, da, pos);
  for (let d = da; d > 0; d--) {
    pos = predecessor(pos, <u32>(d - 1), 0);
    set64(OUTPUT, d - 1, pos);
  }
  // Finish side: b back to a complement of a finish; complements run forwards to the finish.
  pos = b;
  for (let d = db; d > 0; d--) {
    pos = predecessor(pos, <u32>(d - 1), sideB);
    set64(OUTPUT, da + db - d + 1, ~pos & full);
  }
  outputLength = da + db + 1;
  best = da + db;
  finished = true;
  return DONE;
}

/**
 * A position one move before `pos` at distance d on side s. Moves backwards are moves
 * forwards on the complement, so the candidates are the complements of ~pos's children.
 */
function predecessor(pos: u64, d: u32, s: i32): u64 {
  target = d;
  findSide = s;
  found = 0;
  // Undoing a start-side move is a reverse chain on the complement; undoing a finish-side
  // move (itself a reverse chain on complements) is a forward chain.
  walkMoves(~pos & full, FIND, s == 0);
  return found; // never 0: every recorded position has a predecessor one level nearer
}
