// Slow checks of the English central game (tens of seconds each on a shared machine): run by
// `npm run test:slow`.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pegs } from '../dist/index.js';
import { withoutSharedMemory } from '../test/helpers.js';

describe('English central game (published figures)', () => {
  it('counts 40,861,647,040,079,968 jump sequences', async () => {
    const result = await pegs.count({ board: 'english' });
    expect(result.total).toBe(40861647040079968n);
  });

  it('counts from d4 to d1 and to any hole alike on one thread and on 2 threads sharing one memory', async () => {
    for (const finish of ['d1', 'any']) {
      const one = await pegs.count({ board: 'english', finish }, { threads: 1 });
      const two = await pegs.count({ board: 'english', finish }, { threads: 2 });
      expect([two.total, two.stats.nodes, two.levels, two.stats.threads]).toEqual([one.total, one.stats.nodes, one.levels, 2]);
    }
  });

  it('proves the minimum of 18 moves, with a shortest solution that replays', async () => {
    const problem = pegs.toProblem({ board: 'english' });
    const best = (await pegs.minMoves(problem))!;
    expect(best.length).toBe(18);
    expect(best.moves.length).toBe(18);
    expect(best.jumps.length).toBe(31);
    const after = pegs.replay(problem.board, problem.start, best.jumps);
    expect(after[after.length - 1]).toBe(problem.finishes[0]);
  });

  it('proves the 18 moves by levels too (minMoves lengthOnly, and method levels with a solution that replays), and 17 from d4 to d1', async () => {
    expect((await pegs.minMoves({ board: 'english' }, { lengthOnly: true }))?.length).toBe(18);
    const problem = pegs.toProblem({ board: 'english' });
    const byLevels = (await pegs.minMoves(problem, { method: 'levels' }))!;
    expect([byLevels.length, byLevels.moves.length, byLevels.jumps.length]).toEqual([18, 18, 31]);
    expect(pegs.replay(problem.board, problem.start, byLevels.jumps).at(-1)).toBe(problem.finishes[0]);
    // The search by moves agrees (no published figure for this one).
    const edge = { board: 'english', start: 'd4', finish: 'd1' };
    expect((await pegs.minMoves(edge, { lengthOnly: true }))?.length).toBe((await pegs.minMoves(edge))!.length);
  }, 300_000);

  it('reaches 23,475,688 positions up to symmetry', async () => {
    const result = await pegs.reachable({ board: 'english' });
    expect(result.levels.reduce((a, b) => a + b, 0)).toBe(23475688);
    // Exact although positions near the end (dead ends) pass 2^64 paths each and saturate: no
    // finish does (bench/pegs-table.js sums the same total over the centre's finishes).
    expect(result.total).toBe(81723294080159936n);
  });
});

describe('English central game: every 18-move solution (no published count to compare with)', () => {
  it('counts them, and the listing finds exactly as many, each replaying in 18 moves', async () => {
    const problem = pegs.toProblem({ board: 'english' });
    const counted = await pegs.countOptimal(problem);
    expect(counted.length).toBe(18);
    expect(counted.total).toBeGreaterThan(0n);
    expect(counted.distinct! * 8n).toBe(counted.total);
    // The listing walks actual chains from the start, checked by replay, so it confirms the
    // count independently of the engine's sums.
    const seen = new Set<string>();
    for await (const solution of pegs.optimalSolutions(problem)) {
      expect(solution.moves).toHaveLength(18);
      const after = pegs.replay(problem.board, problem.start, solution.jumps);
      expect(after[after.length - 1]).toBe(problem.finishes[0]);
      seen.add(solution.jumps.join(' '));
    }
    expect(BigInt(seen.size)).toBe(counted.total);
  }, 600_000);
});

describe('English board: other finishes, counted from both ends in one engine', () => {
  // Two checks that do not use the engine's sums twice: the last jump into d4 comes from one of
  // four 2-peg positions (d2 d3 and its images), each of which ends in an edge hole (d1) by its
  // other jump, the only way to finish there, so d4 -> d4 is 4 times d4 -> d1; and d1 -> d4 is
  // d4 -> d1 played backwards on complements.
  it('counts d4 -> d1 as a quarter of the central game, and d1 -> d4 the same, each within the default memory', async () => {
    const edge = await pegs.count({ board: 'english', finish: 'd1' });
    expect(edge.total * 4n).toBe(40861647040079968n);
    expect(edge.memory).toBeLessThan(1024 * 2 ** 20);
    const back = await pegs.count({ board: 'english', start: 'd1', finish: 'd4' });
    expect(back.total).toBe(edge.total);
  });

  // One count past 2^64 (the total is summed in 128 bits). The full sums over each start's
  // finishes take tens of minutes and live in bench/pegs-table.js, which checks that d3's
  // finishes (a3 and g3, d3, d6, each counted alone) add up to this figure (README's table).
  it('counts d3 -> any past 2^64, as the sum over its finishes that bench/pegs-table.js checks', async () => {
    const result = await pegs.count({ board: 'english', start: 'd3', finish: 'any' });
    expect(result.total).toBeGreaterThan(1n << 64n);
    expect(result.total).toBe(18905608208036598640n);
  }, 900_000);

  // The same total forward (reachable: every sequence that ends with one peg), summed in 128
  // bits from finishes whose paths stay under 2^64: on one and two threads sharing one memory
  // (the shared module), and where memory cannot be shared (as on a page that is not
  // cross-origin isolated) on the calling thread (count.ts) and on sharded threads, each
  // saturating its paths (it answered this total modulo 2^64 before, 458,864,134,327,047,024).
  it('reaches the same total from d3 forward, past 2^64, on one and two threads, shared, alone and sharded', async () => {
    const maxMemory = 4 * 2 ** 30;
    const one = await pegs.reachable({ board: 'english', start: 'd3' }, { threads: 1, maxMemory });
    expect(one.total).toBe(18905608208036598640n);
    const two = await pegs.reachable({ board: 'english', start: 'd3' }, { threads: 2, maxMemory });
    expect([two.total, two.levels, two.stats.threads]).toEqual([one.total, one.levels, 2]);
    for (const threads of [1, 2]) {
      const apart = await withoutSharedMemory(() => pegs.reachable({ board: 'english', start: 'd3' }, { threads, maxMemory }));
      expect([apart.total, apart.levels, apart.stats.threads]).toEqual([one.total, one.levels, threads]);
    }
  }, 900_000);

  // From c3 even the parents of the finishes are reached by more than 2^64 - 1 sequences each:
  // going forward the sum meets saturated paths, and reachable takes its total from both ends
  // (count's for finish 'any'), its levels still those found forward. The figure is the sum
  // over c3's finishes, each counted alone (docs/benchmarks.md, bench/pegs-table.js).
  it('reaches from c3 a total that forward paths cannot tell, and takes it from both ends', async () => {
    const maxMemory = 4 * 2 ** 30;
    const both = await pegs.count({ board: 'english', start: 'c3', finish: 'any' }, { threads: 2, maxMemory });
    expect(both.total).toBe(239989150432384992850n);
    const reached = await pegs.reachable({ board: 'english', start: 'c3' }, { threads: 2, maxMemory });
    expect(reached.total).toBe(both.total);
    // Its levels are the forward ones: one start, and positions down to one peg.
    expect([reached.levels[32], reached.levels[1] > 0, reached.levels.reduce((a, b) => a + b, 0) > both.levels.reduce((a, b) => a + b, 0)]).toEqual([1, true, true]);
  }, 900_000);

  // d1 -> d7: the top-bottom mirror maps d7's complement onto the start, so the count keeps
  // one side (the forward one) and reads the other through the mirror. The figure is the
  // table's, counted from both ends before (README, bench/pegs-table.js).
  it('counts d1 -> d7 from one side, as from both ends, in less memory', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const problem = pegs.toProblem({ board: 'english', start: 'd1', finish: 'd7' });
    const one = await pegs.count(problem);
    expect(one.total).toBe(2288796981708872n);
    const both = await countBothEnds(problem, 1 << 30, { dual: false });
    expect(both.total).toBe(one.total);
    expect(one.memory).toBeLessThan(both.memory * 0.8);
  }, 300_000);

  // The same count in 64 MB (it needs 148 MB in memory): its levels go to disk in parts.
  it('counts d1 -> d7 with its levels on disk in 64 MB', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pegs-spill-'));
    try {
      const phases: string[] = [];
      const counted = await pegs.count({ board: 'english', start: 'd1', finish: 'd7' }, { maxMemory: 64 << 20, spillDir: dir, onProgress: (p) => p.phase && phases.push(p.phase) });
      expect(counted.total).toBe(2288796981708872n);
      expect(counted.memory).toBeLessThan(64 << 20);
      expect(phases[0]).toMatch(/^levels on disk in /);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 900_000);
});

describe('French board: counts', () => {
  // 25 pegs to the top-bottom mirror of their complement (13 jumps): the count from one side
  // (12-byte pairs holding 5 of a position's bits) against the twin's count forward.
  it('counts a 13-jump problem from one side like the twin forward', async () => {
    const start = ['  o..', ' ooo.o', 'oo.ooo.', 'oooo.oo', '..oo.oo', ' ...oo', '  ooo'].join('\n');
    const finish = ['  ...', ' ooo..', 'oo..o..', '....o..', '..o...o', ' ...o.', '  .oo'].join('\n');
    const problem = pegs.toProblem({ board: 'french', start, finish });
    const twin = await pegs.count(problem, { engine: 'js' });
    expect(twin.total).toBe(648648n);
    expect((await pegs.count(problem)).total).toBe(twin.total);
  }, 300_000);
});

describe('other boards: fewest moves', () => {
  // Bell, "Solving triangular peg solitaire" (JIS 11, 2008; OEIS A127500): the shortest
  // solution over every single-vacancy problem finishing with one peg takes 12 moves on the
  // 28-hole triangle (a minute; bench/pegs-fewest.js --least triangle7 prints each start's).
  it("finds Bell's 12 moves as the least over every start of triangle7, each solution replaying", async () => {
    const board = pegs.builtinBoard('triangle7');
    let least = Infinity;
    for (const [i, hole] of board.holes.entries()) {
      if (board.symmetries.some((perm) => perm[i] < i)) continue; // one start per class of symmetric ones
      let problem;
      try {
        problem = pegs.toProblem({ board: 'triangle7', start: hole.name, finish: 'any' });
      } catch {
        continue; // another position class: no single-peg finish
      }
      const best = await pegs.minMoves(problem);
      if (best === null) continue;
      const after = pegs.replay(problem.board, problem.start, best.jumps);
      expect(problem.finishes).toContain(after[after.length - 1]);
      least = Math.min(least, best.length);
    }
    expect(least).toBe(12);
  }, 900_000);

  // No published figure found: the deepening proves 18 moves impossible from d3 to d5 on the
  // French board (its iteration at bound 19 begins), in about half a minute within 1 GiB.
  it('proves that the French board from d3 to d5 needs more than 18 moves, within the default memory', async () => {
    const stop = new AbortController();
    let proved = 0;
    const search = pegs.minMoves({ board: 'french', start: 'd3', finish: 'd5' }, {
      signal: stop.signal,
      onProgress: ({ done }) => {
        proved = Math.max(proved, done);
        if (done >= 19) stop.abort();
      },
    });
    await expect(search).rejects.toMatchObject({ code: 'ABORTED' });
    expect(proved).toBe(19);
  }, 600_000);
});
