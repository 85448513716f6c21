// Peg solitaire, the count from both ends (meet.ts): the join. The streamed side's children
// (or, when the last level is skipped, its grandchildren; self-dual, the middle level's own
// positions) are looked up in the other side's table by the key of their complement's orbit
// (through the dual symmetry h when one serves for both), and the total summed in 128 bits;
// for the fewest moves, the least meeting kept (meetFewest.ts). The join's tables, part by
// part, and the total before a part (a part joined again starts from it).
import { DONE, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaAlloc, arenaRewind } from '../shared/bits';
import { get64, set64 } from '../shared/words';
import {
  holes, jumps, syms, full, start, MAX_SYMS, finishList, jumpFlip, jumpImage, images, keepImages, legal, legalJumps, LEGAL,
  imageOf, notePeak, leastComplement, fixedBy, multiply128, productHigh, childComplement,
} from './board';
import {
  width, pairKey, pairPaths, isEmpty, P_JOIN_FILL, P_DONE, GROUP, DUAL_INPUT, dualOn, dualBytes, dualWidth, phase, x, at, xAt,
  tBase, tSize, tCount, parts, part, joining, lookup, grand, total, totalHigh, steps, winFrom, winCount, sumCap, subs,
  joinScatter, partTotal, partTotalHigh, joinPasses, countOf, findIn, slotsFor, fewest, valueOut, NO_MOVES, meetKey,
  meetStreamed, meetTable, meetSide, ownerOf, CHILDREN, VALUES, streamSide, GROUP_ROOM,
} from './meetState';
import { roomier, readAhead } from './meetLevels';
import { valueOf, movesAfter, markOf, meetValues, fewestChild } from './meetFewest';

/** Builds h's byte tables (in the arena, below the sides) and checks h against the problem. */
export function loadDual(): i32 {
  dualWidth = (holes + 7) >> 3;
  dualBytes = arenaAlloc(<u64>8 * 256 * 8);
  if (dualBytes == 0) return OUT_OF_MEMORY;
  memory.fill(dualBytes, 0, 8 * 256 * 8);
  for (let h = 0; h < holes; h++) {
    const image = load<u32>(DUAL_INPUT + (<usize>h << 2));
    if (image >= <u32>holes) return BAD_INPUT;
    const row = dualBytes + (<usize>(h >> 3) << 11);
    for (let v = 0; v < 256; v++) if ((v >> (h & 7)) & 1) store<u64>(row + (<usize>v << 3), load<u64>(row + (<usize>v << 3)) | (<u64>1 << image));
  }
  const finish = get64(finishList, 0);
  if (dualImage(~finish & full) != start || dualImage(~start & full) != finish || popcnt(dualImage(full)) != <u64>holes) return BAD_INPUT;
  return DONE;
}

@inline function dualImage(pos: u64): u64 {
  let out: u64 = 0;
  for (let b = 0; b < dualWidth; b++) out |= load<u64>(dualBytes + (<usize>b << 11) + (<usize>((pos >> (<u64>b << 3)) & 255) << 3));
  return out;
}

/**
 * The stored forward position that stands for the backward position ~pos (its complement,
 * through h when dualOn): its least image, and how many symmetries fix it (`fixedOut`).
 */
@inline function partnerOf(pos: u64): u64 {
  const q = dualImage(~pos & full);
  let least = q;
  let fixed: u32 = 1;
  for (let s = 1; s < syms; s++) {
    const image = imageOf(s, q);
    if (image == q) fixed++;
    least = min<u64>(least, image);
  }
  fixedOut = fixed;
  return least;
}
let fixedOut: u32 = 1;
// The same before the part being joined (a part joined again starts from it, as partTotal).
let partMeetKey: u64 = 0;
let partMeetStreamed: u64 = 0;
let partMeetTable: u64 = 0;
let partMeetSide: i32 = 0;

/** Keeps the total and its meeting before a part is joined, or restores them for a part joined again. */
@inline export function keepPartTotal(restore: bool): void {
  if (restore) {
    total = partTotal;
    totalHigh = partTotalHigh;
    meetKey = partMeetKey;
    meetStreamed = partMeetStreamed;
    meetTable = partMeetTable;
    meetSide = partMeetSide;
  } else {
    partTotal = total;
    partTotalHigh = totalHigh;
    partMeetKey = meetKey;
    partMeetStreamed = meetStreamed;
    partMeetTable = meetTable;
    partMeetSide = meetSide;
  }
}

/** The total before anything met: no paths, or no moves. */
@inline export function clearTotal(): void {
  total = fewest ? NO_MOVES : 0;
  totalHigh = 0;
}

/** total += a · b, in 128 bits. */
export function addProduct(a: u64, b: u64): void {
  const productLow = multiply128(a, b);
  const sum = total + productLow;
  totalHigh += productHigh + <u64>(sum < total);
  total = sum;
}

/**
 * The lookups of this part for the children of one position of the streamed side, added to the
 * group from lookup m on; the group's new size (settle sums them).
 */
export function meet(key: u64, paths: u64, m: i32): i32 {
  keepImages(key);
  let n = m;
  const legalCount = legalJumps(key);
  for (let i = 0; i < legalCount; i++) n = meetChild(images, key, <i32>load<u32>(LEGAL + (<usize>i << 2)), n, paths);
  return n;
}

/** The final sum over the grandchildren of one position of side x (the level between is skipped). */
export function meetGrand(key: u64, paths: u64): void {
  keepImages(key);
  for (let j = 0; j < jumps; j++) {
    if (!legal(key, j)) continue;
    const flip = get64(jumpFlip, j);
    const child = key ^ flip;
    // The child's images, for the grandchildren's; its value (not its orbit's: in key's frame).
    for (let s = 1; s < syms; s++) set64(childImages, s, get64(images, s) ^ get64(jumpImage, s * jumps + j));
    const value = fewest ? valueOf(movesAfter(paths, j, x), markOf(0, j, x, key)) : paths;
    let n = 0;
    for (let k = 0; k < jumps; k++) if (legal(child, k)) n = meetChild(childImages, child, k, n, value);
    settle(n);
  }
}

/**
 * For the child c of `pos` (of this value) by jump j, given pos's images (from 1 up) at
 * `imagesOf`: the key of ~c's orbit and |c's orbit| (fewest moves: c's value in that key's
 * frame) as lookup n (the first n are taken), when this part owns it; the lookups taken.
 */
@inline function meetChild(imagesOf: usize, pos: u64, j: i32, n: i32, value: u64): i32 {
  const least = lookupOf(imagesOf, pos, j, value);
  if (ownerOf(least) != part) return n;
  set64(CHILDREN, n, least);
  set64(VALUES, n, fewest ? valueOut : value);
  if (!fewest) store<u32>(ORBITS + (<usize>n << 2), <u32>syms / fixedOut);
  return n + 1;
}

/**
 * The key of ~c's orbit for the child c of `pos` by jump j (pos's images from 1 up at
 * `imagesOf`): the least complement of c's images; `fixedOut`: how many images are c itself.
 * Fewest moves: c's value (from pos's `value`) in the key's frame goes to valueOut.
 */
@inline export function lookupOf(imagesOf: usize, pos: u64, j: i32, value: u64): u64 {
  // Fewest moves: never dual, as the rules differ by side.
  if (fewest) return fewestChild(imagesOf, pos, j, value, streamSide(), full);
  if (dualOn) return partnerOf(pos ^ get64(jumpFlip, j));
  const least = childComplement(imagesOf, pos, j);
  fixedOut = fixedBy;
  return least;
}

/** The key of ~pos's orbit (self-dual, on the middle level: never for fewest moves), with `fixedOut` as in lookupOf. */
@inline export function selfLookupOf(pos: u64): u64 {
  if (dualOn) return partnerOf(pos);
  const least = leastComplement(pos);
  fixedOut = fixedBy;
  return least;
}

/** The size of a position's orbit under the board's symmetries. */
export function orbitSize(pos: u64): u32 {
  let fixed: u32 = 1;
  for (let s = 1; s < syms; s++) if (imageOf(s, pos) == pos) fixed++;
  return <u32>syms / fixed;
}

/**
 * The keys of the records from `pair` (in the window) on, up to record `end`, into CHILDREN,
 * and their slots read first, as in expand; how many.
 */
@inline export function readGroup(pair: usize, end: u64): i32 {
  const group = <i32>min<u64>(min<u64>(GROUP, end - xAt), winFrom + winCount - xAt);
  for (let i = 0; i < group; i++) set64(CHILDREN, i, pairKey(pair + <usize>i * width));
  readAhead(group);
  return group;
}
const childImages: usize = memory.data(8 * MAX_SYMS);
const ORBITS: usize = memory.data(4 * GROUP_ROOM); // the lookups' orbit sizes, by CHILDREN's

/** Each lookup's paths · (the table's total of its orbit) / its orbit's size, for the first n lookups. */
export function settle(n: i32): void {
  readAhead(n);
  for (let i = 0; i < n; i++) {
    const slot = findIn(tBase, tSize, get64(CHILDREN, i));
    if (isEmpty(slot)) continue;
    if (fewest) meetValues(get64(VALUES, i), pairPaths(slot), get64(CHILDREN, i));
    else addProduct(get64(VALUES, i), pairPaths(slot) / <u64>load<u32>(ORBITS + (<usize>i << 2)));
  }
}

/** The self-dual middle level: a position's total times its complement's, per member. */
export function meetSelf(key: u64, paths: u64): void {
  const least = selfLookupOf(key);
  if (ownerOf(least) != part) return;
  const slot = findIn(tBase, tSize, least);
  if (isEmpty(slot)) return;
  addProduct(paths, pairPaths(slot) / <u64>(<u32>syms / fixedOut));
}

/** The last level built in parts: a table for part k of the smaller side. */
export function beginJoin(k: u32): i32 {
  part = k;
  const share = <f64>countOf(lookup) / <f64>parts / <f64>(joinScatter ? subs : 1);
  tSize = roomier(slotsFor(share * (parts == 1 ? 1 : 1.1)), share);
  if (joinScatter) {
    if (sumCap != 0) tSize = min<u32>(tSize, max<u32>(sumCap, 16));
    joinPasses++;
  }
  tBase = arenaAlloc(<u64>tSize * <u64>width);
  notePeak();
  if (tBase == 0) return OUT_OF_MEMORY;
  tCount = 0;
  xAt = 0;
  at = 0;
  phase = P_JOIN_FILL;
  return MORE;
}

/** The stream is over: the next part, or the end. */
export function streamed(): i32 {
  if (joining && part + 1 < parts) {
    arenaRewind(tBase);
    return beginJoin(part + 1);
  }
  steps = grand ? steps + 2 : steps + 1;
  phase = P_DONE;
  return DONE;
}
