// Sliding-tile puzzles: type a board (or make a random one), solve it optimally or fast, and
// play the blank's moves back.
import { board, hint } from './board.js';
import { playback } from './playback.js';

const STEP = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };

/** A solvable random board: the goal scrambled by random blank moves (seeded, reproducible). */
function scrambled(rows, cols, seed) {
  const tiles = Array.from({ length: rows * cols }, (_, i) => (i + 1) % (rows * cols));
  let blank = tiles.length - 1;
  let state = seed >>> 0 || 1;
  for (let i = 0; i < 40 * rows * cols; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const [dr, dc] = Object.values(STEP)[state >>> 30];
    const r = Math.floor(blank / cols) + dr;
    const c = (blank % cols) + dc;
    if (r < 0 || r >= rows || c < 0 || c >= cols) continue;
    tiles[blank] = tiles[r * cols + c];
    tiles[r * cols + c] = 0;
    blank = r * cols + c;
  }
  return Array.from({ length: rows }, (_, r) => tiles.slice(r * cols, (r + 1) * cols).join(' ')).join('\n');
}

/** The tiles after each of the blank's moves: frames[k] is the board after k moves. */
function frames(result) {
  const out = [result.tiles];
  let tiles = result.tiles.slice();
  let blank = tiles.indexOf(0);
  for (const move of result.moves) {
    const [dr, dc] = STEP[move];
    const to = blank + dr * result.cols + dc;
    tiles = tiles.slice();
    tiles[blank] = tiles[to];
    tiles[to] = 0;
    blank = to;
    out.push(tiles);
  }
  return out;
}

export const slidingFamily = {
  id: 'sliding',
  title: 'Sliding tiles',
  presets: [
    { name: '8-puzzle: one of the two hardest (31 moves)', input: { text: '8 6 7\n2 5 4\n3 0 1', method: 'auto' } },
    { name: '15-puzzle, scrambled, optimal', input: { text: scrambled(4, 4, 5), method: 'optimal' } },
    { name: '10×10 scrambled, fast (constructive)', input: { text: scrambled(10, 10, 3), method: 'fast' } },
  ],

  editor(root, preset) {
    const text = document.createElement('textarea');
    text.rows = 10;
    text.spellcheck = false;
    text.value = preset.text;
    const method = document.createElement('select');
    for (const [value, label] of [['auto', 'auto (optimal up to 16 cells)'], ['optimal', 'optimal (IDA*)'], ['fast', 'fast (constructive)']]) {
      method.append(new Option(label, value));
    }
    method.value = preset.method;
    const methodLabel = document.createElement('label');
    methodLabel.append('method ', method);
    root.append(methodLabel, hint('One row per line, 0 or _ for the blank; the goal is 1, 2, … with the blank last.'), text);
    return {
      read: () => ({ text: text.value, method: method.value }),
      label: () => {
        const lines = text.value.trim().split('\n');
        return `${lines.length}×${lines[0].trim().split(/[\s,]+/).length}, ${method.value}`;
      },
    };
  },

  answer(result) {
    if (result.length === null) return `stopped: no solution is shorter than ${result.lowerBound} moves`;
    return `${result.length} moves${result.optimal ? ', optimal' : ` (constructive; at least ${result.lowerBound})`}`;
  },

  draw(root, result) {
    if (result.moves === null) return;
    const boards = frames(result);
    playback(
      root,
      boards.length,
      (k) =>
        board(result.cols, result.rows, (cell, x, y) => {
          const tile = boards[k][y * result.cols + x];
          cell.classList.add(tile ? 'tile' : 'blank');
          cell.textContent = tile ? String(tile) : '';
        }, 'sliding'),
      (k) => (k === 0 ? `start; ${boards.length - 1} moves to go` : `move ${k}: blank ${result.moves[k - 1]} (tile ${boards[k - 1][boards[k].indexOf(0)]} slides)`),
    );
  },
};
