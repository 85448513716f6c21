// SameGame for score: nested rollout policy adaptation (NRPA; Rosin 2011), resumable.
//
// A policy gives each move a weight; a playout picks each move with probability proportional
// to exp(weight) among the legal moves (the table holds exp(weight)). A move is coded by its colour and the cells of its
// group on the board of the time: the XOR of Zobrist keys (one per cell and colour), whose low
// bits index a table of f32 weights in linear memory (so two moves share a weight only by a
// rare collision). Level 1 runs `iterations` playouts, each time adapting its policy toward
// the best line so far (the moves of the line gain `alpha`, every legal move along it loses
// alpha × its probability, all computed with the policy before the step); level l runs
// `iterations` searches of level l − 1, each on a copy of its policy, adapting toward its
// best line the same way. The top level restarts from an empty policy when it is done.
//
// The tabu colour: a colour kept for the end, so it can gather into one big group. Its moves
// weigh TABU_BIAS times their policy's weight, in playouts and adaptation alike (a bias as in
// generalized NRPA, Cazenave 2020), rather than being barred while another group is left (the
// selective policy of Cazenave 2016), so that NRPA can still learn a tabu move a good line
// plays early. It is the colour with the most blocks at the start; from a known line (the
// hybrid's beam line, a round's best so far, the caller's start) that of the line's largest
// group instead, so the search goes on toward the big group the line builds (on boards of
// even colours the most blocks name no colour: 45 of each on positions 11-15).
//
// Boards that fit a bitboard (bitboards.ts; the standard 15×15) are played on one, a move
// then coded by a hash of its colour and its cells' bits; larger boards on the byte boards.
//
// Beam NRPA (Cazenave and Teytaud 2012): with a beam of B > 1 the top level keeps the B best
// (score, line, policy) of its runs instead of one. Each top iteration runs a search of the
// level below from each of the B policies; every such run hands up the B best distinct
// scores among its iterations' results, each with the policy it came from, and the B best
// distinct scores among those and the beam itself (the new results first, so a tie goes to
// the new line, as NRPA's ≥ does) form the next beam, each policy a copy of its parent's
// adapted toward its own line. Only the top level holds a beam, so it costs 2B policy tables
// (the beam and the next), not B per level.
//
// The recursion is an explicit stack of levels, so that run(budget) can stop after any
// playout: a node is a playout, an adaptation or a copy of a policy table.
import { xorshift64 } from '../shared/random';
import { DONE, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaAlloc } from '../shared/bits';
import {
  prepareBoards, loadInput, playFast, boardBytes, scoreOf, columnsOf, heightOf, colourAt, countOf,
  height, samegameOutputPtr, mostBlocks, markGroup, marked, listMoves as listAllMoves,
} from './samegame';
import {
  bitsFit, bitsLoad, bitsSave, bitsRestore, bitsScore, bitsCell, bitsColourAt, bitsColours, bitsGroup, bitsGroupFirstBit,
  bitsGroupLastColumn, bitsGroupHash, bitsCount, bitsGroupsChanged, bitsNextGroup, bitsRemove, bitsNoteChanged, bitsChangeAll, bitsGroupSave, bitsGroupLoad,
  BITS_CHANGED, BITS_STATE_BYTES,
} from './bitboards';

const ALPHA: f64 = 1.0;
const MAX_LEVELS = 6;
const MAX_BEAM = 16;
// The table holds exp(weight) (1 for a weight of 0), kept within these bounds.
const MAX_WEIGHT: f32 = 1e30;
const MIN_WEIGHT: f32 = 1e-30;

let levels = 0;
let iterations = 0;
let stable = 1; // playouts per adaptation at level 1
let tableBits = 0;
let tableMask: u32 = 0;
let tableBytes: usize = 0;
let maxLine = 0;
let cellCount = 0;
let tabu = 0;

let root: usize = 0; // the start board
let roll: usize = 0; // the board a playout or an adaptation plays on
let keys: usize = 0; // u64 Zobrist key per cell and colour
let columnOf: usize = 0; // u8 per cell: its column
let mark: usize = 0; // u32 stamp per cell
let stack: usize = 0; // u16 per cell: the fill stack
let moveList: usize = 0; // MOVE_BYTES per move (see the listing below)
let rootList: usize = 0; // the start board's listing, kept (see listMoves)
let onBits = false; // playing on a bitboard
let rootBits: usize = 0; // the start board as a bitboard
let pending: usize = 0; // adaptation: (index u32, delta f32) per legal move along the line
let pendingCap: usize = 0;
let stamp: u32 = 0;

// Per level (1..levels): the policy, the iteration, the best score and line of this level's run.
let policies: usize = 0;
let iterAt: usize = 0; // i32 per level
let bestAt: usize = 0; // i32 per level
let lineLenAt: usize = 0; // i32 per level
let lines: usize = 0; // u16 × maxLine per level

let playLine: usize = 0;
let playLength = 0;
let globalBest = -1;
let globalLine: usize = 0;
let globalLength = 0;
let nodes: u64 = 0;
let playouts: u64 = 0;
let restarts = 0;
let rng: u64 = 1;
let ready = false;
// The copy of policies down the levels still to do before the next playout (a level l from
// `copyFrom` down to 1), one node each.
let copyFrom = 0;
// One run of the top level only (a part of NRPA whose top level runs on the host: see
// samegameNrpaOnce): run() answers DONE when it ends instead of restarting.
let once = false;
let finished = false;

// Beam NRPA (beam > 1): the beam at the top level, and its next one, as B entries each of a
// policy table, a score and a line; `beamAt` is the entry whose level-below run is under way.
let beam = 1;
let beamCount = 0;
let beamAt = 0;
let beamPolicies: usize = 0; // 2B tables: the beam's at `beamSide`, the next one's at the other side
let beamSide = 0;
let beamScores: usize = 0; // i32 × 2B
let beamLengths: usize = 0; // i32 × 2B
let beamLines: usize = 0; // u16 × maxLine × 2B
// The B best distinct scores among the iterations of the level-below run under way.
let childCount = 0;
let childScores: usize = 0; // i32 × B
let childLengths: usize = 0; // i32 × B
let childLines: usize = 0; // u16 × maxLine × B
// Candidates for the next beam: the level-below runs' results, then the beam's own entries.
let candCount = 0;
let candScores: usize = 0; // i32 × (B + B²)
let candLengths: usize = 0;
let candParents: usize = 0;
let candLines: usize = 0; // u16 × maxLine × (B + B²)

@inline function policy(l: i32): usize { return policies + <usize>(l - 1) * tableBytes; }
// Beam entry k (0 to B − 1) of side `side`: its policy, score, length and line.
@inline function entry(side: i32, k: i32): usize { return <usize>(side * beam + k); }
@inline function beamPolicy(side: i32, k: i32): usize { return beamPolicies + entry(side, k) * tableBytes; }
@inline function beamLine(side: i32, k: i32): usize { return beamLines + entry(side, k) * (<usize>maxLine << 1); }
// The policy the top level's runs start from: the beam entry under way, or the top policy.
@inline function topPolicy(): usize { return beam > 1 ? beamPolicy(beamSide, beamAt) : policy(levels); }
@inline function lineOf(l: i32): usize { return lines + <usize>(l - 1) * (<usize>maxLine << 1); }
@inline function iterOf(l: i32): i32 { return load<i32>(iterAt + (<usize>l << 2)); }
@inline function setIter(l: i32, v: i32): void { store<i32>(iterAt + (<usize>l << 2), v); }
@inline function bestOf(l: i32): i32 { return load<i32>(bestAt + (<usize>l << 2)); }
@inline function setBest(l: i32, v: i32): void { store<i32>(bestAt + (<usize>l << 2), v); }
@inline function lengthOf(l: i32): i32 { return load<i32>(lineLenAt + (<usize>l << 2)); }
@inline function setLength(l: i32, v: i32): void { store<i32>(lineLenAt + (<usize>l << 2), v); }
@inline function key(cell: i32, colour: i32): u64 { return load<u64>(keys + ((<usize>cell * 11 + <usize>colour) << 3)); }

function random(): u64 {
  rng = xorshift64(rng);
  return rng;
}

/** A random number in [0, 1). */
@inline function uniform(): f64 { return <f64>(random() >> 11) * (1.0 / 9007199254740992.0); }

export function samegameNrpaNodes(): u64 { return nodes; }
export function samegameNrpaPlayouts(): u64 { return playouts; }
export function samegameNrpaScore(): i32 { return globalBest; }
export function samegameNrpaRestarts(): i32 { return restarts; }
/** The top level's iteration under way (0 to iterations − 1; at level 1, playouts / playoutsPerAdapt). */
export function samegameNrpaIteration(): i32 { return ready ? (levels == 1 ? iterOf(1) / stable : iterOf(levels)) : 0; }

/**
 * Starts NRPA of `nestLevels` levels of `iterationsPerLevel` iterations (level 1 adapting after
 * every `playoutsPerAdapt` playouts) on the board in INPUT
 * (w × h), its random numbers from `seed`, with a policy table of 2^bits entries; `knownLength`
 * clicks in the output region are a line known to score `knownScore` (the search starts from
 * it: it is the best so far and the top level adapts toward it).
 */
export function samegameNrpaStart(w: i32, h: i32, nestLevels: i32, iterationsPerLevel: i32, playoutsPerAdapt: i32, bits: i32, seed: u32, knownScore: i32, knownLength: i32, beamWidth: i32): i32 {
  ready = false;
  if (beamWidth < 1 || beamWidth > MAX_BEAM || (beamWidth > 1 && nestLevels < 2)) return BAD_INPUT;
  if (playoutsPerAdapt < 1 || playoutsPerAdapt > 1000 || nestLevels < 1 || nestLevels > MAX_LEVELS || iterationsPerLevel < 1 || iterationsPerLevel > 100000 || bits < 8 || bits > 26
    || knownLength < 0 || knownLength > w * h / 2) return BAD_INPUT;
  const prepared = prepareBoards(w, h);
  if (prepared != DONE) return prepared;
  levels = nestLevels;
  iterations = iterationsPerLevel;
  stable = playoutsPerAdapt;
  tableBits = bits;
  tableMask = (1 << bits) - 1;
  tableBytes = <usize>4 << <usize>bits;
  cellCount = w * h;
  maxLine = cellCount / 2 + 1;
  const maxMoves = <u64>maxLine;
  root = arenaAlloc(<u64>boardBytes);
  roll = arenaAlloc(<u64>boardBytes);
  keys = arenaAlloc(<u64>cellCount * 11 * 8);
  columnOf = arenaAlloc(<u64>cellCount);
  mark = arenaAlloc(<u64>cellCount * 4);
  stack = arenaAlloc(<u64>cellCount * 2);
  moveList = arenaAlloc(maxMoves * MOVE_BYTES);
  rootList = arenaAlloc(maxMoves * MOVE_BYTES);
  rootBits = arenaAlloc(<u64>BITS_STATE_BYTES);
  pendingCap = <usize>maxLine * <usize>maxLine;
  pending = arenaAlloc(<u64>pendingCap * 8);
  // Trace slots: the last playout's, one a level, and the scratch slot (see the traces below).
  const slots = <u64>(levels + 2);
  traceCodes = arenaAlloc(slots * <u64>pendingCap * 4);
  traceSteps = arenaAlloc(slots * <u64>maxLine * 4);
  traceLines = arenaAlloc(slots * <u64>maxLine * 2);
  traceSizes = arenaAlloc(slots * 12);
  if (traceSizes != 0) for (let s = 0; s < levels + 2; s++) store<i32>(traceSizes + <usize>s * 12, -1, 8); // no line traced
  iterAt = arenaAlloc(<u64>(MAX_LEVELS + 1) * 4);
  bestAt = arenaAlloc(<u64>(MAX_LEVELS + 1) * 4);
  lineLenAt = arenaAlloc(<u64>(MAX_LEVELS + 1) * 4);
  lines = arenaAlloc(<u64>levels * <u64>maxLine * 2);
  playLine = arenaAlloc(<u64>maxLine * 2);
  globalLine = arenaAlloc(<u64>maxLine * 2);
  policies = arenaAlloc(<u64>levels * <u64>tableBytes);
  beam = beamWidth;
  if (beam > 1) {
    const lineBytes = <u64>maxLine * 2;
    const cands = <u64>(beam + beam * beam);
    beamPolicies = arenaAlloc(<u64>(2 * beam) * <u64>tableBytes);
    beamScores = arenaAlloc(<u64>(2 * beam) * 4);
    beamLengths = arenaAlloc(<u64>(2 * beam) * 4);
    beamLines = arenaAlloc(<u64>(2 * beam) * lineBytes);
    childScores = arenaAlloc(<u64>beam * 4);
    childLengths = arenaAlloc(<u64>beam * 4);
    childLines = arenaAlloc(<u64>beam * lineBytes);
    candScores = arenaAlloc(cands * 4);
    candLengths = arenaAlloc(cands * 4);
    candParents = arenaAlloc(cands * 4);
    candLines = arenaAlloc(cands * lineBytes);
    if (beamPolicies == 0 || beamScores == 0 || beamLengths == 0 || beamLines == 0 || childScores == 0 || childLengths == 0 || childLines == 0
      || candScores == 0 || candLengths == 0 || candParents == 0 || candLines == 0) return OUT_OF_MEMORY;
  }
  if (root == 0 || roll == 0 || keys == 0 || columnOf == 0 || mark == 0 || stack == 0 || moveList == 0 || rootList == 0
    || rootBits == 0 || pending == 0 || traceCodes == 0 || traceSteps == 0 || traceLines == 0 || traceSizes == 0 || iterAt == 0 || bestAt == 0 || lineLenAt == 0 || lines == 0 || playLine == 0 || globalLine == 0 || policies == 0) {
    return OUT_OF_MEMORY;
  }
  if (!loadInput(root)) return BAD_INPUT;
  onBits = bitsFit(w, h);
  if (onBits) {
    bitsLoad(root);
    bitsSave(rootBits);
  }
  // Zobrist keys of the move codes, from a fixed seed (the same codes in every run).
  let x: u64 = 0x2545f4914f6cdd1d;
  for (let i = 0; i < cellCount * 11; i++) {
    x = xorshift64(x);
    store<u64>(keys + (<usize>i << 3), x);
  }
  memory.fill(mark, 0, <usize>cellCount * 4);
  for (let cell = 0; cell < cellCount; cell++) store<u8>(columnOf + <usize>cell, cell / h);
  stamp = 0;
  keepForEnd(mostBlocks(root));
  rng = (<u64>seed << 1) | 0x9e3779b900000001;
  nodes = 0;
  playouts = 0;
  restarts = 0;
  globalBest = -1;
  globalLength = 0;
  emptyPolicy(policy(levels));
  resetLevels(levels);
  if (beam > 1) startBeam();
  if (knownLength > 0) {
    // The known line, its clicks named as the engine names them (the group's first cell).
    memory.copy(globalLine, samegameOutputPtr(), <usize>knownLength << 1);
    if (!normalise(globalLine, knownLength)) return BAD_INPUT;
    keepForEnd(lineColour);
    globalBest = knownScore;
    globalLength = knownLength;
    setBest(levels, knownScore);
    setLength(levels, knownLength);
    memory.copy(lineOf(levels), globalLine, <usize>knownLength << 1);
    adapt(policy(levels), levels, lineOf(levels), knownLength);
    if (beam > 1) {
      // The beam's one entry: the known line, its policy adapted toward it.
      store<i32>(beamScores + (entry(beamSide, 0) << 2), knownScore);
      store<i32>(beamLengths + (entry(beamSide, 0) << 2), knownLength);
      memory.copy(beamLine(beamSide, 0), globalLine, <usize>knownLength << 1);
      memory.copy(beamPolicy(beamSide, 0), policy(levels), tableBytes);
    }
  }
  copyFrom = levels;
  once = false;
  finished = false;
  ready = true;
  return DONE;
}

/**
 * Adapts the top level's policy toward the line of `length` clicks in the output region, as
 * the level above would before handing its policy down (parallel NRPA: the host runs the level
 * above, and each part replays its adaptations so far). Call after samegameNrpaStart.
 */
export function samegameNrpaAdapt(length: i32): i32 {
  if (!ready || beam > 1 || length < 0 || length >= maxLine) return BAD_INPUT;
  memory.copy(playLine, samegameOutputPtr(), <usize>length << 1);
  if (!normalise(playLine, length)) return BAD_INPUT;
  adapt(policy(levels), scratch(), playLine, length);
  return DONE;
}

/** From now on run() answers DONE when the top level's run ends, instead of restarting it. */
export function samegameNrpaOnce(): void { once = true; }

/** The colour NRPA keeps for the end, its moves weighed down (for tests). */
export function samegameNrpaTabu(): i32 { return tabu; }

// exp(x) for the changes of one adaptation (|x| ≤ alpha = 1): a polynomial of degree 7
// (relative error below 3e-5 there), much cheaper than Math.exp.
@inline function expSmall(x: f32): f32 {
  return <f32>1 + x * (<f32>1 + x * (<f32>0.5 + x * (<f32>(1.0 / 6) + x * (<f32>(1.0 / 24) + x * (<f32>(1.0 / 120) + x * (<f32>(1.0 / 720) + x * <f32>(1.0 / 5040)))))));
}

// Every weight 0: exp(0) = 1 everywhere.
function emptyPolicy(p: usize): void {
  const one = reinterpret<u32>(<f32>1.0);
  const ones = (<u64>one << 32) | <u64>one;
  for (let at: usize = 0; at < tableBytes; at += 8) store<u64>(p + at, ones);
}

// Levels `top` and below start a run: no iteration done, no line yet.
function resetLevels(top: i32): void {
  for (let l = 1; l <= top; l++) {
    setIter(l, 0);
    setBest(l, -1);
    setLength(l, 0);
  }
}

// The moves of the board under play, listed by relist(): a record of MOVE_BYTES per move (three
// v128, so that keeping a move is three copies) of its weight (exp, f32, from the policy of the
// listing, times TABU_BIAS for the tabu colour), its code, the cell that names it, its
// bit and colour on a bitboard, its leftmost and rightmost columns, and on a bitboard its
// group's cells (bytes 16 to 47, as a plane). The listing also sums the weights. A move's code
// is its policy index with TABU_FLAG set for the tabu colour: all its weight depends on.
const MOVE_BYTES: usize = 48;
const TABU_FLAG: u32 = 0x80000000;
// The weight of a move of the tabu colour, against 1 for the others (see the header). NRPA from
// the beam's line on random boards of both kinds (docs/benchmarks.md): barred 136,802, 0.05
// 138,464, 0.01 139,968 (two seeds each); 0.2 and 0.002 on one seed below and level with 0.01.
const TABU_BIAS: f32 = 0.01;
let moveCount = 0;
let sumAll: f64 = 0;
@inline function moveRecord(i: i32): usize { return moveList + <usize>i * MOVE_BYTES; }
@inline function weightOf(i: i32): f64 { return <f64>load<f32>(moveRecord(i)); }
@inline function codeOf(i: i32): u32 { return load<u32>(moveRecord(i), 4); }
@inline function cellOf(i: i32): i32 { return <i32>load<u16>(moveRecord(i), 8); }
@inline function bitOf(i: i32): i32 { return <i32>load<u8>(moveRecord(i), 10); }
@inline function colourOf(i: i32): i32 { return <i32>load<u8>(moveRecord(i), 11); }
@inline function minColOf(i: i32): i32 { return <i32>load<u8>(moveRecord(i), 12); }
@inline function maxColOf(i: i32): i32 { return <i32>load<u8>(moveRecord(i), 13); }

// A move's code from its policy index and colour.
@inline function codeFor(index: u32, colour: i32): u32 { return index | (colour == tabu ? TABU_FLAG : 0); }

// The weight of a move of code `code` in policy p (0 when p is 0): its policy weight, times
// TABU_BIAS for the tabu colour.
@inline function weigh(p: usize, code: u32): f32 {
  return p != 0 ? load<f32>(p + (<usize>(code & ~TABU_FLAG) << 2)) * ((code & TABU_FLAG) != 0 ? TABU_BIAS : 1) : 0;
}

// Lists a move found (weights from policy p, none when p is 0) as move `i`; returns its weight.
@inline function addMove(i: i32, p: usize, index: u32, cell: i32, bit: i32, colour: i32, lo: i32, hi: i32): f64 {
  const at = moveRecord(i);
  const code = codeFor(index, colour);
  const weight = weigh(p, code);
  store<f32>(at, weight);
  store<u32>(at, code, 4);
  store<u16>(at, cell, 8);
  store<u8>(at, bit, 10);
  store<u8>(at, colour, 11);
  store<u8>(at, lo, 12);
  store<u8>(at, hi, 13);
  return <f64>weight;
}

// On the byte boards, the columns whose groups the next listing finds again. A click changes
// only the columns its group touched (their blocks fall), so a group wholly outside them and
// their neighbours keeps its cells and its move; when a column empties, every column right of
// it moves too. (On a bitboard, the cells of BITS_CHANGED, finer: see bitsNoteChanged.)
let changedFirst = 0;
let changedLast = 0;
const ALL_COLUMNS = 255;

// Brings the list of moves of `b` (weights from policy `p`, or none when p is 0) up to date:
// the groups with a block in the changed columns are found again by a scan of those columns.
// Returns how many moves there are.
function relist(b: usize, p: usize): i32 {
  stamp++;
  let moves = keepUnchanged();
  let sum = sumAll;
  const cols = columnsOf(b);
  const last = changedLast < cols - 1 ? changedLast : cols - 1;
  for (let c = changedFirst; c <= last; c++) {
    const h = heightOf(b, c);
    for (let r = 0; r < h; r++) {
      const cell = c * height + r;
      if (load<u32>(mark + (<usize>cell << 2)) == stamp) continue;
      const colour = colourAt(b, cell);
      // Fill the group of `cell`, XORing its keys.
      store<u32>(mark + (<usize>cell << 2), stamp);
      store<u16>(stack, cell);
      let top = 1;
      let size = 0;
      let code: u64 = 0;
      let lo = c;
      let hi = c;
      while (top > 0) {
        top--;
        const at = <i32>load<u16>(stack + (<usize>top << 1));
        size++;
        code ^= key(at, colour);
        const ac = <i32>load<u8>(columnOf + <usize>at);
        const ar = at - ac * height;
        if (ac < lo) lo = ac;
        if (ac > hi) hi = ac;
        if (ar + 1 < heightOf(b, ac)) top = visit(b, at + 1, colour, top);
        if (ar > 0) top = visit(b, at - 1, colour, top);
        if (ac > 0 && ar < heightOf(b, ac - 1)) top = visit(b, at - height, colour, top);
        if (ac + 1 < cols && ar < heightOf(b, ac + 1)) top = visit(b, at + height, colour, top);
      }
      if (size < 2) continue;
      sum += addMove(moves, p, <u32>(code ^ (code >> 29)) & tableMask, cell, 0, colour, lo, hi);
      moves++;
    }
  }
  sumAll = sum;
  moveCount = moves;
  if (checking) checkListing(moves);
  return moves;
}

// Keeps the moves of the last listing that did not change (wholly outside the changed columns,
// or on a bitboard with no cell changed), in order at the front, and starts the sum of weights with them;
// returns how many.
function keepUnchanged(): i32 {
  // Locals, not the module's globals, in the loop: each global is a load or a store.
  const count = moveCount;
  const bits = onBits;
  const first = changedFirst;
  const last = changedLast;
  const low = v128.load(BITS_CHANGED);
  const high = v128.load(BITS_CHANGED, 16);
  let sum: f64 = 0;
  let moves = 0;
  for (let i = 0; i < count; i++) {
    const at = moveRecord(i);
    if (bits) {
      if (v128.any_true(v128.or(v128.and(v128.load(at, 16), low), v128.and(v128.load(at, 32), high)))) continue;
    } else if (maxColOf(i) >= first && minColOf(i) <= last) continue;
    if (i != moves) {
      const to = moveRecord(moves);
      v128.store(to, v128.load(at));
      v128.store(to, v128.load(at, 16), 16);
      v128.store(to, v128.load(at, 32), 32);
    }
    sum += <f64>load<f32>(at);
    moves++;
  }
  sumAll = sum;
  return moves;
}

// relist() on the bitboard: the groups with a cell in BITS_CHANGED are found again, each by
// the bits of its colour.
function relistBits(p: usize): i32 {
  let moves = keepUnchanged();
  let sum = sumAll;
  const top = bitsColours();
  for (let colour = 1; colour <= top; colour++) {
    bitsGroupsChanged(colour);
    for (;;) {
      const name = bitsNextGroup(colour);
      if (name < 0) break;
      sum += addMove(moves, p, <u32>bitsGroupHash(colour) & tableMask, bitsCell(name), name, colour, name >> 4, bitsGroupLastColumn());
      bitsGroupSave(moveRecord(moves) + 16);
      moves++;
    }
  }
  sumAll = sum;
  moveCount = moves;
  if (checking) checkListing(moves);
  return moves;
}

// The board under play (the byte board `roll`, or the bitboard) set to the start board.
function startBoard(): void {
  if (onBits) {
    bitsRestore(rootBits);
    bitsChangeAll();
  } else memory.copy(roll, root, boardBytes);
  moveCount = 0; // a new board: nothing of the last listing is kept
  changedFirst = 0;
  changedLast = ALL_COLUMNS;
  atRoot = true;
}

// Every playout starts with a listing of the start board, the same groups each time: the first
// is kept (rootCount moves at rootList), and later ones copy it and weigh its moves again.
let rootCount = -1; // -1: not listed yet
let atRoot = false; // the board under play is the start board, not listed yet

// Sets the tabu colour. The kept start-board listing coded the colour before (in its moves'
// codes), so it is dropped.
function keepForEnd(colour: i32): void {
  tabu = colour;
  rootCount = -1;
}

// The moves of the board under play, weighted by policy p (none when p is 0).
function listMoves(p: usize): i32 {
  if (!atRoot || rootCount < 0) {
    const moves = onBits ? relistBits(p) : relist(roll, p);
    if (atRoot) {
      rootCount = moves;
      memory.copy(rootList, moveList, <usize>moves * MOVE_BYTES);
    }
    atRoot = false;
    return moves;
  }
  atRoot = false;
  memory.copy(moveList, rootList, <usize>rootCount * MOVE_BYTES);
  let sum: f64 = 0;
  for (let i = 0; i < rootCount; i++) {
    // Weighed as the listing weighs it, and summed in the same order.
    const weight = weigh(p, codeOf(i));
    store<f32>(moveRecord(i), weight);
    sum += <f64>weight;
  }
  sumAll = sum;
  moveCount = rootCount;
  if (checking) checkListing(rootCount);
  return rootCount;
}

// A test of the listings kept from click to click: each checked against the board's groups.
let checking = false;
let listingErrors = 0;
const CHECK_GROUP: usize = memory.data(32);

/**
 * From now on (on: 1) every listing is checked against a listing from scratch, and every
 * adaptation replays its line, checking the weights it traces against the listings' (slow: for tests).
 */
export function samegameNrpaCheckListings(on: i32): void {
  checking = on != 0;
  listingErrors = 0;
}

/** The listings (and traced weights) found wrong since samegameNrpaCheckListings(1). */
export function samegameNrpaListingErrors(): i32 { return listingErrors; }

// Counts a wrong listing: a group missing or listed twice, or a move whose record is not that
// of the group it names (its cells, colour, policy index or columns).
function checkListing(moves: i32): void {
  let wrong = false;
  if (onBits) {
    const low = v128.load(BITS_CHANGED);
    const high = v128.load(BITS_CHANGED, 16);
    bitsChangeAll();
    let groups = 0;
    for (let colour = 1; colour <= bitsColours(); colour++) {
      bitsGroupsChanged(colour);
      for (;;) {
        const name = bitsNextGroup(colour);
        if (name < 0) break;
        groups++;
        let found = 0;
        for (let i = 0; i < moves; i++) {
          if (bitOf(i) != name) continue;
          found++;
          const at = moveRecord(i);
          bitsGroupSave(CHECK_GROUP);
          if (colourOf(i) != colour || codeOf(i) != codeFor(<u32>bitsGroupHash(colour) & tableMask, colour) || maxColOf(i) != bitsGroupLastColumn()
            || minColOf(i) != name >> 4 || cellOf(i) != bitsCell(name)) wrong = true;
          for (let k: usize = 0; k < 32; k += 8) if (load<u64>(at + 16 + k) != load<u64>(CHECK_GROUP + k)) wrong = true;
        }
        if (found != 1) wrong = true;
      }
    }
    if (groups != moves) wrong = true;
    v128.store(BITS_CHANGED, low);
    v128.store(BITS_CHANGED, high, 16);
  } else {
    if (listAllMoves(roll) != moves) wrong = true;
    for (let i = 0; i < moves; i++) {
      markGroup(roll, cellOf(i));
      let code: u64 = 0;
      let size = 0;
      let lo = 255;
      let hi = -1;
      const colour = colourAt(roll, cellOf(i));
      for (let c = 0; c < columnsOf(roll); c++) {
        for (let r = 0; r < heightOf(roll, c); r++) {
          const cell = c * height + r;
          if (!marked(cell)) continue;
          code ^= key(cell, colour);
          size++;
          if (c < lo) lo = c;
          if (c > hi) hi = c;
        }
      }
      if (size < 2 || colourOf(i) != colour || codeOf(i) != codeFor(<u32>(code ^ (code >> 29)) & tableMask, colour) || minColOf(i) != lo || maxColOf(i) != hi) wrong = true;
      for (let j = i + 1; j < moves; j++) if (marked(cellOf(j))) wrong = true;
    }
  }
  if (wrong) listingErrors++;
}

// Plays move i of the last listing, and notes what it changed for the next listing.
function playMove(i: i32): void {
  if (onBits) {
    // The group's cells were saved when it was listed, and have not changed since.
    bitsRemove(colourOf(i), bitsGroupLoad(moveRecord(i) + 16));
    bitsNoteChanged();
    return;
  }
  const cols = columnsOf(roll);
  playFast(roll, roll, cellOf(i));
  const first = minColOf(i);
  changedFirst = first > 0 ? first - 1 : 0;
  changedLast = columnsOf(roll) < cols ? ALL_COLUMNS : maxColOf(i) + 1;
}

// The score of the board under play (with 1000 when it is clear).
@inline function boardScore(): i32 { return onBits ? bitsScore() : scoreOf(roll); }

// The move of the last listing whose group holds `cell` of the board under play, or -1.
function moveOfCell(cell: i32, moves: i32): i32 {
  const c = cell / height;
  const r = cell - c * height;
  if (onBits) {
    const bit = (c << 4) + r;
    if (c >= 16 || r >= 15) return -1;
    const colour = bitsColourAt(bit);
    if (colour == 0) return -1;
    bitsGroup(bit, colour);
    const name = bitsGroupFirstBit();
    for (let i = 0; i < moves; i++) if (bitOf(i) == name) return i;
    return -1;
  }
  if (c >= columnsOf(roll) || r >= heightOf(roll, c)) return -1;
  markGroup(roll, cell);
  for (let i = 0; i < moves; i++) if (marked(cellOf(i))) return i;
  return -1;
}

@inline function visit(b: usize, n: i32, colour: i32, top: i32): i32 {
  if (colourAt(b, n) != colour) return top;
  const m = mark + (<usize>n << 2);
  if (load<u32>(m) == stamp) return top;
  store<u32>(m, stamp);
  store<u16>(stack + (<usize>top << 1), n);
  return top + 1;
}

// A playout from the root with policy `p`: its score; its clicks in playLine.
function playout(p: usize): i32 {
  nodes++;
  playouts++;
  startBoard();
  const codes = codesOf(0);
  const steps = stepsOf(0);
  let count: usize = 0;
  let length = 0;
  for (;;) {
    const moves = listMoves(p);
    if (moves == 0) break;
    let r = uniform() * sumAll;
    let chosen = -1;
    for (let i = 0; i < moves; i++) {
      chosen = i;
      r -= weightOf(i);
      if (r < 0) break;
    }
    count = noteListing(codes, steps, length, count, moves, chosen);
    store<u16>(playLine + (<usize>length << 1), <u16>cellOf(chosen));
    length++;
    playMove(chosen);
  }
  playLength = length;
  setTraced(0, length, count, playLine, length);
  const score = boardScore();
  if (score > globalBest) {
    globalBest = score;
    globalLength = length;
    memory.copy(globalLine, playLine, <usize>length << 1);
  }
  return score;
}

// The colour of the largest group of the line normalise() replayed last.
let lineColour = 0;

// Renames each click of `line` to the cell the move lists name its group by, replaying it
// from the root (noting lineColour); false when a click hits no group.
function normalise(line: usize, length: i32): bool {
  startBoard();
  let largest = 0;
  lineColour = 0;
  for (let t = 0; t < length; t++) {
    const moves = listMoves(0);
    const move = moveOfCell(<i32>load<u16>(line + (<usize>t << 1)), moves);
    if (move < 0) return false; // an empty cell or a lone block
    store<u16>(line + (<usize>t << 1), <u16>cellOf(move));
    const colour = colourOf(move);
    const before = colourCount(colour);
    playMove(move);
    const removed = before - colourCount(colour);
    if (removed > largest) {
      largest = removed;
      lineColour = colour;
    }
  }
  return true;
}

// The blocks of `colour` on the board under play.
@inline function colourCount(colour: i32): i32 { return onBits ? bitsCount(colour) : countOf(roll, colour); }

// Traces: the listings along a line, for adapt(): the code of each move listed, step by step,
// and the move played at each step. Slot 0 is the last playout's, noted as it plays; a line
// that becomes level l's best takes its trace along to slot l, so adapt() replays the board
// only for lines from elsewhere (the known line, the beam's entries, the host's: the scratch
// slot) or when checking. Each slot also holds the line it traced, so a trace is used only for
// the very line.
let traceCodes: usize = 0; // u32 × pendingCap a slot: the moves listed along the line
let traceSteps: usize = 0; // u32 × maxLine a slot: per click, u16 moves listed, u16 the one played
let traceLines: usize = 0; // u16 × maxLine a slot: the line traced
let traceSizes: usize = 0; // per slot: i32 clicks traced, i32 codes, i32 the line's length (-1: none)
@inline function codesOf(slot: i32): usize { return traceCodes + <usize>slot * pendingCap * 4; }
@inline function stepsOf(slot: i32): usize { return traceSteps + <usize>slot * (<usize>maxLine << 2); }
@inline function tracedLine(slot: i32): usize { return traceLines + <usize>slot * (<usize>maxLine << 1); }
@inline function clicksTraced(slot: i32): i32 { return load<i32>(traceSizes + <usize>slot * 12); }
@inline function codesTraced(slot: i32): usize { return <usize>load<i32>(traceSizes + <usize>slot * 12, 4); }
@inline function tracedLength(slot: i32): i32 { return load<i32>(traceSizes + <usize>slot * 12, 8); }
@inline function scratch(): i32 { return levels + 1; }

// Notes the listing under play as click `t` of a trace (its codes from `count` on) and `played`
// as the move played; returns the codes noted so far. A line has fewer than maxLine clicks and
// a listing fewer than maxLine moves (groups of two blocks or more), so a slot's pendingCap =
// maxLine² codes hold any line's.
@inline function noteListing(codes: usize, steps: usize, t: i32, count: usize, moves: i32, played: i32): usize {
  for (let i = 0; i < moves; i++) store<u32>(codes + ((count + <usize>i) << 2), codeOf(i));
  store<u16>(steps + (<usize>t << 2), <u16>moves);
  store<u16>(steps + (<usize>t << 2), <u16>played, 2);
  return count + <usize>moves;
}

// Slot `slot` now traces `line` (`length` clicks), `clicks` of them and `codes` codes noted.
function setTraced(slot: i32, clicks: i32, codes: usize, line: usize, length: i32): void {
  const at = traceSizes + <usize>slot * 12;
  store<i32>(at, clicks);
  store<i32>(at, <i32>codes, 4);
  store<i32>(at, length, 8);
  memory.copy(tracedLine(slot), line, <usize>length << 1);
}

// Slot `to` takes slot `from`'s trace.
function keepTrace(from: i32, to: i32): void {
  memory.copy(codesOf(to), codesOf(from), codesTraced(from) << 2);
  memory.copy(stepsOf(to), stepsOf(from), <usize>clicksTraced(from) << 2);
  setTraced(to, clicksTraced(from), codesTraced(from), tracedLine(from), tracedLength(from));
}

// Replays `line` from the start board into trace slot `slot` (when checking, also checks that
// each move's traced weight in policy `p` is the listing's).
function traceListings(slot: i32, line: usize, length: i32, p: usize): void {
  startBoard();
  const codes = codesOf(slot);
  const steps = stepsOf(slot);
  let count: usize = 0;
  let t = 0;
  for (; t < length; t++) {
    const moves = listMoves(checking ? p : 0);
    const cell = <i32>load<u16>(line + (<usize>t << 1));
    let played = -1;
    for (let i = 0; i < moves; i++) {
      if (cellOf(i) == cell) played = i;
      if (checking && weigh(p, codeOf(i)) != load<f32>(moveRecord(i))) listingErrors++;
    }
    count = noteListing(codes, steps, t, count, moves, played);
    if (played < 0) {
      t++;
      break; // never: the line's clicks are named as the listings name them
    }
    playMove(played);
  }
  setTraced(slot, t, count, line, length);
}

// Adapts policy `p` toward `line` (see the header), from its trace in slot `slot` (traced first
// unless the slot holds this line): every change is computed with `p` as it was before, then
// applied. The weights and their sums are those the listings would give (the same products,
// summed in the same order), so a traced line adapts exactly as a replayed one.
function adapt(p: usize, slot: i32, line: usize, length: i32): void {
  nodes++;
  if (checking || length != tracedLength(slot) || memory.compare(line, tracedLine(slot), <usize>length << 1) != 0) traceListings(slot, line, length, p);
  const codes = codesOf(slot);
  const steps = stepsOf(slot);
  const clicks = clicksTraced(slot);
  let at: usize = 0;
  let count: usize = 0;
  for (let t = 0; t < clicks; t++) {
    const listed = <usize>load<u16>(steps + (<usize>t << 2));
    const played = <usize>load<u16>(steps + (<usize>t << 2), 2);
    let sum: f64 = 0;
    for (let i: usize = 0; i < listed; i++) sum += <f64>weigh(p, load<u32>(codes + ((at + i) << 2)));
    for (let i: usize = 0; i < listed; i++) {
      const code = load<u32>(codes + ((at + i) << 2));
      let delta = -ALPHA * <f64>weigh(p, code) / sum;
      if (i == played) delta += ALPHA;
      const to = pending + (count << 3);
      store<u32>(to, code & ~TABU_FLAG);
      store<f32>(to + 4, <f32>delta);
      count++;
    }
    at += listed;
  }
  for (let k: usize = 0; k < count; k++) {
    const at = pending + (k << 3);
    const w = p + (<usize>load<u32>(at) << 2);
    let e = load<f32>(w) * expSmall(load<f32>(at + 4));
    if (e > MAX_WEIGHT) e = MAX_WEIGHT;
    else if (e < MIN_WEIGHT) e = MIN_WEIGHT;
    store<f32>(w, e);
  }
}

// The beam at a (re)start: one entry, an empty policy and no line.
function startBeam(): void {
  beamSide = 0;
  beamCount = 1;
  beamAt = 0;
  candCount = 0;
  childCount = 0;
  emptyPolicy(beamPolicy(0, 0));
  store<i32>(beamScores + (entry(0, 0) << 2), -1);
  store<i32>(beamLengths + (entry(0, 0) << 2), 0);
}

// Notes a result of the run below the beam among its B best distinct scores.
function keepChild(score: i32, from: usize, length: i32): void {
  const lineBytes = <usize>maxLine << 1;
  let at = -1;
  for (let i = 0; i < childCount; i++) if (load<i32>(childScores + (<usize>i << 2)) == score) at = i;
  if (at < 0) {
    if (childCount < beam) {
      at = childCount;
      childCount++;
    }
    else {
      // The lowest kept, if this one beats it.
      at = 0;
      for (let i = 1; i < childCount; i++) if (load<i32>(childScores + (<usize>i << 2)) < load<i32>(childScores + (<usize>at << 2))) at = i;
      if (load<i32>(childScores + (<usize>at << 2)) >= score) return;
    }
  }
  store<i32>(childScores + (<usize>at << 2), score);
  store<i32>(childLengths + (<usize>at << 2), length);
  memory.copy(childLines + <usize>at * lineBytes, from, <usize>length << 1);
}

// Adds a candidate for the next beam.
function addCandidate(score: i32, line: usize, length: i32, parent: i32): void {
  const lineBytes = <usize>maxLine << 1;
  const at = <usize>candCount;
  candCount++;
  store<i32>(candScores + (at << 2), score);
  store<i32>(candLengths + (at << 2), length);
  store<i32>(candParents + (at << 2), parent);
  memory.copy(candLines + at * lineBytes, line, <usize>length << 1);
}

// The run below beam entry `beamAt` is done: its results become candidates. When every
// entry has had its run, the next beam is the B best distinct scores among the candidates,
// each with a copy of its parent's policy adapted toward its line (a node per copy and per
// adaptation), and the top level's iteration is done (after the last, it restarts). Returns
// the nodes it took.
function childDone(): i32 {
  const lineBytes = <usize>maxLine << 1;
  for (let i = 0; i < childCount; i++) addCandidate(load<i32>(childScores + (<usize>i << 2)), childLines + <usize>i * lineBytes, load<i32>(childLengths + (<usize>i << 2)), beamAt);
  childCount = 0;
  beamAt++;
  if (beamAt < beamCount) return 0;
  for (let k = 0; k < beamCount; k++) {
    const e = entry(beamSide, k);
    addCandidate(load<i32>(beamScores + (e << 2)), beamLine(beamSide, k), load<i32>(beamLengths + (e << 2)), k);
  }
  // Selection: the best candidate left whose score is not taken yet, B times (the first of equals).
  const next = 1 - beamSide;
  let count = 0;
  let spent = 0;
  let above: i32 = i32.MAX_VALUE;
  while (count < beam) {
    let pick = -1;
    for (let j = 0; j < candCount; j++) {
      const s = load<i32>(candScores + (<usize>j << 2));
      if (s < above && (pick < 0 || s > load<i32>(candScores + (<usize>pick << 2)))) pick = j;
    }
    if (pick < 0) break;
    const s = load<i32>(candScores + (<usize>pick << 2));
    above = s;
    const length = load<i32>(candLengths + (<usize>pick << 2));
    const e = entry(next, count);
    store<i32>(beamScores + (e << 2), s);
    store<i32>(beamLengths + (e << 2), length);
    memory.copy(beamLine(next, count), candLines + <usize>pick * lineBytes, <usize>length << 1);
    memory.copy(beamPolicy(next, count), beamPolicy(beamSide, load<i32>(candParents + (<usize>pick << 2))), tableBytes);
    adapt(beamPolicy(next, count), scratch(), beamLine(next, count), length);
    nodes++;
    spent += 2;
    count++;
  }
  beamSide = next;
  beamCount = count;
  beamAt = 0;
  candCount = 0;
  setIter(levels, iterOf(levels) + 1);
  if (iterOf(levels) >= iterations) {
    // The top level is done: restart it from an empty policy (the best line is kept).
    restarts++;
    resetLevels(levels);
    startBeam();
    spent++;
  }
  return spent;
}

/** Advances the search by about `budget` nodes; MORE (NRPA never ends: the top level restarts), or DONE after samegameNrpaOnce when the top level's run has ended. */
export function samegameNrpaRun(budget: i32): i32 {
  if (!ready) return BAD_INPUT;
  if (finished) return DONE;
  while (budget > 0) {
    // Copies of the policy down to level 1, before the next playout.
    if (copyFrom > 1) {
      memory.copy(policy(copyFrom - 1), copyFrom == levels ? topPolicy() : policy(copyFrom), tableBytes);
      copyFrom--;
      nodes++;
      budget--;
      continue;
    }
    let score = playout(policy(1));
    budget--;
    let from = playLine;
    let length = playLength;
    let l = 1;
    for (;;) {
      if (beam > 1 && l == levels - 1) keepChild(score, from, length);
      if (score >= bestOf(l)) {
        setBest(l, score);
        setLength(l, length);
        if (from != lineOf(l)) memory.copy(lineOf(l), from, <usize>length << 1);
        keepTrace(l - 1, l); // the line's trace goes with it (slot 0: the playout's)
      }
      // Stabilized NRPA (Cazenave, Sevestre and Toulemont 2021): level 1 plays `stable`
      // playouts with the same policy between adaptations (so `stable` × iterations in all).
      setIter(l, iterOf(l) + 1);
      if (l > 1 || iterOf(l) % stable == 0) {
        adapt(policy(l), l, lineOf(l), lengthOf(l));
        budget--;
      }
      if (iterOf(l) < (l == 1 ? iterations * stable : iterations)) break;
      if (beam > 1 && l == levels - 1) {
        // A run below the beam is done: its results are candidates; the next entry's run
        // starts, or the next beam is chosen.
        budget -= childDone();
        l = levels;
        break;
      }
      if (l == levels) {
        if (once) {
          finished = true;
          return DONE;
        }
        // The top level is done: restart it from an empty policy (the best line is kept).
        restarts++;
        emptyPolicy(policy(levels));
        resetLevels(levels);
        budget--;
        break;
      }
      score = bestOf(l);
      from = lineOf(l);
      length = lengthOf(l);
      l++;
    }
    // Level l goes on: the levels below it start new runs on copies of its policy.
    resetLevels(l - 1);
    copyFrom = l;
  }
  return MORE;
}

/** Writes the best line's clicks to the output region; returns how many (-1: none yet). */
export function samegameNrpaLine(): i32 {
  if (globalBest < 0) return -1;
  memory.copy(samegameOutputPtr(), globalLine, <usize>globalLength << 1);
  return globalLength;
}
