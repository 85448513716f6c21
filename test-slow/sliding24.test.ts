// Slow checks of the 24-puzzle's IDA* (minutes on a shared machine; the 6-6-6-6 tables, 255 MB,
// take minutes to build the first time, in $BITPUZZLE_CACHE or ~/.cache/bitpuzzle): run by
// `npm run test:slow`, in a file of its own (vitest may run it beside the 15-puzzle's).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sliding } from '../dist/index.js';

const korf24 = sliding.parseBatch(readFileSync(new URL('../test/data/korf24.txt', import.meta.url), 'utf8'));

describe("Korf & Felner's 24-puzzles (6-6-6-6 pattern databases)", () => {
  it('#40 (82 moves) solved, with the same moves and nodes on one thread and on two; #25 (81) on two', async () => {
    const { board, expected } = korf24[39];
    // Two threads first: on a machine without the tables, they build them two at a time.
    const two = await sliding.solve(board, { goal: 'korf', method: 'optimal', threads: 2 });
    const one = await sliding.solve(board, { goal: 'korf', method: 'optimal' });
    expect([one.length, one.optimal, one.patterns]).toEqual([expected, true, '6-6-6-6']);
    expect(one.stats.nodes).toBe(65_099_579n); // tables that follow the blank, mirrored lookup (the C yardstick agrees)
    expect(sliding.isSolution(board, one.moves!, sliding.toGoal('korf', 5, 5))).toBe(true);
    expect(two.moves).toBe(one.moves);
    expect(two.stats.nodes).toBe(one.stats.nodes);
    const hard = await sliding.solve(korf24[24].board, { goal: 'korf', method: 'optimal', threads: 2 });
    expect([hard.length, hard.optimal]).toEqual([korf24[24].expected, true]);
    expect(hard.stats.nodes).toBe(292_174_445n);
  }, 1_800_000); // the first build of the 5×5 tables: minutes

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
