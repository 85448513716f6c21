// Peg solitaire, the count from both ends (meet.ts): the levels on disk. The protocol with the
// host (NEED_PAIRS, HAVE_PAIRS, DROP_PART, DISCARD_PART and the io fields) and the window every
// dense side is read through; a level in parts built in one pass over its parent, into one
// buffer per part whose full buffers go to the ends of the parts' files, then each part's file
// summed in one table (in more passes when it would not grow) and handed to the host; the
// join in parts from the parts' files of lookups; and rounds, when the disk's room does not
// hold every part's file at once.
import { DONE, MORE, OUT_OF_MEMORY, arenaAlloc, arenaRewind, arenaRoom } from '../shared/bits';
import { jumps, notePeak } from './board';
import {
  width, setPair, P_FILL, P_DONE, P_SCATTER, P_FLUSHED, P_GATHER, P_GATHERED, P_JOIN_SCATTER, P_DISCARD, P_ROUND,
  MAX_SPILL_PARTS, NEED_PAIRS, HAVE_PAIRS, DROP_PART, DISCARD_PART, level0, level1, lower, phase, x, at, xAt, tBase, tSize,
  tCount, parts, part, nCount, lookup, steps, spilled, spillAt, windowBytes, window, windowPairs, winSide, winLevel, winFrom,
  winCount, ioSide, ioLevel, ioFrom, ioPtr, ioCount, sumCap, ioPart, winPart, filled, scattering, bufferPairs, BUFFER_COUNT,
  PART_RECORDS, fullest, fullestCount, flushing, draining, levelGuess, subs, sub, partStart, fileSide, fileLevel, joinScatter,
  joinPasses, diskRoom, roundFrom, roundTo, roundBudget, roundRecords, checkAt, discardAt, discardTo, summedBytes, regroup,
  rounds, baseOf, countOf, levelOf, newLevel, partRecords, slotsFor, streamSide,
} from './meetState';
import { beginStep, roomier, partsFor, beginPart } from './meetLevels';
import { keepPartTotal, clearTotal, beginJoin } from './meetJoin';

/** The bytes the count's files may still grow by on the disk (free space, maxDisk). */
export function pegsMeetDiskRoom(bytes: f64): void { diskRoom = bytes; }
/** Passes over a level's parents (or the join's streamed side) beyond the first, and cuts, for want of disk. */
export function pegsMeetRounds(): i32 { return rounds; }

/** The join's passes over parts' files of lookups (one per part, more when a part's table was short). */
export function pegsMeetJoinPasses(): i32 { return joinPasses; }

/** Pair i of side s: in memory, or (spilled) in the window; 0 when the host must fill the window first. */
@inline export function densePair(s: i32, i: u64): usize {
  if (!spilled) return baseOf(s) + <usize>i * width;
  if (winPart != -1 || s != winSide || levelOf(s) != winLevel || i < winFrom || i >= winFrom + winCount) return 0;
  return window + <usize>(i - winFrom) * width;
}

/** Record i of the file of the part being summed, in the window; 0 when the host must fill it. */
@inline export function partPair(i: u64): usize {
  if (winPart != <i32>part || winSide != fileSide || winLevel != fileLevel || i < winFrom || i >= winFrom + winCount) return 0;
  return window + <usize>(i - winFrom) * width;
}

/** Asks the host for the window's records of the part being summed from record i on. */
export function needPartPairs(i: u64): i32 {
  handOut(fileSide, fileLevel, i, window, min<u64>(windowPairs, partRecords(part) - i), <i32>part);
  return NEED_PAIRS;
}

/** Asks the host for the window's pairs from pair i of side s on. */
export function needPairs(s: i32, i: u64): i32 {
  handOut(s, levelOf(s), i, window, min<u64>(windowPairs, countOf(s) - i));
  return NEED_PAIRS;
}

/** Hands the host n pairs at ptr: pairs `from` on of side s's level (pegs), or of its part's file. */
export function handOut(s: i32, level: i32, from: u64, ptr: usize, n: u64, filePart: i32 = -1): i32 {
  ioPart = filePart;
  ioSide = s;
  ioLevel = level;
  ioFrom = from;
  ioPtr = ptr;
  ioCount = n;
  return HAVE_PAIRS;
}

/** The host's task after NEED_PAIRS or HAVE_PAIRS: side, level (pegs), first pair, address, pairs. */
export function pegsMeetIoSide(): i32 { return ioSide; }
export function pegsMeetIoLevel(): i32 { return ioLevel; }
export function pegsMeetIoFrom(): f64 { return <f64>ioFrom; }
export function pegsMeetIoPtr(): usize { return ioPtr; }
export function pegsMeetIoCount(): f64 { return <f64>ioCount; }
/** The part whose file the task is about, or -1: the level's own file. */
export function pegsMeetIoPart(): i32 { return ioPart; }
/** Bytes of a pair (12 or 16). */
export function pegsMeetWidth(): i32 { return <i32>width; }
/** The host wrote the pairs NEED_PAIRS asked for into the window. */
export function pegsMeetFeed(): void {
  winSide = ioSide;
  winPart = ioPart;
  winLevel = ioLevel;
  winFrom = ioFrom;
  winCount = ioCount;
}

/** Hands the sides in memory to the host (one HAVE_PAIRS each), then makes room for the window. */
export function spillOut(): i32 {
  while (spillAt < 2) {
    const s = spillAt++;
    if (countOf(s) > 0) return handOut(s, levelOf(s), 0, baseOf(s), countOf(s));
  }
  // The host has both sides: the arena from the lower one up is free.
  arenaRewind(baseOf(lower));
  spilled = true;
  winSide = -1;
  windowPairs = max<u64>(1, windowBytes / <u64>width);
  window = arenaAlloc(windowPairs * <u64>width);
  notePeak();
  if (window == 0) return OUT_OF_MEMORY;
  const status = beginStep();
  return status == DONE ? MORE : status;
}

/**
 * Spilled, a part's table would not grow: its level again from the first part, in more parts
 * (the host overwrites the pairs handed so far).
 */
export function moreParts(): i32 {
  const n = <f64>countOf(x);
  const seen = <f64>tCount * n / <f64>max<u64>(xAt, 1) * <f64>parts;
  const guess = max<f64>(seen, part > 0 ? <f64>nCount / <f64>part * <f64>parts : 0) * 1.1;
  arenaRewind(tBase);
  const k = max<u32>(parts + 1, partsFor(guess, MAX_SPILL_PARTS));
  if (k > MAX_SPILL_PARTS) return OUT_OF_MEMORY;
  parts = k;
  part = 0;
  nCount = 0;
  const status = beginLevel(guess);
  return status == DONE ? MORE : status;
}

/** Spilled, the join's one table would not grow: the join again, in parts. */
export function moreJoinParts(): i32 {
  arenaRewind(tBase);
  clearTotal();
  parts = max<u32>(2, partsFor(<f64>countOf(lookup) * 1.1, MAX_SPILL_PARTS));
  return beginJoinScatter();
}

/** Spilled, the join in parts: first the streamed side's lookups to the parts' files. */
export function beginJoinScatter(): i32 {
  joinScatter = true;
  const y = streamSide();
  fileSide = y;
  fileLevel = y == 0 ? level0 - 1 : level1 + 1;
  at = 0;
  const status = openBuffers();
  if (status != DONE) return status;
  beginRound(0);
  phase = P_JOIN_SCATTER;
  return MORE;
}

/** The join of part k and the parts after it with lookups (the last one done: the count is). */
function joinPart(k: u32): i32 {
  while (k < roundTo && partRecords(k) == 0) k++;
  if (k >= roundTo && roundTo < parts) {
    phase = P_ROUND;
    return MORE;
  }
  if (k >= roundTo) {
    steps++;
    phase = P_DONE;
    return MORE;
  }
  subs = 1;
  sub = 0;
  keepPartTotal(false);
  return beginJoin(k);
}

/** A pass of a part's join is done: the next pass, or the next part (the host drops the file). */
export function joinSubDone(): i32 {
  arenaRewind(tBase);
  if (++sub < subs) return beginJoin(part);
  const done = part;
  const status = joinPart(part + 1);
  if (status != MORE) return status;
  handOut(fileSide, fileLevel, 0, 0, 0, <i32>done);
  return DROP_PART;
}

/** Spilled: the level in one table, or in parts from one pass over its parent. */
export function beginLevel(guess: f64): i32 {
  scattering = parts > 1;
  return scattering ? beginScatter(guess) : beginPart(guess);
}

/**
 * The buffers, one per part, in all the memory left (the parts' tables come after them). A
 * child goes to its part's buffer as it comes, unsummed: a table would cost a random access per
 * child here and again when the file is summed, and hold too few of its part's children at
 * once to sum many.
 */
function beginScatter(guess: f64): i32 {
  levelGuess = guess;
  fileSide = x;
  fileLevel = newLevel();
  xAt = 0;
  const status = openBuffers();
  if (status != DONE) return status;
  beginRound(0);
  phase = P_SCATTER;
  return DONE;
}

/** The parents a scatter goes over (a level's, or the join's streamed side), and how many it has read. */
@inline function scatterParents(): u64 { return countOf(joinScatter ? streamSide() : x); }
@inline function scatterDone(): u64 { return joinScatter ? at : xAt; }

/**
 * A round from part `from` on: every part left, unless the disk's room says fewer (checkRound
 * cuts it then). Each part of the round takes its file's bytes and then its share of the
 * level once summed (`summedBytes`: the parts summed so far say, or the level's guess; a join
 * sums into nothing). The parts of later rounds need no room yet: their files come once this
 * round's are gone.
 */
function beginRound(from: u32): void {
  if (from > 0) rounds++;
  roundFrom = from;
  roundTo = parts;
  roundRecords = 0;
  summedBytes = joinScatter ? 0 : (from > 0 ? <f64>nCount / <f64>from : levelGuess / <f64>parts) * <f64>width * 1.1;
  roundBudget = diskRoom;
  checkAt = max<u64>(1, scatterParents() >> 6);
}

/** Whether `done` parents in, the round had to be estimated again and was cut or started again (phase P_DISCARD). */
@inline export function roundCut(done: u64): bool {
  return (done >= checkAt || <f64>roundRecords * <f64>width > roundBudget) && checkRound() != -1;
}

/** The round's parts' files so far, as records (those in the buffers too). */
function roundRecordsNow(): u64 {
  let n: u64 = 0;
  for (let r = roundFrom; r < roundTo; r++) n += partRecords(r) + <u64>load<u32>(BUFFER_COUNT + (<usize>r << 2));
  return n;
}

/**
 * Whether the round's files, estimated from the parents read so far, fit the disk's room;
 * when not, the round keeps fewer parts (their files, DISCARD_PART each, go), or if not even
 * one part fits and none of the level is summed yet, the level starts again in more parts.
 * -1 when nothing changed, else the status to return.
 */
function checkRound(): i32 {
  const n = scatterParents();
  const done = scatterDone();
  checkAt = done + max<u64>(1, n >> 6);
  const span = roundTo - roundFrom;
  const estimate = <f64>roundRecords * <f64>n / <f64>max<u64>(done, 1) * <f64>width * 1.1;
  if (estimate + summedBytes * <f64>span <= roundBudget || span == 0) return -1;
  const perPart = estimate / <f64>span + summedBytes;
  const fit = roundBudget > 0 ? <u32>min<f64>(<f64>span, Math.floor(roundBudget / perPart)) : 0;
  // The last round has the room less every other part's share of the level: a part's file
  // must fit there. Until a part is summed, the level may start again in more, smaller parts,
  // each file half that room.
  const lastRoom = max<f64>(roundBudget - summedBytes * <f64>parts, roundBudget * 0.25);
  if (roundFrom == 0 && estimate / <f64>span > lastRoom && roundBudget > 0 && parts < MAX_SPILL_PARTS) {
    rounds++;
    regroup = <u32>min<f64>(<f64>MAX_SPILL_PARTS, max<f64>(<f64>(parts + 1), Math.ceil(<f64>parts * estimate / <f64>span * 2 / lastRoom)));
    discardAt = 0;
    discardTo = roundTo;
  } else if (span > 1) {
    // The parts that fit, one at least (the estimate has a margin: one part may just fit).
    rounds++;
    discardAt = roundFrom + max<u32>(fit, 1);
    discardTo = roundTo;
    roundTo = discardAt;
    regroup = 0;
  } else {
    // One part left in the round: on, and OUT_OF_DISK if its file does not fit.
    roundBudget = Infinity;
    return -1;
  }
  phase = P_DISCARD;
  return MORE;
}

/** The next file of the parts dropped from the round (DISCARD_PART), or on with the round. */
export function discardNext(): i32 {
  while (discardAt < discardTo) {
    const r = discardAt++;
    store<u32>(BUFFER_COUNT + (<usize>r << 2), 0);
    if (partRecords(r) == 0) continue;
    store<u64>(PART_RECORDS + (<usize>r << 3), 0);
    handOut(fileSide, fileLevel, 0, 0, 0, <i32>r);
    return DISCARD_PART;
  }
  if (regroup != 0) {
    // The level (or join) from its first parent again, in more parts.
    parts = regroup;
    regroup = 0;
    arenaRewind(tBase);
    return roundFromStart(0);
  }
  roundRecords = roundRecordsNow();
  findFullest();
  phase = scatterPhase();
  return MORE;
}

@inline function scatterPhase(): i32 { return joinScatter ? P_JOIN_SCATTER : P_SCATTER; }

/** A round from part `from` on, from the first parent: new buffers, and on with the scatter. */
export function roundFromStart(from: u32): i32 {
  const status = openBuffers();
  if (status != DONE) return status;
  if (joinScatter) at = 0;
  else xAt = 0;
  beginRound(from);
  phase = scatterPhase();
  return MORE;
}

/** The buffers, one per part, in all the memory left; DONE or OUT_OF_MEMORY. */
function openBuffers(): i32 {
  bufferPairs = <u32>min<f64>(<f64>0x40000000, Math.floor(<f64>arenaRoom() * 0.98 / <f64>width / <f64>parts));
  // Buffers of a few pairs would go to disk every few parents.
  if (bufferPairs < <u32>max(64, jumps * 4)) return OUT_OF_MEMORY;
  tBase = arenaAlloc(<u64>bufferPairs * <u64>parts * <u64>width);
  notePeak();
  if (tBase == 0) return OUT_OF_MEMORY;
  memory.fill(BUFFER_COUNT, 0, 4 * 256);
  memory.fill(PART_RECORDS, 0, 8 * 256);
  fullest = 0;
  fullestCount = 0;
  draining = false;
  return DONE;
}

@inline function bufferOf(r: u32): usize { return tBase + <usize>r * <usize>bufferPairs * width; }

/** A child to its part's buffer (the buffers have room: P_SCATTER hands the fullest out in time). */
@inline export function toBuffer(r: u32, child: u64, paths: u64): void {
  if (r < roundFrom || r >= roundTo) return;
  roundRecords++;
  const cell = BUFFER_COUNT + (<usize>r << 2);
  const n = load<u32>(cell);
  setPair(bufferOf(r) + <usize>n * width, child, paths);
  store<u32>(cell, n + 1);
  if (n + 1 > fullestCount) {
    fullestCount = n + 1;
    fullest = r;
  }
}

/** Buffer r's pairs to the end of its part's file. */
export function flush(r: u32): i32 {
  flushing = r;
  const n = <u64>load<u32>(BUFFER_COUNT + (<usize>r << 2));
  const records = PART_RECORDS + (<usize>r << 3);
  const from = load<u64>(records);
  store<u64>(records, from + n);
  phase = P_FLUSHED;
  return handOut(fileSide, fileLevel, from, bufferOf(r), n, <i32>r);
}

/** The fullest buffer, and its pairs. */
function findFullest(): void {
  fullest = 0;
  fullestCount = 0;
  for (let r: u32 = 0; r < parts; r++) {
    const n = load<u32>(BUFFER_COUNT + (<usize>r << 2));
    if (n > fullestCount) {
      fullestCount = n;
      fullest = r;
    }
  }
}

/** Buffer `flushing` is with the host: empty again; the fullest again, then on with the parents or the buffers left. */
export function flushed(): i32 {
  store<u32>(BUFFER_COUNT + (<usize>flushing << 2), 0);
  findFullest();
  if (!draining) {
    phase = scatterPhase();
    return MORE;
  }
  return drainNext();
}

/** The parents are done: the next buffer with pairs to its file, or the parts summed, from part 0. */
export function drainNext(): i32 {
  draining = true;
  for (let r: u32 = 0; r < parts; r++) {
    if (load<u32>(BUFFER_COUNT + (<usize>r << 2)) != 0) return flush(r);
  }
  arenaRewind(tBase);
  if (joinScatter) return joinPart(roundFrom);
  // The round's parts summed, after the parts of the rounds before.
  part = roundFrom;
  if (roundFrom == 0) nCount = 0;
  partStart = nCount;
  subs = 1;
  sub = 0;
  return beginGather();
}

/** A table for (one pass of) the part being summed: its distinct pairs are at most its records. */
function beginGather(): i32 {
  const guess = min<f64>(<f64>partRecords(part), levelGuess / <f64>parts * 1.1) / <f64>subs;
  let size = roomier(slotsFor(guess), guess);
  if (sumCap != 0) size = min<u32>(size, max<u32>(sumCap, 16));
  return newTable(size, P_GATHER) ? MORE : OUT_OF_MEMORY;
}

/**
 * A table of `size` slots (fewer when memory is short: it grows later if it must), cleared
 * (P_FILL) before phase `next`; false when not even a small one fits.
 */
export function newTable(size: u32, next: i32): bool {
  const least = slotsFor(<f64>(<u64>jumps * 2));
  for (;;) {
    tBase = arenaAlloc(<u64>size * <u64>width);
    if (tBase != 0 || size <= least) break;
    size = max<u32>(least, size - (size >> 2));
  }
  notePeak();
  if (tBase == 0) return false;
  tSize = size;
  tCount = 0;
  xAt = 0;
  at = 0;
  filled = next;
  phase = P_FILL;
  return true;
}

/**
 * A part's table would not grow, `xAt` of its `n` records (or, joining, lookup pairs) read:
 * the part again from its first, in as many passes as those read so far say it needs (one
 * more at least).
 */
export function moreSubs(n: u64): i32 {
  if (subs >= MAX_SPILL_PARTS) return OUT_OF_MEMORY;
  const distinct = <f64>tCount * <f64>n / <f64>max<u64>(xAt, 1);
  const want = Math.ceil(<f64>subs * distinct / (<f64>tSize * 0.8) * 1.2);
  arenaRewind(tBase);
  subs = <u32>min<f64>(<f64>MAX_SPILL_PARTS, max<f64>(<f64>(subs + 1), want));
  sub = 0;
  if (!joinScatter) {
    nCount = partStart;
    return beginGather();
  }
  keepPartTotal(true);
  return beginJoin(part);
}

/** A pass of a part is summed and handed to the host: the next pass, or part (the host drops the file). */
export function gatherDone(): i32 {
  nCount += tCount;
  arenaRewind(tBase);
  if (++sub < subs) return beginGather();
  const done = part;
  part++;
  sub = 0;
  subs = 1;
  partStart = nCount;
  if (part < roundTo) {
    const status = beginGather();
    if (status != MORE) return status;
  } else phase = roundTo < parts ? P_ROUND : P_GATHERED;
  handOut(x, newLevel(), 0, 0, 0, <i32>done);
  return DROP_PART;
}
