// Moves and pictures: the blank's moves as letters U D L R, the tiles they slide, replays.
import { badInput, describeValue } from '../errors.js';
import { toBoard, toGoal, type Board, type BoardInput, type GoalInput } from './parse.js';

/** Checks a moves argument: a string of letters (each checked where it is played). */
function checkMoves(moves: unknown): string {
  if (typeof moves !== 'string') throw badInput(`moves are a string of the letters U, D, L and R, got ${describeValue(moves)}`);
  return moves;
}

/** Engine direction codes 0..3 as letters: the blank moves up, left, right, down. */
export const LETTERS = 'ULRD';

/** Engine codes to letters. */
export function movesToLetters(codes: ArrayLike<number>): string {
  let out = '';
  const CHUNK = 8192;
  for (let i = 0; i < codes.length; i += CHUNK) {
    const end = Math.min(codes.length, i + CHUNK);
    const part: number[] = new Array(end - i);
    for (let j = i; j < end; j++) part[j - i] = LETTER_CODES[codes[j]];
    out += String.fromCharCode(...part);
  }
  return out;
}
const LETTER_CODES = [...LETTERS].map((l) => l.charCodeAt(0));

/** The board after the blank's moves; BAD_INPUT when a move leaves the board or is not a letter. */
export function applyMoves(input: BoardInput, moves: string): Board {
  const board = toBoard(input);
  checkMoves(moves);
  const tiles = board.tiles.slice();
  const { cols } = board;
  let blank = tiles.indexOf(0);
  for (let i = 0; i < moves.length; i++) {
    const to = step(blank, moves[i], board.rows, cols);
    if (to < 0) throw badInput(`move ${i + 1} (${moves[i]}) takes the blank off the board`);
    tiles[blank] = tiles[to];
    tiles[to] = 0;
    blank = to;
  }
  return { rows: board.rows, cols, tiles };
}

function step(blank: number, move: string, rows: number, cols: number): number {
  const r = Math.floor(blank / cols);
  const c = blank % cols;
  if (move === 'U') return r > 0 ? blank - cols : -1;
  if (move === 'D') return r < rows - 1 ? blank + cols : -1;
  if (move === 'L') return c > 0 ? blank - 1 : -1;
  if (move === 'R') return c < cols - 1 ? blank + 1 : -1;
  return -1;
}

/** The tile each move slides (the tile in the cell the blank moves into). */
export function tilesMoved(input: BoardInput, moves: string): number[] {
  const board = toBoard(input);
  checkMoves(moves);
  const tiles = board.tiles.slice();
  let blank = tiles.indexOf(0);
  const out: number[] = new Array(moves.length);
  for (let i = 0; i < moves.length; i++) {
    const to = step(blank, moves[i], board.rows, board.cols);
    if (to < 0) throw badInput(`move ${i + 1} (${moves[i]}) takes the blank off the board`);
    out[i] = tiles[to];
    tiles[blank] = tiles[to];
    tiles[to] = 0;
    blank = to;
  }
  return out;
}

export function sameTiles(a: Board, b: Board): boolean {
  return a.rows === b.rows && a.cols === b.cols && a.tiles.every((t, i) => t === b.tiles[i]);
}

/**
 * True when the moves take the board to the goal (default: 1..MN-1, blank last); false when
 * they do not, or when a move leaves the board or is not a letter U D L R. A malformed board,
 * goal or moves argument is BAD_INPUT. Synchronous: checking the boards holds the thread about
 * 70 ms a million cells, besides the moves.
 */
export function isSolution(input: BoardInput, moves: string, goalInput: GoalInput = 'default'): boolean {
  const board = toBoard(input);
  const goal = toGoal(goalInput, board.rows, board.cols);
  checkMoves(moves);
  const tiles = board.tiles.slice();
  let blank = tiles.indexOf(0);
  for (let i = 0; i < moves.length; i++) {
    const to = step(blank, moves[i], board.rows, board.cols);
    if (to < 0) return false;
    tiles[blank] = tiles[to];
    tiles[to] = 0;
    blank = to;
  }
  return sameTiles({ rows: board.rows, cols: board.cols, tiles }, goal);
}

/** The board as aligned rows, the blank as _. */
export function picture(input: BoardInput): string {
  const board = toBoard(input);
  const width = String(board.rows * board.cols - 1).length;
  const lines: string[] = [];
  for (let r = 0; r < board.rows; r++) {
    const row: string[] = [];
    for (let c = 0; c < board.cols; c++) {
      const t = board.tiles[r * board.cols + c];
      row.push((t === 0 ? '_' : String(t)).padStart(width));
    }
    lines.push(row.join(' '));
  }
  return lines.join('\n');
}

/** Every board along the solution, each under the move that made it. */
export function playback(input: BoardInput, moves: string): string {
  const board = toBoard(input);
  checkMoves(moves);
  const frames = [`start\n${picture(board)}`];
  let current = board;
  for (let i = 0; i < moves.length; i++) {
    current = applyMoves(current, moves[i]);
    frames.push(`${i + 1}: ${moves[i]}\n${picture(current)}`);
  }
  return frames.join('\n\n');
}

/** Moves that undo `moves` (reversed, each direction turned round). */
export function inverseMoves(moves: string): string {
  const opposite: Record<string, string> = { U: 'D', D: 'U', L: 'R', R: 'L' };
  let out = '';
  for (let i = moves.length - 1; i >= 0; i--) out += opposite[moves[i]];
  return out;
}
