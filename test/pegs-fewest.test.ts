// Peg solitaire: the fewest moves (by moves, by iterative deepening, by levels, with a
// solution), and every fewest-move solution, counted and listed.
import { describe, expect, it } from 'vitest';
import { pegs } from '../dist/index.js';
import { fewestByDeepening, mersonRegions } from '../dist/pegs/fewest.js';
import { expectAbortedPromptly, tempDir } from './helpers.js';
import {
  type Jump, has, legalJumps, apply, bruteMinMoves, randomProblems, expectSolves, expectCode, FRENCH_START, FRENCH_FINISH, empty,
} from './pegs-helpers.js';

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
      const board = pegs.builtinBoard(`triangle${side}`)!;
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
