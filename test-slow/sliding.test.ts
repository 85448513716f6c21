// Slow checks of the sliding-tile IDA* (minutes on a shared machine; the 5×5 tables take several
// minutes to build the first time, 510 MB in $BITPUZZLE_CACHE or ~/.cache/bitpuzzle): run by
// `npm run test:slow`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sliding } from '../dist/index.js';

const korf100 = sliding.parseBatch(readFileSync(new URL('../test/data/korf100.txt', import.meta.url), 'utf8'));
const korf24 = sliding.parseBatch(readFileSync(new URL('../test/data/korf24.txt', import.meta.url), 'utf8'));

describe("Korf's 100 (6-6-3 pattern databases)", () => {
  it('all 100 at their published lengths, 92,332,529 nodes in all (a batch on two threads)', async () => {
    const results = await sliding.solveBatch(korf100.map((i) => i.board), { goal: 'korf', threads: 2 });
    expect(results.map((r) => r.length)).toEqual(korf100.map((i) => i.expected));
    expect(results.every((r) => r.optimal)).toBe(true);
    expect(results.reduce((sum, r) => sum + r.stats.nodes, 0n)).toBe(92_332_529n);
  });

  it('the hardest of them (by nodes) split over two threads: the same moves and nodes as one thread', async () => {
    for (const i of [22, 60, 88]) {
      const { board, expected } = korf100[i - 1];
      const one = await sliding.solve(board, { goal: 'korf' });
      const two = await sliding.solve(board, { goal: 'korf', threads: 2 });
      expect(one.length).toBe(expected);
      expect(two.moves).toBe(one.moves);
      expect(two.stats.nodes).toBe(one.stats.nodes);
    }
  });
});

describe("Korf & Felner's 24-puzzles (6-6-6-6 pattern databases)", () => {
  it('a node limit gives a lower bound no higher than the published length, and a path no shorter', async () => {
    for (const i of [1, 40]) {
      const { board, expected } = korf24[i - 1];
      const result = await sliding.solve(board, { goal: 'korf', method: 'optimal', nodeLimit: 5_000_000 });
      expect(result.optimal).toBe(false);
      expect(result.lowerBound).toBeLessThanOrEqual(expected!);
      expect(result.lowerBound % 2).toBe(expected! % 2);
      expect(result.length!).toBeGreaterThanOrEqual(expected!);
      expect(sliding.isSolution(board, result.moves!, sliding.toGoal('korf', 5, 5))).toBe(true);
    }
  });
});
