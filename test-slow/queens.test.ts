// N-Queens counts that take seconds to minutes on a shared machine: run by `npm run test:slow`.
import { describe, expect, it } from 'vitest';
import { queens } from '../dist/index.js';
import { QUEENS } from '../test/data/known-results.js';

describe('N-Queens by start constellations (published figures)', () => {
  for (const n of [16, 17]) {
    it(`n = ${n}: total and distinct on every core`, async () => {
      const result = await queens.count(n);
      expect(result.total).toBe(QUEENS[n].total);
      expect(result.distinct).toBe(QUEENS[n].distinct);
    });
  }

  it('n = 16 on one thread, and the pure-TS twin on two, with the same nodes', async () => {
    const wasm = await queens.count(16, { threads: 1 });
    const twin = await queens.count(16, { threads: 2, engine: 'js' });
    for (const r of [wasm, twin]) {
      expect(r.total).toBe(QUEENS[16].total);
      expect(r.distinct).toBe(QUEENS[16].distinct);
    }
    expect(twin.stats.nodes).toBe(wasm.stats.nodes);
  });
});
