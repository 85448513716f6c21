// Notation: a jump is `from-to` (`d2-d4`), a move (a chain of jumps by one peg) lists every
// hole the peg lands on (`d2-d4-f4`); positions print as board pictures.
import { BitpuzzleError, badInput, describeValue, isDenseArray } from '../errors.js';
import { checkBoard, checkPosition, positionPicture, type Board } from './board.js';

/** Checks a list of jump names (`d2-d4`). */
function checkJumpNames(jumps: unknown): readonly string[] {
  if (!isDenseArray(jumps) || !jumps.every((jump) => typeof jump === 'string')) {
    throw badInput(`jumps are a list of names like "d2-d4", got ${describeValue(jumps)}`);
  }
  return jumps;
}

/** Jumps as `from-to` names. */
export function jumpNames(board: Board, jumps: ReadonlyArray<readonly [number, number, number]>): string[] {
  checkBoard(board);
  const hole = (i: unknown): boolean => Number.isInteger(i) && (i as number) >= 0 && (i as number) < board.holes.length;
  if (!isDenseArray(jumps) || !jumps.every((jump) => isDenseArray(jump) && jump.length === 3 && jump.every(hole))) {
    throw badInput(`jumps are [from, over, to] hole indices from 0 to ${board.holes.length - 1}, got ${describeValue(jumps)}`);
  }
  return jumps.map(([from, , to]) => `${board.holes[from].name}-${board.holes[to].name}`);
}

/** Consecutive jumps by the same peg (each starting where the last one landed) make one move. */
export function groupMoves(jumps: readonly string[]): string[] {
  checkJumpNames(jumps);
  const moves: string[] = [];
  let landed = '';
  for (const jump of jumps) {
    const [from, to] = jump.split('-');
    if (moves.length && from === landed) moves[moves.length - 1] += `-${to}`;
    else moves.push(jump);
    landed = to;
  }
  return moves;
}

/** The jumps of one move that turns position `a` into `b` (found by trying the chains). */
export function jumpsBetween(board: Board, a: bigint, b: bigint): string[] {
  const bit = (i: number): bigint => 1n << BigInt(i);
  const chain: Array<[number, number, number]> = [];
  const walk = (pos: bigint, peg: number): boolean => {
    if (pos === b) return true;
    for (const jump of board.jumps) {
      const [f, o, t] = jump;
      if (f !== peg || !(pos & bit(o)) || pos & bit(t)) continue;
      chain.push(jump);
      if (walk(pos ^ bit(f) ^ bit(o) ^ bit(t), t)) return true;
      chain.pop();
    }
    return false;
  };
  for (let h = 0; h < board.holes.length; h++) {
    if (a & bit(h) && walk(a, h)) return jumpNames(board, chain);
  }
  throw new BitpuzzleError('ENGINE_FAILURE', 'the engine returned two positions no move joins');
}

/** Replays jumps (`d2-d4` names) from a position: the positions after each, or an error naming the bad jump. */
export function replay(board: Board, start: bigint, jumps: readonly string[]): bigint[] {
  checkBoard(board);
  checkPosition(board, start, 'start');
  checkJumpNames(jumps);
  const byName = new Map(board.holes.map((h, i) => [h.name, i]));
  const out: bigint[] = [];
  let pos = start;
  jumps.forEach((jump, k) => {
    const [fromName, toName] = jump.split('-');
    const from = byName.get(fromName);
    const to = byName.get(toName);
    const triple = board.jumps.find(([f, , t]) => f === from && t === to);
    if (!triple) throw badInput(`jump ${k + 1} (${jump}) is not a jump of this board`);
    const [f, o, t] = triple.map((i) => 1n << BigInt(i));
    if (!(pos & f) || !(pos & o) || pos & t) throw badInput(`jump ${k + 1} (${jump}) is not legal here`);
    pos ^= f | o | t;
    out.push(pos);
  });
  return out;
}

/** The board after each move, as pictures. */
export function movePictures(board: Board, start: bigint, jumps: readonly string[]): string[] {
  const after = replay(board, start, jumps);
  const pictures = [positionPicture(board, start)];
  let k = 0;
  for (const move of groupMoves(jumps)) {
    k += move.split('-').length - 1;
    pictures.push(positionPicture(board, after[k - 1]));
  }
  return pictures;
}
