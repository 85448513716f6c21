// Peg solitaire, the count from both ends (meet.ts): the fewest moves (pegsMeetFewest). A
// pair's value is the fewest moves that reach its position and the marks of the sequences
// that take that few (see meet.ts); here, how two values combine, how a jump changes one (by
// the side's rule), the least image of a child with its marks, and where the sides met with
// the fewest moves in all.
import { get64 } from '../shared/words';
import { jumps, syms, full, jumpFlip, jumpImage, addChecked, jumpFrom, jumpLand } from './board';
import {
  total, fewest, landBits, landMask, valueOut, NO_MOVES, FROM_IMAGES, meetKey, meetStreamed, meetTable, meetSide, streamSide,
} from './meetState';

@inline function movesOf(value: u64): u64 { return (value >> landBits) - 1; }
@inline export function valueOf(moves: u64, landings: u64): u64 { return ((moves + 1) << landBits) | landings; }

/** Two values of one position: paths added, or the fewer moves (their landings joined when equal). */
@inline export function combine(a: u64, b: u64): u64 {
  if (!fewest) return addChecked(a, b);
  const movesA = a >> landBits, movesB = b >> landBits;
  return movesA < movesB ? a : movesB < movesA ? b : a | b;
}

/**
 * The moves after jump j from a position of this value on `side`: forward, a jump from a mark
 * (a landing) goes on with the move; backward, a jump onto a mark (a start).
 */
@inline export function movesAfter(value: u64, j: i32, side: i32): u64 {
  const hole = load<u32>((side == 0 ? jumpFrom : jumpLand) + (<usize>j << 2));
  return movesOf(value) + (((value >> <u64>hole) & 1) ^ 1);
}

/** The mark jump j leaves on `side` in the frame of image s (`parent`: the position's image s). */
@inline export function markOf(s: i32, j: i32, side: i32, parent: u64): u64 {
  return side == 0 ? get64(jumpImage, s * jumps + j) & ~parent : get64(FROM_IMAGES, s * jumps + j);
}

/**
 * Fewest moves: the two sides' values where they meet at lookup `key` (a, the streamed side's
 * value; b, the table's: both in key's frame); the total keeps the least, and where it was
 * met, for the host to find a solution through it.
 */
@inline export function meetValues(a: u64, b: u64, key: u64): void {
  const moves = movesOf(a) + movesOf(b) - <u64>((a & b & landMask) != 0);
  if (moves >= total) return;
  total = moves;
  meetKey = key;
  meetStreamed = a;
  meetTable = b;
  meetSide = streamSide();
}

/** Fewest moves: the forward position where the least total was met (0 before any meeting). */
export function pegsMeetMeetPosition(): u64 {
  return total == NO_MOVES ? 0 : meetSide == 0 ? meetKey ^ full : meetKey;
}
/** Fewest moves: the moves from the start to that position (side 0) or from it to a finish (1). */
export function pegsMeetMeetMoves(side: i32): i32 {
  if (total == NO_MOVES) return -1;
  return <i32>movesOf((side == meetSide) ? meetStreamed : meetTable);
}
/** Fewest moves: the holes where a fewest move into the position may land and one on from it start (the move goes on through it). */
export function pegsMeetMeetShared(): u64 {
  return total == NO_MOVES ? 0 : meetStreamed & meetTable & landMask;
}

/**
 * Fewest moves: the least image of the child by jump j of `pos` (its images from 1 up at
 * `imagesOf`), each image xor `flipAll` (0: the child's key; full: its complement's, for a
 * lookup), and in valueOut its value by `side`'s rule from `value`, the parent's, with the
 * marks of every image that is the least.
 */
@inline export function fewestChild(imagesOf: usize, pos: u64, j: i32, value: u64, side: i32, flipAll: u64): u64 {
  let least = pos ^ get64(jumpFlip, j) ^ flipAll;
  let marks = markOf(0, j, side, pos);
  for (let s = 1; s < syms; s++) {
    const parent = get64(imagesOf, s);
    const image = parent ^ get64(jumpImage, s * jumps + j) ^ flipAll;
    if (image < least) {
      least = image;
      marks = markOf(s, j, side, parent);
    } else if (image == least) marks |= markOf(s, j, side, parent);
  }
  valueOut = valueOf(movesAfter(value, j, side), marks);
  return least;
}
