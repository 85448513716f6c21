import { describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BitpuzzleError, pegs } from '../dist/index.js';
import { sizeOption } from '../dist/cli/io.js';
import { fewestByDeepening, mersonRegions } from '../dist/pegs/fewest.js';
import { expectAbortedPromptly, tempDir } from './helpers.js';

// ---- independent oracles: plain sets of numbers (boards of up to 30 holes) ----------------

type Jump = [number, number, number];
const has = (p: number, h: number): boolean => ((p >> h) & 1) === 1;
const legalJumps = (jumps: Jump[], p: number): Jump[] => jumps.filter(([f, o, t]) => has(p, f) && has(p, o) && !has(p, t));
const apply = (p: number, [f, o, t]: Jump): number => p ^ (1 << f) ^ (1 << o) ^ (1 << t);

/** The number of jump sequences from p to any of the finishes, by memoised recursion. */
function bruteCount(jumps: Jump[], start: number, finishes: number[]): bigint {
  const goal = new Set(finishes);
  const pegsOf = (p: number): number => p.toString(2).replace(/0/g, '').length;
  const target = pegsOf(finishes[0]);
  const memo = new Map<number, bigint>();
  const paths = (p: number): bigint => {
    if (pegsOf(p) === target) return goal.has(p) ? 1n : 0n;
    let known = memo.get(p);
    if (known === undefined) {
      known = 0n;
      for (const j of legalJumps(jumps, p)) known += paths(apply(p, j));
      memo.set(p, known);
    }
    return known;
  };
  return paths(start);
}

/** Positions one move (a chain of jumps by one peg) after p. */
function movesFrom(jumps: Jump[], p: number): Set<number> {
  const out = new Set<number>();
  const chain = (q: number, peg: number): void => {
    for (const j of legalJumps(jumps, q)) {
      if (j[0] !== peg) continue;
      const next = apply(q, j);
      out.add(next);
      chain(next, j[2]);
    }
  };
  for (const j of legalJumps(jumps, p)) {
    const next = apply(p, j);
    out.add(next);
    chain(next, j[2]);
  }
  return out;
}

/** The fewest moves from start to a finish by plain breadth-first search, or -1. */
function bruteMinMoves(jumps: Jump[], start: number, finishes: number[]): number {
  const goal = new Set(finishes);
  const seen = new Set([start]);
  let frontier = [start];
  for (let d = 0; frontier.length; d++) {
    if (frontier.some((p) => goal.has(p))) return d;
    const next: number[] = [];
    for (const p of frontier) for (const q of movesFrom(jumps, p)) if (!seen.has(q)) (seen.add(q), next.push(q));
    frontier = next;
  }
  return -1;
}

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** A random board picture of at most `size`×`size` cells, with a few empty holes. */
function randomBoard(rand: () => number, size: number, triangular: boolean): string {
  const lines: string[] = [];
  for (let r = 0; r < size; r++) {
    let line = '';
    for (let c = 0; c < size; c++) {
      const hole = rand() < 0.8;
      const ch = !hole ? ' ' : rand() < 0.2 ? '.' : 'o';
      line += triangular ? (c === 0 ? ' '.repeat(size - r) : ' ') + ch : ch;
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/** Solvable-looking problems (finish anywhere) on random small boards; impossible ones are skipped. */
function randomProblems(seed: number, boards: number, triangularEvery: number): pegs.PegsProblem[] {
  const rand = random(seed);
  const problems: pegs.PegsProblem[] = [];
  for (let i = 0; i < boards; i++) {
    const text = randomBoard(rand, 3 + Math.floor(rand() * 3), i % triangularEvery === triangularEvery - 1);
    try {
      problems.push(pegs.toProblem({ board: text, finish: 'any' }));
    } catch (error) {
      expect((error as BitpuzzleError).code).toMatch(/UNSOLVABLE|BAD_INPUT/);
    }
  }
  return problems;
}

function expectSolves(problem: pegs.PegsProblem, jumps: string[]): void {
  const after = pegs.replay(problem.board, problem.start, jumps);
  expect(problem.finishes).toContain(after[after.length - 1]);
}

async function expectCode(promise: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BitpuzzleError);
  expect((error as BitpuzzleError).code).toBe(code);
  if (message) expect((error as BitpuzzleError).message).toMatch(message);
}

describe('boards and notation', () => {
  it('builds the built-in boards with their holes, jumps and symmetries', () => {
    const sizes: Record<string, [number, number]> = {
      english: [33, 8], french: [37, 8], wiegleb: [45, 8], diamond: [41, 8],
      triangle4: [10, 6], triangle5: [15, 6], triangle6: [21, 6], triangle7: [28, 6], triangle8: [36, 6],
    };
    for (const [name, [holes, symmetries]] of Object.entries(sizes)) {
      const board = pegs.builtinBoard(name)!;
      expect(board.holes.length).toBe(holes);
      expect(board.symmetries.length).toBe(symmetries);
    }
    const english = pegs.builtinBoard('english')!;
    expect(english.jumps.length).toBe(76);
    expect(english.holes[0].name).toBe('c1');
    expect(english.holes.findIndex((h) => h.name === 'd4')).toBe(16);
    expect(pegs.positionPicture(english, english.picture).split('\n')[3]).toBe('ooo.ooo');
    expect(pegs.builtinBoard('triangle5')!.holes.map((h) => h.name).slice(0, 4)).toEqual(['a1', 'a2', 'b2', 'a3']);
  });

  it('groups jumps by one peg into moves', () => {
    expect(pegs.groupMoves(['d2-d4', 'd4-f4', 'a3-c3', 'c5-c3'])).toEqual(['d2-d4-f4', 'a3-c3', 'c5-c3']);
  });

  it('rejects malformed boards with line and column', async () => {
    await expectCode(pegs.solve({ board: 'ooo\noxo' }), 'BAD_INPUT', /line 2, column 2: unexpected "x"/);
    await expectCode(pegs.solve({ board: 'hexagon' }), 'BAD_INPUT', /unknown board "hexagon"/);
    await expectCode(pegs.solve({ board: 'english', start: 'z9' }), 'BAD_INPUT', /no hole "z9"/);
    await expectCode(pegs.solve({ board: 'ooo\nooo' }), 'BAD_INPUT', /no empty hole/);
    await expectCode(pegs.solve({ board: 'english', start: 'ooo' }), 'BAD_INPUT', /line 1, column 1: there is no hole of the english board/);
    await expectCode(pegs.solve({ board: 'o'.repeat(65) }), 'BAD_INPUT', /line 1, column 65: more than 64 holes/);
    await expectCode(pegs.solve({ board: '  o\n o o\no  o', geometry: 'triangular' }), 'BAD_INPUT', /line 3, column 4/);
    await expectCode(pegs.solve({ board: 'english' }, { engine: 'c' as never }), 'BAD_INPUT', /engine/);
  });

  it('proves impossible problems UNSOLVABLE with the reason', async () => {
    await expectCode(pegs.solve({ board: 'french' }), 'UNSOLVABLE', /position class/);
    // A listing, like a count, answers: nothing to list.
    for await (const found of pegs.solutions({ board: 'french' })) expect.unreachable(String(found));
    // A count is always an answer: 0 with the reason.
    const none = await pegs.count({ board: 'english', finish: 'c1' });
    expect(none.total).toBe(0n);
    expect(none.reason).toMatch(/position class/);
    expect(none.stats).toEqual({ nodes: 0n, milliseconds: expect.any(Number), threads: 1, parts: 0 });
    await expectCode(pegs.solve({ board: 'triangle4', finish: 'any' }), 'UNSOLVABLE', /any finish with one peg/);
    // The oracle agrees: no single-peg position is reachable on triangle 4 from the top.
    const t4 = pegs.builtinBoard('triangle4')!;
    const singles = t4.holes.map((_, i) => 1 << i);
    expect(bruteCount(t4.jumps, Number(t4.picture), singles)).toBe(0n);
  });
});

describe('solutions', () => {
  it('solves the English central game (replayed)', async () => {
    for (const engine of ['wasm', 'js'] as const) {
      const problem = pegs.toProblem({ board: 'english' });
      const found = await pegs.solve(problem, { engine });
      expect(found!.jumps.length).toBe(31);
      expectSolves(problem, found!.jumps);
    }
  });

  it('solves the other built-in boards (replayed)', async () => {
    for (const input of [
      { board: 'french', start: 'c1', finish: 'any' },
      { board: 'french', start: 'e1', finish: 'any' },
      { board: 'triangle6', finish: 'any' },
    ]) {
      const problem = pegs.toProblem(input);
      const found = await pegs.solve(problem);
      expectSolves(problem, found!.jumps);
    }
  });

  it('lists distinct jump sequences that all solve', async () => {
    const problem = pegs.toProblem({ board: 'triangle5', finish: 'any' });
    const seen = new Set<string>();
    for await (const s of pegs.solutions(problem, { limit: 20 })) {
      expectSolves(problem, s.jumps);
      seen.add(s.jumps.join(' '));
    }
    expect(seen.size).toBe(20);
  });
});

/** Counts on both engines, checked against the brute force and each other; returns the count. */
async function expectCountsAgree(problem: pegs.PegsProblem): Promise<bigint> {
  const expected = bruteCount(problem.board.jumps, Number(problem.start), problem.finishes.map(Number));
  const wasm = await pegs.count(problem);
  const js = await pegs.count(problem, { engine: 'js' });
  expect(wasm.total).toBe(expected);
  expect(js.total).toBe(expected);
  expect(js.levels).toEqual(wasm.levels);
  expect(js.stats.nodes).toBe(wasm.stats.nodes);
  return expected;
}

describe('counting', () => {
  it('counts triangle 5 against the brute force, on both engines', async () => {
    for (const finish of ['any', 'a1', 'c5']) {
      await expectCountsAgree(pegs.toProblem({ board: 'triangle5', finish }));
    }
    expect((await pegs.count({ board: 'triangle5', finish: 'any' })).total).toBe(29760n);
  });

  it('agrees with the twin and the brute force on random small boards', async () => {
    let checked = 0;
    for (const problem of randomProblems(7, 60, 3)) {
      const expected = await expectCountsAgree(problem);
      const found = await pegs.solve(problem);
      if (expected === 0n) expect(found).toBeNull();
      else expectSolves(problem, found!.jumps);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('counts reachable positions up to symmetry like the brute force', async () => {
    const problem = pegs.toProblem({ board: 'triangle6', finish: 'any' });
    const { jumps } = problem.board;
    const { symmetries } = problem;
    const canon = (p: number): number => Math.min(...symmetries.map((perm) => perm.reduce((q, to, from) => (has(p, from) ? q | (1 << to) : q), 0)));
    const seen = new Set<number>();
    const walk = (p: number): void => {
      if (seen.has(canon(p))) return;
      seen.add(canon(p));
      for (const j of legalJumps(jumps, p)) walk(apply(p, j));
    };
    walk(Number(problem.start));
    const result = await pegs.reachable(problem);
    expect(result.levels.reduce((a, b) => a + b, 0)).toBe(seen.size);
  });

  it('reports progress per level', async () => {
    const seen: number[] = [];
    await pegs.count({ board: 'triangle6', finish: 'any' }, { onProgress: (p) => seen.push(p.done) });
    expect(seen[seen.length - 1]).toBe(19);
  });

  it('stops at maxMemory with OUT_OF_MEMORY, and on abort', async () => {
    await expectCode(pegs.count({ board: 'english' }, { maxMemory: 4 << 20, spill: false }), 'OUT_OF_MEMORY', /levels deep/);
    await expectCode(pegs.count({ board: 'english' }, { signal: AbortSignal.abort() }), 'ABORTED');
  });
});

describe('counting on threads', () => {
  /** The same totals and levels on 1, 2 and 3 threads (and the brute force when it is given). */
  async function expectThreadsAgree(problem: pegs.PegsProblem, expected?: bigint, threads = [1, 2, 3]): Promise<void> {
    const [one, ...more] = await Promise.all(threads.map((t) => pegs.count(problem, { threads: t })));
    if (expected !== undefined) expect(one.total).toBe(expected);
    // With one finish that is not the start's complement, several threads meet in the middle
    // (forward and backward), so the levels searched differ from the one thread's.
    const meets = problem.finishes.length === 1 && problem.finishes[0] !== (1n << BigInt(problem.board.holes.length)) - 1n - problem.start;
    for (const other of more) {
      expect(other.total).toBe(one.total);
      if (!meets) expect(other.levels).toEqual(one.levels);
    }
    expect(more.map((r) => r.stats.threads)).toEqual(threads.slice(1));
  }

  it('gives the same totals and levels on 1, 2 and 3 threads: triangles 5 and 6, central and open', async () => {
    await expectThreadsAgree(pegs.toProblem({ board: 'triangle5' }), 6816n); // meets in the middle (15 holes)
    await expectThreadsAgree(pegs.toProblem({ board: 'triangle5', finish: 'any' }), 29760n);
    await expectThreadsAgree(pegs.toProblem({ board: 'triangle5', finish: 'c5' }));
    await expectThreadsAgree(pegs.toProblem({ board: 'triangle6', finish: 'any' }), 43419942138n);
  });

  it('meets in the middle for one finish (forward from the start, backward from the finish) like the brute force', async () => {
    let checked = 0;
    const triangle = pegs.toProblem({ board: 'triangle5', finish: 'any' });
    const cases = [triangle, ...randomProblems(31, 6, 3)].flatMap((open) =>
      open.finishes.slice(0, open === triangle ? 5 : 2).map((finish) => ({ open, finish })),
    );
    for (const { open, finish } of cases) {
      const { board } = open;
      {
        const problem = pegs.toProblem({ board, start: pegs.positionPicture(board, open.start), finish: board.holes[finish.toString(2).length - 1].name });
        const expected = bruteCount(board.jumps, Number(problem.start), problem.finishes.map(Number));
        const met = await pegs.count(problem, { threads: 2 });
        expect(met.total).toBe(expected);
        if (expected > 0n) checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3);
    // The English board meets on one thread too, in one engine; too little memory says how far it got.
    await expectCode(
      pegs.count({ board: 'english', finish: 'd1' }, { threads: 1, maxMemory: 8 << 20, spill: false }),
      'OUT_OF_MEMORY',
      /it got \d+ of 31 levels deep \(forward to \d+ pegs, backward to \d+/,
    );
  });

  it('counts from both ends on one engine like the brute force: each finish, any finish, triangles and random boards', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const triangle = pegs.toProblem({ board: 'triangle5', finish: 'any' });
    const opens = [triangle, pegs.toProblem({ board: 'triangle5', start: 'b3', finish: 'any' }), ...randomProblems(41, 12, 3)];
    let single = 0;
    let any = 0;
    for (const open of opens) {
      const { board } = open;
      const start = pegs.positionPicture(board, open.start);
      const problems = [open, ...open.finishes.slice(0, 3).map((f) => pegs.toProblem({ board, start, finish: board.holes[f.toString(2).length - 1].name }))];
      for (const problem of problems) {
        if (problem.start.toString(2).replace(/0/g, '').length < problem.finishes[0].toString(2).replace(/0/g, '').length + 2) continue;
        const expected = bruteCount(board.jumps, Number(problem.start), problem.finishes.map(Number));
        const seen: number[] = [];
        const met = await countBothEnds(problem, 64 << 20, { onProgress: (p: { done: number }) => seen.push(p.done) });
        expect(met.total).toBe(expected);
        expect(seen).toEqual([...seen].sort((a, b) => a - b));
        if (problem.finishes.length > 1) any++;
        else single++;
      }
    }
    expect(single).toBeGreaterThanOrEqual(10);
    expect(any).toBeGreaterThanOrEqual(4);
  });

  it('counts from one side when a symmetry maps the finish onto the start complemented, like the brute force', async () => {
    const { countBothEnds, dualSymmetry } = await import('../dist/pegs/meet.js');
    let checked = 0;
    let inParts = 0;
    for (const [board, starts] of [['ooooo\nooooo\noo.oo\nooooo', ['a1', 'b1', 'c2', 'c3']], ['triangle6', ['a1', 'b2']]] as const) {
      const { holes } = pegs.builtinBoard(board) ?? pegs.parseBoard(board);
      for (const start of starts) {
        for (const { name } of holes) {
          let problem: pegs.PegsProblem;
          try {
            problem = pegs.toProblem({ board, start, finish: name });
          } catch {
            continue; // another position class
          }
          if (!dualSymmetry(problem)) continue;
          const one = await countBothEnds(problem, 64 << 20, {});
          expect(one.total).toBe(bruteCount(problem.board.jumps, Number(problem.start), problem.finishes.map(Number)));
          // One side's memory, not two: less than the count from both ends.
          expect(one.memory).toBeLessThan((await countBothEnds(problem, 64 << 20, { dual: false })).memory);
          const parts = await countBothEnds(problem, Math.round(one.memory * 0.85), {}).catch((error: BitpuzzleError) => error.code);
          if (parts !== 'OUT_OF_MEMORY') expect((parts as { total: bigint }).total).toBe(one.total), inParts++;
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
    expect(inParts).toBeGreaterThanOrEqual(1);
    // The French board (37 holes: 12-byte pairs holding 5 of a position's bits beside the
    // count): 25 pegs to the top-bottom mirror of their complement, 13 jumps. One side, both
    // sides with 16-byte pairs, and the sharded count on 2 threads (another engine) agree.
    const start = ['  o..', ' ooo.o', 'oo.ooo.', 'oooo.oo', '..oo.oo', ' ...oo', '  ooo'].join('\n');
    const finish = ['  ...', ' ooo..', 'oo..o..', '....o..', '..o...o', ' ...o.', '  .oo'].join('\n');
    const french = pegs.toProblem({ board: 'french', start, finish });
    expect(dualSymmetry(french)).toBeDefined();
    const one = await countBothEnds(french, 64 << 20, {});
    expect(one.total).toBe(648648n);
    expect((await countBothEnds(french, 64 << 20, { dual: false, narrowBits: 0 })).total).toBe(648648n);
    expect((await pegs.count(french, { threads: 2 })).total).toBe(648648n);
    // Out of memory, the message names the one side that serves for both.
    await expectCode(countBothEnds(french, 1 << 20, {}), 'OUT_OF_MEMORY', /levels deep \(forward to \d+ pegs, which serve the finish's side too/);
  });

  it('builds levels in parts when their tables do not fit, with the same totals as the forward count', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const board = 'oooooo\noooooo\noo.ooo\noooooo';
    for (const [start, finish] of [['c3', 'c3'], ['a1', 'd1']]) {
      const problem = pegs.toProblem({ board, start, finish });
      const forward = await pegs.count(problem, { threads: 1 }); // 24 holes: forward, one table a level
      const whole = await countBothEnds(problem, 64 << 20, {});
      const parts = await countBothEnds(problem, Math.round(whole.memory * 0.8), {});
      expect([whole.total, parts.total]).toEqual([forward.total, forward.total]);
      expect(parts.memory).toBeLessThan(whole.memory * 0.8);
      // Counts too big for the 12-byte pairs (capped at 8 bits here) count again with 16-byte ones.
      const wide = await countBothEnds(problem, 64 << 20, { narrowBits: 0 });
      const capped = await countBothEnds(problem, 64 << 20, { narrowBits: 8 });
      expect([wide.total, capped.total]).toEqual([forward.total, forward.total]);
      expect(wide.memory).toBeGreaterThan(whole.memory);
    }
    // Tighter still, the last level is skipped: one side's grandchildren against the other's tables.
    const problem = pegs.toProblem({ board, start: 'a1', finish: 'd1' });
    const tight = await countBothEnds(problem, 2_200_000, {});
    expect(tight.total).toBe((await pegs.count(problem, { threads: 1 })).total);
    const built = (levels: number[]): number => levels.filter((n) => n > 0).length;
    expect(built(tight.levels)).toBe(built((await countBothEnds(problem, 64 << 20, {})).levels) - 1);
    await expectCode(countBothEnds(pegs.toProblem({ board, start: 'a1', finish: 'd1' }), 1 << 20, {}), 'OUT_OF_MEMORY', /levels deep/);
  });

  it('agrees with the brute force on random small boards', async () => {
    let checked = 0;
    for (const problem of randomProblems(23, 24, 3)) {
      const expected = bruteCount(problem.board.jumps, Number(problem.start), problem.finishes.map(Number));
      await expectThreadsAgree(problem, expected, [1, 2]);
      checked++;
    }
    // Central games (the finish the start's complement) meet in the middle: odd and even hole counts.
    let central = 0;
    for (const board of ['ooo\no.o\nooo\nooo', 'oooo\no.oo\noooo\nooo', 'ooooo\noo.oo\noooo', 'oooo\no.oo\noooo', 'ooooo\no.ooo\nooooo', 'oooooo\noo.ooo\noooo']) {
      let problem: pegs.PegsProblem;
      try {
        problem = pegs.toProblem({ board });
      } catch {
        continue; // another position class
      }
      central++;
      await expectThreadsAgree(problem, bruteCount(problem.board.jumps, Number(problem.start), problem.finishes.map(Number)), [1, 2, 3]);
      checked++;
    }
    expect(central).toBeGreaterThan(1);
    expect(checked).toBeGreaterThan(8);
  });

  it('counts a mid-size central game (24 holes, 203,359 positions) alike on 1, 2 and 3 threads', async () => {
    await expectThreadsAgree(pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo' }), 586763671862n);
  });

  it('sends the pairs in batches when a table of a thread reaches its cap (a small maxMemory)', async () => {
    const problem = pegs.toProblem({ board: 'triangle6', finish: 'any' });
    const small = await pegs.count(problem, { threads: 2, maxMemory: 8 << 20 });
    expect(small.total).toBe(43419942138n);
    expect(small.levels).toEqual((await pegs.count(problem, { threads: 1 })).levels);
  });

  it('reports progress per level, stops at maxMemory and on abort, with threads', async () => {
    const seen: number[] = [];
    await pegs.count({ board: 'triangle6', finish: 'any' }, { threads: 2, onProgress: (p) => seen.push(p.done) });
    expect(seen[0]).toBe(0);
    expect(seen[seen.length - 1]).toBe(19);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    await expectCode(pegs.count({ board: 'english' }, { threads: 2, maxMemory: 4 << 20 }), 'OUT_OF_MEMORY', /levels deep/);
    await expectCode(pegs.count({ board: 'english' }, { threads: 2, signal: AbortSignal.abort() }), 'ABORTED');
    const controller = new AbortController();
    const counting = pegs.count({ board: 'english' }, {
      threads: 2,
      signal: controller.signal,
      onProgress: ({ done }) => done >= 3 && controller.abort(),
    });
    await expectCode(counting, 'ABORTED');
    await expectCode(pegs.count({ board: 'triangle5' }, { threads: 0 }), 'BAD_INPUT', /threads/);
  });

  it('counts on the calling thread with the twin (engine: js), whatever threads says', async () => {
    const js = await pegs.count({ board: 'triangle5', finish: 'any' }, { engine: 'js', threads: 2 });
    expect(js.total).toBe(29760n);
    expect(js.stats.threads).toBe(1);
  });
});

// A French problem of 13 jumps (648,648 sequences), for the levels on disk.
const FRENCH_START = ['  o..', ' ooo.o', 'oo.ooo.', 'oooo.oo', '..oo.oo', ' ...oo', '  ooo'].join('\n');
const FRENCH_FINISH = ['  ...', ' ooo..', 'oo..o..', '....o..', '..o...o', ' ...o.', '  .oo'].join('\n');
/** A folder of levels on disk holds nothing once a count is over. */
const empty = (dir: string): void => expect(readdirSync(dir)).toEqual([]);

describe('counting with the levels on disk', () => {
  // countBothEnds with spill 'always' puts the levels on disk from the first (the public API
  // does it when a level would not fit in maxMemory); a window of a few pairs makes every
  // level pass through many reads.

  it('counts like in memory and like the brute force: both sides, one side for both, 12- and 16-byte pairs', async () => {
    const { countBothEnds, dualSymmetry } = await import('../dist/pegs/meet.js');
    const dir = tempDir('pegs-spill-');
    let partFiles = 0;
    let partWrites = 0;
    let joinPasses = 0;
    const onDisk = async (problem: pegs.PegsProblem, options: Record<string, unknown> = {}, maxMemory = 64 << 20): Promise<bigint> => {
      const phases: string[] = [];
      const counted = await countBothEnds(problem, maxMemory, {
        spill: 'always',
        spillDir: dir,
        windowBytes: 100,
        onProgress: (p: { phase?: string }) => p.phase && phases.push(p.phase),
        ...options,
      });
      expect(phases[0]).toMatch(new RegExp(`^levels on disk in ${dir}/bitpuzzle-pegs-`));
      empty(dir);
      partFiles += counted.partFiles;
      partWrites += counted.partWrites;
      joinPasses = counted.joinPasses;
      return counted.total;
    };
    // Both sides: triangles and random boards with one finish or any, against the brute force.
    let checked = 0;
    for (const open of [pegs.toProblem({ board: 'triangle5', finish: 'any' }), pegs.toProblem({ board: 'triangle5', start: 'b3', finish: 'any' }), ...randomProblems(43, 6, 3)]) {
      const { board } = open;
      const start = pegs.positionPicture(board, open.start);
      for (const problem of [open, ...open.finishes.slice(0, 2).map((f) => pegs.toProblem({ board, start, finish: board.holes[f.toString(2).length - 1].name }))]) {
        if (problem.start.toString(2).replace(/0/g, '').length < problem.finishes[0].toString(2).replace(/0/g, '').length + 2) continue;
        const brute = bruteCount(board.jumps, Number(problem.start), problem.finishes.map(Number));
        expect(await onDisk(problem)).toBe(brute);
        // Each level in parts from one pass over its parent, and the join in parts from one
        // pass over the streamed side.
        expect(await onDisk(problem, { fewestParts: 3, windowBytes: 48 })).toBe(brute);
        // (A problem with no solution may end before the join, a side having emptied.)
        if (brute > 0n) expect(joinPasses).toBeGreaterThanOrEqual(3);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
    // One side serving for both (a symmetry maps the finish's complement onto the start).
    const board = 'ooooo\nooooo\noo.oo\nooooo';
    let dual = 0;
    for (const { name } of pegs.parseBoard(board).holes) {
      let problem: pegs.PegsProblem;
      try {
        problem = pegs.toProblem({ board, start: 'b1', finish: name });
      } catch {
        continue; // another position class
      }
      if (!dualSymmetry(problem)) continue;
      const brute = bruteCount(problem.board.jumps, Number(problem.start), problem.finishes.map(Number));
      expect(await onDisk(problem)).toBe(brute);
      expect(await onDisk(problem, { fewestParts: 5 })).toBe(brute);
      dual++;
    }
    expect(dual).toBeGreaterThanOrEqual(1);
    // The 4×6 board (the central game, and a1 -> d1 from both sides) and the French 13 jumps,
    // with 12-byte and 16-byte pairs, and with 12-byte ones too narrow (counted again in 16).
    for (const [start, finish] of [['c3', 'c3'], ['a1', 'd1']]) {
      const problem = pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', start, finish });
      const forward = (await pegs.count(problem, { threads: 1 })).total;
      expect(await onDisk(problem, { windowBytes: 4096 })).toBe(forward);
      expect(await onDisk(problem, { narrowBits: 0, windowBytes: 4000 })).toBe(forward);
      expect(await onDisk(problem, { narrowBits: 8, windowBytes: 4096 })).toBe(forward);
      expect(await onDisk(problem, { fewestParts: 7, windowBytes: 4096 })).toBe(forward);
      expect(await onDisk(problem, { fewestParts: 4, narrowBits: 8, windowBytes: 4096 })).toBe(forward);
      // A part's file summed, and a part of the join joined, in several passes (their tables
      // may not grow past 8,192 slots).
      expect(await onDisk(problem, { fewestParts: 4, sumSlots: 8192, windowBytes: 4096 })).toBe(forward);
      expect(joinPasses).toBeGreaterThan(4);
      // In 300 kB, the parts' regions fill many times before their parents are done.
      const [files, writes] = [partFiles, partWrites];
      expect(await onDisk(problem, { fewestParts: 2, windowBytes: 4096 }, 300_000)).toBe(forward);
      expect(partWrites - writes).toBeGreaterThan(10 * (partFiles - files));
    }
    const french = pegs.toProblem({ board: 'french', start: FRENCH_START, finish: FRENCH_FINISH });
    expect(await onDisk(french, { windowBytes: 4096 })).toBe(648648n);
    expect(await onDisk(french, { dual: false, windowBytes: 4096 })).toBe(648648n);
    expect(await onDisk(french, { fewestParts: 6, windowBytes: 4096 })).toBe(648648n);
    // The part files were used: every level above since the first was in parts.
    expect(partFiles).toBeGreaterThan(100);
  });

  it('goes to disk when a level would not fit in maxMemory, in parts, and only then', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const dir = tempDir('pegs-spill-');
    for (const [start, finish] of [['c3', 'c3'], ['a1', 'd1']]) {
      const problem = pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', start, finish });
      const whole = await countBothEnds(problem, 64 << 20, { spill: true, spillDir: dir });
      let phase: string | undefined;
      const tight = await countBothEnds(problem, Math.round(whole.memory * 0.4), { spill: true, spillDir: dir, onProgress: (p: { phase?: string }) => (phase ??= p.phase) });
      expect(tight.total).toBe(whole.total);
      expect(tight.memory).toBeLessThan(whole.memory * 0.4);
      expect(phase).toMatch(/^levels on disk in /);
      empty(dir);
      // Without the disk, the same memory is not enough.
      await expectCode(countBothEnds(problem, Math.round(whole.memory * 0.4), {}), 'OUT_OF_MEMORY', /levels deep/);
    }
    // The public API: the French 13 jumps in a little memory, on disk only when needed.
    const french = pegs.toProblem({ board: 'french', start: FRENCH_START, finish: FRENCH_FINISH });
    const phases: string[] = [];
    const counted = await pegs.count(french, { maxMemory: 1 << 20, spillDir: dir, onProgress: (p) => p.phase && phases.push(p.phase) });
    expect(counted.total).toBe(648648n);
    expect(phases.length).toBeGreaterThan(0);
    empty(dir);
    await expectCode(pegs.count(french, { maxMemory: 1 << 20, spill: false }), 'OUT_OF_MEMORY', /levels deep/);
    // spillAbove: the engine's most when levels may go to disk, whatever maxMemory allows.
    const above: string[] = [];
    const capped = await pegs.count(french, { spillAbove: 1 << 20, spillDir: dir, onProgress: (p) => p.phase && above.push(p.phase) });
    expect([capped.total, above.length > 0, capped.memory <= 1 << 20]).toEqual([648648n, true, true]);
    empty(dir);
    // Too little for even the window and a part: OUT_OF_MEMORY naming spillAbove, not maxMemory.
    await expectCode(countBothEnds(pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', start: 'a1', finish: 'd1' }), 64 << 20, { spill: 'always', spillDir: dir, spillAbove: 1 << 20, windowBytes: 4 << 20 }), 'OUT_OF_MEMORY', /^counting on disk needs more than spillAbove \(1048576 bytes; a larger spillAbove, up to 67108864 bytes within maxMemory, may do\); it got/);
    empty(dir);
    const roomy: string[] = [];
    expect((await pegs.count(french, { spillDir: dir, onProgress: (p) => p.phase && roomy.push(p.phase) })).total).toBe(648648n);
    expect(roomy).toEqual([]);
  });

  it('builds a level in rounds when its parts\' files would pass maxDisk, and counts the same', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const dir = tempDir('pegs-spill-');
    // Every level and the join in 3 parts or more; each write is checked against maxDisk, so a
    // count that ends never held more on disk.
    const count = (problem: pegs.PegsProblem, options: Record<string, unknown>) => countBothEnds(problem, 64 << 20, { spill: 'always', spillDir: dir, windowBytes: 4096, fewestParts: 3, ...options });
    for (const [start, finish, disks] of [['c3', 'c3', [8e6, 3e6, 2e6]], ['a1', 'd1', [4e6, 3e6]]] as const) {
      const problem = pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', start, finish });
      const forward = (await pegs.count(problem, { threads: 1 })).total;
      const unlimited = await count(problem, {});
      expect([unlimited.total, unlimited.rounds]).toEqual([forward, 0]);
      let rounds = 0;
      for (const maxDisk of disks) {
        // Also with parts' files summed (and joined) in several passes.
        for (const sumSlots of [0, 8192]) {
          const limited = await count(problem, { maxDisk, sumSlots });
          expect(limited.total).toBe(forward);
          expect(limited.rounds).toBeGreaterThan(rounds);
          empty(dir);
        }
        rounds = (await count(problem, { maxDisk })).rounds;
        empty(dir);
      }
      // Less than the levels themselves need: OUT_OF_DISK naming maxDisk, and the files gone.
      await expectCode(count(problem, { maxDisk: 1e6 }), 'OUT_OF_DISK', /^counting needs more disk than maxDisk \(1000000 bytes: the files in .* hold \d+, \d+ more to write\); it got \d+ of \d+ levels deep/);
      empty(dir);
    }
    // The public API: the French 13 jumps in 1 MiB of memory and 3 MB of disk.
    const french = pegs.toProblem({ board: 'french', start: FRENCH_START, finish: FRENCH_FINISH });
    const phases: string[] = [];
    expect((await pegs.count(french, { maxMemory: 1 << 20, maxDisk: 3e6, spillDir: dir, onProgress: (p) => p.phase && phases.push(p.phase) })).total).toBe(648648n);
    // Progress says so once the disk is short.
    expect(phases.at(-1)).toMatch(new RegExp(`^levels on disk in ${dir}/bitpuzzle-pegs-\\w+, \\d+ more passes over their parents for want of disk$`));
    empty(dir);
    await expectCode(pegs.count(french, { maxMemory: 1 << 20, maxDisk: 1e5, spillDir: dir }), 'OUT_OF_DISK', /more disk than maxDisk \(100000 bytes/);
    empty(dir);
  });

  it('removes its files after an error and an abort, and stops within the bound', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const dir = tempDir('pegs-spill-');
    const problem = pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', start: 'a1', finish: 'd1' });
    // Too little memory for even the window and a part: OUT_OF_MEMORY after the sides went to disk.
    await expectCode(countBothEnds(problem, 1 << 20, { spill: 'always', spillDir: dir, windowBytes: 4 << 20 }), 'OUT_OF_MEMORY', /levels deep .*; the levels were on disk in /);
    empty(dir);
    // Aborted once the levels are on disk; and aborted on a timer, watching the event loop.
    const controller = new AbortController();
    const english = { board: 'english', finish: 'd1' };
    await expectCode(pegs.count(english, { maxMemory: 16 << 20, spillDir: dir, signal: controller.signal, onProgress: (p) => p.phase && controller.abort() }), 'ABORTED');
    empty(dir);
    await expectAbortedPromptly((signal) => pegs.count(english, { maxMemory: 16 << 20, spillDir: dir, signal }), 600);
    empty(dir);
    // A disk with less free space than the count must leave: OUT_OF_DISK, naming the folder.
    const full = countBothEnds(problem, 64 << 20, { spill: 'always', spillDir: dir, reserveBytes: Number.MAX_SAFE_INTEGER });
    await expectCode(full, 'OUT_OF_DISK', new RegExp(`^counting needs more disk than ${dir}/bitpuzzle-pegs-\\w+ has free \\(\\d+ bytes free, \\d+ more to write\\); `));
    empty(dir);
  });

  it('a Ctrl-C, a SIGTERM or process.exit during a count on disk removes its levels', async () => {
    const dir = tempDir('pegs-spill-');
    /** A process counting English d4 -> d1 with its levels on disk in dir, stopped once they are. */
    const stopOnDisk = async (args: string[], stop: (child: ChildProcess) => void): Promise<{ code: number | null; stdout: string; stderr: string }> => {
      const child = spawn('node', args);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      for (let i = 0; i < 1200 && readdirSync(dir).length === 0 && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 25));
      expect(readdirSync(dir)).toHaveLength(1);
      stop(child);
      return { code: await exited, stdout, stderr };
    };
    const cli = ['bin/bitpuzzle', 'pegs', '--board', 'english', '--finish', 'd1', '--count', '--max-memory', '16M', '--spill-dir', dir, '--json'];
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const stopped = await stopOnDisk(cli, (child) => child.kill(signal));
      expect(stopped.code).toBe(3);
      expect(JSON.parse(stopped.stdout).error.code).toBe('ABORTED');
      expect(stopped.stderr).toContain(`stopping on ${signal}`);
      empty(dir);
    }
    // A script that exits in the middle of the count (no finally runs): the exit removes them.
    const script = `import('./dist/index.js').then(({ pegs }) => pegs.count({ board: 'english', finish: 'd1' }, { maxMemory: 16 << 20, spillDir: ${JSON.stringify(dir)}, onProgress: (p) => p.phase && setTimeout(() => process.exit(7), 50) }))`;
    expect((await stopOnDisk(['-e', script], () => {})).code).toBe(7);
    empty(dir);
  });

  it('a Ctrl-C during --min-moves, --min-moves --count or --all ends it with ABORTED', async () => {
    // French d3 -> d5 needs more than 19 moves: each of these searches runs for minutes.
    const french = ['bin/bitpuzzle', 'pegs', '--board', 'french', '--start', 'd3', '--finish', 'd5', '--min-moves', '--json'];
    for (const extra of [[], ['--count'], ['--all']]) {
      const child = spawn('node', [...french, ...extra]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await new Promise((r) => setTimeout(r, 1500));
      const sent = Date.now();
      child.kill('SIGINT');
      expect(await exited).toBe(3);
      expect(Date.now() - sent).toBeLessThan(2000);
      expect(JSON.parse(stdout).error.code).toBe('ABORTED');
      expect(stderr).toContain('stopping on SIGINT: ending the search');
    }
  });

  it('checks spill and spillDir: a folder that cannot hold the levels is BAD_INPUT at once', async () => {
    const dir = tempDir('pegs-spill-');
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    await expectCode(pegs.count({ board: 'english', finish: 'd1' }, { spillDir: join(dir, 'nowhere') }), 'BAD_INPUT', /spillDir ".*nowhere" cannot hold the count's levels/);
    await expectCode(pegs.count({ board: 'english', finish: 'd1' }, { spillDir: file }), 'BAD_INPUT', /spillDir ".*a-file" cannot hold the count's levels: not a folder/);
    await expectCode(pegs.count({ board: 'triangle5' }, { spill: 'yes' as unknown as boolean }), 'BAD_INPUT', /spill must be true or false/);
    await expectCode(pegs.count({ board: 'triangle5' }, { spillDir: '' }), 'BAD_INPUT', /spillDir must be a folder's path/);
    for (const spillAbove of ['1G', 1000, 1.5e6 + 0.5, -1, Infinity]) {
      await expectCode(pegs.count({ board: 'triangle5' }, { spillAbove: spillAbove as number }), 'BAD_INPUT', /spillAbove must be a whole number of bytes from 65536 up, got /);
    }
    for (const maxDisk of ['1G', 0, 1.5, -1, Infinity]) {
      await expectCode(pegs.count({ board: 'triangle5' }, { maxDisk: maxDisk as number }), 'BAD_INPUT', /maxDisk must be a whole number of bytes from 1 up, got /);
    }
    await expectCode(pegs.reachable({ board: 'triangle5' }, { spill: true } as object), 'BAD_INPUT', /spill/);
    // Options that would do nothing are refused, not ignored.
    await expectCode(pegs.count({ board: 'english', finish: 'd1' }, { spill: false, maxDisk: 1e9 }), 'BAD_INPUT', /^maxDisk cannot go with spill: false/);
    await expectCode(pegs.count({ board: 'english' }, { threads: 2, spillDir: dir, spillAbove: 1 << 20 }), 'BAD_INPUT', /^spillDir, spillAbove cannot go with threads: 2: only the Wasm count on the calling thread/);
    await expectCode(pegs.count({ board: 'english' }, { engine: 'js', spill: true }), 'BAD_INPUT', /^spill cannot go with engine: 'js'/);
    expect((await pegs.count({ board: 'triangle5', finish: 'any' }, { threads: 2, spill: false })).total).toBe(29760n);
  });

  it('takes --spill-dir and --no-spill on the command line with --count only', async () => {
    const dir = tempDir('pegs-spill-');
    const run = promisify(execFile);
    const cli = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
      run('node', ['bin/bitpuzzle', 'pegs', ...args]).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    writeFileSync(join(dir, 'start.txt'), FRENCH_START);
    writeFileSync(join(dir, 'finish.txt'), FRENCH_FINISH);
    const spills = join(dir, 'levels');
    mkdirSync(spills);
    const french = ['--board', 'french', '--start', join(dir, 'start.txt'), '--finish', join(dir, 'finish.txt'), '--count', '--max-memory', '1M', '--json'];
    const counted = await cli([...french, '--spill-dir', spills]);
    expect([counted.code, JSON.parse(counted.stdout).total]).toEqual([0, 648648]);
    empty(spills);
    const refused = await cli([...french, '--no-spill']);
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.stdout).error.code).toBe('OUT_OF_MEMORY');
    expect((await cli(['--board', 'triangle5', '--no-spill'])).stderr).toMatch(/--no-spill does not work without --count/);
    expect((await cli(['--board', 'triangle5', '--count', '--threads', '2', '--spill-dir', dir])).code).toBe(2);
    // --spill-above: on disk within it, though --max-memory (default 1G) would hold the levels.
    const roomy = french.filter((arg) => arg !== '--max-memory' && arg !== '1M');
    const above = await cli([...roomy, '--spill-above', '1M', '--spill-dir', spills]);
    const aboveJson = JSON.parse(above.stdout);
    expect([above.code, aboveJson.total, aboveJson.memory <= 1 << 20]).toEqual([0, 648648, true]);
    expect((await cli([...roomy, '--spill-above', 'lots'])).stderr).toMatch(/--spill-above must be a size such as 4G/);
    expect((await cli([...roomy, '--spill-above', '1M', '--no-spill'])).stderr).toMatch(/--spill-above does not work with --no-spill/);
    // --max-disk: in rounds within it, or OUT_OF_DISK (exit 3) naming it.
    const disk = await cli([...french, '--max-disk', '3000000', '--spill-dir', spills]);
    expect([disk.code, JSON.parse(disk.stdout).total]).toEqual([0, 648648]);
    const tooLittle = await cli([...french, '--max-disk', '100K', '--spill-dir', spills]);
    expect([tooLittle.code, JSON.parse(tooLittle.stdout).error.code]).toEqual([3, 'OUT_OF_DISK']);
    expect(JSON.parse(tooLittle.stdout).error.message).toMatch(/more disk than maxDisk \(102400 bytes/);
    empty(spills);
    expect((await cli([...french, '--max-disk', 'lots'])).stderr).toMatch(/--max-disk must be a/);
    expect((await cli([...french, '--max-disk', '1G', '--no-spill'])).stderr).toMatch(/--max-disk does not work with --no-spill/);
    const nowhere = await cli([...french, '--spill-dir', join(dir, 'nowhere')]);
    expect([nowhere.code, JSON.parse(nowhere.stdout).error.code]).toEqual([2, 'BAD_INPUT']);
  });
});

/** Fewest-move problems on triangles small enough for the brute force. */
const SMALL_TRIANGLES = [
  { board: 'triangle5', finish: 'any' },
  { board: 'triangle5', finish: 'a1' },
  { board: 'triangle5', start: 'c3', finish: 'any' },
  { board: 'triangle6', finish: 'any' },
];

describe('fewest moves', () => {
  it('matches the brute force on triangle 5 and 6', async () => {
    for (const input of SMALL_TRIANGLES) {
      const problem = pegs.toProblem(input);
      const best = (await pegs.minMoves(problem))!;
      expect(best.length).toBe(bruteMinMoves(problem.board.jumps, Number(problem.start), problem.finishes.map(Number)));
      expect(best.moves.length).toBe(best.length);
      expectSolves(problem, best.jumps);
    }
  });

  it('matches the brute force on random small boards', async () => {
    let checked = 0;
    for (const problem of randomProblems(11, 40, 2)) {
      const expected = bruteMinMoves(problem.board.jumps, Number(problem.start), problem.finishes.map(Number));
      if (expected < 0) {
        // A search that finds none resolves to null.
        expect(await pegs.minMoves(problem)).toBeNull();
        continue;
      }
      const best = (await pegs.minMoves(problem))!;
      expect(best.length).toBe(expected);
      expectSolves(problem, best.jumps);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });
});

describe('fewest moves by iterative deepening (boards past 33 holes)', () => {
  /** The deepening engine's answer on any board, in moves, checked by replay; null when none. */
  // With the perimeter (whose search from the finish side alone settles small problems
  // itself) and without it (the deepening alone), which must agree.
  async function deepening(problem: ReturnType<typeof pegs.toProblem>): Promise<number | null> {
    const answers: Array<number | null> = [];
    for (const perimeter of [true, false]) {
      const result = await fewestByDeepening(problem, 64 << 20, { perimeter });
      if (result.jumps !== null) expectSolves(problem, result.jumps);
      answers.push(result.jumps === null ? null : pegs.groupMoves(result.jumps).length);
    }
    expect(answers[1]).toBe(answers[0]);
    return answers[0];
  }

  it('matches the brute force on triangles and random small boards', async () => {
    for (const input of SMALL_TRIANGLES) {
      const problem = pegs.toProblem(input);
      expect(await deepening(problem)).toBe(bruteMinMoves(problem.board.jumps, Number(problem.start), problem.finishes.map(Number)));
    }
    let checked = 0;
    for (const problem of randomProblems(11, 40, 2)) {
      const expected = bruteMinMoves(problem.board.jumps, Number(problem.start), problem.finishes.map(Number));
      expect(await deepening(problem)).toBe(expected < 0 ? null : expected);
      if (expected >= 0) checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('starts at a bound proved elsewhere (fromBound, as the levels prove one) and finds the same fewest moves', async () => {
    for (const input of SMALL_TRIANGLES) {
      const problem = pegs.toProblem(input);
      const expected = bruteMinMoves(problem.board.jumps, Number(problem.start), problem.finishes.map(Number));
      const bounds: number[] = [];
      const result = await fewestByDeepening(problem, 64 << 20, { perimeter: false, fromBound: expected, onProgress: ({ done }: { done: number }) => bounds.push(done) });
      expectSolves(problem, result.jumps!);
      expect(pegs.groupMoves(result.jumps!).length).toBe(expected);
      expect(bounds[0]).toBe(expected); // no iteration below it
    }
  });

  it("replays the README's 21-move solutions of the French board from d3 to d5 (the levels prove 20 impossible)", () => {
    const moves = 'd1-d3 b2-d2 e2-c2 e4-e2 e1-e3 g4-e4-e2 f2-d2 c3-e3 a3-c3 d5-d3-b3 c1-c3 f6-f4 b5-d5-f5 c7-c5 e7-e5 c4-c2-e2-e4-e6-c6 g3-e3 a5-a3-c3 g5-e5 b6-d6 d7-d5-f5-f3-d3-b3-b5-d5'.split(' ');
    const jumps = moves.flatMap((move) => move.split('-').slice(1).map((to, i) => `${move.split('-')[i]}-${to}`));
    const problem = pegs.toProblem({ board: 'french', start: 'd3', finish: 'd5' });
    expectSolves(problem, jumps);
    expect(pegs.groupMoves(jumps)).toEqual(moves);
    // The one minMoves found by levels (method 'levels', the README's row beside it).
    const byLevels = 'b3-d3 c1-c3 d3-b3 a3-c3 d1-d3-b3 f2-d2 e4-e2 e1-e3 g4-e4-e2-c2 a5-a3-c3 d5-d3 f6-f4 b5-d5-f5 b2-d2-d4 g3-e3 c7-c5 e7-e5 c4-e4-e6-c6 g5-e5 b6-d6 d7-d5-f5-f3-d3-b3-b5-d5'.split(' ');
    const levelJumps = byLevels.flatMap((move) => move.split('-').slice(1).map((to, i) => `${move.split('-')[i]}-${to}`));
    expectSolves(problem, levelJumps);
    expect(pegs.groupMoves(levelJumps)).toEqual(byLevels);
  });

  // Bell, "Solving triangular peg solitaire" (JIS 11, 2008; OEIS A127500): the shortest
  // solution over every problem from one vacancy to one peg takes 5 moves on the 10-hole
  // triangle, 9 on the 15-hole and 9 on the 21-hole one.
  it("finds Bell's shortest single-vacancy solutions on the triangles of side 4, 5 and 6", async () => {
    for (const [side, published] of [[4, 5], [5, 9], [6, 9]]) {
      const board = pegs.builtinBoard(`triangle${side}`);
      let least = Infinity;
      for (const hole of board.holes) {
        let problem;
        try {
          problem = pegs.toProblem({ board: `triangle${side}`, start: hole.name, finish: 'any' });
        } catch {
          continue; // another position class: no single-peg finish
        }
        const moves = await deepening(problem);
        if (moves !== null) least = Math.min(least, moves);
      }
      expect(least).toBe(published);
    }
  });

  it('keeps its Merson regions disjoint, each jumped over only from or into itself', () => {
    for (const input of [{ board: 'english' }, { board: 'french', start: 'd3', finish: 'd5' }, { board: 'triangle8', finish: 'any' }]) {
      const problem = pegs.toProblem(input);
      const regions = mersonRegions(problem);
      expect(regions.length).toBeGreaterThan(2);
      let covered = 0n;
      for (const r of regions) {
        expect(r & covered).toBe(0n);
        covered |= r;
        const inside = (h: number): boolean => ((r >> BigInt(h)) & 1n) === 1n;
        for (const [f, o, t] of problem.board.jumps) if (inside(o)) expect(inside(f) || inside(t)).toBe(true);
      }
    }
  });

  it('answers minMoves on the French board within memory, in slices, and stops on abort', async () => {
    // Three pegs, c3 c4 d5: one move, c3-c5-e5 (the peg jumps on).
    const start = ['  ...  ', ' ..... ', '..o....', '..o....', '...o...', ' ..... ', '  ...  '].join('\n');
    const problem = pegs.toProblem({ board: 'french', start, finish: 'any' });
    const best = (await pegs.minMoves(problem))!;
    expect(best.moves).toEqual(['c3-c5-e5']);
    expectSolves(problem, best.jumps);
    await expectAbortedPromptly((signal) => pegs.minMoves({ board: 'french', start: 'd3', finish: 'd5' }, { signal }), 600);
    const french = pegs.toProblem({ board: 'french', start: 'd3', finish: 'd5' });
    await expectAbortedPromptly((signal) => fewestByDeepening(french, 1 << 30, { signal, perimeter: false }), 1500);
    // Progress names the stage: the perimeter's depth first (a small one here: 64 MiB gives it
    // 4 MiB), then the bound proved.
    const phases: string[] = [];
    const controller = new AbortController();
    const search = fewestByDeepening(french, 64 << 20, {
      signal: controller.signal,
      onProgress: ({ phase }: { phase?: string }) => {
        phases.push(phase ?? '');
        if (phase?.startsWith('no solution')) controller.abort();
      },
    });
    await expectCode(search, 'ABORTED');
    expect(phases[0]).toMatch(/^building the perimeter: \d+ levels from the finish$/);
    expect(phases.at(-1)).toMatch(/^no solution in fewer than \d+ moves$/);
    expect(new Set(phases.filter((p) => p.startsWith('building'))).size).toBeGreaterThan(1); // its depth grows
  });
});

describe('fewest moves by levels (minMoves lengthOnly)', () => {
  const BOARD_4X6 = 'oooooo\noooooo\noo.ooo\noooooo';

  it('matches the brute force on triangles and random small boards, in memory and on disk, in parts and passes', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const dir = tempDir('pegs-fewest-');
    // In memory (12- and 16-byte pairs), and on disk from the first level in 3 parts or more,
    // with the parts' files summed and joined in several passes too.
    const ways: Array<Record<string, unknown>> = [
      { spill: false },
      { spill: false, narrowBits: 0 },
      { spill: 'always', spillDir: dir, windowBytes: 4096, fewestParts: 3 },
      { spill: 'always', spillDir: dir, windowBytes: 4096, fewestParts: 3, sumSlots: 256 },
    ];
    const check = async (problem: pegs.PegsProblem): Promise<boolean> => {
      const expected = bruteMinMoves(problem.board.jumps, Number(problem.start), problem.finishes.map(Number));
      const found = await pegs.minMoves(problem, { lengthOnly: true });
      expect(found === null ? -1 : found.length).toBe(expected);
      if (found) expect([found.jumps, found.moves]).toEqual([null, null]);
      if (problem.start.toString(2).split('1').length < problem.finishes[0].toString(2).split('1').length + 2) return expected >= 0;
      for (const way of ways) {
        // Summing in tables of 256 slots takes the 21-hole triangle some 50 s of passes; the
        // smaller triangles and the random boards go through many passes in seconds.
        if (way.sumSlots && problem.board.name === 'triangle6') continue;
        const levels = await countBothEnds(problem, 64 << 20, { fewest: true, ...way });
        expect(levels.total).toBe(BigInt(expected));
        empty(dir);
      }
      return expected >= 0;
    };
    for (const input of SMALL_TRIANGLES) expect(await check(pegs.toProblem(input))).toBe(true);
    let checked = 0;
    for (const problem of randomProblems(11, 40, 2)) if (await check(problem)) checked++;
    expect(checked).toBeGreaterThan(5);
  });

  it('builds its levels in rounds when maxDisk is short, with the fewest moves of the search by moves', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const dir = tempDir('pegs-fewest-');
    for (const [start, finish, maxDisk] of [['c3', 'c3', 4e6], ['a1', 'd1', 3e6]] as const) {
      const problem = pegs.toProblem({ board: BOARD_4X6, start, finish });
      const expected = (await pegs.minMoves(problem))!.length;
      for (const sumSlots of [0, 8192]) {
        const levels = await countBothEnds(problem, 64 << 20, { fewest: true, spill: 'always', spillDir: dir, windowBytes: 4096, fewestParts: 3, maxDisk, sumSlots });
        expect(levels.total).toBe(BigInt(expected));
        expect(levels.rounds).toBeGreaterThan(0);
        empty(dir);
      }
    }
    // The public API: the French 13 jumps on disk in 1 MiB of memory, as the deepening finds them.
    const french = { board: 'french', start: FRENCH_START, finish: FRENCH_FINISH };
    const expected = (await pegs.minMoves(french))!.length;
    const phases: string[] = [];
    const found = await pegs.minMoves(french, { lengthOnly: true, maxMemory: 1 << 20, spillDir: dir, onProgress: (p) => p.phase && phases.push(p.phase) });
    expect(found?.length).toBe(expected);
    expect(phases.at(-1)).toMatch(new RegExp(`^levels on disk in ${dir}/bitpuzzle-pegs-\\w+$`));
    empty(dir);
    await expectCode(pegs.minMoves(french, { lengthOnly: true, maxMemory: 1 << 20, maxDisk: 1e5, spillDir: dir }), 'OUT_OF_DISK', /^the fewest moves by levels needs more disk than maxDisk \(100000 bytes/);
    empty(dir);
  });

  it('answers null when no sequence reaches the finish, stops on abort, and rejects what it cannot do', async () => {
    const none = randomProblems(11, 40, 2).find((problem) => bruteMinMoves(problem.board.jumps, Number(problem.start), problem.finishes.map(Number)) < 0)!;
    expect(await pegs.minMoves(none, { lengthOnly: true })).toBeNull();
    await expectAbortedPromptly((signal) => pegs.minMoves({ board: 'french', start: 'd3', finish: 'd5' }, { lengthOnly: true, signal }), 600);
    await expectCode(pegs.minMoves({ board: 'triangle5' }, { lengthOnly: 'yes' as unknown as boolean }), 'BAD_INPUT', /^lengthOnly must be true or false/);
    await expectCode(pegs.minMoves({ board: 'triangle5' }, { maxDisk: 1e9 }), 'BAD_INPUT', /^maxDisk cannot go with minMoves by moves: only the fewest moves by levels/);
    await expectCode(pegs.minMoves({ board: 'triangle5' }, { lengthOnly: true, spill: false, spillDir: '/tmp' }), 'BAD_INPUT', /^spillDir cannot go with spill: false/);
    const wide = ['o'.repeat(20), 'o'.repeat(20), 'ooooooooo.oooooooooo'].join('\n');
    await expectCode(pegs.minMoves({ board: wide, finish: 'any' }, { lengthOnly: true }), 'BAD_INPUT', /^minMoves with lengthOnly takes boards of up to 56 holes; this one has 60/);
  });
});

describe('fewest moves by levels with a solution (minMoves method levels)', () => {
  it('finds a fewest-move solution through where the levels met, as the brute force, whether the move there goes on or not', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const through = { movesOn: 0, movesEnd: 0 };
    const check = async (problem: pegs.PegsProblem): Promise<boolean> => {
      const expected = bruteMinMoves(problem.board.jumps, Number(problem.start), problem.finishes.map(Number));
      const found = await pegs.minMoves(problem, { method: 'levels' });
      expect(found === null ? -1 : found.length).toBe(expected);
      if (!found) return false;
      expectSolves(problem, found.jumps);
      expect(pegs.groupMoves(found.jumps)).toEqual(found.moves);
      expect(found.moves).toHaveLength(expected);
      if (problem.start.toString(2).split('1').length >= problem.finishes[0].toString(2).split('1').length + 2) {
        const { meeting } = await countBothEnds(problem, 64 << 20, { fewest: true });
        expect(meeting!.forward + meeting!.backward - (meeting!.shared === 0n ? 0 : 1)).toBe(expected);
        through[meeting!.shared === 0n ? 'movesEnd' : 'movesOn']++;
      }
      return true;
    };
    for (const input of SMALL_TRIANGLES) expect(await check(pegs.toProblem(input))).toBe(true);
    let checked = 0;
    for (const problem of randomProblems(11, 40, 2)) if (await check(problem)) checked++;
    expect(checked).toBeGreaterThan(5);
    // Both kinds of meeting came up: the halves joined at a move's end, and in a move's middle.
    expect(through.movesOn).toBeGreaterThan(0);
    expect(through.movesEnd).toBeGreaterThan(0);
  });

  it('finds it with the levels on disk too (the French 13 jumps in 1 MiB), and stops on abort', async () => {
    const dir = tempDir('pegs-fewest-');
    const french = pegs.toProblem({ board: 'french', start: FRENCH_START, finish: FRENCH_FINISH });
    const expected = (await pegs.minMoves(french))!.length;
    const phases: string[] = [];
    const found = (await pegs.minMoves(french, { method: 'levels', maxMemory: 1 << 20, spillDir: dir, onProgress: (p) => p.phase && phases.push(p.phase) }))!;
    expect(found.length).toBe(expected);
    expectSolves(french, found.jumps);
    expect(phases.some((p) => p.startsWith(`levels on disk in ${dir}/bitpuzzle-pegs-`))).toBe(true);
    expect(phases.some((p) => /^\d+ moves at fewest; a solution through the middle: its (first|second) half, \d+ moves$/.test(p))).toBe(true);
    empty(dir);
    await expectAbortedPromptly((signal) => pegs.minMoves({ board: 'french', start: 'd3', finish: 'd5' }, { method: 'levels', signal }), 600);
  });

  it("the deepening's ends for the halves: the last jump's landing, and a first chain for free", async () => {
    // The fewest moves over (position, the hole the last jump landed in): `first` the landing
    // before the start (-1: none), and a finish counts only when its landing is in `landings`.
    const bruteEnds = (jumps: Jump[], start: number, finishes: number[], first: number, landings: number): number => {
      const goal = new Set(finishes);
      const target = finishes[0].toString(2).replace(/0/g, '').length;
      const memo = new Map<number, number>();
      const cost = (p: number, last: number): number => {
        if (p.toString(2).replace(/0/g, '').length === target) return goal.has(p) && has(landings, last) ? 0 : Infinity;
        const key = p * 64 + last + 1;
        let known = memo.get(key);
        if (known === undefined) {
          known = Infinity;
          for (const j of legalJumps(jumps, p)) known = Math.min(known, (j[0] === last ? 0 : 1) + cost(apply(p, j), j[2]));
          memo.set(key, known);
        }
        return known;
      };
      return cost(start, first);
    };
    let landed = 0;
    let free = 0;
    // Boards of up to 16 holes: the oracle's states are (position, landing), seconds each on 21.
    const problems = [...SMALL_TRIANGLES.map((input) => pegs.toProblem(input)), ...randomProblems(12, 60, 2)].filter((problem) => problem.board.holes.length <= 16);
    for (const problem of problems) {
      const { board, start, finishes } = problem;
      const all = (1 << board.holes.length) - 1;
      for (let h = 0; h < board.holes.length; h += 3) {
        const fixing = { ...problem, symmetries: problem.symmetries.filter((perm) => perm[h] === h) };
        const expectedLanding = bruteEnds(board.jumps, Number(start), finishes.map(Number), -1, 1 << h);
        const ending = await fewestByDeepening(fixing, 64 << 20, { finishLandings: 1n << BigInt(h) });
        if (expectedLanding === Infinity) expect(ending.jumps).toBeNull();
        else {
          expectSolves(problem, ending.jumps!);
          expect(ending.jumps!.at(-1)!.split('-')[1]).toBe(board.holes[h].name);
          expect(pegs.groupMoves(ending.jumps!).length).toBe(expectedLanding);
          landed++;
        }
        if (!has(Number(start), h)) continue;
        const expectedFree = bruteEnds(board.jumps, Number(start), finishes.map(Number), h, all);
        const going = await fewestByDeepening(fixing, 64 << 20, { firstLanding: h });
        if (expectedFree === Infinity) expect(going.jumps).toBeNull();
        else {
          expectSolves(problem, going.jumps!);
          const goesOn = going.jumps![0].split('-')[0] === board.holes[h].name ? 1 : 0;
          expect(pegs.groupMoves(going.jumps!).length - goesOn).toBe(expectedFree);
          free += goesOn;
        }
      }
    }
    expect(landed).toBeGreaterThan(10);
    expect(free).toBeGreaterThan(3);
    // The engine refuses a free chain from an empty hole (the host never asks for one).
    const triangle = pegs.toProblem({ board: 'triangle5', finish: 'any' });
    await expectCode(fewestByDeepening(triangle, 64 << 20, { firstLanding: 0 }), 'ENGINE_FAILURE', /rejected its input/);
  });

  it('rejects a method it does not know, and options that do not go with the method', async () => {
    await expectCode(pegs.minMoves({ board: 'triangle5' }, { method: 'sideways' as unknown as 'levels' }), 'BAD_INPUT', /^method must be one of auto, moves, deepening, levels, got "sideways"/);
    await expectCode(pegs.minMoves({ board: 'triangle5' }, { method: 'deepening', lengthOnly: true }), 'BAD_INPUT', /^lengthOnly goes with method 'levels' .*not 'deepening'/);
    await expectCode(pegs.minMoves({ board: 'triangle5' }, { method: 'deepening', spillDir: '/tmp' }), 'BAD_INPUT', /^spillDir cannot go with minMoves by deepening/);
    const wide = ['o'.repeat(20), 'o'.repeat(20), 'ooooooooo.oooooooooo'].join('\n');
    await expectCode(pegs.minMoves({ board: wide, finish: 'any' }, { method: 'moves' }), 'BAD_INPUT', /^method 'moves' takes boards of up to 48 holes; this one has 60/);
    await expectCode(pegs.minMoves({ board: wide, finish: 'any' }, { method: 'levels' }), 'BAD_INPUT', /^minMoves with method 'levels' takes boards of up to 56 holes; this one has 60/);
    // Every method gives the same fewest moves where each can run.
    for (const method of ['auto', 'moves', 'deepening', 'levels'] as const) {
      const found = (await pegs.minMoves({ board: 'triangle6', start: 'c5', finish: 'any' }, { method }))!;
      expect(found.length).toBe(9);
      expectSolves(pegs.toProblem({ board: 'triangle6', start: 'c5', finish: 'any' }), found.jumps);
    }
  });
});

describe('command line', () => {
  const run = promisify(execFile);
  const cli = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    try {
      const { stdout, stderr } = await run('node', ['bin/bitpuzzle', 'pegs', ...args]);
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it('prints a solution, JSON with counts and fewest moves, and exit codes', async () => {
    const text = await cli([]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^31 jumps in \d+ moves:/);
    const best = JSON.parse((await cli(['--board', 'triangle5', '--finish', 'any', '--min-moves', '--json'])).stdout);
    expect(best.length).toBe(10);
    expect(best.moves).toHaveLength(10);
    expect(best.jumps.length).toBe(13);
    const json = JSON.parse((await cli(['--board', 'triangle5', '--finish', 'any', '--count', '--json'])).stdout);
    expect(json.total).toBe(29760);
    expect(json.levels[14]).toBe(1);
    const threaded = JSON.parse((await cli(['--board', 'triangle5', '--finish', 'any', '--count', '--threads', '2', '--json'])).stdout);
    expect(threaded.total).toBe(29760);
    expect(threaded.levels).toEqual(json.levels);
    expect(threaded.stats.threads).toBe(2);
    expect((await cli(['--all'])).code).toBe(2);
    const optimal = JSON.parse((await cli(['--board', 'triangle5', '--finish', 'any', '--min-moves', '--count', '--json'])).stdout);
    expect([optimal.length, optimal.total, optimal.distinct]).toEqual([10, 1900, 950]);
    const listed = JSON.parse((await cli(['--board', 'triangle5', '--min-moves', '--limit', '2', '--max-memory', '256M', '--json'])).stdout);
    expect(listed.solutions).toHaveLength(2);
    expect(listed.solutions[0].moves[0]).toEqual(['a3', 'a1']);
    const starved = await cli(['--board', 'english', '--count', '--threads', '1', '--max-memory', '8M', '--no-spill']);
    expect(starved.code).toBe(3);
    expect(starved.stderr).toMatch(/OUT_OF_MEMORY: counting needs more than maxMemory \(8388608 bytes\); it got \d+ of 16 levels deep/);
    expect((await cli(['--count', '--threads', 'x'])).code).toBe(2);
    const bad = await cli(['--board', 'nowhere']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/BAD_INPUT/);
    const impossible = await cli(['--board', 'french']);
    expect(impossible.code).toBe(1);
    expect(impossible.stderr).toMatch(/UNSOLVABLE/);
  });

  it('proves the fewest moves alone with --min-moves --length-only, levels on disk as --count', async () => {
    const dir = tempDir('pegs-fewest-');
    const text = await cli(['--board', 'triangle5', '--finish', 'any', '--min-moves', '--length-only']);
    expect([text.code, text.stdout]).toEqual([0, '10 moves at fewest (proved by levels of pegs from both ends; no solution listed)\n']);
    const onDisk = await cli(['--board', 'french', '--start', FRENCH_START, '--finish', FRENCH_FINISH, '--min-moves', '--length-only', '--max-memory', '1M', '--spill-dir', dir, '--max-disk', '3M', '--json']);
    const json = JSON.parse(onDisk.stdout);
    expect([json.board, json.jumps, json.moves, json.length]).toEqual(['french', null, null, (await pegs.minMoves({ board: 'french', start: FRENCH_START, finish: FRENCH_FINISH }))!.length]);
    empty(dir);
    expect((await cli(['--board', 'triangle5', '--length-only'])).stderr).toMatch(/--length-only does not work without --min-moves/);
    expect((await cli(['--board', 'triangle5', '--min-moves', '--length-only', '--limit', '2'])).stderr).toMatch(/--length-only does not work with --count, --all or --limit/);
    expect((await cli(['--board', 'triangle5', '--min-moves', '--spill-dir', dir])).stderr).toMatch(/--spill-dir does not work without --count, or --min-moves with --method levels or --length-only/);
  });

  it('finds a fewest-move solution by levels with --min-moves --method levels, levels on disk as --count', async () => {
    const dir = tempDir('pegs-fewest-');
    const args = ['--board', 'french', '--start', FRENCH_START, '--finish', FRENCH_FINISH, '--min-moves'];
    const json = JSON.parse((await cli([...args, '--method', 'levels', '--max-memory', '1M', '--spill-dir', dir, '--json'])).stdout);
    expect(json.length).toBe((await pegs.minMoves({ board: 'french', start: FRENCH_START, finish: FRENCH_FINISH }))!.length);
    expectSolves(pegs.toProblem({ board: 'french', start: FRENCH_START, finish: FRENCH_FINISH }), json.jumps);
    empty(dir);
    const text = await cli(['--board', 'triangle5', '--finish', 'any', '--min-moves', '--method', 'deepening']);
    expect([text.code, text.stdout.split('\n')[0]]).toEqual([0, '13 jumps in 10 moves (the fewest possible):']);
    expect((await cli(['--board', 'triangle5', '--method', 'levels'])).stderr).toMatch(/--method does not work without --min-moves/);
    expect((await cli(['--board', 'triangle5', '--min-moves', '--count', '--method', 'levels'])).stderr).toMatch(/--method does not work with --count, --all or --limit/);
    expect((await cli(['--board', 'triangle5', '--min-moves', '--method', 'sideways'])).code).toBe(2);
    expect((await cli(['--board', 'triangle5', '--min-moves', '--method', 'deepening', '--spill-dir', dir])).stderr).toMatch(/--spill-dir does not work without --count, or --min-moves with --method levels/);
  });
});

/**
 * The fewest moves and the number of jump sequences that take that many, by plain memoised
 * recursion over (position, the hole the last jump landed on): a jump by the peg that just
 * landed continues the move, any other starts a new one.
 */
function bruteOptimal(jumps: Jump[], start: number, finishes: number[]): { length: number; total: bigint } {
  const goal = new Set(finishes);
  const memo = new Map<string, [number, bigint]>();
  const best = (p: number, last: number): [number, bigint] => {
    if (goal.has(p)) return [0, 1n];
    const key = `${p},${last}`;
    const known = memo.get(key);
    if (known) return known;
    let fewest = Infinity;
    let ways = 0n;
    for (const j of legalJumps(jumps, p)) {
      const [moves, count] = best(apply(p, j), j[2]);
      if (count === 0n) continue;
      const cost = moves + (j[0] === last ? 0 : 1);
      if (cost < fewest) [fewest, ways] = [cost, count];
      else if (cost === fewest) ways += count;
    }
    const result: [number, bigint] = [fewest, ways];
    memo.set(key, result);
    return result;
  };
  const [length, total] = best(start, -1);
  return { length: total === 0n ? -1 : length, total };
}

describe('every fewest-move solution', () => {
  const cross = '  ooo  \n  ooo  \nooooooo\n  ooo  \n  ooo  ';
  const small: pegs.PegsInput[] = [
    { board: 'triangle5', finish: 'any' },
    { board: 'triangle5', finish: 'a1' },
    { board: 'triangle5', start: 'c3', finish: 'any' },
    // A small cross: 19 holes, arms three wide and two long.
    { board: cross, start: 'c3', finish: 'any' },
    { board: cross, start: 'b3', finish: 'any' },
  ];

  it('counts them like the brute force on triangles and small crosses, and up to symmetry', async () => {
    for (const input of small) {
      const problem = pegs.toProblem(input);
      const expected = bruteOptimal(problem.board.jumps, Number(problem.start), problem.finishes.map(Number));
      const counted = await pegs.countOptimal(problem);
      expect({ length: counted.length ?? -1, total: counted.total }).toEqual(expected);
      if (counted.distinct !== null) expect(counted.distinct * BigInt(counted.symmetries)).toBe(counted.total);
      const twin = await pegs.countOptimal(problem, { engine: 'js' });
      expect([twin.length, twin.total, twin.distinct]).toEqual([counted.length, counted.total, counted.distinct]);
    }
    // Triangle 5 keeps a mirror symmetry: its 1,900 solutions come in mirror pairs.
    expect((await pegs.countOptimal({ board: 'triangle5', finish: 'any' })).distinct).toBe(950n);
  });

  it('counts them like the brute force on random small boards', async () => {
    let checked = 0;
    for (const problem of randomProblems(23, 40, 2)) {
      const expected = bruteOptimal(problem.board.jumps, Number(problem.start), problem.finishes.map(Number));
      const counted = await pegs.countOptimal(problem);
      expect(counted.length ?? -1).toBe(expected.length);
      expect(counted.total).toBe(expected.total);
      const twin = await pegs.countOptimal(problem, { engine: 'js' });
      expect([twin.length, twin.total]).toEqual([counted.length, counted.total]);
      if (expected.total > 0n) checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('lists every one, each replaying to a finish in the fewest moves, in a stable order', async () => {
    for (const input of small.slice(2)) {
      const problem = pegs.toProblem(input);
      const { length, total } = await pegs.countOptimal(problem);
      const seen = new Set<string>();
      const listing = pegs.optimalSolutions(problem);
      let step = await listing.next();
      for (; !step.done; step = await listing.next()) {
        const solution = step.value;
        expect(solution.length).toBe(length);
        expect(solution.moves).toHaveLength(length!);
        expect(solution.moves.map((move) => move.join('-'))).toEqual(pegs.groupMoves(solution.jumps));
        expectSolves(problem, solution.jumps);
        seen.add(solution.jumps.join(' '));
      }
      expect(BigInt(seen.size)).toBe(total);
      expect(step.value.nodes).toBeGreaterThan(0n);
      // The twin lists the same solutions in the same order.
      const twin: string[] = [];
      for await (const s of pegs.optimalSolutions(problem, { engine: 'js' })) twin.push(s.jumps.join(' '));
      expect(twin).toEqual([...seen]);
    }
    const first = async (engine: 'wasm' | 'js'): Promise<string[]> => {
      const out: string[] = [];
      for await (const s of pegs.optimalSolutions({ board: 'triangle6', finish: 'any' }, { limit: 25, engine })) out.push(s.jumps.join(' '));
      return out;
    };
    const once = await first('wasm');
    expect(once).toHaveLength(25);
    expect(await first('wasm')).toEqual(once);
    expect(await first('js')).toEqual(once);
  });

  it('answers 0 for an impossible problem, nothing to list, and rejects what it cannot do', async () => {
    const none = await pegs.countOptimal({ board: 'french' });
    expect([none.length, none.total]).toEqual([null, 0n]);
    expect(none.reason).toMatch(/position class/);
    const listed: unknown[] = [];
    for await (const s of pegs.optimalSolutions({ board: 'french' })) listed.push(s);
    expect(listed).toEqual([]);
    expect((await pegs.countOptimal({ board: 'french' }, { engine: 'js' })).total).toBe(0n);
    await expectCode(pegs.countOptimal({ board: 'triangle5', finish: 'any' }, { threads: 2 } as never), 'BAD_INPUT');
  });

  it('reports progress from the start, stops at maxMemory saying how far it got', async () => {
    const seen: number[] = [];
    await pegs.countOptimal({ board: 'triangle6', finish: 'any' }, { onProgress: (p) => seen.push(p.done / p.total) });
    expect(seen[0]).toBe(0);
    expect(seen[seen.length - 1]).toBe(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    await expectCode(pegs.countOptimal('english', { maxMemory: 4 << 20 }), 'OUT_OF_MEMORY', /it got \d+ of 31 levels deep/);
    const twin: number[] = [];
    await pegs.countOptimal({ board: 'triangle6', finish: 'any' }, { engine: 'js', onProgress: (p) => twin.push(p.done / p.total) });
    expect([twin[0], twin[twin.length - 1]]).toEqual([0, 1]);
    expect([...twin].sort((a, b) => a - b)).toEqual(twin);
    await expectCode(pegs.countOptimal('english', { engine: 'js', maxMemory: 4 << 20 }), 'OUT_OF_MEMORY', /it got \d+ of 31 levels deep/);
  });
});

describe('never blocking', () => {
  it('countOptimal, optimalSolutions, minMoves and count on the English board give the loop its turns and stop on abort', async () => {
    await expectAbortedPromptly((signal) => pegs.countOptimal('english', { signal }), 600);
    await expectAbortedPromptly(async (signal) => {
      for await (const s of pegs.optimalSolutions('english', { signal })) void s;
    }, 600);
    await expectAbortedPromptly((signal) => pegs.minMoves('english', { signal }), 600);
    await expectAbortedPromptly((signal) => pegs.count({ board: 'english', finish: 'd1' }, { threads: 1, signal }), 600);
    await expectAbortedPromptly((signal) => pegs.count({ board: 'english', start: 'c1', finish: 'any' }, { signal }), 600);
    await expectAbortedPromptly((signal) => pegs.countOptimal('english', { engine: 'js', signal }), 600);
  });
});

describe('sizes on the command line', () => {
  it('reads bytes and K, M, G, T sizes, and rejects anything else', () => {
    expect(sizeOption('--max-memory', undefined)).toBeUndefined();
    expect(sizeOption('--max-memory', '4G')).toBe(4 * 2 ** 30);
    expect(sizeOption('--max-memory', '512M')).toBe(512 * 2 ** 20);
    expect(sizeOption('--max-memory', '1.5G')).toBe(1.5 * 2 ** 30);
    expect(sizeOption('--max-memory', '1073741824')).toBe(2 ** 30);
    expect(sizeOption('--max-memory', '64k')).toBe(65536);
    expect(sizeOption('--max-memory', '2GiB')).toBe(2 * 2 ** 30);
    for (const bad of ['', 'G', '4 lots', '-1G', '0', '1e9', '4GG', '0.1']) {
      expect(() => sizeOption('--max-memory', bad)).toThrow(/--max-memory must be a size such as/);
    }
  });
});
