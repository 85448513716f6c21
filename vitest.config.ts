import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // The 15-puzzle's default 7-8 databases take minutes to build: npm test uses 6-6-3 (test-slow the 7-8).
    env: { BITPUZZLE_PDB: '6-6-3' },
  },
});
