// SameGame for score: a beam search valued by Monte-Carlo. Each layer keeps the `width`
// children of its positions whose evaluation is best (positions reached twice only once):
// the best score of a few random playouts from the child, or (level 1) of a nested Monte-Carlo
// search of level 1 from it, so that width 1 at level 1 is a nested search of level 2.
// A child already valued in the layer (reached from another parent) is not valued again, and
// one whose first playout falls well short of the beam gets no more.
// Playouts avoid a colour (the tabu colour) while any other group is left, so that colour can
// gather into one big group: the colour with the most blocks where each playout starts, or
// (startTabu) the one with the most on the start board, all through the game (of equals, the
// one in the fewest groups). Neither rule wins on every board, so the host gives its threads
// different ones. Every line that ends
// - a child without moves, or a playout's - is a real game; the best one is the answer.
// The search is deterministic for a width, level and seed; the host widens the beam while
// time remains.
import { xorshift64 } from '../shared/random';
import { DONE, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaAlloc } from '../shared/bits';
import {
  prepareBoards, loadInput, listMoves, play, playFast, boardBytes, moveCell, scoreOf, hashOf,
  columnsOf, heightOf, colourAt, mostBlocks, mostBlocksGathered, inGroup, height, lastFirstColumn, lastLastColumn, markGroup, marked, samegameOutputPtr,
} from './samegame';
import { bitsFit, bitsLoad, bitsScore, bitsMostBlocks, bitsPick, bitsSeed, bitsCell, bitsSave, bitsRestore, bitsClick, BITS_STATE_BYTES, bitsColourAt, bitsGroup, bitsRemove } from './bitboards';

// Heap entries: evaluation i32, tie-break u32, the board slot u16, the clicked cell u16,
// the parent's index in its layer u32.
const H_EVAL: usize = 0;
const H_TIE: usize = 4;
const H_SLOT: usize = 8;
const H_CELL: usize = 10;
const H_PARENT: usize = 12;

// A slot: a board, then the score of the best line known through it and that line's clicks
// after it, so that the best line is never lost from the beam (as in nested search).
let slotBytes: usize = 0;
@inline function lineValueAt(slot: usize): usize { return slot + boardBytes; }
@inline function lineLengthAt(slot: usize): usize { return slot + boardBytes + 4; }
@inline function lineAt(slot: usize): usize { return slot + boardBytes + 8; }

const TRIES = 24; // random picks before a scan
let beamWidth: i32 = 0;
let level = 0; // how children are valued: 0 playouts, 1 a nested search of level 1
let samples = 1; // at level 0, the best of this many playouts values a child
let tabu = 1; // the colour playouts avoid
let startTabu = 0; // the colour every playout holds back (fixedTabu); 0: each playout's own
let onBits = false; // playouts on bitboards (boards that fit them)
// On bitboards: the parent being expanded, and the child being valued (its playouts start
// from a copy of it, made from the parent's by the child's click).
let parentBits: usize = 0;
let childBits: usize = 0;
let childReady = false; // childBits holds the child in `scratch`
let childCell = -1; // the click from the parent to the child in `scratch`
let current: usize = 0; // boards of the layer being expanded, by slot
let following: usize = 0; // boards of the children kept, by slot
let order: usize = 0; // u16 per node of the current layer: its slot
let heap: usize = 0;
let heapSize: i32 = 0;
let history: usize = 0; // per layer and node: parent u32, cell u32
let seen: usize = 0; // hashes of the positions kept in the layer being built
let seenMask: u32 = 0;
let childSeen: usize = 0; // hashes of the children evaluated in the layer being expanded
let childMask: u32 = 0;
let childrenNoted: u32 = 0; // entries in childSeen
let roll: usize = 0;
let nestCur: usize = 0;
let nestNext: usize = 0;
let nestMoves: usize = 0;
let nestLine: usize = 0;
let playLine: usize = 0; // the clicks of the last playout
let spareLine: usize = 0; // the clicks of a playout that may beat playLine's
let playLength = 0;
let bestTail: usize = 0; // the clicks after bestCell of the best line
let bestTailLength = 0;
let scratch: usize = 0; // the child being evaluated
let candidates: usize = 0; // a playout's blocks in groups not of the tabu colour, in board order
let tabuTop: usize = 0; // the end of the list of those of the tabu colour (stored downwards)
let tail: usize = 0; // relist's saved entries
let others = 0;
let tabus = 0;
let cells: usize = 0; // the moves of the parent being expanded
let layer: i32 = 0;
let layerSize: i32 = 0;
let parent: i32 = 0;
let child: i32 = -1; // the next child of the parent to evaluate; -1 before its moves are listed
let childCount: i32 = 0;
let heir: i32 = -1; // the child on the parent's best line
let maxLayers: i32 = 0;
let rng: u64 = 1;
let finished = true;
let complete = true; // no child was ever dropped: every line was followed
let beamNodes: u64 = 0;
let bestScore: i32 = -1;
let bestLayer: i32 = 0; // the line: node bestParent of layer bestLayer, then bestCell
let bestParent: i32 = 0;
let bestCell: i32 = -1;

// The layer change (clearing the tables of seen positions, keeping the children once each)
// takes milliseconds on a wide beam: it is done in pieces, each counted as one node of the
// budget, so that one run(budget) call stays short. `chore` is the step under way.
const CHORE_NONE = 0;
const CHORE_FORGET_CHILDREN = 1; // clearing childSeen
const CHORE_FORGET_SEEN = 2; // clearing seen (layer change only)
const CHORE_KEEP = 3; // heap entries to the next layer (layer change only)
// A piece costs about half a node (a playout, whose cost grows with the board's cells):
// cheaper pieces would let the host's budget grow during the chore to more nodes than fit in
// a slice after it, dearer ones would make a slice of chores long.
let clearPiece: usize = 0; // bytes cleared per piece: 256 a cell (about 25 µs on a 32×32 board)
let keepPiece: i32 = 0; // heap entries kept per piece: one per 8 cells
let chore = CHORE_NONE;
let choreAt: usize = 0; // bytes cleared or entries kept so far in the chore
let changingLayer = false; // the chores belong to a layer change (not to the start)
let keptSoFar = 0; // positions of the next layer kept so far

@inline function boardAt(base: usize, slot: i32): usize { return base + <usize>slot * slotBytes; }
@inline function heapAt(i: i32): usize { return heap + (<usize>i << 4); }
@inline function historyAt(l: i32, node: i32): usize { return history + ((<usize>l * <usize>beamWidth + <usize>node) << 3); }

export function samegameBeamNodes(): u64 { return beamNodes; }
export function samegameBeamScore(): i32 { return bestScore; }
/** The colour every playout of this run holds back (fixedTabu), or 0: each playout's own. */
export function samegameBeamTabu(): i32 { return startTabu; }
/** 1 when the finished search never dropped a child: its best score is the board's best. */
export function samegameBeamComplete(): i32 { return finished && complete ? 1 : 0; }

/** A random number in [0, n) (n ≥ 1). */
@inline function below(n: i32): i32 { return <i32>((<u64>random() * <u64>n) >> 32); }

function random(): u32 {
  rng = xorshift64(rng);
  return <u32>(rng >> 32);
}

/**
 * Starts a beam of `beam` positions on the board in INPUT, with random numbers drawn from
 * `seed`, its children valued by the best of `playouts` playouts (level 0) or by a nested
 * search of level 1 (level 1); `knownLength` clicks in the output region are a line known to score `knownScore`.
 * With `fixedTabu` 1 playouts avoid the start board's most common colour (of equals, the one in
 * the fewest groups), with 0 that of where they start.
 */
export function samegameBeamStart(w: i32, h: i32, beam: i32, seed: u32, nestedLevel: i32, playouts: i32, knownScore: i32, knownLength: i32, fixedTabu: i32): i32 {
  finished = true;
  if (beam < 1 || beam > 65536 || nestedLevel < 0 || nestedLevel > 1 || playouts < 1 || playouts > 64 || knownLength < 0 || knownLength > w * h / 2 || fixedTabu < 0 || fixedTabu > 1) return BAD_INPUT;
  level = nestedLevel;
  samples = playouts;
  const ready = prepareBoards(w, h);
  if (ready != DONE) return ready;
  beamWidth = beam;
  onBits = bitsFit(w, h);
  parentBits = arenaAlloc(<u64>BITS_STATE_BYTES);
  childBits = arenaAlloc(<u64>BITS_STATE_BYTES);
  childReady = false;
  childCell = -1;
  maxLayers = w * h / 2 + 2;
  clearPiece = <usize>(w * h) << 8;
  keepPiece = max(8, w * h / 8);
  let bits = 4;
  while ((1 << bits) < 2 * beam) bits++;
  seenMask = (1 << bits) - 1;
  slotBytes = (boardBytes + 8 + <usize>maxLayers * 2 + 15) & ~<usize>15;
  const bytes = <u64>slotBytes * <u64>beam;
  current = arenaAlloc(bytes);
  following = arenaAlloc(bytes);
  order = arenaAlloc(<u64>beam * 2);
  heap = arenaAlloc(<u64>beam * 16);
  history = arenaAlloc(<u64>maxLayers * <u64>beam * 8);
  seen = arenaAlloc(<u64>16 << <u64>bits);
  // Children: up to about 100 a position on a 15×15 board, most far fewer.
  let childBits = 10;
  while ((1 << childBits) < 128 * beam && childBits < 24) childBits++;
  childMask = (1 << childBits) - 1;
  childSeen = arenaAlloc(<u64>8 << <u64>childBits);
  scratch = arenaAlloc(<u64>boardBytes);
  cells = arenaAlloc(<u64>maxLayers * 2);
  roll = arenaAlloc(<u64>boardBytes);
  nestCur = arenaAlloc(<u64>boardBytes);
  nestNext = arenaAlloc(<u64>boardBytes);
  nestMoves = arenaAlloc(<u64>maxLayers * 2);
  nestLine = arenaAlloc(<u64>maxLayers * 2);
  playLine = arenaAlloc(<u64>maxLayers * 2);
  spareLine = arenaAlloc(<u64>maxLayers * 2);
  bestTail = arenaAlloc(<u64>maxLayers * 2);
  candidates = arenaAlloc(<u64>maxLayers * 4);
  tabuTop = candidates + (<usize>maxLayers << 2);
  tail = arenaAlloc(<u64>maxLayers * 8);
  if (current == 0 || following == 0 || order == 0 || heap == 0 || history == 0 || seen == 0 || childSeen == 0 || scratch == 0 || cells == 0 || candidates == 0 || tail == 0) {
    return OUT_OF_MEMORY;
  }
  const root = boardAt(current, 0);
  if (!loadInput(root)) return BAD_INPUT;
  startTabu = fixedTabu != 0 ? mostBlocksGathered(root) : 0;
  // A line known from an earlier run (its clicks in the output region) seeds the root, so
  // this run follows it and can only improve on it.
  store<i32>(lineValueAt(root), knownLength > 0 ? knownScore : -1);
  store<i32>(lineLengthAt(root), knownLength);
  memory.copy(lineAt(root), samegameOutputPtr(), <usize>knownLength << 1);
  rng = (<u64>seed << 1) | 0x9e3779b900000001;
  bitsSeed(rng * 0xbf58476d1ce4e5b9);
  store<u16>(order, 0);
  layer = 0;
  layerSize = 1;
  parent = 0;
  child = -1;
  heapSize = 0;
  beamNodes = 0;
  // childSeen is cleared by the first run calls (see chore).
  chore = CHORE_FORGET_CHILDREN;
  choreAt = 0;
  changingLayer = false;
  bestScore = -1;
  bestCell = -1;
  complete = true;
  finished = false;
  return DONE;
}

@inline function before(a: usize, b: usize): bool {
  const ea = load<i32>(a + H_EVAL);
  const eb = load<i32>(b + H_EVAL);
  return ea < eb || (ea == eb && load<u32>(a + H_TIE) < load<u32>(b + H_TIE));
}

function swapEntries(a: usize, b: usize): void {
  const x = load<u64>(a);
  const y = load<u64>(a + 8);
  store<u64>(a, load<u64>(b));
  store<u64>(a + 8, load<u64>(b + 8));
  store<u64>(b, x);
  store<u64>(b + 8, y);
}

function siftDown(i: i32): void {
  for (;;) {
    const l = 2 * i + 1;
    if (l >= heapSize) return;
    let m = l;
    if (l + 1 < heapSize && before(heapAt(l + 1), heapAt(l))) m = l + 1;
    if (!before(heapAt(m), heapAt(i))) return;
    swapEntries(heapAt(m), heapAt(i));
    i = m;
  }
}

function siftUp(i: i32): void {
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!before(heapAt(i), heapAt(p))) return;
    swapEntries(heapAt(i), heapAt(p));
    i = p;
  }
}

// A line that ends: the clicks to `node` of the current layer, `cell`, then the last
// playout's clicks (none when the child itself ends). Kept when it scores best so far.
function record(value: i32, node: i32, cell: i32): void {
  if (value <= bestScore) return;
  bestScore = value;
  bestLayer = layer;
  bestParent = node;
  bestCell = cell;
  bestTailLength = playLength;
  memory.copy(bestTail, playLine, <usize>playLength << 1);
}

// Evaluates the child in `scratch` (reached from `node` by `cell`) and keeps it if it is
// among the best `width` so far; a child with no move left ends a line and is scored.
function consider(node: i32, cell: i32, heir: bool, parentSlot: usize): void {
  beamNodes++;
  let value: i32;
  if (level == 0) {
    // A playout that makes no click is the child's own end (no group left).
    value = playout(scratch);
    if (playLength == 0) {
      record(value, node, cell);
      return;
    }
    // A child whose first playout falls well short (by more than a quarter) of the worst
    // child kept so far is not valued further: more playouts would seldom lift it into the
    // beam, and most children are such (the beam keeps one in 20 or so).
    const worstKept = load<i32>(heapAt(0) + H_EVAL);
    if (samples > 1 && heapSize == beamWidth && !heir && value < worstKept - (worstKept >> 2)) {
      record(value, node, cell);
      complete = false;
      return;
    }
    // More playouts into the spare line; the best one's clicks stay in playLine.
    for (let s = 1; s < samples; s++) {
      const bestLine = playLine;
      const bestLength = playLength;
      playLine = spareLine;
      spareLine = bestLine;
      const v = playout(scratch);
      if (v > value) {
        value = v;
      } else {
        spareLine = playLine;
        playLine = bestLine;
        playLength = bestLength;
      }
    }
  } else {
    if (listMoves(scratch) == 0) {
      playLength = 0;
      record(scoreOf(scratch), node, cell);
      return;
    }
    value = nested(scratch);
  }
  const known = load<i32>(lineValueAt(parentSlot));
  if (heir && known > value) {
    // The child on the parent's best line keeps that line.
    value = known;
    playLength = load<i32>(lineLengthAt(parentSlot)) - 1;
    memory.copy(playLine, lineAt(parentSlot) + 2, <usize>playLength << 1);
  }
  record(value, node, cell);
  const tie = random();
  let slot: i32;
  if (heapSize < beamWidth) {
    slot = heapSize;
    heapSize++;
  } else {
    const root = heapAt(0);
    const e = load<i32>(root + H_EVAL);
    complete = false;
    if (value < e || (value == e && tie <= load<u32>(root + H_TIE))) return;
    slot = <i32>load<u16>(root + H_SLOT);
    swapEntries(root, heapAt(heapSize - 1));
    heapSize--;
    siftDown(0);
    heapSize++;
  }
  const entry = heapAt(heapSize - 1);
  store<i32>(entry + H_EVAL, value);
  store<u32>(entry + H_TIE, tie);
  store<u16>(entry + H_SLOT, slot);
  store<u16>(entry + H_CELL, cell);
  store<u32>(entry + H_PARENT, node);
  const to = boardAt(following, slot);
  memory.copy(to, scratch, boardBytes);
  store<i32>(lineValueAt(to), value);
  store<i32>(lineLengthAt(to), playLength);
  memory.copy(lineAt(to), playLine, <usize>playLength << 1);
  siftUp(heapSize - 1);
}

// A random line from `from` that avoids the tabu colour while it can; its score.
// A group is found by picking random blocks until one has a neighbour of its colour (so
// bigger groups are likelier). When the picks keep failing, a scan lists the blocks in groups
// (in board order: others, and tabu-coloured ones apart), and from then on the lists are
// kept: after a click only the columns from the one left of the group on can change, so only
// they are scanned again.
function playout(from: usize): i32 {
  beamNodes++;
  if (onBits) return playoutBits(from);
  memory.copy(roll, from, boardBytes);
  let length = 0;
  tabu = startTabu != 0 ? startTabu : mostBlocks(roll);
  let listed = false;
  for (;;) {
    let cell = -1;
    if (!listed) {
      const cols = columnsOf(roll);
      for (let tries = 0; tries < TRIES && cols > 0; tries++) {
        const c = below(cols);
        const r = below(heightOf(roll, c));
        if (colourAt(roll, c * height + r) != tabu && inGroup(roll, c, r)) {
          cell = c * height + r;
          break;
        }
      }
      if (cell < 0) {
        listed = true;
        others = 0;
        tabus = 0;
        scanFrom(0);
      }
    }
    if (cell < 0) {
      if (others > 0) cell = <i32>load<u16>(candidates + (<usize>below(others) << 1));
      else if (tabus > 0) cell = <i32>load<u16>(tabuTop - (<usize>(1 + below(tabus)) << 1));
      else break;
    }
    store<u16>(playLine + (<usize>length << 1), cell);
    length++;
    const colsBefore = columnsOf(roll);
    playFast(roll, roll, cell);
    if (listed) relist(colsBefore);
  }
  playLength = length;
  return scoreOf(roll);
}

// playout() on a bitboard (bitboards.ts): a block picked uniformly among those in groups
// not of the tabu colour (of those of the tabu colour when there are none), its group removed.
function playoutBits(from: usize): i32 {
  if (from != scratch || childCell < 0) {
    bitsLoad(from);
  } else if (childReady) {
    bitsRestore(childBits);
  } else {
    bitsRestore(parentBits);
    bitsClick(childCell);
    bitsSave(childBits);
    childReady = true;
  }
  tabu = startTabu != 0 ? startTabu : bitsMostBlocks();
  let length = 0;
  for (;;) {
    const bit = bitsPick(tabu);
    if (bit < 0) break;
    const colour = bitsColourAt(bit);
    bitsRemove(colour, bitsGroup(bit, colour));
    store<u16>(playLine + (<usize>length << 1), bitsCell(bit));
    length++;
  }
  playLength = length;
  return bitsScore();
}

// Nested Monte-Carlo search of level 1 from `from`: at each step every move is tried with
// a playout, and the best line seen so far is followed one more step. Its score; its line
// in playLine.
function nested(from: usize): i32 {
  memory.copy(nestCur, from, boardBytes);
  let step = 0;
  let bestLength = 0;
  let best = -1;
  for (;;) {
    const moves = listMoves(nestCur);
    if (moves == 0) break;
    for (let i = 0; i < moves; i++) store<u16>(nestMoves + (<usize>i << 1), moveCell(i));
    for (let i = 0; i < moves; i++) {
      const cell = <i32>load<u16>(nestMoves + (<usize>i << 1));
      playFast(nestCur, nestNext, cell);
      const value = playout(nestNext);
      if (value <= best) continue;
      best = value;
      store<u16>(nestLine + (<usize>step << 1), cell);
      memory.copy(nestLine + (<usize>(step + 1) << 1), playLine, <usize>playLength << 1);
      bestLength = step + 1 + playLength;
    }
    playFast(nestCur, nestNext, <i32>load<u16>(nestLine + (<usize>step << 1)));
    const t = nestCur;
    nestCur = nestNext;
    nestNext = t;
    step++;
  }
  if (best < 0) best = scoreOf(nestCur); // no move at all from `from`
  memory.copy(playLine, nestLine, <usize>bestLength << 1);
  playLength = bestLength;
  return best;
}

// After a click on `roll` (which had `colsBefore` columns), brings the lists up to date: the
// columns from the one left of the group to the one right of it are scanned again; the
// entries right of them are kept, moved left by the columns that closed.
function relist(colsBefore: i32): void {
  const first = lastFirstColumn();
  const last = lastLastColumn();
  const lo = first > 0 ? first - 1 : 0;
  const hiOld = last + 1 < colsBefore ? last + 1 : colsBefore - 1;
  const closed = colsBefore - columnsOf(roll);
  const hiNew = hiOld - closed;
  const from = <u32>(lo * height);
  const to = <u32>((hiOld + 1) * height);
  const shift = <u32>(closed * height);
  // Others: entries [a, b) are replaced, [b, others) kept (saved to the tail buffer).
  let a = others;
  while (a > 0 && <u32>load<u16>(candidates + (<usize>(a - 1) << 1)) >= from) a--;
  let b = a;
  while (b < others && <u32>load<u16>(candidates + (<usize>b << 1)) < to) b++;
  const keptOthers = others - b;
  for (let i = 0; i < keptOthers; i++) {
    store<u16>(tail + (<usize>i << 1), <u32>load<u16>(candidates + (<usize>(b + i) << 1)) - shift);
  }
  let ta = tabus;
  while (ta > 0 && <u32>load<u16>(tabuTop - (<usize>ta << 1)) >= from) ta--;
  let tb = ta;
  while (tb < tabus && <u32>load<u16>(tabuTop - (<usize>(tb + 1) << 1)) < to) tb++;
  const keptTabus = tabus - tb;
  const tabuTail = tail + (<usize>keptOthers << 1);
  for (let i = 0; i < keptTabus; i++) {
    store<u16>(tabuTail + (<usize>i << 1), <u32>load<u16>(tabuTop - (<usize>(tb + i + 1) << 1)) - shift);
  }
  others = a;
  tabus = ta;
  scanColumns(lo, hiNew);
  for (let i = 0; i < keptOthers; i++) {
    store<u16>(candidates + (<usize>others << 1), load<u16>(tail + (<usize>i << 1)));
    others++;
  }
  for (let i = 0; i < keptTabus; i++) {
    tabus++;
    store<u16>(tabuTop - (<usize>tabus << 1), load<u16>(tabuTail + (<usize>i << 1)));
  }
}

// Adds the blocks in groups of `roll`'s columns from `first` on to the lists.
function scanFrom(first: i32): void {
  scanColumns(first, columnsOf(roll) - 1);
}

// Adds the blocks in groups of `roll`'s columns `first` to `last` to the lists.
function scanColumns(first: i32, last: i32): void {
  const cols = columnsOf(roll);
  let left = first > 0 ? heightOf(roll, first - 1) : 0;
  for (let c = first; c <= last; c++) {
    const h = heightOf(roll, c);
    const right = c + 1 < cols ? heightOf(roll, c + 1) : 0;
    const base = c * height;
    for (let r = 0; r < h; r++) {
      const cell = base + r;
      const v = colourAt(roll, cell);
      if (!((r + 1 < h && colourAt(roll, cell + 1) == v) || (r > 0 && colourAt(roll, cell - 1) == v)
        || (r < left && colourAt(roll, cell - height) == v) || (r < right && colourAt(roll, cell + height) == v))) continue;
      if (v == tabu) {
        tabus++;
        store<u16>(tabuTop - (<usize>tabus << 1), cell);
      } else {
        store<u16>(candidates + (<usize>others << 1), cell);
        others++;
      }
    }
    left = h;
  }
}


// True when the child in `scratch` was already evaluated in this layer (reached from another
// parent, by the same clicks in another order, with the same score): valuing it again would
// only repeat work. Otherwise it is noted. A full table notes no more.
function evaluatedBefore(): bool {
  const key = (hashOf(scratch) ^ (<u64>scoreOf(scratch) * 0x9e3779b97f4a7c15)) | 1;
  let at = <u32>key & childMask;
  for (;;) {
    const s = load<u64>(childSeen + (<usize>at << 3));
    if (s == key) return true;
    if (s == 0) break;
    at = (at + 1) & childMask;
  }
  if (childrenNoted * 2 < childMask) {
    store<u64>(childSeen + (<usize>at << 3), key);
    childrenNoted++;
  }
  return false;
}

// Clears the next piece of a table of `bytes` bytes at `table`; true when it is all clear.
function clearNext(table: usize, bytes: usize): bool {
  const piece = bytes - choreAt < clearPiece ? bytes - choreAt : clearPiece;
  memory.fill(table + choreAt, 0, piece);
  choreAt += piece;
  return choreAt == bytes;
}

// One piece of the chore under way. The pieces, in turn, do what one call did before: the
// search is the same however the budget cuts them.
function chorePiece(): void {
  if (chore == CHORE_FORGET_CHILDREN) {
    if (!clearNext(childSeen, (<usize>childMask + 1) << 3)) return;
    childrenNoted = 0;
    choreAt = 0;
    chore = changingLayer ? CHORE_FORGET_SEEN : CHORE_NONE;
  } else if (chore == CHORE_FORGET_SEEN) {
    if (!clearNext(seen, (<usize>seenMask + 1) << 4)) return;
    choreAt = 0;
    keptSoFar = 0;
    chore = CHORE_KEEP;
  } else {
    const end = <i32>choreAt + keepPiece < heapSize ? <i32>choreAt + keepPiece : heapSize;
    for (let i = <i32>choreAt; i < end; i++) keepChild(i);
    choreAt = <usize>end;
    if (end == heapSize) enterNextLayer();
  }
}

// The children kept become the next layer, each position once: the chores from clearing
// the tables on (see chorePiece).
function startNextLayer(): void {
  chore = CHORE_FORGET_CHILDREN;
  choreAt = 0;
  changingLayer = true;
}

// Heap entry `i` joins the next layer, unless its position is there already with a line at
// least as good.
function keepChild(i: i32): void {
  const entry = heapAt(i);
  const slot = <i32>load<u16>(entry + H_SLOT);
  const key = hashOf(boardAt(following, slot)) | 1;
  let at = <u32>key & seenMask;
  let node = keptSoFar;
  for (;;) {
    const s = load<u64>(seen + (<usize>at << 4));
    if (s == 0 || s == key) break;
    at = (at + 1) & seenMask;
  }
  const place = seen + (<usize>at << 4);
  if (load<u64>(place) == key) {
    // Reached twice: keep the copy with the better line.
    node = load<i32>(place + 8);
    const other = boardAt(following, <i32>load<u16>(order + (<usize>node << 1)));
    if (load<i32>(lineValueAt(boardAt(following, slot))) <= load<i32>(lineValueAt(other))) return;
  } else {
    store<u64>(place, key);
    store<i32>(place + 8, node);
    keptSoFar++;
  }
  store<u16>(order + (<usize>node << 1), slot);
  const h = historyAt(layer + 1, node);
  store<u32>(h, load<u32>(entry + H_PARENT));
  store<u32>(h + 4, load<u16>(entry + H_CELL));
}

function enterNextLayer(): void {
  const t = current;
  current = following;
  following = t;
  layer++;
  layerSize = keptSoFar;
  parent = 0;
  child = -1;
  heapSize = 0;
  chore = CHORE_NONE;
  changingLayer = false;
}

/** Expands at most `budget` children: MORE, or DONE when every line has ended. */
export function samegameBeamRun(budget: i32): i32 {
  if (finished) return DONE;
  while (budget > 0) {
    if (chore != CHORE_NONE) {
      chorePiece();
      budget--;
      continue;
    }
    if (parent == layerSize) {
      if (heapSize == 0) {
        finished = true;
        return DONE;
      }
      startNextLayer();
      continue;
    }
    const board = boardAt(current, <i32>load<u16>(order + (<usize>parent << 1)));
    if (child < 0) {
      const moves = listMoves(board);
      if (onBits) {
        bitsLoad(board);
        bitsSave(parentBits);
      }
      if (moves == 0 && layer == 0) {
        // The start board has no move: its own score is the answer.
        bestScore = scoreOf(board);
        bestTailLength = 0;
        bestCell = -1;
        finished = true;
        return DONE;
      }
      // consider() overwrites the move list: keep the cells.
      for (let i = 0; i < moves; i++) store<u16>(cells + (<usize>i << 1), moveCell(i));
      childCount = moves;
      child = 0;
      // The move that continues the parent's best line (its first click is any cell of that group).
      heir = -1;
      if (load<i32>(lineLengthAt(board)) > 0) {
        markGroup(board, <i32>load<u16>(lineAt(board)));
        for (let i = 0; i < moves && heir < 0; i++) if (marked(<i32>load<u16>(cells + (<usize>i << 1)))) heir = i;
      }
    }
    if (child == childCount) {
      parent++;
      child = -1;
      continue;
    }
    const cell = <i32>load<u16>(cells + (<usize>child << 1));
    child++;
    const before = beamNodes;
    play(board, scratch, cell);
    childCell = cell;
    childReady = false;
    if (child - 1 != heir && evaluatedBefore()) {
      beamNodes++;
    } else {
      consider(parent, cell, child - 1 == heir, board);
    }
    budget -= <i32>(beamNodes - before);
  }
  return MORE;
}

/** Writes the best line's clicks to the output region; returns how many (-1: none yet). */
export function samegameBeamLine(): i32 {
  if (bestScore < 0) return -1;
  if (bestCell < 0) return 0;
  const length = bestLayer + 1 + bestTailLength;
  const out = samegameOutputPtr();
  memory.copy(out + (<usize>(bestLayer + 1) << 1), bestTail, <usize>bestTailLength << 1);
  store<u16>(out + (<usize>bestLayer << 1), bestCell);
  let node = bestParent;
  for (let l = bestLayer; l > 0; l--) {
    const h = historyAt(l, node);
    store<u16>(out + (<usize>(l - 1) << 1), <u16>load<u32>(h + 4));
    node = <i32>load<u32>(h);
  }
  return length;
}
