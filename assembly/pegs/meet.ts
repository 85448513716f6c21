// Peg solitaire: the count of jump sequences meeting in the middle on one engine, for any
// start and finishes on a big board. Forward from the start and backward from the finishes
// (forward on complements: undoing a jump is a jump on the complement), each side a frontier
// of (canonical position, orbit total) pairs, always expanding the smaller side, until the
// frontiers are one jump apart; then one side's children are streamed against the other:
//   total = sum over the streamed side's pairs (p, F) and children c of p of
//           F · G(~c's orbit) / |c's orbit|
// (F expands one representative with its orbit's total, exact as in COUNT; G(orbit) is
// |orbit| times the count of each member). When the only finish is the start's complement
// (the central games), the backward side is the forward one: one side is expanded to the
// middle and streamed against itself. More generally, when a symmetry h of the board maps the
// finish's complement onto the start (and the start's complement onto the finish: French d3 ->
// d5 and the top-bottom mirror), the sequences from ~finish to q are those from the start to
// h(q): the backward side is the forward one seen through h, and one side serves for both.
//
// Memory is what bounds these counts, so everything stays in linear memory and nothing is
// held twice: a frontier at rest is a dense array of pairs (12 or 16 bytes each); the level being
// built is a hash table sized from the side's last growth ratio (any size, not a power of 2:
// the slot is the hash's top 32 bits times the size), grown as chores only when that guess
// was short; once built it is compacted in place and moved down over the frontier it
// replaces. The last table built is kept as a table for the final lookups. When a table
// would not fit in the memory left, the level is built in parts (the children a hash of the
// canonical form gives to part 0, then to part 1, ...: each part's table compacted right
// after the pairs of the parts before), and the final join goes part by part over the
// smaller side; when even that would not fit for the last level, the last level is skipped
// and the grandchildren of one side stream against the other side's tables.
//
// Levels on disk ("spilled"; the host allows it with pegsMeetStart's `spill`): when a level
// would need parts, both sides' pairs go to the host instead (HAVE_PAIRS: take ioCount pairs at
// ioPtr, pairs ioFrom on of side ioSide's level ioLevel), and from then on memory holds a window
// and tables: every dense side is read through the window, which the host fills (NEED_PAIRS:
// the same fields ask for pairs, then pegsMeetFeed()). A level that fits in one table is built
// in one pass over its parent; a bigger one in parts, still in one pass (the parts of the level
// in memory would cost one pass each): the children go into one buffer per part, a full
// buffer goes to the end of its part's file (HAVE_PAIRS with ioPart), then each part's file
// is read back (NEED_PAIRS with ioPart) and summed in one table, which goes to the host as
// that part of the level, and the host may drop the file (DROP_PART). A part too big for its
// table is summed in more passes over its file. The last level is joined
// part by part; a join's table that would not grow starts the join again in more parts.
// The host says after each write and removal how much more the files may take (free space,
// maxDisk): when the parts' files of a level (or of the join) would not fit at once, they go
// in rounds, each a pass over the parents that keeps the children of the parts that fit.
//
// Pagodas: the first `forwardPagodas` loaded pagoda functions judge the forward side's
// positions (they must reach the finish), the rest the backward side's (their complements
// must be reachable from the start, so they must reach its complement). The sides' counts are
// u64 (a sum that would overflow stops the count with OVERFLOW); the total is 128 bits.
//
// Fewest moves (pegsMeetFewest(1) before pegsMeetStart): the same levels, parts, files and
// joins, but a pair's value is not its paths: it is the fewest moves (chains of jumps by one
// peg) that reach the position, and the marks of the sequences that take that few: forward,
// the holes where their last jump may land (a jump from there goes on with the same move);
// backward, on complements, where their last jump may start (undoing a jump f -> t is the jump
// f -> t on the complement, and undoing a chain is a sequence where each jump lands where the
// one before started: a jump that lands on a mark goes on with the move). value =
// (moves + 1) << holes | marks, the marks in the frame of the stored position and closed under
// the symmetries that fix it. Two values combine to the fewer moves (equal: marks joined).
// Where the sides meet, a position's moves are the two sides' less one when a forward landing
// is a backward mark: the move that reaches the position goes on. The total is the least of
// these (NO_MOVES: none meet). The rules differ by side, so one side never serves for both.
//
// The parts: meetState.ts holds the count's state (pairs, phases, sides, tables, parts, disk,
// total); meetLevels.ts the levels in memory; meetJoin.ts the join and its total; meetSpill.ts
// the levels on disk and the protocol with the host; meetFewest.ts the values of the fewest
// moves. This file starts the count and runs it (pegsMeetRun, phase by phase), and holds the
// host's calls (index.ts exports them all from here).
import { DONE, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaAlloc, arenaRewind } from '../shared/bits';
import { get64, set64 } from '../shared/words';
import {
  holes, jumps, syms, full, start, finishes, finishList, finishPegs, pagodas, images, OUTPUT, keepImages, legalJumps, LEGAL,
  canonical, imageOf, notePeak, mode, MODE_MEET, OVERFLOW, countWrapped, clearWrapped, jumpFrom,
} from './board';
import { beginOther } from './pegs';
import { BULK_CALL_BYTES } from './tables';
import {
  width, high, countBits, countMax, tooBig, NARROW_HOLES, pairKey, pairPaths, isEmpty, setPair, copyPair, P_FILL, P_EXPAND,
  P_GROW_FILL, P_GROW_REHASH, P_GROW_COPY, P_COMPACT, P_MOVE, P_FINAL, P_JOIN_FILL, P_JOIN_BUILD, P_DONE, P_SPILL, P_HANDED,
  P_SCATTER, P_FLUSHED, P_GATHER, P_GATHERED, P_JOIN_SCATTER, P_JOIN_SETTLE, P_DISCARD, P_ROUND, MAX_SPILL_PARTS, BULK_BYTES,
  PROBE_SLOTS, GROUP, base0, base1, count0, count1, level0, level1, ratio0, ratio1, lower, selfDual, DUAL_INPUT, dualOn,
  forwardEnd, phase, x, at, xAt, tBase, tSize, tCount, fresh, freshSize, parts, part, nBase, nCount, joining, lookup, grand,
  grown, moves, moveDst0, moveSrc0, moveLen0, moveDst1, moveSrc1, moveLen1, total, totalHigh, meetNodes, steps, spillMode,
  spilled, windowBytes, winSide, leastParts, sumCap, ioPart, winPart, filled, scattering, bufferPairs, fullest, fullestCount,
  subs, sub, joinScatter, joinPasses, diskRoom, roundTo, regroup, rounds, countOf, newLevel, partRecords, findIn, crowded,
  slotsFor, fewest, landBits, landMask, valueOut, FROM_IMAGES, subOwner, ownerOf, CHILDREN, streamSide, EXPAND_GROUP, GROUP_ROOM,
} from './meetState';
import { beginStep, expand, insertGroup, hopeful, beginGrowth, compactPart, partDone, levelBuilt, planMoves, moved } from './meetLevels';
import {
  loadDual, clearTotal, addProduct, meet, settle, meetGrand, lookupOf, selfLookupOf, orbitSize, readGroup, meetSelf, streamed,
} from './meetJoin';
import {
  densePair, partPair, needPartPairs, needPairs, handOut, spillOut, moreParts, moreJoinParts, joinSubDone, roundCut,
  discardNext, roundFromStart, toBuffer, flush, flushed, drainNext, moreSubs,
} from './meetSpill';
import { valueOf, combine, meetValues } from './meetFewest';

// The host's other calls, from the parts.
export {
  pegsMeetIoSide, pegsMeetIoLevel, pegsMeetIoFrom, pegsMeetIoPtr, pegsMeetIoCount, pegsMeetIoPart, pegsMeetJoinPasses,
  pegsMeetRounds, pegsMeetDiskRoom, pegsMeetWidth, pegsMeetFeed,
} from './meetSpill';
export { pegsMeetMeetPosition, pegsMeetMeetMoves, pegsMeetMeetShared } from './meetFewest';

/** The count stopped (OVERFLOW) on a count too big for 12-byte pairs, not for 64 bits. */
export function pegsMeetNarrow(): bool { return tooBig && !countWrapped(); }

/**
 * Starts the count on the loaded problem. The start's and the finishes' pegs must differ by
 * 2 or more. `spill`: 0 keeps every level in memory; 1 hands the levels to the host when one
 * would need parts; 2 from the first level on. `windowSize`: the window's bytes when spilled;
 * `fewestParts`: spilled, every level and the join in at least that many parts; `mostSumSlots`:
 * when not 0, the most slots of a table summing a part's file (both the tests' levers).
 * DONE, OUT_OF_MEMORY or BAD_INPUT.
 */
export function pegsMeetStart(forwardPagodas: i32, dual: i32, narrowBits: i32, spill: i32, windowSize: i32, fewestParts: i32, mostSumSlots: i32): i32 {
  if (!beginOther(MODE_MEET)) return BAD_INPUT;
  leastParts = <u32>min(max(fewestParts, 1), <i32>MAX_SPILL_PARTS);
  sumCap = <u32>max(mostSumSlots, 0);
  phase = P_DONE;
  spillMode = spill;
  spilled = false;
  scattering = false;
  joinScatter = false;
  joinPasses = 0;
  rounds = 0;
  diskRoom = Infinity;
  regroup = 0;
  subs = 1;
  sub = 0;
  winSide = -1;
  winPart = -1;
  ioPart = -1;
  windowBytes = <u64>max(windowSize, 1);
  const startPegs = <i32>popcnt(start);
  if (startPegs < finishPegs + 2 || forwardPagodas < 0 || forwardPagodas > pagodas) return BAD_INPUT;
  forwardEnd = forwardPagodas;
  grand = false;
  joining = false;
  clearTotal();
  clearWrapped();
  meetNodes = 0;
  steps = 0;
  for (let i = 0; i < 72; i++) set64(OUTPUT, i, 0);
  // The dual symmetry's tables go below the sides (which move about above them).
  dualOn = false;
  if (dual != 0 && !fewest && finishes == 1 && get64(finishList, 0) != (~start & full)) {
    const status = loadDual();
    if (status != DONE) return status;
    dualOn = true;
  }
  // The forward side: the start alone.
  // Pairs of 12 bytes where the count keeps 55 bits or more (a count that would not fit
  // stops with OVERFLOW and pegsMeetNarrow() true: the host counts again with narrowBits 0,
  // 16-byte pairs). narrowBits caps the counts' bits in 12-byte pairs (the tests' lever).
  width = narrowBits > 0 && holes <= NARROW_HOLES ? 12 : 16;
  high = holes > 32 ? <u64>(holes - 32) : 0;
  countBits = 64 - high;
  countMax = high == 0 ? <u64>-1 : (<u64>1 << countBits) - 1;
  if (width == 12 && narrowBits < <i32>countBits && !fewest) countMax = (<u64>1 << <u64>narrowBits) - 1;
  tooBig = false;
  landBits = <u64>holes;
  landMask = (<u64>1 << landBits) - 1;
  if (fewest) {
    for (let j = 0; j < jumps; j++) {
      const from = <u64>1 << <u64>load<u32>(jumpFrom + (<usize>j << 2));
      set64(FROM_IMAGES, j, from);
      for (let s = 1; s < syms; s++) set64(FROM_IMAGES, s * jumps + j, imageOf(s, from));
    }
  }
  const seed: u64 = fewest ? valueOf(0, 0) : 1;
  base0 = arenaAlloc(<u64>width);
  if (base0 == 0) return OUT_OF_MEMORY;
  setPair(base0, canonical(start), seed);
  count0 = 1;
  level0 = startPegs;
  ratio0 = 0;
  set64(OUTPUT, level0, 1);
  // The backward side: the finishes' complements, each orbit with its number of finishes.
  // When the only finish is the start's complement, playing backwards from it is playing
  // forwards from the start (on complements): one side does for both, and the other stays empty.
  selfDual = dualOn || (!fewest && finishes == 1 && get64(finishList, 0) == (~start & full));
  const size = slotsFor(<f64>finishes);
  base1 = arenaAlloc(<u64>size * <u64>width);
  notePeak();
  if (base1 == 0) return OUT_OF_MEMORY;
  memory.fill(base1, 0, <usize>size * width);
  const seeds = selfDual ? 0 : finishes;
  for (let f = 0; f < seeds; f++) {
    const key = canonical(~get64(finishList, f) & full);
    const slot = findIn(base1, size, key);
    setPair(slot, key, isEmpty(slot) ? seed : combine(pairPaths(slot), seed));
  }
  count1 = 0;
  for (let i: u32 = 0; i < size; i++) {
    const slot = base1 + <usize>i * width;
    if (isEmpty(slot)) continue;
    const to = base1 + <usize>count1 * width;
    if (to != slot) copyPair(to, slot);
    count1++;
  }
  arenaRewind(base1 + <usize>count1 * width);
  level1 = selfDual ? holes - startPegs : finishPegs;
  ratio1 = 0;
  if (!selfDual) set64(OUTPUT, level1, count1);
  lower = 0;
  return beginStep();
}

/** Where the host writes the dual symmetry h (a hole's image per hole) before pegsMeetStart(_, 1). */
export function pegsMeetDualPtr(): usize { return DUAL_INPUT; }

/** Before pegsMeetStart: 1 for the fewest moves through the levels (the total: the moves, or -1 for none), 0 for the count. */
export function pegsMeetFewest(on: i32): void { fewest = on != 0; }

export function pegsMeetTotal(): u64 { return total; }
export function pegsMeetTotalHigh(): u64 { return totalHigh; }
export function pegsMeetNodes(): u64 { return meetNodes; }
/** Levels done: each expansion, then the final stream. */
export function pegsMeetStep(): i32 { return steps; }
/** The phase the next run call starts in: a unit's cost differs by phase, so the host keeps a budget for each. */
export function pegsMeetPhase(): i32 { return phase; }
/**
 * The levels the sides stand at (pegs, forward space: forward in bits 0-7, backward in 8-15)
 * and the parts of the level in progress (bits 16 up).
 */
export function pegsMeetLevels(): i32 { return level0 | (level1 << 8) | (<i32>parts << 16); }
/** The levels done when the count is over: on one side only when the start and finish are dual. */
export function pegsMeetSteps(): i32 {
  const startPegs = <i32>popcnt(start);
  return selfDual ? startPegs - ((holes + 1) >> 1) + 1 : startPegs - finishPegs;
}

/**
 * Advances by about `budget` units, within one phase: a call ends where the phase changes (and
 * after BULK_CALL_BYTES cleared or copied), so that the budget the host has for a phase is
 * spent on that phase's units. DONE when the total is ready; OUT_OF_MEMORY; OVERFLOW.
 */
export function pegsMeetRun(budget: i32): i32 {
  if (mode != MODE_MEET) return BAD_INPUT;
  let left: u64 = <u64>max(budget, 1);
  const entered = phase;
  let bulk: u64 = 0; // bytes cleared or copied in this call
  while (phase != P_DONE) {
    if (countWrapped() || tooBig) return OVERFLOW;
    if (left == 0 || phase != entered || bulk >= BULK_CALL_BYTES) return MORE;
    if (phase == P_FILL || phase == P_GROW_FILL || phase == P_JOIN_FILL) {
      const into = phase == P_GROW_FILL ? fresh : tBase;
      const size: u64 = <u64>(phase == P_GROW_FILL ? freshSize : tSize) * <u64>width;
      const bytes = min<u64>(size - at, min<u64>(left * BULK_BYTES, BULK_CALL_BYTES - bulk));
      memory.fill(into + <usize>at, 0, <usize>bytes);
      at += bytes;
      bulk += bytes;
      left -= min<u64>(left, (bytes + BULK_BYTES - 1) / BULK_BYTES);
      if (at >= size) {
        phase = phase == P_FILL ? filled : phase == P_JOIN_FILL ? P_JOIN_BUILD : P_GROW_REHASH;
        at = 0;
      }
    } else if (phase == P_EXPAND || phase == P_SCATTER) {
      // P_EXPAND into the table, or P_SCATTER into the buffers.
      const n = countOf(x);
      const into = phase;
      // Parents go into the table a group at a time (their children's slots read first); a
      // group is always put in before the loop stops, so no run call ends with one pending.
      let pending = 0; // parents in the group
      let grouped = 0; // their children
      while (xAt < n && left > 0) {
        // A parent adds at most `jumps` pairs to a buffer.
        if (scattering && fullestCount + <u32>jumps > bufferPairs) return flush(fullest);
        if (scattering && roundCut(xAt)) break;
        if (!scattering && crowded(tCount + <u64>jumps * <u64>(pending + 1), tSize)) {
          if (pending > 0) {
            insertGroup(grouped);
            pending = grouped = 0;
            continue;
          }
          if (beginGrowth(P_EXPAND)) break;
          if (!spilled) return OUT_OF_MEMORY;
          const status = moreParts();
          if (status != MORE) return status;
          break;
        }
        const pair = densePair(x, xAt);
        if (pair == 0) {
          if (pending > 0) insertGroup(grouped);
          return needPairs(x, xAt);
        }
        grouped = expand(pairKey(pair), pairPaths(pair), grouped);
        xAt++;
        left--;
        meetNodes++;
        if (++pending == EXPAND_GROUP || grouped + jumps > GROUP_ROOM) {
          insertGroup(grouped);
          pending = grouped = 0;
        }
      }
      if (pending > 0) insertGroup(grouped);
      if (phase == into && xAt >= n) {
        const status = scattering ? drainNext() : parts == 1 && !spilled ? levelBuilt() : compactPart();
        if (status != MORE) return status;
      }
    } else if (phase == P_DISCARD) {
      const status = discardNext();
      if (status != MORE) return status;
    } else if (phase == P_ROUND) {
      // The round's parts are done and their files gone: the next round.
      const status = roundFromStart(roundTo);
      if (status != MORE) return status;
    } else if (phase == P_FLUSHED) {
      const status = flushed();
      if (status != MORE) return status;
    } else if (phase == P_GATHER) {
      // The part's records (children, one per jump from the parent level) into its table.
      const n = partRecords(part);
      const end = min<u64>(n, xAt + left * PROBE_SLOTS);
      const begin = xAt;
      while (xAt < end) {
        if (crowded(tCount + GROUP, tSize)) {
          if (beginGrowth(P_GATHER)) break;
          const status = moreSubs(partRecords(part));
          if (status != MORE) return status;
          break;
        }
        const pair = partPair(xAt);
        if (pair == 0) return needPartPairs(xAt);
        const group = readGroup(pair, end);
        for (let i = 0; i < group; i++) {
          const record = pair + <usize>i * width;
          const key = get64(CHILDREN, i);
          if (subs > 1 && subOwner(key) != sub) continue;
          const slot = findIn(tBase, tSize, key);
          if (isEmpty(slot)) {
            setPair(slot, key, pairPaths(record));
            tCount++;
          } else setPair(slot, key, combine(pairPaths(slot), pairPaths(record)));
        }
        xAt += <u64>group;
      }
      left -= min<u64>(left, 1 + (xAt - begin) / PROBE_SLOTS);
      if (phase == P_GATHER && xAt >= n) compactPart();
    } else if (phase == P_JOIN_SETTLE) {
      // The part's lookups against its table, whose pairs hold their count per member.
      const n = partRecords(part);
      const end = min<u64>(n, xAt + left * PROBE_SLOTS);
      const begin = xAt;
      while (xAt < end) {
        const pair = partPair(xAt);
        if (pair == 0) return needPartPairs(xAt);
        const group = readGroup(pair, end);
        for (let i = 0; i < group; i++) {
          const key = get64(CHILDREN, i);
          if (subs > 1 && subOwner(key) != sub) continue;
          const slot = findIn(tBase, tSize, key);
          if (isEmpty(slot)) continue;
          if (fewest) meetValues(pairPaths(pair + <usize>i * width), pairPaths(slot), key);
          else addProduct(pairPaths(pair + <usize>i * width), pairPaths(slot));
        }
        xAt += <u64>group;
      }
      left -= min<u64>(left, 1 + (xAt - begin) / PROBE_SLOTS);
      if (phase == P_JOIN_SETTLE && xAt >= n) {
        const status = joinSubDone();
        if (status != MORE) return status;
      }
    } else if (phase == P_JOIN_SCATTER) {
      // Every lookup of the streamed side's positions to its part's buffer.
      const y = streamSide();
      const n = countOf(y);
      const children = !selfDual || level0 != level1;
      while (at < n && left > 0) {
        if (fullestCount + <u32>jumps > bufferPairs) return flush(fullest);
        if (roundCut(at)) break;
        const pair = densePair(y, at);
        if (pair == 0) return needPairs(y, at);
        at++;
        const key = pairKey(pair);
        const paths = pairPaths(pair);
        if (children) {
          keepImages(key);
          const legalCount = legalJumps(key);
          for (let i = 0; i < legalCount; i++) {
            const j = <i32>load<u32>(LEGAL + (<usize>i << 2));
            const least = lookupOf(images, key, j, paths);
            toBuffer(ownerOf(least), least, fewest ? valueOut : paths);
          }
        } else {
          const least = selfLookupOf(key);
          toBuffer(ownerOf(least), least, paths);
        }
        left--;
        meetNodes++;
      }
      if (phase == P_JOIN_SCATTER && at >= n) {
        const status = drainNext();
        if (status != MORE) return status;
      }
    } else if (phase == P_GATHERED) {
      scattering = false;
      tCount = nCount;
      const status = levelBuilt();
      if (status != MORE) return status;
    } else if (phase == P_JOIN_BUILD) {
      // One part of the smaller side (dense) into the table.
      const n = countOf(lookup);
      const end = min<u64>(n, xAt + left * PROBE_SLOTS);
      const begin = xAt;
      while (xAt < end) {
        if (crowded(tCount + 1, tSize)) {
          if (beginGrowth(P_JOIN_BUILD)) break;
          if (!spilled) return OUT_OF_MEMORY;
          const status = joinScatter ? moreSubs(n) : moreJoinParts();
          if (status != MORE) return status;
          break;
        }
        const pair = densePair(lookup, xAt);
        if (pair == 0) return needPairs(lookup, xAt);
        const key = pairKey(pair);
        xAt++;
        if (ownerOf(key) != part) continue;
        if (!joinScatter) copyPair(findIn(tBase, tSize, key), pair);
        else if (subs > 1 && subOwner(key) != sub) continue;
        // The lookups come without their orbit's size: the pair holds its count per member.
        else setPair(findIn(tBase, tSize, key), key, fewest ? pairPaths(pair) : pairPaths(pair) / <u64>orbitSize(key));
        tCount++;
      }
      left -= min<u64>(left, 1 + (xAt - begin) / PROBE_SLOTS);
      if (phase == P_JOIN_BUILD && xAt >= n) {
        phase = joinScatter ? P_JOIN_SETTLE : P_FINAL;
        at = 0;
        xAt = 0;
      }
    } else if (phase == P_GROW_REHASH) {
      const end = min<u64>(<u64>tSize, at + left * PROBE_SLOTS);
      for (let i = at; i < end; i++) {
        const slot = tBase + <usize>i * width;
        if (isEmpty(slot)) continue;
        copyPair(findIn(fresh, freshSize, pairKey(slot)), slot);
      }
      left -= min<u64>(left, (end - at + PROBE_SLOTS - 1) / PROBE_SLOTS);
      at = end;
      if (at >= <u64>tSize) { phase = P_GROW_COPY; at = 0; }
    } else if (phase == P_GROW_COPY) {
      // Forward, in pieces: the source lies above the destination, so nothing is overwritten unread.
      const size: u64 = <u64>freshSize * <u64>width;
      const bytes = min<u64>(size - at, min<u64>(left * BULK_BYTES, BULK_CALL_BYTES - bulk));
      memory.copy(tBase + <usize>at, fresh + <usize>at, <usize>bytes);
      at += bytes;
      bulk += bytes;
      left -= min<u64>(left, (bytes + BULK_BYTES - 1) / BULK_BYTES);
      if (at >= size) {
        tSize = freshSize;
        arenaRewind(tBase + <usize>size);
        phase = grown;
      }
    } else if (phase == P_COMPACT) {
      const end = min<u64>(<u64>tSize, at + left * PROBE_SLOTS);
      for (let i = at; i < end; i++) {
        const slot = tBase + <usize>i * width;
        if (isEmpty(slot)) continue;
        // Summed from the parts' files, the children are judged by the side's pagodas here,
        // once each.
        if (scattering && !hopeful(pairKey(slot))) continue;
        // A part's pairs go right after the parts before (its table may start a little above
        // their end, the arena aligning it): never above the slot being read.
        // Spilled, a part's pairs go to the table's front, for the host.
        const to = (parts == 1 || spilled ? tBase : nBase + <usize>nCount * width) + <usize>xAt * width;
        if (to != slot) copyPair(to, slot);
        xAt++;
      }
      left -= min<u64>(left, (end - at + PROBE_SLOTS - 1) / PROBE_SLOTS);
      at = end;
      if (at >= <u64>tSize) {
        if (spilled) {
          phase = P_HANDED;
          tCount = xAt; // less the children the pagodas ruled out, when summed from files
          return handOut(x, newLevel(), nCount, tBase, tCount);
        }
        if (parts == 1) planMoves();
        else {
          const status = partDone();
          if (status != MORE) return status;
        }
      }
    } else if (phase == P_HANDED) {
      const status = partDone();
      if (status != MORE) return status;
    } else if (phase == P_SPILL) {
      const status = spillOut();
      if (status != MORE) return status;
    } else if (phase == P_MOVE) {
      const dst = moves == 2 ? moveDst0 : moveDst1;
      const src = moves == 2 ? moveSrc0 : moveSrc1;
      const len = moves == 2 ? moveLen0 : moveLen1;
      const bytes = min<u64>(len - at, min<u64>(left * BULK_BYTES, BULK_CALL_BYTES - bulk));
      // Forward, in pieces: every source lies above its destination.
      memory.copy(dst + <usize>at, src + <usize>at, <usize>bytes);
      at += bytes;
      bulk += bytes;
      left -= min<u64>(left, (bytes + BULK_BYTES - 1) / BULK_BYTES);
      if (at >= len) {
        at = 0;
        moves--;
        if (moves == 0) {
          const status = moved();
          if (status != MORE) return status;
        }
      }
    } else {
      // P_FINAL: the dense side's children against the table (side x's last level, or one
      // part of it); self-dual, the last level's own pairs (children, or themselves on the
      // middle level) against it.
      const y = streamSide();
      const dense = joining || !selfDual;
      const n = dense ? countOf(y) : <u64>tSize;
      const children = !selfDual || level0 != level1;
      // Children's lookups go a group of positions at a time (their slots read first), always
      // summed before the loop stops.
      let pending = 0;
      let grouped = 0;
      while (at < n && left > 0) {
        const pair = dense ? densePair(y, at) : tBase + <usize>at * width;
        if (pair == 0) {
          if (pending > 0) settle(grouped);
          return needPairs(y, at);
        }
        at++;
        if (isEmpty(pair)) continue;
        const key = pairKey(pair);
        if (grand) meetGrand(key, pairPaths(pair));
        else if (children) {
          grouped = meet(key, pairPaths(pair), grouped);
          if (++pending == EXPAND_GROUP || grouped + jumps > GROUP_ROOM) {
            settle(grouped);
            pending = grouped = 0;
          }
        } else meetSelf(key, pairPaths(pair));
        left--;
        meetNodes++;
      }
      if (pending > 0) settle(grouped);
      if (at >= n) {
        const status = streamed();
        if (status != MORE) return status;
      }
    }
  }
  return countWrapped() || tooBig ? OVERFLOW : DONE;
}
