// N-Queens counted by joining half-boards (method 'join', assembly/queens/join.ts and its twin):
// the published counts, the same answer however the work is cut, memory limits, bad parts.
import { describe, expect, it } from 'vitest';
import { queens } from '../dist/index.js';
import { joinParts, runQueensTask } from '../dist/queens/tasks.js';
import { taskKind } from '../dist/parallel/kinds.js';
import { QUEENS } from './data/known-results.js';
import { expectAbortedPromptly, rejection } from './helpers.js';

const answer = (r: { total: bigint; distinct: bigint | null; stats: { nodes: bigint } }) => [r.total, r.distinct, r.stats.nodes];

describe('the join against the published figures', () => {
  for (let n = 1; n <= 16; n++) {
    it(`n = ${n}: total and distinct by both methods (wasm), the join's twin the same nodes`, async () => {
      const join = await queens.count(n, { threads: 1, method: 'join' });
      expect([join.total, join.distinct]).toEqual([QUEENS[n].total, QUEENS[n].distinct]);
      // Boards under 5 are searched row by row whatever the method.
      expect(join.method).toBe(n < 5 ? 'rows' : 'join');
      const constellations = await queens.count(n, { threads: 1, method: 'constellations' });
      expect([constellations.total, constellations.distinct]).toEqual([QUEENS[n].total, QUEENS[n].distinct]);
      expect(constellations.method).toBe(n < 5 ? 'rows' : 'constellations');
      if (n <= 13) {
        const twin = await queens.count(n, { threads: 1, method: 'join', engine: 'js' });
        expect(answer(twin)).toEqual(answer(join));
      }
    });
  }

  it('n = 17 on two threads', async () => {
    const result = await queens.count(17, { threads: 2, method: 'join' });
    expect([result.total, result.distinct]).toEqual([QUEENS[17].total, QUEENS[17].distinct]);
  });

  it('is the default from n = 16, the constellations below', async () => {
    expect((await queens.count(16, { threads: 1, shard: '1/64' })).method).toBe('join');
    expect((await queens.count(15, { threads: 1 })).method).toBe('constellations');
  });
});

describe('the same answer however the join is cut', () => {
  it('1 and 2 threads, every shard split, both engines: equal totals and nodes', async () => {
    for (const engine of ['wasm', 'js'] as const) {
      const n = engine === 'wasm' ? 14 : 12;
      const one = await queens.count(n, { threads: 1, method: 'join', engine });
      const two = await queens.count(n, { threads: 2, method: 'join', engine });
      expect(answer(two)).toEqual(answer(one));
      expect(one.total).toBe(QUEENS[n].total);
      for (const count of [2, 3, 7]) {
        let total = 0n;
        let nodes = 0n;
        for (let index = 1; index <= count; index++) {
          const shard = await queens.count(n, { threads: 1, method: 'join', engine, shard: { index, count } });
          expect(shard.distinct).toBeNull(); // not a sum over parts: only a whole count has it
          total += shard.total;
          nodes += shard.stats.nodes;
        }
        expect([total, nodes]).toEqual([one.total, one.stats.nodes]);
      }
    }
  });

  it('a shard is the same part of the work whatever the threads (so shards from several machines add up)', async () => {
    const shards = [];
    for (const threads of [1, 2, 3]) {
      const shard = await queens.count(16, { threads, method: 'join', shard: '5/7' });
      shards.push([shard.total, shard.stats.nodes, shard.stats.parts]);
    }
    expect(shards[1]).toEqual(shards[0]);
    expect(shards[2]).toEqual(shards[0]);
    expect(shards[0][0]).toBeGreaterThan(0n);
  });

  it('every cut into parts of rows decided counts each solution once (n = 11 and 12, odd and even)', async () => {
    for (const n of [11, 12]) {
      for (const want of [1, 2, 5, 40, 300]) {
        const { prefix, rows } = joinParts(n, want);
        let total = 0n;
        for (const mask of rows) {
          const result = await runQueensTask({ engine: 'wasm', n, join: { prefix, rows: [mask] }, maxMemory: 2 ** 30 });
          total += result.total;
        }
        expect(total).toBe(QUEENS[n].total);
      }
    }
  });

  it('parts from outside may decide every row, or all but the last (n = 8 and 9, both engines)', async () => {
    // joinParts stops at half the rows; a queue part may go further, down to a leaf.
    for (const n of [8, 9]) {
      for (const prefix of [n - 1, n]) {
        for (const engine of ['wasm', 'js'] as const) {
          let total = 0n;
          for (let mask = 0; mask < 2 ** prefix; mask++) {
            const east = mask.toString(2).split('1').length - 1;
            if ((n % 2 === 0 && (mask & 1) === 0) || east > n - (n >> 1) || prefix - east > n >> 1) continue;
            total += (await runQueensTask({ engine, n, join: { prefix, rows: [mask] }, maxMemory: 2 ** 30 })).total;
          }
          expect(total).toBe(QUEENS[n].total);
        }
      }
    }
  });

  it('the Wasm engine and the twin agree part by part (n = 13)', async () => {
    const { prefix, rows } = joinParts(13, 50);
    for (const mask of rows) {
      const task = { n: 13, join: { prefix, rows: [mask] }, maxMemory: 2 ** 30 };
      const wasm = await runQueensTask({ ...task, engine: 'wasm' });
      const js = await runQueensTask({ ...task, engine: 'js' });
      expect([js.total, js.nodes]).toEqual([wasm.total, wasm.nodes]);
    }
  });
});

describe('limits and bad input', () => {
  it('a maxMemory the join does not fit falls back to the constellations, or is OUT_OF_MEMORY when the join is asked for', async () => {
    const small = { threads: 1, maxMemory: 2 ** 20, shard: '1/200' };
    const fallback = await queens.count(18, small);
    expect(fallback.method).toBe('constellations');
    for (const engine of ['wasm', 'js'] as const) {
      const error = await rejection(queens.count(18, { ...small, method: 'join', engine }));
      expect(error.code).toBe('OUT_OF_MEMORY');
      expect(error.message).toMatch(/the N-Queens join needs more than maxMemory \(1048576 bytes\)/);
    }
  });

  it('refuses a method it does not know, a method for a board with queens, and a join past n = 22', async () => {
    const bad = async (call: Promise<unknown>, message: RegExp) => {
      const error = await rejection(call);
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toMatch(message);
    };
    await bad(queens.count(8, { method: 'dancing' as never }), /method must be 'join' or 'constellations', got "dancing"/);
    await bad(queens.count({ n: 8, queens: [[0, 0]] }, { method: 'join' }), /a board with queens is searched row by row/);
    await bad(queens.count(23, { method: 'join' }), /the join counts boards up to n = 22, got n = 23/);
  });

  it('checks a part from outside before any engine sees it', () => {
    const kind = taskKind('queens');
    const good = { engine: 'wasm', n: 12, join: { prefix: 3, rows: [1, 3, 5] }, maxMemory: 2 ** 30 };
    expect(kind.check(good)).toEqual(good);
    const refused = (part: unknown, message: RegExp) => expect(() => kind.check(part)).toThrow(message);
    refused({ ...good, n: 23 }, /n must be an integer from 5 to 22/);
    refused({ ...good, join: { prefix: 0, rows: [1] } }, /join.prefix must be an integer from 1 to 12/);
    refused({ ...good, join: { prefix: 3, rows: [9] } }, /join.rows\[0\] must be an integer from 0 to 7/);
    refused({ ...good, join: { prefix: 3, rows: [2] } }, /join.rows\[0\] leaves row 0 west/);
    refused({ ...good, join: { prefix: 8, rows: [15, 127] } }, /join.rows\[1\] puts more rows on one side than it has columns \(6 east, 6 west\)/);
    refused({ ...good, join: { prefix: 3, rows: [1], extra: 1 } }, /join has an unknown field "extra"/);
  });

  it('an abort stops a join on the calling thread promptly, both engines', async () => {
    for (const engine of ['wasm', 'js'] as const) {
      await expectAbortedPromptly((signal) => queens.count(20, { threads: 1, method: 'join', engine, signal }), 300);
    }
  });
});
