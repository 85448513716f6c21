import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The files whose tests hold the event loop and aborts to their tightest bounds, run alone
// after the others: beside another file on 2 cores blocking's worst stall (a sliding batch on
// 8 threads) reached its 250 ms bound once (148 ms alone); the pool's abort has 100 ms.
const TIMING = ['test/blocking.test.ts', 'test/pool.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // The 15-puzzle's default 7-8 databases take minutes to build: npm test uses 6-6-3 (test-slow the 7-8).
    env: { BITPUZZLE_PDB: '6-6-3' },
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: TIMING,
          // Two files at a time even on 2 cores, where vitest's default (cores - 1) runs one:
          // one at a time the suite took 490 s here, with this split 307 s.
          maxWorkers: Math.max(2, availableParallelism() - 1),
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'timing', include: TIMING, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
