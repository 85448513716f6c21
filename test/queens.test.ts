import { describe, expect, it } from 'vitest';
import { queens } from '../dist/index.js';
import { QUEENS } from './data/known-results.js';
import { constellations, isConstellation, rot90 } from '../dist/queens/constellations.js';
import { runQueensTask, splitTask } from '../dist/queens/tasks.js';
import { taskKind } from '../dist/parallel/kinds.js';
import {
  boardText,
  bruteForceSolutions,
  columnsOf,
  compareColumns,
  images,
  isValidSolution,
  key,
  random,
  randomPartialBoard,
} from './helpers.js';

describe('counting against the published figures', () => {
  // n >= 5 counts by start constellations; n = 15 is one part per constellation on one thread.
  for (let n = 1; n <= 15; n++) {
    it(`n = ${n}: total and distinct (wasm and pure-TS twin, the same nodes)`, async () => {
      const result = await queens.count(n, { threads: 1 });
      expect(result.total).toBe(QUEENS[n].total);
      expect(result.distinct).toBe(QUEENS[n].distinct);
      expect(result.stats.nodes).toBeGreaterThan(0n);
      const twin = await queens.count(n, { threads: 1, engine: 'js' });
      expect(twin.total).toBe(QUEENS[n].total);
      expect(twin.distinct).toBe(QUEENS[n].distinct);
      expect(twin.stats.nodes).toBe(result.stats.nodes);
    });
  }

  it('the row search (partial boards and n < 5) still counts empty boards exactly', async () => {
    // The same board given as "queens allowed everywhere" through a completion with no queens
    // is the constellation path; the row search is checked through its distinct mode here.
    for (let n = 1; n <= 9; n++) {
      const reps = await columnsOf(queens.solutions(n, { distinct: true }));
      expect(BigInt(reps.length)).toBe(QUEENS[n].distinct);
    }
  });

  it('n = 15 on two worker threads: runs of constellations, progress counted in constellations', async () => {
    const seen: Array<{ done: number; total: number }> = [];
    const result = await queens.count(15, { threads: 2, onProgress: (p) => seen.push(p) });
    expect(result.total).toBe(QUEENS[15].total);
    expect(result.distinct).toBe(QUEENS[15].distinct);
    expect(result.stats.threads).toBe(2);
    const list = await constellations(15);
    const run = Math.floor(list.length / 128);
    expect(result.stats.parts).toBe(Math.ceil(list.length / run));
    expect(seen[0]).toEqual({ done: 0, total: list.length });
    expect(seen.at(-1)).toEqual({ done: list.length, total: list.length });
    for (let i = 1; i < seen.length; i++) expect(seen[i].done).toBeGreaterThan(seen[i - 1].done);
    // On one thread, runs of constellations too (about 64); on shards, one constellation a part.
    const one = await queens.count(15, { threads: 1, shard: '1/1' });
    expect(one.stats.parts).toBe(Math.ceil(list.length / Math.floor(list.length / 64)));
    expect(one.stats.nodes).toBe(result.stats.nodes);
    const shard = await queens.count(15, { threads: 1, shard: '2/500' });
    expect(shard.stats.parts).toBe(list.filter((_, index) => index % 500 === 1).length);
  });

  it('from n = 18 a count on one thread has one constellation a part (progress at each), runs on two threads', async () => {
    const root = { engine: 'wasm' as const, n: 18, mode: 1 as const, allowed: new Array(18).fill(2 ** 18 - 1) };
    const list = await constellations(18);
    expect(await splitTask(root, 1, undefined, 1)).toHaveLength(list.length);
    const two = await splitTask(root, 1, undefined, 2);
    expect(two).toHaveLength(Math.ceil(list.length / Math.floor(list.length / 128)));
    expect(two.flatMap((part) => ('constellations' in part ? part.constellations : []))).toEqual(list);
  });

  it('the answer is the same for every thread count', async () => {
    const one = await queens.count(14, { threads: 1 });
    const two = await queens.count(14, { threads: 2 });
    const three = await queens.count(14, { threads: 3 });
    for (const other of [two, three]) {
      expect(other.total).toBe(one.total);
      expect(other.distinct).toBe(one.distinct);
      expect(other.stats.nodes).toBe(one.stats.nodes);
    }
  });

  it('the pure-TS twin counts on worker threads too', async () => {
    const result = await queens.count(14, { threads: 2, engine: 'js' });
    expect(result.total).toBe(QUEENS[14].total);
    expect(result.distinct).toBe(QUEENS[14].distinct);
  });

  it('reports progress up to the number of parts', async () => {
    const seen: Array<{ done: number; total: number }> = [];
    const result = await queens.count(14, { threads: 1, onProgress: (p) => seen.push(p) });
    expect(seen[0]).toEqual({ done: 0, total: result.stats.parts });
    expect(seen.at(-1)).toEqual({ done: result.stats.parts, total: result.stats.parts });
    for (let i = 1; i < seen.length; i++) expect(seen[i].done).toBe(seen[i - 1].done + 1);
  });
});

describe('start constellations', () => {
  it('one per symmetry class of the border queens: the classes cover every quadruple of a brute force', async () => {
    for (const n of [5, 6, 7, 8]) {
      const list = await constellations(n);
      // Every solution's border quadruple (i, j, k, l) is the image of exactly one listed one.
      const orbitOf = new Map<number, number>();
      list.forEach((code, index) => {
        let x = code;
        for (let m = 0; m < 2; m++) {
          for (let r = 0; r < 4; r++) {
            const known = orbitOf.get(x);
            expect(known === undefined || known === index).toBe(true);
            orbitOf.set(x, index);
            x = rot90(n, x);
          }
          const [i, j, k, l] = [(x >> 15) & 31, (x >> 10) & 31, (x >> 5) & 31, x & 31];
          x = ((n - 1 - i) << 15) | ((n - 1 - j) << 10) | (l << 5) | k;
        }
      });
      for (const s of bruteForceSolutions(n)) {
        const quadruple = (s[0] << 15) | (s[n - 1] << 10) | (s.indexOf(0) << 5) | s.indexOf(n - 1);
        expect(orbitOf.has(quadruple)).toBe(true);
      }
    }
  });

  it('are listed most costly first, and the same each time', async () => {
    const list = await constellations(14);
    expect(await constellations(14)).toEqual(list);
    expect(new Set(list).size).toBe(list.length);
    for (const code of list) expect(isConstellation(14, code)).toBe(true);
  });

  it('the Wasm engine and the twin agree on every part of n = 12', async () => {
    const list = await constellations(12);
    for (const code of list) {
      const part = { n: 12, constellations: [code] };
      const wasm = await runQueensTask({ ...part, engine: 'wasm' });
      const js = await runQueensTask({ ...part, engine: 'js' });
      expect(js).toEqual(wasm);
    }
  });

  it('a part of n = 19 counts what the row search finds with its four border queens (diagonal words past bit 32)', async () => {
    const n = 19;
    const list = await constellations(n);
    // The list's tail (the cheapest by the estimate) keeps the row search short; it holds a
    // constellation that the quarter turn fixes.
    for (const code of list.slice(-4)) {
      const [i, j, k, l] = [(code >> 15) & 31, (code >> 10) & 31, (code >> 5) & 31, code & 31];
      const border = new Map<string, [number, number]>();
      for (const q of [[0, i], [n - 1, j], [k, 0], [l, n - 1]] as Array<[number, number]>) border.set(q.join(), q);
      const rows = await queens.count({ n, queens: [...border.values()] }, { threads: 1 });
      const part = { n, constellations: [code] };
      const wasm = await runQueensTask({ ...part, engine: 'wasm' });
      const js = await runQueensTask({ ...part, engine: 'js' });
      expect(js).toEqual(wasm);
      const stabiliser = rot90(n, code) === code ? 4 : rot90(n, rot90(n, code)) === code ? 2 : 1;
      expect(wasm.total).toBe(rows.total * BigInt(8 / stabiliser));
      expect(wasm.total).toBeGreaterThan(0n);
    }
  });

  it('a part from outside is checked before any engine sees it', () => {
    const check = (value: unknown): unknown => taskKind('queens').check(value);
    expect(check({ engine: 'wasm', n: 12, constellations: [(3 << 15) | (2 << 10) | (5 << 5) | 1] })).toBeTruthy();
    expect(() => check({ engine: 'wasm', n: 12, constellations: [0] })).toThrow(/constellations\[0\] is not a constellation/);
    expect(() => check({ engine: 'wasm', n: 4, constellations: [] })).toThrow(/n must be an integer from 5/);
    expect(() => check({ engine: 'wasm', n: 12, constellations: [1.5] })).toThrow(/BAD_INPUT|integer/);
    expect(() => check({ engine: 'wasm', n: 12, constellations: [], extra: 1 })).toThrow(/unknown field/);
  });
});

describe('shards', () => {
  for (const [n, count, engine] of [
    [14, 5, 'wasm'],
    [10, 3, 'js'],
    [14, 7, 'js'],
    [8, 2, 'wasm'],
  ] as const) {
    it(`the ${count} shards of n = ${n} (${engine}) sum to the whole`, async () => {
      let total = 0n;
      let distinct = 0n;
      for (let index = 1; index <= count; index++) {
        const part = await queens.count(n, { shard: `${index}/${count}`, threads: 1, engine });
        expect(part.shard).toEqual({ index, count });
        expect(part.total).toBeLessThan(QUEENS[n].total);
        total += part.total;
        distinct += part.distinct!;
      }
      expect(total).toBe(QUEENS[n].total);
      expect(distinct).toBe(QUEENS[n].distinct);
    });
  }

  it('every shard split of n = 9 sums to the whole, and each part is counted once', async () => {
    const parts = (await constellations(9)).length;
    for (let count = 1; count <= parts; count++) {
      let total = 0n;
      let distinct = 0n;
      let partsSeen = 0;
      for (let index = 1; index <= count; index++) {
        const part = await queens.count(9, { shard: { index, count }, threads: 1 });
        total += part.total;
        distinct += part.distinct!;
        partsSeen += part.stats.parts;
      }
      expect(total).toBe(QUEENS[9].total);
      expect(distinct).toBe(QUEENS[9].distinct);
      expect(partsSeen).toBe(count === 1 ? 1 : parts);
    }
    await expect(queens.count(9, { shard: { index: 1, count: parts + 1 } })).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });

  it('shards of a partial board sum to its completions', async () => {
    const board = { n: 15, queens: [[0, 3] as [number, number]] };
    const whole = await queens.count(board, { threads: 1 });
    let total = 0n;
    for (let index = 1; index <= 4; index++) total += (await queens.count(board, { shard: { index, count: 4 } })).total;
    expect(total).toBe(whole.total);
    expect(whole.total).toBeGreaterThan(0n);
  });
});

describe('solutions', () => {
  it('lists every 8×8 solution once, in lexicographic order, each valid', async () => {
    const listed = await columnsOf(queens.solutions(8));
    const expected = bruteForceSolutions(8);
    expect(listed).toEqual(expected);
    expect(listed).toHaveLength(92);
  });

  it('the first solution is the lexicographically first, for n = 1..20', async () => {
    for (let n = 1; n <= 20; n++) {
      const first = await queens.solve(n);
      if (n === 2 || n === 3) {
        expect(first).toBeNull();
        continue;
      }
      expect(isValidSolution(first!.columns)).toBe(true);
      if (n <= 10) expect(first!.columns).toEqual(bruteForceSolutions(n)[0]);
    }
  });

  it('stops after `limit` solutions', async () => {
    const listed = await columnsOf(queens.solutions(10, { limit: 7 }));
    expect(listed).toEqual(bruteForceSolutions(10).slice(0, 7));
  });

  for (const n of [6, 8, 9, 10]) {
    it(`distinct listing for n = ${n}: one smallest image per symmetry class`, async () => {
      const reps = await columnsOf(queens.solutions(n, { distinct: true }));
      expect(BigInt(reps.length)).toBe(QUEENS[n].distinct);
      const all = new Set(bruteForceSolutions(n).map(key));
      const covered = new Set<string>();
      for (const rep of reps) {
        const classImages = images(rep);
        for (const image of classImages) {
          expect(compareColumns(rep, image)).toBeLessThanOrEqual(0);
          expect(all.has(key(image))).toBe(true);
          covered.add(key(image));
        }
      }
      expect(covered.size).toBe(all.size);
    });
  }

  it('the board picture marks each queen', async () => {
    const first = await queens.solve(4);
    expect(queens.picture(first!)).toBe('.Q..\n...Q\nQ...\n..Q.');
  });
});

describe('completing a partly filled board', () => {
  it('counts completions like a brute force on random boards (wasm and twin)', async () => {
    const next = random(2026);
    for (let trial = 0; trial < 60; trial++) {
      const n = 4 + Math.floor(next() * 7);
      const fixed = randomPartialBoard(n, 1 + Math.floor(next() * 3), next);
      const expected = bruteForceSolutions(n, fixed);
      const problem = { n, queens: fixed };
      const wasm = await queens.count(problem);
      const js = await queens.count(problem, { engine: 'js' });
      expect(wasm.total).toBe(BigInt(expected.length));
      expect(js.total).toBe(wasm.total);
      expect(js.stats.nodes).toBe(wasm.stats.nodes);
      expect(wasm.distinct).toBeNull();
      const listed = await columnsOf(queens.solutions(boardText(n, fixed)));
      expect(listed).toEqual(expected);
    }
  });

  it('a board with no completion gives no solutions, not an error', async () => {
    // Queens at a1-style corners that leave no room: 4×4 with a corner queen has no solution.
    const board = 'Q...\n....\n....\n....';
    expect((await queens.count(board)).total).toBe(0n);
    expect(await queens.solve(board)).toBeNull();
  });

  it('completes a larger board on worker threads', async () => {
    const fixed: Array<[number, number]> = [[0, 5], [1, 8]];
    const problem = { n: 17, queens: fixed };
    const one = await queens.count(problem, { threads: 1 });
    const two = await queens.count(problem, { threads: 2 });
    expect(two.total).toBe(one.total);
    expect(two.stats.parts).toBeGreaterThan(1);
    const first = await queens.solve(problem);
    expect(first!.columns[0]).toBe(5);
    expect(first!.columns[1]).toBe(8);
    expect(isValidSolution(first!.columns)).toBe(true);
  });

  it('accepts queens as [row, col] pairs or {row, col} objects', async () => {
    const pairs = await queens.count({ n: 8, queens: [[0, 0]] });
    const objects = await queens.count({ n: 8, queens: [{ row: 0, col: 0 }] });
    expect(pairs.total).toBe(BigInt(bruteForceSolutions(8, [[0, 0]]).length));
    expect(objects.total).toBe(pairs.total);
  });
});

describe('Wasm engine and pure-TS twin agree', () => {
  it('on counts and node counts of random partial boards up to n = 13', async () => {
    const next = random(7);
    for (let trial = 0; trial < 40; trial++) {
      const n = 8 + Math.floor(next() * 6);
      const fixed = randomPartialBoard(n, Math.floor(next() * 3), next);
      const problem = { n, queens: fixed };
      const wasm = await queens.count(problem, { threads: 1 });
      const js = await queens.count(problem, { threads: 1, engine: 'js' });
      expect(js.total).toBe(wasm.total);
      expect(js.distinct).toBe(wasm.distinct);
      expect(js.stats.nodes).toBe(wasm.stats.nodes);
    }
  });

  it('on the solutions listed, in order', async () => {
    for (const n of [7, 9, 11]) {
      expect(await columnsOf(queens.solutions(n, { limit: 300, engine: 'js' }))).toEqual(
        await columnsOf(queens.solutions(n, { limit: 300 })),
      );
      expect(await columnsOf(queens.solutions(n, { distinct: true, engine: 'js' }))).toEqual(
        await columnsOf(queens.solutions(n, { distinct: true })),
      );
    }
  });

  it('on n = 32, the widest board, for the first solutions', async () => {
    const wasm = await columnsOf(queens.solutions(32, { limit: 3 }));
    const js = await columnsOf(queens.solutions(32, { limit: 3, engine: 'js' }));
    expect(js).toEqual(wasm);
    for (const s of wasm) expect(isValidSolution(s)).toBe(true);
  });
});

describe('one solution for very large n', () => {
  it('n = 1,000,000, checked square by square', async () => {
    const columns = await queens.construct(1_000_000);
    expect(columns).toHaveLength(1_000_000);
    expect(isValidSolution(columns!)).toBe(true);
  });

  it('every n from 1 to 400 (none for 2 and 3), wasm and twin alike', async () => {
    for (let n = 1; n <= 400; n++) {
      if (n === 2 || n === 3) {
        await expect(queens.construct(n)).rejects.toMatchObject({ code: 'UNSOLVABLE' });
        continue;
      }
      const columns = await queens.construct(n);
      expect(isValidSolution(columns!)).toBe(true);
      expect(await queens.construct(n, { engine: 'js' })).toEqual(columns);
    }
  });

  it('solve() uses the construction above n = 32', async () => {
    const solution = await queens.solve(1001);
    expect(solution!.columns).toHaveLength(1001);
    expect(isValidSolution(solution!.columns)).toBe(true);
  });

  it('running out of maxMemory is OUT_OF_MEMORY, and the engine stays usable', async () => {
    await expect(queens.construct(5_000_000, { maxMemory: 1 << 20 })).rejects.toMatchObject({
      code: 'OUT_OF_MEMORY',
      message: expect.stringContaining('maxMemory'),
    });
    expect(isValidSolution((await queens.construct(1000))!)).toBe(true);
  });
});
