// N-Queens counts that take seconds to minutes on a shared machine: run by `npm run test:slow`.
import { describe, expect, it } from 'vitest';
import { queens } from '../dist/index.js';
import { QUEENS } from '../test/data/known-results.js';

describe('N-Queens by start constellations (published figures)', () => {
  for (const n of [16, 17]) {
    it(`n = ${n}: total and distinct on every core`, async () => {
      const result = await queens.count(n, { method: 'constellations' });
      expect(result.total).toBe(QUEENS[n].total);
      expect(result.distinct).toBe(QUEENS[n].distinct);
    });
  }

  it('n = 16 on one thread, and the pure-TS twin on two, with the same nodes', async () => {
    const wasm = await queens.count(16, { threads: 1, method: 'constellations' });
    const twin = await queens.count(16, { threads: 2, engine: 'js', method: 'constellations' });
    for (const r of [wasm, twin]) {
      expect(r.total).toBe(QUEENS[16].total);
      expect(r.distinct).toBe(QUEENS[16].distinct);
    }
    expect(twin.stats.nodes).toBe(wasm.stats.nodes);
  });
});

describe('N-Queens by joining half-boards (published figures)', () => {
  it('n = 18 on every core, the default method there', async () => {
    const result = await queens.count(18);
    expect(result.method).toBe('join');
    expect([result.total, result.distinct]).toEqual([QUEENS[18].total, QUEENS[18].distinct]);
  });

  it('n = 16 and 17 by the join on one thread; the twin on two threads with the same nodes', async () => {
    for (const n of [16, 17]) {
      const wasm = await queens.count(n, { threads: 1, method: 'join' });
      expect([wasm.total, wasm.distinct]).toEqual([QUEENS[n].total, QUEENS[n].distinct]);
    }
    const wasm = await queens.count(15, { threads: 1, method: 'join' });
    const twin = await queens.count(15, { threads: 2, method: 'join', engine: 'js' });
    expect([twin.total, twin.distinct]).toEqual([QUEENS[15].total, QUEENS[15].distinct]);
    expect(twin.stats.nodes).toBe(wasm.stats.nodes);
  });
});
