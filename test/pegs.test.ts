// Peg solitaire: boards and notation, solutions, counting (on one engine and on threads), the
// command line, never blocking, and sizes on the command line.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BitpuzzleError, pegs } from '../dist/index.js';
import { sizeOption } from '../dist/cli/io.js';
import { countTogether } from '../dist/pegs/together.js';
import type { PegsEngine } from '../dist/pegs/engine.js';
import { countMeeting, countOnThreads } from '../dist/pegs/shards.js';
import { taskKind } from '../dist/parallel/kinds.js';
import { expectAbortedPromptly, tempDir, withoutSharedMemory } from './helpers.js';
import {
  has, legalJumps, apply, bruteCount, randomProblems, expectSolves, expectCode, FRENCH_START, FRENCH_FINISH, empty,
} from './pegs-helpers.js';

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

/** countTogether's count, which must have fitted in its memory. */
async function fitted<T extends object>(counting: Promise<T | { held: number }>): Promise<T> {
  const counted = await counting;
  if ('held' in counted) throw new Error(`the shared memory did not hold the count (${counted.held} bytes)`);
  return counted;
}

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

  it('counts one sequence (no jump) from a start that is a finish, none from one on the same level that is not', async () => {
    for (const engine of ['wasm', 'js'] as const) {
      const totals = await Promise.all([
        pegs.count({ board: '.o..', finish: 'any' }, { engine }),
        pegs.count({ board: 'o...', finish: 'a1' }, { engine }),
        pegs.count({ board: 'o...', finish: 'd1' }, { engine }),
      ]);
      expect(totals.map((c) => c.total)).toEqual([1n, 1n, 0n]);
    }
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

describe('slices', () => {
  // A unit of budget costs unlike times in a count's phases (clearing fresh memory, expanding a
  // position), so the host keeps a budget for each phase and the engine ends a run call where
  // its phase changes: a call that starts in a chore (count.ts, moves.ts) or a phase other
  // than the expansions (meet.ts) expands nothing, however large its budget.
  const BIG = 1 << 20;
  const board = 'oooooo\noooooo\noo.ooo\noooooo';
  /** Runs an engine with BIG budgets to its next stop, checking that no call begun in a chore expands a position. */
  const runToStop = (engine: PegsEngine): { status: number; chores: number } => {
    let chores = 0;
    let status: number;
    do {
      const phase = engine.phase();
      const nodes = engine.nodes();
      status = engine.run(BIG);
      if (phase !== 0) {
        chores++;
        expect(engine.nodes()).toBe(nodes);
      }
    } while (status === 2);
    return { status, chores };
  };

  it('count.ts and moves.ts: a call that starts in a chore expands nothing', async () => {
    const { acquireEngine, releaseEngine } = await import('../dist/wasm/module.js');
    const { setMemoryLimit } = await import('../dist/wasm/protocol.js');
    const { wasmPegsEngine, MODE_COUNT, MODE_MOVES } = await import('../dist/pegs/engine.js');
    const { engineInput } = await import('../dist/pegs/problem.js');
    for (const [mode, finish] of [[MODE_COUNT, 'any'], [MODE_MOVES, 'c3']] as const) {
      const problem = pegs.toProblem({ board, finish });
      const exports = await acquireEngine();
      try {
        setMemoryLimit(exports, 256 << 20);
        const engine = wasmPegsEngine(exports);
        expect(engine.load(engineInput(problem))).toBe(0);
        expect(engine.start(mode, 10)).toBe(0);
        const { status, chores } = runToStop(engine);
        expect(status).toBe(0);
        expect(chores).toBeGreaterThan(5);
        if (mode === MODE_COUNT) expect(engine.total()).toBe((await pegs.count(problem, { engine: 'js' })).total);
      } finally {
        releaseEngine(exports);
      }
    }
  });

  it('solve.ts: the dead set grows in pieces, and the twin finds the same solution after the same nodes', async () => {
    // From c3 to any hole on the English board, the first solution comes after 1.4 million
    // positions, the dead set growing from 2^16 slots.
    const { acquireEngine, releaseEngine } = await import('../dist/wasm/module.js');
    const { setMemoryLimit } = await import('../dist/wasm/protocol.js');
    const { wasmPegsEngine, MODE_SOLVE } = await import('../dist/pegs/engine.js');
    const { ReferencePegsEngine } = await import('../dist/pegs/reference.js');
    const { engineInput } = await import('../dist/pegs/problem.js');
    const { jumpNames } = await import('../dist/pegs/format.js');
    const problem = pegs.toProblem({ board: 'english', start: 'c3', finish: 'any' });
    const exports = await acquireEngine();
    try {
      setMemoryLimit(exports, 256 << 20);
      const found = [];
      for (const engine of [wasmPegsEngine(exports), new ReferencePegsEngine(256 << 20)]) {
        expect(engine.load(engineInput(problem))).toBe(0);
        expect(engine.start(MODE_SOLVE, 20)).toBe(0);
        const { status, chores } = runToStop(engine);
        expect(status).toBe(1); // SOLUTION
        found.push({ chores: chores > 3, nodes: engine.nodes(), jumps: engine.jumps() });
      }
      expect(found[0].chores).toBe(true); // the twin's growth is in pieces too, but says no phase
      expect(found[1]).toEqual({ ...found[0], chores: false });
      expectSolves(problem, jumpNames(problem.board, found[0].jumps.map((j) => problem.board.jumps[j])));
    } finally {
      releaseEngine(exports);
    }
  });

  it('meet.ts: a call that starts outside the expansions expands nothing', async () => {
    const { acquireEngine, releaseEngine } = await import('../dist/wasm/module.js');
    const { setMemoryLimit } = await import('../dist/wasm/protocol.js');
    const { wasmPegsEngine } = await import('../dist/pegs/engine.js');
    const { engineInput, fullMask, pagodasFor } = await import('../dist/pegs/problem.js');
    const problem = pegs.toProblem({ board, finish: 'c3' });
    const backward = pagodasFor(problem.board, [fullMask(problem.board) & ~problem.start]);
    const exports = await acquireEngine();
    try {
      setMemoryLimit(exports, 256 << 20);
      expect(wasmPegsEngine(exports).load(engineInput({ ...problem, pagodas: [...problem.pagodas, ...backward] }))).toBe(0);
      exports.pegsMeetFewest(0);
      expect(exports.pegsMeetStart(problem.pagodas.length, 0, 64, 0, 4096, 1, 0)).toBe(0);
      const EXPAND = 1;
      const FINAL = 7;
      const others = new Set<number>();
      let status: number;
      do {
        const phase = exports.pegsMeetPhase();
        const nodes = exports.pegsMeetNodes();
        status = exports.pegsMeetRun(BIG);
        if (phase !== EXPAND && phase !== FINAL) {
          others.add(phase);
          expect(exports.pegsMeetNodes()).toBe(nodes);
        }
      } while (status === 2);
      expect(status).toBe(0);
      expect(others.size).toBeGreaterThanOrEqual(3);
      expect(BigInt.asUintN(64, exports.pegsMeetTotal())).toBe((await pegs.count(problem, { engine: 'js' })).total);
    } finally {
      releaseEngine(exports);
    }
  });
});

describe('counting on threads', () => {
  /** The same totals and levels on 1, 2 and 3 threads (and the brute force when it is given). */
  async function expectThreadsAgree(problem: pegs.PegsProblem, expected?: bigint, threads = [1, 2, 3]): Promise<void> {
    const [one, ...more] = await Promise.all(threads.map((t) => pegs.count(problem, { threads: t })));
    if (expected !== undefined) expect(one.total).toBe(expected);
    // With one finish that is not the start's complement, several threads meet in the middle
    // (forward and backward), so the levels searched differ from the one thread's.
    const holes = problem.board.holes.length;
    const full = (1n << BigInt(holes)) - 1n;
    const meets = problem.finishes.length === 1 && problem.finishes[0] !== full - problem.start;
    // A central game on threads (one table a level in a memory they share) stops a level above
    // the middle when the holes are odd, and sums the middle level's lookups without keeping it.
    const central = problem.finishes.length === 1 && problem.finishes[0] === full - problem.start && problem.start !== full;
    for (const other of more) {
      expect(other.total).toBe(one.total);
      if (central && holes % 2 === 1 && one.levels[holes >> 1] !== 0) {
        expect(other.levels).toEqual(one.levels.map((n, k) => (k === holes >> 1 ? 0 : n)));
      } else if (!meets) expect(other.levels).toEqual(one.levels);
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
    // Threads on a board of 30 holes or more count on the calling thread from both ends (the
    // sharded count was slower and ran out of memory first): the same count and nodes, one thread,
    // within a maxMemory that holds one thread's levels.
    const oneThread = await pegs.count(french, { threads: 1, maxMemory: 64 << 20 });
    const fourThreads = await pegs.count(french, { threads: 4, maxMemory: 64 << 20 });
    expect(fourThreads.total).toBe(648648n);
    expect([fourThreads.stats.nodes, fourThreads.stats.threads]).toEqual([oneThread.stats.nodes, 1]);
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

  it('counts central games on threads that share one table a level, growing it while they fill it', async () => {
    // Even and odd holes (24 and 21: the middle summed against itself, or the level above against it).
    for (const board of ['oooooo\noooooo\noo.ooo\noooooo', 'triangle6']) {
      const problem = pegs.toProblem({ board });
      const one = await pegs.count(problem, { threads: 1 });
      const roomy = await fitted(countTogether(problem, 2, 1 << 30, {}));
      // Tables far too small at first: every level grows as the threads fill it, to the same counts.
      const cramped = await fitted(countTogether(problem, 3, 1 << 30, { sizing: 1 / 64 }));
      expect(cramped.growths).toBeGreaterThanOrEqual(2);
      for (const counted of [roomy, cramped]) {
        expect(counted.total).toBe(one.total);
        const last = Math.ceil(problem.board.holes.length / 2);
        expect(counted.levels.slice(last)).toEqual(one.levels.slice(last));
      }
      expect(cramped.nodes).toBe(roomy.nodes);
    }
  });

  it('counts from both ends on threads that share one table a level: one finish, and any finish', async () => {
    const board = 'oooooo\noooooo\noo.ooo\noooooo';
    for (const finish of ['f3', 'any']) {
      const problem = pegs.toProblem({ board, finish });
      const one = await pegs.count(problem, { threads: 1 }); // forward, one table a level
      const roomy = await fitted(countTogether(problem, 2, 1 << 30, {}));
      const cramped = await fitted(countTogether(problem, 3, 1 << 30, { sizing: 1 / 64 }));
      expect(cramped.growths).toBeGreaterThanOrEqual(2);
      expect([roomy.total, cramped.total, cramped.nodes]).toEqual([one.total, one.total, roomy.nodes]);
      expect(one.total).toBeGreaterThan(0n);
      // The forward levels above the meeting, as one thread found them.
      expect(roomy.levels.slice(20)).toEqual(one.levels.slice(20));
    }
  });

  it('counts the English board on 2 threads in one memory, and on the calling thread in what is left when that memory is short', async () => {
    const shared = await pegs.count({ board: 'english' }, { threads: 2 });
    expect([shared.total, shared.stats.threads]).toEqual([40861647040079968n, 2]);
    // In 84 MiB the shared tables do not fit, and the memory they grew to stays with the
    // process: the calling thread counts in what that leaves, its levels on disk.
    const small = 84 << 20;
    const didNotFit = await countTogether(pegs.toProblem({ board: 'english' }), 2, small, {});
    expect('held' in didNotFit && didNotFit.held).toBeGreaterThan(small / 2);
    const held = 'held' in didNotFit ? didNotFit.held : 0;
    const short = await pegs.count({ board: 'english' }, { threads: 2, maxMemory: small });
    expect([short.total, short.stats.threads, short.stats.nodes, short.levels]).toEqual([shared.total, 1, shared.stats.nodes, shared.levels]);
    expect(short.memory).toBeLessThanOrEqual(small - held);
    // With spill: false it keeps its levels in memory, which is too little.
    await expectCode(pegs.count({ board: 'english' }, { threads: 2, maxMemory: small, spill: false }), 'OUT_OF_MEMORY', new RegExp(`beside the ${held} bytes the threads' shared memory holds`));
    // A part of it is refused by a queue: its tasks share this process's memory.
    expect(() => taskKind('pegs').check({})).toThrow(/does not go on a queue/);
  });

  it('stops a count on shared threads promptly when aborted', async () => {
    await expectAbortedPromptly((signal) => pegs.count({ board: 'english' }, { threads: 2, signal }), 600);
  });

  it('sends the pairs in batches when a table of a thread reaches its cap (a small maxMemory)', async () => {
    // The sharded count (where threads cannot share memory: a page that is not cross-origin isolated).
    const problem = pegs.toProblem({ board: 'triangle6', finish: 'any' });
    const small = await countOnThreads(problem, 2, 8 << 20, {});
    expect(small.total).toBe(43419942138n);
    expect(small.levels).toEqual((await pegs.count(problem, { threads: 1 })).levels);
    // Its meeting in the middle for one finish, like the brute force.
    for (const finish of ['a4', 'c5']) {
      const one = pegs.toProblem({ board: 'triangle5', finish });
      const expected = bruteCount(one.board.jumps, Number(one.start), one.finishes.map(Number));
      expect((await countMeeting(one, 3, 1 << 30, {})).total).toBe(expected);
    }
  });

  it('counts forward on threads that share one table a level, as one thread does: reachable, several finishes', async () => {
    // 24 holes: on one thread too, the shared module counts (one task on a worker thread). The
    // twin counts as the calling thread's engine does (the same nodes: expectCountsAgree).
    const problem = pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', finish: 'any' });
    const one = await pegs.count(problem, { engine: 'js' });
    const single = await pegs.count(problem, { threads: 1 });
    const two = await pegs.count(problem, { threads: 2 });
    const cramped = await fitted(countTogether(problem, 3, 1 << 30, { forward: true, sizing: 1 / 64 }));
    expect(cramped.growths).toBeGreaterThanOrEqual(2);
    for (const counted of [single, two, { ...cramped, stats: { nodes: cramped.nodes, threads: 3 } }]) {
      expect([counted.total, counted.levels, counted.stats.nodes]).toEqual([one.total, one.levels, one.stats.nodes]);
    }
    expect([single.stats.threads, two.stats.threads]).toEqual([1, 2]);
    // Where memory cannot be shared (a page that is not cross-origin isolated): the calling
    // thread's engine on one thread, sharded threads on two.
    for (const threads of [1, 2]) {
      const apart = await withoutSharedMemory(() => pegs.count(problem, { threads }));
      expect([apart.total, apart.levels, apart.stats.threads]).toEqual([one.total, one.levels, threads]);
    }
    const reachOne = await pegs.reachable({ board: 'triangle6' }, { threads: 1 });
    const reachTwo = await pegs.reachable({ board: 'triangle6' }, { threads: 2 });
    expect([reachTwo.total, reachTwo.levels, reachTwo.stats.threads]).toEqual([reachOne.total, reachOne.levels, 2]);
    // In 2.25 MiB the shared memory's start does not fit (its control block and chunks' counts,
    // a block of 512 KB a thread): the calling thread counts, in all of it.
    const short = await pegs.reachable({ board: 'triangle6' }, { threads: 2, maxMemory: 2304 << 10 });
    expect([short.total, short.levels, short.stats.threads]).toEqual([reachOne.total, reachOne.levels, 1]);
  });

  it('reports progress per level, stops at maxMemory and on abort, with threads', async () => {
    const seen: number[] = [];
    await pegs.count({ board: 'triangle6', finish: 'any' }, { threads: 2, onProgress: (p) => seen.push(p.done) });
    expect(seen[0]).toBe(0);
    expect(seen[seen.length - 1]).toBe(19);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    await expectCode(pegs.count({ board: 'english' }, { threads: 2, maxMemory: 4 << 20, spill: false }), 'OUT_OF_MEMORY', /needs more than maxMemory/);
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
