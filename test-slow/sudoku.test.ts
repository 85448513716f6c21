// Every one of the 49,158 known 17-clue Sudoku (Royle's list and later finds) has exactly one
// solution: the batch proves each unique, on two threads, and every solution is checked here.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sudoku } from '../dist/index.js';

/** Whether `solution` (81 digits) is a valid grid that keeps every given of `puzzle`. */
function solves(puzzle: string, solution: string): boolean {
  if (!/^[1-9]{81}$/.test(solution)) return false;
  for (let i = 0; i < 81; i++) if (puzzle[i] !== '.' && puzzle[i] !== '0' && puzzle[i] !== solution[i]) return false;
  for (let u = 0; u < 9; u++) {
    let row = 0;
    let col = 0;
    let box = 0;
    for (let k = 0; k < 9; k++) {
      row |= 1 << Number(solution[u * 9 + k]);
      col |= 1 << Number(solution[k * 9 + u]);
      box |= 1 << Number(solution[(3 * Math.floor(u / 3) + Math.floor(k / 3)) * 9 + 3 * (u % 3) + (k % 3)]);
    }
    if (row !== 0x3fe || col !== 0x3fe || box !== 0x3fe) return false;
  }
  return true;
}

describe('Sudoku: the 17-clue puzzles', () => {
  it('all 49,158 have exactly one solution, each valid and keeping its 17 givens', async () => {
    const text = gunzipSync(readFileSync(new URL('../test/data/sudoku/17-clue.txt.gz', import.meta.url))).toString('utf8');
    const result = await sudoku.batch(text, { threads: 2 });
    expect(result).toMatchObject({ puzzles: 49158, unique: 49158, none: 0, multiple: 0, invalid: 0 });
    const lines = text.split('\n');
    for (const answer of result.results) {
      const puzzle = lines[answer.line - 1].slice(0, 81);
      expect(puzzle.replace(/[.0]/g, '')).toHaveLength(17);
      expect(solves(puzzle, answer.solution!), `line ${answer.line}`).toBe(true);
    }
    // The TS twin agrees on a share of them, node for node.
    const share = lines.filter((line) => /^[0-9.]{81}/.test(line)).slice(0, 5000);
    const [wasm, js] = await Promise.all([sudoku.batch(share, { threads: 1 }), sudoku.batch(share, { threads: 1, engine: 'js' })]);
    expect(js.results).toEqual(wasm.results);
  });
});
