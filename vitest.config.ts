import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // Two files at a time even on 2 cores, where vitest's default (cores - 1) runs one: one at a
    // time the suite took 490 s here, two at a time 285 s (183% of the 2 cores), with every
    // event-loop and abort bound of the timing tests still held (blocking.test.ts's worst stall
    // 156 ms beside another file, 148 ms alone; the bound is 250).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The 15-puzzle's default 7-8 databases take minutes to build: npm test uses 6-6-3 (test-slow the 7-8).
    env: { BITPUZZLE_PDB: '6-6-3' },
  },
});
